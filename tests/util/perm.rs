//! A plain model of a permutation puzzle's definition: sets of pieces with twists, moves as
//! twsearch writes them, move sequences, `Illegal` lines. It writes its own `.tws` text,
//! and searches its explicit states (a vector of pieces and twists per set, in a hash set)
//! by a queue-free level-by-level search, so the program's reader, ranking and engines are
//! checked against something that shares none of their code.

use std::collections::HashSet;

/// A set: its name, pieces and orientations.
pub struct PermSet {
    /// The name, e.g. `RING`.
    pub name: &'static str,
    /// Positions (and pieces).
    pub size: usize,
    /// Orientations a piece takes (1: none).
    pub orientations: u8,
}

/// A move as a definition writes it: per set, the position (from 1) whose piece comes to
/// each position, and the twist each piece gains, listed where the piece starts.
pub struct PermMove {
    /// Its name.
    pub name: &'static str,
    /// `from[set][i]`, from 1.
    pub from: Vec<Vec<u8>>,
    /// `twist[set][i]`: added to the piece that starts at `i`.
    pub twist: Vec<Vec<u8>>,
}

/// A definition, and what the plain search needs of it.
pub struct PermModel {
    /// The `Name` line.
    pub name: &'static str,
    /// The sets.
    pub sets: Vec<PermSet>,
    /// The moves.
    pub moves: Vec<PermMove>,
    /// `MoveSequence` lines: a name and the moves (by index), each turned some times.
    pub sequences: Vec<(&'static str, Vec<(usize, usize)>)>,
    /// `Illegal` lines: a set (by index), a position and pieces, from 1.
    pub illegal: Vec<(usize, usize, Vec<u8>)>,
}

/// A position: per set, the piece (from 1) and twist at each position.
pub type PermState = Vec<Vec<(u8, u8)>>;

/// A generator on explicit states: the state it makes from a state.
type Generator<'a> = Box<dyn Fn(&PermState) -> PermState + 'a>;

impl PermModel {
    /// The definition as a `.tws` file.
    pub fn text(&self) -> String {
        let numbers = |v: &[u8]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        let mut text = format!("Name {}\n", self.name);
        for s in &self.sets {
            text += &format!("Set {} {} {}\n", s.name, s.size, s.orientations);
        }
        text += "Solved\n";
        for s in &self.sets {
            let pieces: Vec<u8> = (1..=s.size as u8).collect();
            text += &format!("{}\n{}\n", s.name, numbers(&pieces));
        }
        text += "End\n";
        for m in &self.moves {
            text += &format!("Move {}\n", m.name);
            for (s, set) in self.sets.iter().enumerate() {
                text += &format!("{}\n{}\n{}\n", set.name, numbers(&m.from[s]), numbers(&m.twist[s]));
            }
            text += "End\n";
        }
        for (name, turns) in &self.sequences {
            let words: Vec<String> = turns
                .iter()
                .map(|&(m, times)| match times {
                    1 => self.moves[m].name.to_string(),
                    t => format!("{}{t}", self.moves[m].name),
                })
                .collect();
            text += &format!("MoveSequence {name} {}\n", words.join(" "));
        }
        for (s, position, pieces) in &self.illegal {
            text += &format!("Illegal {} {position} {}\n", self.sets[*s].name, numbers(pieces));
        }
        text
    }

    /// Every piece in place, untwisted.
    pub fn solved(&self) -> PermState {
        self.sets
            .iter()
            .map(|s| (1..=s.size as u8).map(|p| (p, 0)).collect())
            .collect()
    }

    /// Move `m` applied to `state`: position `i` receives the piece from `from[i]`, with that
    /// piece's twist added.
    pub fn apply(&self, m: &PermMove, state: &PermState) -> PermState {
        let mut out = state.clone();
        for (s, set) in self.sets.iter().enumerate() {
            for (arrived, &from) in out[s].iter_mut().zip(&m.from[s]) {
                let f = usize::from(from) - 1;
                let (piece, twist) = state[s][f];
                *arrived = (piece, (twist + m.twist[s][f]) % set.orientations);
            }
        }
        out
    }

    /// The generators, moves then sequences, each as the state it makes from a state.
    fn generators(&self) -> Vec<Generator<'_>> {
        let mut all: Vec<Generator<'_>> = Vec::new();
        for m in &self.moves {
            all.push(Box::new(move |s| self.apply(m, s)));
        }
        for (_, turns) in &self.sequences {
            all.push(Box::new(move |s| {
                let mut state = s.clone();
                for &(m, times) in turns {
                    for _ in 0..times {
                        state = self.apply(&self.moves[m], &state);
                    }
                }
                state
            }));
        }
        all
    }

    /// Whether no `Illegal` line forbids `state`.
    pub fn legal(&self, state: &PermState) -> bool {
        self.illegal
            .iter()
            .all(|(s, position, pieces)| !pieces.contains(&state[*s][position - 1].0))
    }

    /// States at each distance from `goal`: each generator's powers are found by applying
    /// it until the state comes back (all of them are moves in the face metric, the first
    /// and the last in the quarter one), and illegal states are never entered.
    pub fn levels(&self, goal: &PermState, face: bool) -> Vec<u64> {
        let generators = self.generators();
        let mut seen = HashSet::from([goal.clone()]);
        let (mut frontier, mut levels) = (vec![goal.clone()], vec![1]);
        loop {
            let mut next = Vec::new();
            for s in &frontier {
                for g in &generators {
                    let mut powers = vec![g(s)];
                    while powers.last() != Some(s) {
                        let p = g(powers.last().expect("a power"));
                        powers.push(p);
                    }
                    powers.pop();
                    let last = powers.len().saturating_sub(1);
                    for (k, p) in powers.into_iter().enumerate() {
                        if (face || k == 0 || k == last) && self.legal(&p) && seen.insert(p.clone()) {
                            next.push(p);
                        }
                    }
                }
            }
            if next.is_empty() {
                return levels;
            }
            levels.push(next.len() as u64);
            frontier = next;
        }
    }

    /// `state` as a position on the command line: sets in order, `/` between them, a set's
    /// twists after a comma.
    pub fn position(&self, state: &PermState) -> String {
        let sets: Vec<String> = self
            .sets
            .iter()
            .zip(state)
            .map(|(set, s)| {
                let pieces: Vec<String> = s.iter().map(|(p, _)| p.to_string()).collect();
                let twists: Vec<String> = s.iter().map(|(_, t)| t.to_string()).collect();
                match set.orientations {
                    1 => pieces.join(" "),
                    _ => format!("{}, {}", pieces.join(" "), twists.join(" ")),
                }
            })
            .collect();
        sets.join(" / ")
    }
}
