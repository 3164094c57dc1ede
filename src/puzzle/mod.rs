//! The puzzle abstraction: a puzzle numbers its configurations densely as ranks
//! `0..states()`, names its goals, and lists the moves into and out of a rank.
//!
//! The engine only ever sees ranks, so one breadth-first search serves sliding tiles
//! (ranked permutations), coin boards (bit masks) and symmetric puzzles (orbit indices).

pub mod coin_lines;
pub mod coins;
pub mod family;
pub mod flip_k;
pub mod gf2;
pub mod lights_out;
pub mod nine_tails;
pub mod perm;
pub mod presses;
pub mod rules;
pub mod sliding;
pub mod symmetry;

use crate::util::WORD_BITS;
pub use crate::util::quote;
use thiserror::Error;

/// Why a written configuration was rejected by [`Notation::parse`].
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The text is not a configuration of this puzzle at all.
    #[error("{0}")]
    Malformed(String),
    /// A well-formed configuration that no sequence of moves brings to the goal.
    #[error("unsolvable: {0}")]
    Unsolvable(String),
    /// A well-formed configuration that is no position of the puzzle: an invariant every
    /// move keeps rules it out (a twisted corner of a cube), or the definition forbids it.
    /// Where every configuration is a position (a sliding board's other parity, a coin
    /// board's other coset) that is [`ParseError::Unsolvable`], an answer; this is bad
    /// input, refused as such.
    #[error("{0}")]
    Refused(String),
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

/// The puzzle traits at once, for code that uses a puzzle all round (tests, examples):
/// `use analyze::puzzle::prelude::*`.
pub mod prelude {
    pub use super::{Invariant, Notation, Puzzle, SearchGraph};
}

/// A puzzle as its three callers see it: the engine walks its [`SearchGraph`], the
/// analysis checks the search against its [`Invariant`], and reports, the solver and the
/// command line read and write it through its [`Notation`]. Implemented for every type
/// that has all three.
pub trait Puzzle: SearchGraph + Invariant + Notation {}

impl<T: SearchGraph + Invariant + Notation> Puzzle for T {}

