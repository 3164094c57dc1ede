//! The puzzle abstraction: a puzzle numbers its configurations densely as ranks
//! `0..states()`, names its goals, and lists the moves into and out of a rank.
//!
//! The engine only ever sees ranks, so one breadth-first search serves sliding tiles
//! (ranked permutations), coin boards (bit masks) and symmetric puzzles (orbit indices).

pub mod coin_lines;
pub mod coins;
pub mod flip_k;
pub mod gf2;
pub mod lights_out;
pub mod nine_tails;
pub mod perm;
pub mod rules;
pub mod sliding;

use crate::engine::bitset::WORD_BITS;
use thiserror::Error;

/// Why a written configuration was rejected by [`Puzzle::parse`].
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The text is not a configuration of this puzzle at all.
    #[error("{0}")]
    Malformed(String),
    /// A well-formed configuration that no sequence of moves brings to the goal.
    #[error("unsolvable: {0}")]
    Unsolvable(String),
}

/// `text` in backticks for an error message: at most its first 40 characters (then how
/// long it is), control characters shown as spaces, so the message stays one short line
/// whatever was typed.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let clean = |c: char| if c.is_control() { ' ' } else { c };
    let length = text.chars().count();
    if length <= MAX {
        format!("`{}`", text.chars().map(clean).collect::<String>())
    } else {
        let start: String = text.chars().take(MAX).map(clean).collect();
        format!("`{start}...` ({} characters)", crate::report::thousands(length as u64))
    }
}

/// One solvability class as the invariant predicts it, before any search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    /// Short label identifying the class, e.g. a GF(2) syndrome `01` or `even`.
    pub label: String,
    /// How many configurations the class holds.
    pub configurations: u64,
    /// Whether the invariant says the goal is reachable from this class.
    pub solvable: bool,
    /// One configuration of the class, in the puzzle's notation.
    pub example: String,
}

/// A puzzle whose configurations (or symmetry orbits of them) are numbered densely.
///
/// Distances are measured *to* the goal: the engine starts at the goals and follows
/// [`Puzzle::for_each_predecessor`], which is what makes directed puzzles come out right.
pub trait Puzzle: Sync {
    /// Stable id used in report paths, e.g. `eight`, `lights-out-4x3`.
    fn id(&self) -> String;
    /// One-line human name, e.g. `8-puzzle (3x3 sliding tiles)`.
    fn title(&self) -> String;
    /// A few sentences on the rules and the goal, for reports.
    fn rules(&self) -> String;
    /// Rows and columns of the board, for drawing configurations as grids.
    fn shape(&self) -> (usize, usize);
    /// Size of the rank space; the engine's bit sets have exactly this many bits.
    fn states(&self) -> u64;
    /// How many configurations rank `rank` stands for (1 unless ranks are orbits).
    fn multiplicity(&self, _rank: u64) -> u64 {
        1
    }
    /// All configurations of the puzzle, reachable or not, and how that number arises.
    fn configurations(&self) -> (u64, String);
    /// The goal ranks distances are measured to.
    fn goals(&self) -> Vec<u64>;
    /// Scratch space one worker keeps between calls: the engine hands ranks to a worker in
    /// ascending order, so a puzzle can reuse work shared by neighbouring ranks.
    type Memo: Default;
    /// Calls `f` with every rank one move *before* `rank`.
    ///
    /// A returned rank `>= states()` means the move left the class the ranking covers,
    /// i.e. the puzzle's invariant is wrong; the engine reports it as an error.
    fn for_each_predecessor(&self, memo: &mut Self::Memo, rank: u64, f: impl FnMut(u64));
    /// Predecessors `rank - 1` and `rank + 1` that the engine can mark 64 ranks at a time
    /// with word shifts, if the ranking puts some moves side by side (a sliding tile's
    /// horizontal moves).
    fn adjacent_predecessors(&self) -> Option<Adjacent> {
        None
    }
    /// Calls `f(rank, pred)` for each rank `first + 64 * i + b` with bit `b` of `words[i]`
    /// set, in ascending order, and each of its predecessors but those
    /// [`Puzzle::adjacent_predecessors`] describes: the engine's hot loop, a run of words of
    /// the frontier at a time, so that a puzzle can share work between neighbouring ranks
    /// and set up its loop once a run.
    fn for_each_far_predecessor_in_words(
        &self,
        memo: &mut Self::Memo,
        first: u64,
        words: &[u64],
        mut f: impl FnMut(u64, u64),
    ) {
        for (first, &word) in (first..).step_by(WORD_BITS as usize).zip(words) {
            let mut bits = word;
            while bits != 0 {
                let rank = first + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                self.for_each_predecessor(memo, rank, |pred| f(rank, pred));
            }
        }
    }
    /// Whether every rank stands for one configuration of the first class (the defaults of
    /// [`Puzzle::multiplicity`] and [`Puzzle::class_of`]): the engine then counts a level
    /// a word at a time.
    fn uniform(&self) -> bool {
        false
    }
    /// Calls `f` with every rank one move *after* `rank`.
    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64));
    /// Largest cost of one move. Distances are least total costs; with the default, every
    /// move costs 1 and the engine runs its plain breadth-first search.
    fn max_move_cost(&self) -> u32 {
        1
    }
    /// What a distance counts, for reports: `moves`, or the cost's name such as `flips`.
    fn metric(&self) -> String {
        "moves".into()
    }
    /// [`Puzzle::for_each_predecessor`] with each move's cost, `1..=max_move_cost()`.
    fn for_each_weighted_predecessor(&self, memo: &mut Self::Memo, rank: u64, mut f: impl FnMut(u64, u32)) {
        self.for_each_predecessor(memo, rank, |pred| f(pred, 1));
    }
    /// [`Puzzle::for_each_successor`] with each move's cost.
    fn for_each_weighted_successor(&self, rank: u64, mut f: impl FnMut(u64, u32)) {
        self.for_each_successor(rank, |next| f(next, 1));
    }
    /// Solvability classes predicted by the invariant, in a fixed order.
    fn classes(&self) -> Vec<ClassInfo>;
    /// Index into [`Puzzle::classes`] of the class holding `rank`.
    fn class_of(&self, _rank: u64) -> usize {
        0
    }
    /// One sentence on the invariant that separates the classes.
    fn invariant(&self) -> String;
    /// Rank in the puzzle's one-line notation, e.g. `8 1 3 4 0 2 7 6 5` or `HHTTH`.
    fn render(&self, rank: u64) -> String;
    /// Rank drawn as a grid of `shape()` rows, one line per row.
    fn draw(&self, rank: u64) -> String;
    /// Reads the one-line notation back into a rank.
    fn parse(&self, text: &str) -> Result<u64, ParseError>;
    /// Names the move that takes `from` to `to`, e.g. `tile 6` or `L2`.
    fn describe_move(&self, from: u64, to: u64) -> String;
}

/// Which ranks have `rank - 1` and `rank + 1` among their predecessors, as a pattern that
/// repeats every `below.len()` ranks (the two vectors have the same length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjacent {
    /// `below[rank % period]`: `rank - 1` is a predecessor of `rank`.
    pub below: Vec<bool>,
    /// `above[rank % period]`: `rank + 1` is a predecessor of `rank`.
    pub above: Vec<bool>,
}
