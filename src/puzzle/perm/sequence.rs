//! Move sequences as cubing.js and twsearch write them, in a definition's move names:
//! `R U2 R' U'`, powers `R2`, `R2'`, `R5`, groups with a power `(R U)3`, conjugates
//! `[A: B]` (A B A') and commutators `[A, B]` (A B A' B'), whitespace between moves.
//!
//! One parser serves a KPuzzle file's `derivedMoves`, `--solve` and `--goal` given as
//! moves, and scramble files' `ScrambleAlg` blocks. A sequence is evaluated into a
//! [`Transform`], the same kind of permutation with twists a move is.

use super::parse::{MoveDef, SetDef, State};
use crate::util::quote;
use std::collections::HashMap;
use std::fmt;

/// Deepest nesting of groups and brackets: far past any written sequence, and it keeps the
/// recursive parser and evaluation from exhausting the stack on hostile input.
pub const MAX_DEPTH: usize = 64;

/// Why a sequence was refused: one line naming the offending token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceError(pub String);

impl fmt::Display for SequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SequenceError {}

/// One element of a sequence, raised to a power (negative: inverted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// What is raised to the power.
    pub kind: Kind,
    /// `R2'` is -2; `R` is 1.
    pub power: i64,
}

/// What a [`Term`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A move, by its index in the names the sequence was read with.
    Move(usize),
    /// `( ... )`.
    Group(Vec<Term>),
    /// `[A: B]`: A, B, then A inverted.
    Conjugate(Vec<Term>, Vec<Term>),
    /// `[A, B]`: A, B, A inverted, B inverted.
    Commutator(Vec<Term>, Vec<Term>),
}

impl Term {
    /// Calls `f` with the index of every move the term names, at any depth.
    pub fn for_each_move(&self, f: &mut impl FnMut(usize)) {
        let parts: [&[Term]; 2] = match &self.kind {
            Kind::Move(m) => return f(*m),
            Kind::Group(a) => [a, &[]],
            Kind::Conjugate(a, b) | Kind::Commutator(a, b) => [a, b],
        };
        parts.iter().flat_map(|p| p.iter()).for_each(|t| t.for_each_move(f));
    }
}

/// A token: punctuation, or a word with whether it touches the token before it (`)3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Punct(char),
    Word(&'a str, bool),
}

impl Token<'_> {
    fn text(&self) -> String {
        match self {
            Token::Punct(c) => c.to_string(),
            Token::Word(w, _) => w.to_string(),
        }
    }
}

const PUNCTUATION: [char; 6] = ['(', ')', '[', ']', ',', ':'];

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    let mut glued = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() || PUNCTUATION.contains(&c) {
            if let Some(s) = start.take() {
                out.push(Token::Word(&text[s..i], glued));
            }
            glued = !c.is_whitespace();
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(Token::Word(&text[s..], glued));
    }
    out
}

/// Reads `text` as a sequence of the moves `names` (indices into it). A word that is a
/// name is that move (a definition may name a move `flip10` or `B2`); otherwise it is a
/// name followed by a power (`flip10` without such a move is `flip` 10 times).
pub fn parse(text: &str, names: &[&str]) -> Result<Vec<Term>, SequenceError> {
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut reader = Reader {
        tokens: tokens(text),
        at: 0,
        index: &index,
        names,
    };
    let seq = reader.sequence(0)?;
    match reader.tokens.get(reader.at) {
        None => Ok(seq),
        Some(t) => Err(SequenceError(format!(
            "{} without an opening bracket",
            quote(&t.text())
        ))),
    }
}

struct Reader<'a, 'n> {
    tokens: Vec<Token<'a>>,
    at: usize,
    index: &'n HashMap<&'n str, usize>,
    names: &'n [&'n str],
}