/// The graph the engine searches: configurations (or symmetry orbits of them) numbered
/// densely as ranks, and the moves between them.
///
/// Distances are measured *to* the goal: the engine starts at the goals and follows
/// [`SearchGraph::for_each_predecessor`], which is what makes directed puzzles come out
/// right. The methods with defaults are fast paths a puzzle may offer.
pub trait SearchGraph: Sync {
    /// Size of the rank space; the engine's bit sets have exactly this many bits.
    fn states(&self) -> u64;
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
    /// Calls `f` with every rank one move *after* `rank`.
    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64));
    /// Whether every move is undone by a move, so that a rank's predecessors are also its
    /// successors: the engine may then find a dense level's successor from the unseen
    /// ranks' side, each looking for one neighbour in the level ([`SearchGraph::any_predecessor`]).
    fn symmetric(&self) -> bool {
        false
    }
    /// Whether `test` holds for some predecessor of `rank`, asked in the order of
    /// [`SearchGraph::for_each_predecessor`] and stopping at the first that passes. The
    /// default generates them all and only skips the tests after a pass; a puzzle whose
    /// predecessors come one table look-up each can stop generating too.
    fn any_predecessor(&self, memo: &mut Self::Memo, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let mut found = false;
        self.for_each_predecessor(memo, rank, |pred| found = found || test(pred));
        found
    }
    /// How many configurations rank `rank` stands for (1 unless ranks are orbits).
    fn multiplicity(&self, _rank: u64) -> u64 {
        1
    }
    /// Whether ranks are counted up to a symmetry group ([`Invariant::symmetry`]): the
    /// engine then asks [`SearchGraph::classes_at`] of every rank it counts.
    fn counts_classes(&self) -> bool {
        false
    }
    /// How many classes of configurations up to the puzzle's symmetry group rank `rank`
    /// counts for. Each class is counted at one configuration (its representative: the
    /// least in the puzzle's own order), so a level's sum is its number of classes; a
    /// symmetry never changes a distance, so a class lies whole in one level. For a puzzle
    /// ranked by configurations it is 1 or 0; for ranks that stand for several, the classes
    /// they hold. Without symmetry every configuration is its own class.
    fn classes_at(&self, rank: u64) -> u64 {
        self.multiplicity(rank)
    }
    /// How many classes the engine tallies: [`Invariant::classes`] has this many.
    fn class_count(&self) -> usize {
        1
    }
    /// Index into [`Invariant::classes`] of the class holding `rank`.
    fn class_of(&self, _rank: u64) -> usize {
        0
    }
    /// Whether every rank stands for one configuration of the first class (the defaults of
    /// [`SearchGraph::multiplicity`] and [`SearchGraph::class_of`]): the engine then counts
    /// a level a word at a time.
    fn uniform(&self) -> bool {
        false
    }
    /// Predecessors `rank - 1` and `rank + 1` that the engine can mark 64 ranks at a time
    /// with word shifts, if the ranking puts some moves side by side (a sliding tile's
    /// horizontal moves).
    fn adjacent_predecessors(&self) -> Option<Adjacent> {
        None
    }
    /// How a search on disk may receive the predecessors of a move that takes every rank to
    /// another part (pancakes' flip of the whole stack): as bits of [`Bins`], if the puzzle
    /// has such a move.
    fn bins(&self) -> Option<Bins> {
        None
    }
    /// Spans of ranks that most moves stay within, coarsest first, each dividing the rank
    /// space and the one before (a sliding board's ranks sharing their first tile, then
    /// their first two): a search on disk cuts its parts as whole runs of one, so that
    /// fewer predecessors leave their part.
    fn locality(&self) -> Vec<u64> {
        Vec::new()
    }
    /// This puzzle passing the predecessors by the move of [`SearchGraph::bins`] as
    /// [`Bins::encode`]d values (past every rank) to its predecessor methods: for the search
    /// on disk alone.
    fn binned(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// The encoded bin and index of the image of `rank` by the move of [`SearchGraph::bins`]
    /// (of a binned puzzle): for a dense level found bottom-up on disk, whose other moves
    /// stay within a part.
    fn binned_image(&self, _memo: &mut Self::Memo, _rank: u64) -> Option<u64> {
        None
    }
    /// Calls `f` with the rank of each of `indices` in bin `bin` of [`SearchGraph::bins`]
    /// (fastest when they ascend: a dense bin's bits); returns how many have no rank.
    fn unbin(&self, _bin: u64, indices: impl Iterator<Item = u64>, _f: impl FnMut(u64)) -> u64 {
        indices.count() as u64
    }
    /// Calls `f(rank, pred)` for each rank `first + 64 * i + b` with bit `b` of `words[i]`
    /// set, in ascending order, and each of its predecessors but those
    /// [`SearchGraph::adjacent_predecessors`] describes: the engine's hot loop, a run of
    /// words of the frontier at a time, so that a puzzle can share work between
    /// neighbouring ranks and set up its loop once a run.
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
    /// Largest cost of one move. Distances are least total costs; with the default, every
    /// move costs 1 and the engine runs its plain breadth-first search.
    fn max_move_cost(&self) -> u32 {
        1
    }
    /// [`SearchGraph::for_each_predecessor`] with each move's cost, `1..=max_move_cost()`.
    fn for_each_weighted_predecessor(&self, memo: &mut Self::Memo, rank: u64, mut f: impl FnMut(u64, u32)) {
        self.for_each_predecessor(memo, rank, |pred| f(pred, 1));
    }
    /// [`SearchGraph::for_each_successor`] with each move's cost.
    fn for_each_weighted_successor(&self, rank: u64, mut f: impl FnMut(u64, u32)) {
        self.for_each_successor(rank, |next| f(next, 1));
    }
}

/// A configuration packed into an integer, its pieces side by side: the key of
/// [`PackedGraph`], `u64` or `u128` (the narrower halves the sparse search's memory).
pub trait Key: Copy + Ord + std::hash::Hash + Default + Send + Sync + std::fmt::Debug + 'static {
    /// Bits of the key.
    const BITS: u32;
    /// The key's bits as a `u128`.
    fn to_u128(self) -> u128;
    /// A key from bits that fit in [`Key::BITS`].
    fn from_u128(bits: u128) -> Self;
}

impl Key for u64 {
    const BITS: u32 = 64;
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    fn from_u128(bits: u128) -> Self {
        bits as u64
    }
}

impl Key for u128 {
    const BITS: u32 = 128;
    fn to_u128(self) -> u128 {
        self
    }
    fn from_u128(bits: u128) -> Self {
        bits
    }
}

