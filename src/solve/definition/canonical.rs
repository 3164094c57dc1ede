//! Canonical move sequences, as twsearch's canonical states: a small automaton over the
//! moves that lets a search try each product of moves once where reordering could not
//! change it.
//!
//! Moves are grouped by the defined move they are powers of (its *base*: `U`, `U2`, `U'`
//! are base `U`). Two powers of one base in a row are one move (or none) under the face
//! metric, so never follow each other. Two bases *commute* when every move of one
//! commutes with every move of the other (the opposite faces of a cube), found by composing
//! them both ways; a run of moves of mutually commuting bases is searched in one order
//! only, increasing base index. The automaton's state is the set of bases that the next
//! move could still be swapped before: the last move's base, and those before it that
//! commute with everything after them. A move of base `b` is allowed unless some base `c`
//! of that set commutes with `b` and `c >= b` (`c == b`: the two would merge).
//!
//! Under the quarter metric a half turn is two moves, so a move may follow itself (`U U`),
//! up to half its order times in a row (`U U U` is `U'`), never its inverse nor another
//! power of its base.

use crate::puzzle::perm::{Metric, Move};
use std::collections::HashMap;

/// Most automaton states built; a definition whose commuting moves would make more gets the
/// automaton that only keeps a base from following itself (still correct, less pruning).
const MAX_STATES: usize = 1 << 16;

/// Marks a move the automaton forbids.
pub const FORBIDDEN: u32 = u32::MAX;

/// The automaton: for each state and move, the next state or [`FORBIDDEN`]. State 0 is the
/// start (no move made).
#[derive(Debug, Clone)]
pub struct Canonical {
    moves: usize,
    next: Vec<u32>,
}

/// A state while building: the bases the next move could be swapped before (a bit set),
/// and under the quarter metric the last move and how many times in a row it was made.
type Key = (Vec<u64>, u32, u32);

impl Canonical {
    /// The automaton of `moves` (with their powers expanded) on positions whose twists are
    /// taken modulo `modulus`, under `metric`.
    pub fn new(moves: &[Move], modulus: &[u8], metric: Metric) -> Self {
        let bases = moves.iter().map(|m| m.base).max().map_or(0, |b| b + 1);
        let commute = commuting(moves, modulus, bases);
        let runs = runs(moves, modulus);
        Self::build(moves, metric, &runs, &commute).unwrap_or_else(|| {
            let alone: Vec<bool> = (0..bases * bases).map(|i| i / bases == i % bases).collect();
            Self::build(moves, metric, &runs, &alone).unwrap_or_default()
        })
    }

    /// The automaton under `commute` (`commute[a * bases + b]`), a quarter move made at most
    /// `runs[m]` times in a row, or `None` past [`MAX_STATES`] states.
    fn build(moves: &[Move], metric: Metric, runs: &[u32], commute: &[bool]) -> Option<Self> {
        let bases = moves.iter().map(|m| m.base).max().map_or(0, |b| b + 1);
        let words = bases.div_ceil(64).max(1);
        let start: Key = (vec![0; words], FORBIDDEN, 0);
        let mut index: HashMap<Key, u32> = HashMap::from([(start.clone(), 0)]);
        let mut queue = vec![start];
        let mut next = Vec::new();
        let mut i = 0;
        while let Some((set, last, run)) = queue.get(i).cloned() {
            i += 1;
            for (m, mv) in moves.iter().enumerate() {
                let b = mv.base;
                let has = |c: usize| set[c / 64] >> (c % 64) & 1 == 1;
                let again = metric == Metric::Quarter && last == m as u32 && run < runs[m];
                let blocked = (0..bases).any(|c| has(c) && commute[c * bases + b] && (c > b || (c == b && !again)));
                if blocked {
                    next.push(FORBIDDEN);
                    continue;
                }
                let mut after = vec![0u64; words];
                for c in (0..bases).filter(|&c| has(c) && commute[c * bases + b]) {
                    after[c / 64] |= 1 << (c % 64);
                }
                after[b / 64] |= 1 << (b % 64);
                let key = match metric {
                    Metric::Quarter => (after, m as u32, if again { run + 1 } else { 1 }),
                    Metric::Face => (after, FORBIDDEN, 0),
                };
                let len = index.len() as u32;
                let id = *index.entry(key.clone()).or_insert_with(|| {
                    queue.push(key);
                    len
                });
                if index.len() > MAX_STATES {
                    return None;
                }
                next.push(id);
            }
        }
        Some(Self {
            moves: moves.len(),
            next,
        })
    }