impl<'a> Reader<'a, '_> {
    /// Terms up to a closing `)`, `]`, `,` or `:` (left unread) or the end.
    fn sequence(&mut self, depth: usize) -> Result<Vec<Term>, SequenceError> {
        let mut terms = Vec::new();
        while let Some(&token) = self.tokens.get(self.at) {
            match token {
                Token::Punct(')' | ']' | ',' | ':') => break,
                Token::Punct(open) => {
                    if depth >= MAX_DEPTH {
                        return Err(SequenceError(format!(
                            "{} nests brackets more than {MAX_DEPTH} deep",
                            quote(&open.to_string())
                        )));
                    }
                    self.at += 1;
                    let kind = if open == '(' {
                        self.group(depth)?
                    } else {
                        self.bracket(depth)?
                    };
                    let power = self.closing_power()?;
                    terms.push(Term { kind, power });
                }
                Token::Word(word, _) => {
                    self.at += 1;
                    let (m, power) = self.atom(word)?;
                    terms.push(Term {
                        kind: Kind::Move(m),
                        power,
                    });
                }
            }
        }
        Ok(terms)
    }

    /// After `(`: the group to its `)`.
    fn group(&mut self, depth: usize) -> Result<Kind, SequenceError> {
        let inner = self.sequence(depth + 1)?;
        self.expect(')', "(")?;
        Ok(Kind::Group(inner))
    }

    /// After `[`: `A: B]` or `A, B]`.
    fn bracket(&mut self, depth: usize) -> Result<Kind, SequenceError> {
        let a = self.sequence(depth + 1)?;
        let separator = match self.tokens.get(self.at) {
            Some(Token::Punct(c @ (':' | ','))) => *c,
            other => {
                return Err(SequenceError(format!(
                    "`[` takes `[A: B]` (a conjugate) or `[A, B]` (a commutator), found {}",
                    other.map_or_else(|| "the end".into(), |t| quote(&t.text()))
                )));
            }
        };
        self.at += 1;
        let b = self.sequence(depth + 1)?;
        self.expect(']', "[")?;
        Ok(match separator {
            ':' => Kind::Conjugate(a, b),
            _ => Kind::Commutator(a, b),
        })
    }

    fn expect(&mut self, close: char, open: &str) -> Result<(), SequenceError> {
        match self.tokens.get(self.at) {
            Some(Token::Punct(c)) if *c == close => {
                self.at += 1;
                Ok(())
            }
            Some(t) => Err(SequenceError(format!(
                "{} where `{open}` needs its `{close}`",
                quote(&t.text())
            ))),
            None => Err(SequenceError(format!("`{open}` is never closed by `{close}`"))),
        }
    }

    /// The power written right after a closing bracket (`(R U)3`, `(R U)2'`), else 1.
    fn closing_power(&mut self) -> Result<i64, SequenceError> {
        match self.tokens.get(self.at) {
            Some(&Token::Word(word, true)) => {
                self.at += 1;
                power(word).ok_or_else(|| {
                    SequenceError(format!(
                        "{} after a bracket is not a power (`2`, `'`, `2'`)",
                        quote(word)
                    ))
                })
            }
            _ => Ok(1),
        }
    }

    /// A move with its power: the whole word if it is a name, else a name and a power.
    fn atom(&self, word: &str) -> Result<(usize, i64), SequenceError> {
        if let Some(&m) = self.index.get(word) {
            return Ok((m, 1));
        }
        let name_end = word
            .trim_end_matches('\'')
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .len();
        let (name, suffix) = word.split_at(name_end);
        if let (Some(&m), Some(p)) = (self.index.get(name), power(suffix)) {
            return Ok((m, p));
        }
        let more = if self.names.len() > 30 { " ..." } else { "" };
        Err(SequenceError(format!(
            "{} is not a move (the moves are {}{more}, each with an optional power: 2, ', 2')",
            quote(word),
            self.names[..self.names.len().min(30)].join(" ")
        )))
    }
}

/// `2`, `'`, `2'`, `13` as a power; `None` if it is none of those (or past 32 bits).
fn power(suffix: &str) -> Option<i64> {
    let (digits, inverse) = match suffix.strip_suffix('\'') {
        Some(d) => (d, true),
        None => (suffix, false),
    };
    let n = match digits {
        "" => 1,
        d if d.bytes().all(|b| b.is_ascii_digit()) => i64::from(d.parse::<u32>().ok()?),
        _ => return None,
    };
    Some(if inverse { -n } else { n })
}

/// A permutation with twists of every set, as a move is: `from[set][i]` is the position
/// whose piece comes to `i`, `twist[set][i]` what is added to its orientation there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transform {
    /// Per set, where each position's piece comes from.
    pub from: Vec<Vec<u8>>,
    /// Per set, the twist added to the piece arriving at each position.
    pub twist: Vec<Vec<u8>>,
}