/// The graph the sparse search walks: configurations packed into keys rather than ranked,
/// for puzzles whose rank space is far larger than what their moves reach, or cannot be
/// ranked at all; memory then follows the states reached, not the rank space.
pub trait PackedGraph: Sync {
    /// A packed configuration.
    type Key: Key;
    /// The goal configurations distances are measured to.
    fn goal_keys(&self) -> Vec<Self::Key>;
    /// How many predecessors every key has (one per move, repeats included).
    fn degree(&self) -> usize;
    /// Writes the [`PackedGraph::degree`] predecessors of `key` into `out`, of that length.
    /// A move the puzzle forbids from `key` (into a state it may not enter) is written as
    /// `key` itself: `key` lies in the level being expanded, so the search drops it.
    fn predecessors(&self, key: Self::Key, out: &mut [Self::Key]);
    /// Whether every move is undone by a move: a level's predecessors then lie in the
    /// level before, the level itself or the next, so the search keeps only two levels.
    fn symmetric(&self) -> bool;
    /// As [`SearchGraph::counts_classes`].
    fn counts_classes(&self) -> bool {
        false
    }
    /// As [`SearchGraph::classes_at`], for a key.
    fn classes_at(&self, key: Self::Key) -> u64 {
        let _ = key;
        1
    }
}

/// What the sparse search needs of a puzzle it reports on: the packed graph, and the key
/// of a configuration written, drawn and described.
pub trait PackedPuzzle: PackedGraph {
    /// The report id.
    fn id(&self) -> String;
    /// The ranked form of the puzzle, when it has one: the report is then the dense
    /// search's, byte for byte.
    fn ranked(&self) -> Option<&Self::Ranked>;
    /// The ranked puzzle's type.
    type Ranked: Puzzle;
    /// The rank of a key in [`PackedPuzzle::ranked`].
    fn rank(&self, key: Self::Key) -> u64;
    /// A description of the puzzle without its ranking: everything but the levels and the
    /// antipodes, for a puzzle that has no ranked form.
    fn unranked(&self) -> Unranked;
    /// A key in the one-line notation.
    fn render_key(&self, key: Self::Key) -> String;
    /// A key drawn as a grid.
    fn draw_key(&self, key: Self::Key) -> String;
}

/// The report's text for a puzzle the sparse search alone can take.
pub struct Unranked {
    /// The title, as [`Notation::title`].
    pub title: String,
    /// The rules, as [`Notation::rules`].
    pub rules: String,
    /// Why the classes are what they are, as [`Invariant::invariant`].
    pub invariant: String,
    /// Rows and columns of a drawing, as [`Notation::shape`].
    pub shape: (usize, usize),
    /// All configurations and how they arise, as [`Invariant::configurations`].
    pub configurations: (u128, String),
    /// What a distance counts, as [`Notation::metric`].
    pub metric: String,
}

/// The invariant that sorts every configuration, reachable or not, into classes before
/// any search; the analysis checks the search against it.
pub trait Invariant {
    /// All configurations of the puzzle, reachable or not, and how that number arises.
    fn configurations(&self) -> (u128, String);
    /// Solvability classes predicted by the invariant, in a fixed order.
    fn classes(&self) -> Vec<ClassInfo>;
    /// One sentence on the invariant that separates the classes.
    fn invariant(&self) -> String;
    /// Whether the search must reach every configuration of a solvable class (false where
    /// moves have preconditions, as in nine tails, so the invariant is only necessary).
    fn exact(&self) -> bool {
        true
    }
    /// The order of the group the moves generate, when it is the number of configurations
    /// the search must reach (a permutation puzzle whose pieces are all distinct): known
    /// before the search, and checked against it.
    fn group_order(&self) -> Option<u64> {
        None
    }
    /// Rank of the move matrix over GF(2), for coin puzzles.
    fn gf2_rank(&self) -> Option<u32> {
        None
    }
    /// The symmetry group positions are counted up to ([`SearchGraph::classes_at`]).
    fn symmetry(&self) -> Symmetry {
        Symmetry::trivial()
    }
    /// The same puzzle counting positions up to the symmetries `choice` asks for (a
    /// puzzle is built with the largest group that holds); one line naming what was found
    /// where the group asked for does not exist. A puzzle with no symmetry takes only the
    /// identity.
    fn with_symmetry(self, choice: SymmetryChoice) -> Result<Self, String>
    where
        Self: Sized,
    {
        match choice.asks_for_more() {
            false => Ok(self),
            true => Err(choice.missing("none but the identity")),
        }
    }
    /// The same puzzle as a solver's table wants it: counting no classes, which the table
    /// does not show. Where [`Invariant::with_symmetry`] ranked it by classes (a
    /// definition's sym-coordinates), it stays so, and the table is of classes, the group's
    /// order smaller: positions are then read and walked on [`Invariant::positions`].
    fn for_solving(self) -> Self
    where
        Self: Sized,
    {
        self
    }
    /// Where this puzzle's ranks are classes whose members a solution must tell apart (a
    /// definition searched by class): the same puzzle ranked by positions, on which the
    /// solver reads the user's position and walks it move by move, looking each position
    /// up in the table of classes at [`Invariant::class_rank`]; the moves printed are the
    /// user's own, not those of the class's representative. `None` where the ranks are
    /// what the solver walks (flip-k's tail counts make their walk concrete themselves,
    /// [`Notation::walk`]).
    fn positions(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// The rank of the class of `position`, a rank of [`Invariant::positions`].
    fn class_rank(&self, position: u64) -> u64 {
        position
    }
}

/// A group of symmetries as reports name it: its order and what it is made of. A symmetry
/// maps configurations to configurations at the same distance (moves to moves, the goal to
/// the goal), so the configurations fall into classes whose members are alike.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Symmetry {
    /// How many symmetries, the identity included.
    pub order: u64,
    /// What they are, e.g. `the square's 4 rotations and 4 reflections`.
    pub made_of: String,
}