    /// The state after move `m` from `state`, or [`FORBIDDEN`].
    #[inline]
    pub fn next(&self, state: u32, m: usize) -> u32 {
        self.next[state as usize * self.moves + m]
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.next.len() / self.moves.max(1)
    }

    /// The number of canonical sequences of each length `0..=depth`: what twsearch's `-C`
    /// prints, and a check of the automaton.
    pub fn counts(&self, depth: usize) -> Vec<u64> {
        // Sequences per state at each length: a dynamic programme over the automaton.
        let mut per_state = vec![0u64; self.states()];
        per_state[0] = 1;
        let mut counts = vec![1];
        for _ in 0..depth {
            let mut after = vec![0u64; self.states()];
            for (state, &n) in per_state.iter().enumerate().filter(|&(_, &n)| n > 0) {
                for m in 0..self.moves {
                    let to = self.next(state as u32, m);
                    if to != FORBIDDEN {
                        after[to as usize] += n;
                    }
                }
            }
            counts.push(after.iter().sum());
            per_state = after;
        }
        counts
    }
}

impl Default for Canonical {
    /// No moves at all.
    fn default() -> Self {
        Self {
            moves: 0,
            next: Vec::new(),
        }
    }
}

/// `commute[a * bases + b]`: whether every move of base `a` commutes with every move of
/// base `b` (a base commutes with itself).
fn commuting(moves: &[Move], modulus: &[u8], bases: usize) -> Vec<bool> {
    let mut commute = vec![true; bases * bases];
    for x in moves {
        for y in moves.iter().filter(|y| y.base > x.base) {
            if !commutes(x, y, modulus) {
                commute[x.base * bases + y.base] = false;
                commute[y.base * bases + x.base] = false;
            }
        }
    }
    commute
}

/// How many times in a row each move may be made under the quarter metric: up to half its
/// order (`U U U` is `U'`), and where that half is the half turn (`U U` is `U' U'`), only
/// by the first of a move and its inverse.
fn runs(moves: &[Move], modulus: &[u8]) -> Vec<u32> {
    let identity =
        |m: &Move| m.from.iter().enumerate().all(|(i, &f)| usize::from(f) == i) && m.twist.iter().all(|&t| t == 0);
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let order = order(m, modulus);
            let inverse = moves
                .iter()
                .position(|o| o.base == m.base && identity(&compose(m, o, modulus)));
            let second = order % 2 == 0 && inverse.is_some_and(|j| j < i);
            (order / 2 - u32::from(second)).max(1)
        })
        .collect()
}

/// The order of move `m`: how many times in a row give the identity (at most 255, past
/// which it is taken as 255).
fn order(m: &Move, modulus: &[u8]) -> u32 {
    let mut power = m.clone();
    for k in 1..255 {
        let identity =
            power.from.iter().enumerate().all(|(i, &f)| usize::from(f) == i) && power.twist.iter().all(|&t| t == 0);
        if identity {
            return k;
        }
        power = compose(&power, m, modulus);
    }
    255
}

/// `a` then `b`.
fn compose(a: &Move, b: &Move, modulus: &[u8]) -> Move {
    let mut c = a.clone();
    for (i, &o) in modulus.iter().enumerate().take(a.from.len()) {
        let f = usize::from(b.from[i]);
        c.from[i] = a.from[f];
        c.twist[i] = (a.twist[f] + b.twist[i]) % o.max(1);
    }
    c
}

/// Whether `x` then `y` is `y` then `x`: the same source and twist at every position.
fn commutes(x: &Move, y: &Move, modulus: &[u8]) -> bool {
    let (a, b) = (compose(x, y, modulus), compose(y, x, modulus));
    (a.from, a.twist) == (b.from, b.twist)
}

#[cfg(test)]
mod tests {
    use super::Canonical;
    use crate::puzzle::perm::{Metric, PermPuzzle, parse_definition};
    use std::collections::HashSet;

    /// The 3x3x3 of `examples/` (six faces, 18 moves in the face metric).
    fn cube(metric: Metric) -> PermPuzzle {
        let text = include_str!("../../../examples/3x3x3.tws");
        let def = parse_definition(text).expect("the example reads");
        PermPuzzle::reader(def, "3x3x3", metric, 1).expect("the example builds")
    }