impl Transform {
    /// Doing nothing.
    pub fn identity(sets: &[SetDef]) -> Self {
        Transform {
            from: sets.iter().map(|s| (0..s.size as u8).collect()).collect(),
            twist: sets.iter().map(|s| vec![0; s.size]).collect(),
        }
    }

    /// A move's transform.
    pub fn of(m: &MoveDef) -> Self {
        Transform {
            from: m.from.clone(),
            twist: m.twist.clone(),
        }
    }

    /// `self`, then `next`: position `i` receives what `next` brings there from
    /// `next.from[i]`, which `self` had brought from `self.from[next.from[i]]`.
    pub fn then(&self, next: &Self, sets: &[SetDef]) -> Self {
        let mut out = next.clone();
        for (s, set) in sets.iter().enumerate() {
            for i in 0..set.size {
                let f = usize::from(next.from[s][i]);
                out.from[s][i] = self.from[s][f];
                out.twist[s][i] = (self.twist[s][f] + next.twist[s][i]) % set.orientations;
            }
        }
        out
    }

    /// The transform that undoes `self`.
    pub fn inverse(&self, sets: &[SetDef]) -> Self {
        let mut out = self.clone();
        for (s, set) in sets.iter().enumerate() {
            for i in 0..set.size {
                let f = usize::from(self.from[s][i]);
                out.from[s][f] = i as u8;
                out.twist[s][f] = (set.orientations - self.twist[s][i]) % set.orientations;
            }
        }
        out
    }

    /// `self` done `n` times (negative: its inverse), by squaring.
    pub fn power(&self, n: i64, sets: &[SetDef]) -> Self {
        let mut base = if n < 0 { self.inverse(sets) } else { self.clone() };
        let mut n = n.unsigned_abs();
        let mut out = Transform::identity(sets);
        while n > 0 {
            if n & 1 == 1 {
                out = out.then(&base, sets);
            }
            base = base.then(&base, sets);
            n >>= 1;
        }
        out
    }

    /// The state `self` makes from `state`.
    pub fn apply(&self, state: &State, sets: &[SetDef]) -> State {
        let as_transform = Transform {
            from: state.pieces.clone(),
            twist: state.twists.clone(),
        };
        let moved = as_transform.then(self, sets);
        State {
            pieces: moved.from,
            twists: moved.twist,
        }
    }
}