impl Symmetry {
    /// The group of the identity alone: every configuration its own class.
    pub fn trivial() -> Self {
        Symmetry {
            order: 1,
            made_of: "the identity alone".into(),
        }
    }
}

/// Which symmetries `--symmetry` asks to count positions up to; the default takes the
/// largest group that holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SymmetryChoice {
    /// The geometric symmetries asked for (`None`: all that hold).
    pub group: Option<Geometric>,
    /// Whether a position and its inverse count as one (`+inverse`; `None`: if it holds).
    pub inverse: Option<bool>,
}

/// The symmetries of the puzzle's shape that `--symmetry` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Geometric {
    /// The identity alone.
    None,
    /// Those that keep orientation: rotations.
    Rotations,
    /// Rotations and reflections.
    All,
}

impl SymmetryChoice {
    /// No symmetry at all: every position its own class.
    pub const NONE: SymmetryChoice = SymmetryChoice {
        group: Some(Geometric::None),
        inverse: Some(false),
    };

    /// Whether more than the identity is asked for by name (the default asks for nothing:
    /// it takes what holds).
    pub fn asks_for_more(&self) -> bool {
        matches!(self.group, Some(Geometric::Rotations | Geometric::All)) || self.inverse == Some(true)
    }

    /// The refusal of a group that does not exist, naming what was `found`.
    pub fn missing(&self, found: &str) -> String {
        format!(
            "--symmetry {self}: this puzzle has no such symmetries (found: {found}); use --symmetry none, or leave it out for the largest group that holds"
        )
    }
}

impl std::fmt::Display for SymmetryChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let group = match self.group {
            None => "default",
            Some(Geometric::None) => "none",
            Some(Geometric::Rotations) => "rotations",
            Some(Geometric::All) => "all",
        };
        match self.inverse {
            Some(true) => write!(f, "{group}+inverse"),
            _ => write!(f, "{group}"),
        }
    }
}

impl std::str::FromStr for SymmetryChoice {
    type Err = String;
    /// `none`, `rotations` or `all`, optionally followed by `+inverse`.
    fn from_str(text: &str) -> Result<Self, String> {
        let (group, inverse) = match text.split_once('+') {
            Some((group, "inverse")) => (group, true),
            None => (text, false),
            Some(_) => ("", false),
        };
        let group = match group {
            "none" => Geometric::None,
            "rotations" => Geometric::Rotations,
            "all" => Geometric::All,
            _ => {
                return Err(format!(
                    "{} is not a symmetry group: use none, rotations or all, each optionally with +inverse (rotations+inverse)",
                    quote(text)
                ));
            }
        };
        Ok(SymmetryChoice {
            group: Some(group),
            inverse: Some(inverse),
        })
    }
}