    fn automaton(puzzle: &PermPuzzle, metric: Metric) -> Canonical {
        let s = puzzle.structure();
        Canonical::new(&s.moves, &s.layout.modulus, metric)
    }

    /// The positions first reached at each distance up to `depth`, by a plain
    /// breadth-first search over explicit states.
    fn positions(puzzle: &PermPuzzle, depth: usize) -> Vec<u64> {
        let s = puzzle.structure();
        let start = (s.solved_pieces.clone(), s.solved_twists.clone());
        let mut seen = HashSet::from([start.clone()]);
        let mut level = vec![start];
        let mut counts = vec![1];
        for _ in 0..depth {
            let mut next = Vec::new();
            for (p, t) in &level {
                for m in &s.moves {
                    let (mut p2, mut t2) = (Vec::new(), Vec::new());
                    puzzle.apply(m, p, t, &mut p2, &mut t2);
                    if seen.insert((p2.clone(), t2.clone())) {
                        next.push((p2, t2));
                    }
                }
            }
            counts.push(next.len() as u64);
            level = next;
        }
        counts
    }

    /// The positions made by the canonical sequences of up to `depth` moves, by a plain
    /// depth-first walk of the automaton.
    fn made(puzzle: &PermPuzzle, canonical: &Canonical, depth: usize) -> HashSet<(Vec<u8>, Vec<u8>)> {
        let s = puzzle.structure();
        let mut made = HashSet::new();
        let mut stack = vec![(s.solved_pieces.clone(), s.solved_twists.clone(), 0u32, 0usize)];
        while let Some((p, t, state, d)) = stack.pop() {
            made.insert((p.clone(), t.clone()));
            for (m, mv) in s.moves.iter().enumerate() {
                let next = canonical.next(state, m);
                if d < depth && next != super::FORBIDDEN {
                    let (mut p2, mut t2) = (Vec::new(), Vec::new());
                    puzzle.apply(mv, &p, &t, &mut p2, &mut t2);
                    stack.push((p2, t2, next, d + 1));
                }
            }
        }
        made
    }

    /// The canonical sequences of the 3x3x3 (18 moves): each length's count is that of
    /// sequences with no face twice in a row and opposite faces in one order (cube20.org's
    /// figures; `twsearch -C6` on its `samples/main/3x3x3.tws` prints the same 18, 243,
    /// 3240, 43254, 577368, 7.70699e+06), through 3 moves they are the
    /// positions at that distance (OEIS A080601: 18, 243, 3240), beyond they make every
    /// position (43,239 at 4 moves, 574,908 at 5, 7,618,438 at 6, so the counts are at least
    /// those), and the positions they make within 4 moves are all those within 4 moves.
    #[test]
    fn canonical_sequences_of_the_3x3x3_make_every_position_once_through_3_moves() {
        let puzzle = cube(Metric::Face);
        let canonical = automaton(&puzzle, Metric::Face);
        assert_eq!(canonical.states(), 10, "the start, 6 faces, 3 pairs of opposite faces");
        let counts = canonical.counts(6);
        assert_eq!(counts, [1, 18, 243, 3240, 43254, 577368, 7706988]);
        let positions = positions(&puzzle, 4);
        assert_eq!(positions[..4], counts[..4]);
        for (c, p) in counts[4..].iter().zip([43_239u64, 574_908, 7_618_438]) {
            assert!(*c >= p, "{counts:?}");
        }
        assert_eq!(made(&puzzle, &canonical, 4).len() as u64, positions.iter().sum::<u64>());
    }

    /// In the quarter metric a move may follow itself once (a half turn is two quarter
    /// turns): the canonical sequences of up to 4 quarter turns are the positions at those
    /// distances (OEIS A080602: 1, 12, 114, 1068, 10011), and through 6 they are the
    /// sequences `twsearch -q -C6` counts (93840, 879624).
    #[test]
    fn quarter_turn_sequences_count_positions() {
        let puzzle = cube(Metric::Quarter);
        let canonical = automaton(&puzzle, Metric::Quarter);
        let counts = canonical.counts(6);
        assert_eq!(positions(&puzzle, 4), counts[..5]);
        assert_eq!(counts, [1, 12, 114, 1068, 10011, 93840, 879624]);
    }
}