/// The transform of a sequence whose moves are `moves` (by index, as parsed).
pub fn evaluate(seq: &[Term], moves: &[Transform], sets: &[SetDef]) -> Transform {
    seq.iter().fold(Transform::identity(sets), |acc, term| {
        let inner = match &term.kind {
            Kind::Move(m) => moves[*m].clone(),
            Kind::Group(a) => evaluate(a, moves, sets),
            Kind::Conjugate(a, b) => {
                let a = evaluate(a, moves, sets);
                a.then(&evaluate(b, moves, sets), sets).then(&a.inverse(sets), sets)
            }
            Kind::Commutator(a, b) => {
                let (a, b) = (evaluate(a, moves, sets), evaluate(b, moves, sets));
                a.then(&b, sets)
                    .then(&a.inverse(sets), sets)
                    .then(&b.inverse(sets), sets)
            }
        };
        acc.then(&inner.power(term.power, sets), sets)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = ["R", "U", "flip1", "flip10"];

    fn read(text: &str) -> Result<Vec<Term>, SequenceError> {
        parse(text, &NAMES)
    }

    fn mv(m: usize, power: i64) -> Term {
        Term {
            kind: Kind::Move(m),
            power,
        }
    }

    #[test]
    fn reads_moves_with_powers() {
        assert_eq!(
            read("R U2 R' U2' R13").expect("moves"),
            [mv(0, 1), mv(1, 2), mv(0, -1), mv(1, -2), mv(0, 13)]
        );
        assert_eq!(read("  ").expect("empty"), []);
        // A whole word that is a name is that move; otherwise a name and its power.
        assert_eq!(read("flip10").expect("a name"), [mv(3, 1)]);
        assert!(
            read("flip12").is_err(),
            "not flip1 twice: a power follows the whole name"
        );
    }

    #[test]
    fn reads_groups_conjugates_and_commutators() {
        let group = read("(R U)3 (R)2'").expect("groups");
        assert_eq!(group[0].kind, Kind::Group(vec![mv(0, 1), mv(1, 1)]));
        assert_eq!((group[0].power, group[1].power), (3, -2));
        assert_eq!(
            read("[R: U]").expect("conjugate")[0].kind,
            Kind::Conjugate(vec![mv(0, 1)], vec![mv(1, 1)])
        );
        assert_eq!(
            read("[R U,U']").expect("commutator")[0].kind,
            Kind::Commutator(vec![mv(0, 1), mv(1, 1)], vec![mv(1, -1)])
        );
        // A power after a space is a move, not the bracket's power.
        assert!(read("(R) 2").is_err());
    }

    #[test]
    fn errors_name_the_offending_token() {
        let message = |text: &str| read(text).expect_err(text).0;
        assert!(message("R Q2").contains("`Q2` is not a move"));
        assert!(message("R)").contains("`)` without an opening bracket"));
        assert!(message("(R U").contains("`(` is never closed"));
        assert!(message("[R U]").contains("found `]`"));
        assert!(message("(R]").contains("`]` where `(` needs its `)`"));
        assert!(message("(R)x").contains("`x` after a bracket is not a power"));
        assert!(message("R99999999999").contains("`R99999999999` is not a move"));
        assert!(message(&"(".repeat(100)).contains("more than 64 deep"));
    }

    /// Two sets: 3 pieces with 3 orientations, 2 without.
    fn sets() -> Vec<SetDef> {
        vec![
            SetDef {
                name: "A".into(),
                size: 3,
                orientations: 3,
            },
            SetDef {
                name: "B".into(),
                size: 2,
                orientations: 1,
            },
        ]
    }

    fn t(from: [[u8; 3]; 1], twist: [u8; 3], swap: bool) -> Transform {
        Transform {
            from: vec![from[0].to_vec(), if swap { vec![1, 0] } else { vec![0, 1] }],
            twist: vec![twist.to_vec(), vec![0, 0]],
        }
    }

    #[test]
    fn transforms_compose_as_applied_one_after_the_other() {
        let sets = sets();
        let a = t([[1, 2, 0]], [1, 0, 2], true);
        let b = t([[0, 2, 1]], [0, 1, 1], false);
        let start = State {
            pieces: vec![vec![5, 6, 7], vec![8, 9]],
            twists: vec![vec![0, 1, 2], vec![0, 0]],
        };
        // Applying a then b to a state is applying their composition.
        let stepwise = b.apply(&a.apply(&start, &sets), &sets);
        assert_eq!(a.then(&b, &sets).apply(&start, &sets), stepwise);
        // By hand: a brings 6 (twist 1+1), 7 (2+0), 5 (0+2); b then swaps the last two.
        assert_eq!(stepwise.pieces, [vec![6, 5, 7], vec![9, 8]]);
        assert_eq!(stepwise.twists, [vec![2, 0, 0], vec![0, 0]]);
        let id = Transform::identity(&sets);
        assert_eq!(a.then(&a.inverse(&sets), &sets), id);
        assert_eq!(a.power(3, &sets), a.then(&a, &sets).then(&a, &sets));
        assert_eq!(a.power(-2, &sets), a.inverse(&sets).then(&a.inverse(&sets), &sets));
        assert_eq!(a.power(0, &sets), id);
    }

    #[test]
    fn evaluates_conjugates_commutators_and_powers() {
        let sets = sets();
        let a = t([[1, 2, 0]], [1, 0, 2], true);
        let b = t([[0, 2, 1]], [0, 1, 1], false);
        let moves = [a.clone(), b.clone()];
        let names = ["a", "b"];
        let eval = |text: &str| evaluate(&parse(text, &names).expect(text), &moves, &sets);
        let (ai, bi) = (a.inverse(&sets), b.inverse(&sets));
        assert_eq!(eval("[a: b]"), a.then(&b, &sets).then(&ai, &sets));
        assert_eq!(eval("[a, b]"), a.then(&b, &sets).then(&ai, &sets).then(&bi, &sets));
        assert_eq!(eval("(a b)2'"), eval("b' a' b' a'"));
        assert_eq!(eval("[a, b]2"), eval("a b a' b' a b a' b'"));
        assert_eq!(eval("a4294967295"), a.power(4_294_967_295, &sets));
    }
}