/// How people read and write the puzzle: names, configurations as text and grids, moves.
pub trait Notation {
    /// Stable id used in report paths, e.g. `eight`, `lights-out-4x3`.
    fn id(&self) -> String;
    /// One-line human name, e.g. `8-puzzle (3x3 sliding tiles)`.
    fn title(&self) -> String;
    /// A few sentences on the rules and the goal, for reports.
    fn rules(&self) -> String;
    /// Rows and columns of the board, for drawing configurations as grids.
    fn shape(&self) -> (usize, usize);
    /// Whether the puzzle is a board of cells (tiles, coins), whose states are
    /// configurations and whose shape is worth reporting; a permutation puzzle's states are
    /// positions of its pieces, and its "shape" only lays out their drawing.
    fn on_board(&self) -> bool {
        true
    }
    /// What a distance counts, for reports: `moves`, or the cost's name such as `flips`.
    fn metric(&self) -> String {
        "moves".into()
    }
    /// Rank in the puzzle's one-line notation, e.g. `8 1 3 4 0 2 7 6 5` or `HHTTH`.
    fn render(&self, rank: u64) -> String;
    /// The `index`-th of the configurations rank `rank` stands for (`index` below its
    /// [`SearchGraph::multiplicity`]), in the one-line notation: `--sample` draws among
    /// configurations, not ranks. A rank that stands for one is that one.
    fn render_member(&self, rank: u64, index: u64) -> String {
        let _ = index;
        self.render(rank)
    }
    /// Rank drawn as a grid of `shape()` rows, one line per row.
    fn draw(&self, rank: u64) -> String;
    /// Reads the one-line notation back into a rank.
    fn parse(&self, text: &str) -> Result<u64, ParseError>;
    /// Names the move that takes `from` to `to`, e.g. `tile 6` or `L2`.
    fn describe_move(&self, from: u64, to: u64) -> String;
    /// The puzzle as a ranked sliding board, whose heuristic atlas the analysis measures.
    fn tile_board(&self) -> Option<&sliding::Sliding> {
        None
    }
    /// A solution walked on `path` (ranks, the start first), each configuration written
    /// and drawn and each move named; `start` is the position as the user wrote it. A
    /// puzzle whose ranks stand for several configurations makes the walk concrete.
    fn walk(&self, start: &str, path: &[u64]) -> Result<Walk, ParseError> {
        let _ = start;
        Ok(Walk {
            positions: path.iter().map(|&r| self.render(r)).collect(),
            drawings: path.iter().map(|&r| self.draw(r)).collect(),
            moves: path.windows(2).map(|w| self.describe_move(w[0], w[1])).collect(),
        })
    }
    /// A classic start whose distance the summary reports, if the puzzle has one.
    fn start(&self) -> Option<u64> {
        None
    }
    /// The same puzzle with `goal` (in its notation) as its goal (`--goal`).
    fn with_goal(self, goal: &str) -> Result<Self, ParseError>
    where
        Self: Sized,
    {
        let _ = goal;
        Err(ParseError::Malformed(
            "this puzzle measures distances to its own goal only".into(),
        ))
    }
}

/// A solution as people read it: every configuration from the start to the goal, and the
/// moves between them (one fewer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk {
    /// Each configuration in the one-line notation.
    pub positions: Vec<String>,
    /// Each configuration drawn as a grid.
    pub drawings: Vec<String>,
    /// Each move's name.
    pub moves: Vec<String>,
}

/// Predecessors a search on disk receives as bits rather than ranks ([`SearchGraph::bins`]).
///
/// The ranks fall in `groups` groups of `span` consecutive ranks, and the parts of a search
/// on disk are whole groups. One move takes each rank of group `b` to another group `t`;
/// its images from `b` in `t` form bin `t * groups + b`, which the puzzle numbers `0..len`.
/// So a part sends a bit for each image, dense when a level is wide, where a rank would
/// take 4 or 8 bytes, and no sort (pancakes of 14 send 3 x 10^10 a level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bins {
    /// Groups of ranks.
    pub groups: u64,
    /// Ranks of a group.
    pub span: u64,
    /// Indices of a bin.
    pub len: u64,
}

impl Bins {
    /// The bit that marks a value passed for a predecessor as a bin's index, not a rank.
    pub const FLAG: u64 = 1 << 63;
    /// Bits of the index in an encoded value.
    const INDEX_BITS: u32 = 40;

    /// Bins whose indices and numbers fit the encoding.
    pub fn new(groups: u64, span: u64, len: u64) -> Option<Self> {
        (len <= 1 << Self::INDEX_BITS && groups.checked_mul(groups)? < 1 << (63 - Self::INDEX_BITS)).then_some(Self {
            groups,
            span,
            len,
        })
    }

    /// The value passed for index `index` of bin `bin`.
    #[inline(always)]
    pub fn encode(bin: u64, index: u64) -> u64 {
        Self::FLAG | bin << Self::INDEX_BITS | index
    }

    /// The bin and index of an encoded value.
    #[inline]
    pub fn decode(value: u64) -> (u64, u64) {
        (
            (value & !Self::FLAG) >> Self::INDEX_BITS,
            value & ((1 << Self::INDEX_BITS) - 1),
        )
    }
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
