//! Shortest solutions of single positions (`--solve`).
//!
//! A [`Solver`] takes one [`Route`], each its own file:
//! - [`table::TableRoute`]: any puzzle whose whole rank space is enumerated: one
//!   breadth-first search from the goals gives a distance table (a byte a rank, cached on
//!   disk from 65,536 ranks up; above 2^26 ranks the distance modulo 3, [`mod3`], where
//!   every move can be undone), then a walk that always steps one move closer. No search
//!   per position.
//! - [`sliding::TableBoards`]: the same walk on sliding boards, positions read as boards
//!   (or data files); 3x4 and 2x6 by the distance modulo 3, handing over to IDA* where no
//!   cache folder can keep that table.
//! - [`search::SearchBoards`]: sliding boards too big to enumerate (4x4, 3x5, 2x7, 5x5 ...),
//!   IDA* ([`ida`]) with an admissible estimate: additive [`pdb`] pattern databases (built
//!   once, cached on disk by [`cache`]) up to 25 cells, [`manhattan`] distance plus linear
//!   conflicts beyond.
//! - [`definition::DefinitionSearch`]: definition files whose distance table does not
//!   fit (the 3x3x3), or any definition with `--solve-by search`: IDA* over canonical
//!   move sequences, its estimate the distance tables of projections of the puzzle.
//!
//! Unsolvable positions are recognised by the puzzles' invariants before any search.

pub mod board;
pub mod cache;
pub mod definition;
pub mod ida;
pub mod manhattan;
pub mod mod3;
pub mod pdb;
pub mod sample;
pub mod search;
pub mod sliding;
pub mod split;
pub mod table;

use crate::heuristics::PositionFacts;
use crate::identity::Identity;
use crate::puzzle::sliding::Sliding;
use crate::puzzle::{ParseError, SearchGraph, quote};
use anyhow::{Result, bail};
use board::Board;
pub use search::Estimate;
use search::SearchBoards;
use sliding::TableBoards;
use std::ops::RangeInclusive;
use std::path::Path;
use table::MAX_TABLE_RANKS;

/// One shortest solution, ready to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Each configuration along the path drawn as a grid, the start first, the goal last.
    pub drawings: Vec<String>,
    /// The same configurations in the puzzle's one-line notation.
    pub positions: Vec<String>,
    /// The name of each move in the puzzle's notation (one fewer than the drawings).
    pub moves: Vec<String>,
    /// Positions the heuristic search expanded (`None` when solved by table).
    pub nodes: Option<u64>,
    /// For weighted moves: what the costs count (e.g. `flips`) and each move's cost.
    pub weights: Option<(String, Vec<u32>)>,
}

impl Solution {
    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The solution's length as printed: `3 moves`, or the total cost such as `8 flips`.
    pub fn length_text(&self) -> String {
        match &self.weights {
            Some((metric, costs)) => format!("{} {metric}", costs.iter().map(|&c| u64::from(c)).sum::<u64>()),
            None => {
                let n = self.len();
                format!("{n} {}", if n == 1 { "move" } else { "moves" })
            }
        }
    }

    /// Whether the start is the goal.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// What solving a position gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A shortest solution.
    Solved(Solution),
    /// No sequence of moves reaches the goal, and why.
    Unsolvable(String),
}

/// A position read from the command line, checked against the invariant.
#[derive(Debug, Clone)]
pub struct Position {
    /// The state as given, or the data file's path: the summary table's first column.
    pub label: String,
    /// Sliding boards: the estimates and the parity facts `--solve` prints.
    pub facts: Option<PositionFacts>,
    state: State,
}

impl Position {
    /// `text` read as `state`, with no facts to print (every route but the sliding boards').
    pub(crate) fn read_as(text: &str, state: State) -> Position {
        Position {
            label: text.to_string(),
            facts: None,
            state,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) enum State {
    /// A rank of a puzzle solved by its distance table.
    Rank(u64),
    /// A sliding board.
    Board(Board),
    /// A definition's flattened pieces and twists (see [`definition`]).
    Flat(Vec<u8>, Vec<u8>),
    /// Ruled out by the invariant, with the reason.
    Unsolvable(String),
}

impl Position {
    /// Whether solving it needs the table or estimate (not ruled out by the invariant).
    pub fn needs_solver(&self) -> bool {
        !matches!(self.state, State::Unsolvable(_))
    }
}

/// One way to solve the positions of a puzzle, one file each: [`table::TableRoute`] (any
/// puzzle whose rank space is enumerated), [`sliding::TableBoards`] (sliding boards by
/// table) and [`search::SearchBoards`] (sliding boards by IDA*).
pub trait Route: Send {
    /// The puzzle's report id.
    fn id(&self) -> String;
    /// Reads one position; see [`Solver::read`].
    fn read(&self, text: &str) -> Result<Position>;
    /// A sliding board's route: positions may also be data files.
    fn boards(&self) -> Option<&dyn sliding::Boards> {
        None
    }
    /// Builds or loads what solving needs; see [`Solver::prepare`]. Returns the route to
    /// take instead, if this one hands over (the mod 3 table with no cache folder to keep
    /// it), already prepared.
    fn prepare(&mut self, how: &Preparing) -> Result<Option<Box<dyn Route>>>;
    /// What [`Route::prepare`] made, for a note.
    fn prepared_what(&self) -> Option<String>;
    /// Solves one position read by [`Route::read`], once prepared; a heuristic search
    /// reports its iterations to `progress` (the bound no solution is shorter than,
    /// positions expanded so far).
    fn solve(&mut self, position: &Position, progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome>;
    /// Draws positions at a distance from the goal ([`Solver::sample`]), in the puzzle's
    /// one-line notation, preparing what it needs.
    fn sample(&mut self, request: Sample, how: &Preparing) -> Result<Vec<String>>;
    /// The moves that take the goal to a position read by [`Route::read`], once prepared:
    /// a shortest solution walked backwards, where every move can be undone; `None` where
    /// the route cannot say (a heuristic search, a directed puzzle, an unreached position).
    fn reach(&mut self, position: &Position) -> Result<Option<Vec<String>>> {
        let _ = position;
        Ok(None)
    }
    /// Whether [`Route::reach`] can say, before preparing: a heuristic search never can,
    /// and its preparation (pattern databases) would be built for nothing.
    fn walks(&self) -> bool {
        true
    }
}

/// What a route's preparation may use: the cache folder and the key of what it keeps there,
/// the 4x4 pattern databases chosen, and where to tell progress.
pub struct Preparing<'a> {
    /// The cache folder, if any.
    pub cache: Option<&'a Path>,
    /// The search's identity, which keys the cached tables (see [`Solver::with_identity`]).
    identity: Option<&'a Identity>,
    /// `--pdb`.
    pub pdb: Option<Pdb>,
    /// Hears about anything slow.
    pub note: &'a dyn Fn(&str),
    /// Hears a long pattern database build's progress (done, total), from any thread.
    pub progress: &'a (dyn Fn(u64, u64) + Sync),
}

impl Preparing<'static> {
    /// No cache, no identity, no `--pdb`, and nothing said: a route prepared in a test.
    #[cfg(test)]
    pub(crate) fn quietly() -> Self {
        fn silent(_: &str) {}
        fn no_progress(_: u64, _: u64) {}
        Preparing {
            cache: None,
            identity: None,
            pdb: None,
            note: &silent,
            progress: &no_progress,
        }
    }
}

impl Preparing<'_> {
    /// The identity that keys the cached tables of the puzzle `id`: the search's, or
    /// without one the id alone (enough for built-in puzzles only).
    pub fn identity(&self, id: &str) -> Identity {
        self.identity.cloned().unwrap_or_else(|| Identity::new([("id", id)]))
    }
}

/// What `--sample` asks for: `count` positions at `distance` from the goal, drawn with
/// `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Moves (or total cost) from the goal; `None`: any distance (`--sample any`), every
    /// reachable position alike.
    pub distance: Option<usize>,
    /// Positions wanted (fewer are given where fewer lie at that distance).
    pub count: usize,
    /// The seed that picks them: the same seed gives the same positions.
    pub seed: u64,
}

/// A puzzle ready to solve positions: it owns the distance table or the estimate, which
/// are built once by [`Solver::prepare`] and shared by all positions.
pub struct Solver {
    route: Box<dyn Route>,
    prepared: bool,
    /// `--pdb`: the pattern databases chosen for 4x4 (`None`: 7-8 if cached, else 6-6-3).
    pdb: Option<Pdb>,
    /// The search whose distances the cached tables hold (see [`Solver::with_identity`]).
    identity: Option<Identity>,
}

/// How `--solve` solves a definition's positions (`--solve-by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolveBy {
    /// By table where one fits, else by search.
    #[default]
    Auto,
    /// By the distance table (refused where none fits).
    Table,
    /// By IDA* with pattern databases ([`definition`]), even where a table fits.
    Search,
}

impl std::str::FromStr for SolveBy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(SolveBy::Auto),
            "table" => Ok(SolveBy::Table),
            "search" => Ok(SolveBy::Search),
            _ => Err(format!(
                "--solve-by {}: use table (walk the distance table), search (IDA* with pattern databases, definition files) or auto (a table where one fits)",
                quote(s)
            )),
        }
    }
}

/// The pattern databases IDA* uses on the 4x4 board (`--pdb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pdb {
    /// Three groups of 6, 6 and 3 tiles: 36 MB, built in seconds.
    SixSixThree,
    /// Korf and Felner's groups of 7 and 8 tiles: 577 MB, built once in minutes, and
    /// several times fewer positions searched.
    SevenEight,
}

impl std::str::FromStr for Pdb {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "663" => Ok(Pdb::SixSixThree),
            "78" => Ok(Pdb::SevenEight),
            _ => Err(format!(
                "--pdb {}: not a split of the 4x4 tiles: use 663 (groups of 6, 6 and 3 tiles) or 78 (7 and 8)",
                quote(s)
            )),
        }
    }
}

impl Solver {
    /// The solver taking `route`.
    fn new(route: Box<dyn Route>) -> Self {
        Self {
            route,
            prepared: false,
            pdb: None,
            identity: None,
        }
    }

    /// The solver of a puzzle by its distance table.
    pub fn table(route: Box<dyn Route>) -> Self {
        Self::new(route)
    }

    /// The solver of a puzzle by heuristic search (a definition's IDA*).
    pub fn by_search(route: Box<dyn Route>) -> Self {
        Self::new(route)
    }

    /// The same solver, its cached distance tables keyed by `identity`, the search's (see
    /// [`crate::identity`]): a table is only ever read back by the same search. Without
    /// it, the key is the puzzle's id alone, which is enough for built-in puzzles only.
    pub fn with_identity(mut self, identity: Identity) -> Self {
        self.identity = Some(identity);
        self
    }

    /// The solver of a `rows x cols` sliding board measured to `goal` (`None`: the usual
    /// one); `puzzle` is the ranked board with that goal where it can be built. Fails (one
    /// line) on a board it does not take.
    pub fn sliding(rows: usize, cols: usize, goal: Option<&str>, puzzle: Option<Sliding>) -> Result<Self> {
        Self::sliding_with_mod3_ranks(rows, cols, goal, puzzle, table::MOD3_RANKS)
    }

    /// [`Solver::sliding`], solving the boards whose number of ranks lies in `ranks` by the
    /// distance modulo 3 ([`mod3`]): tests take that route on small boards.
    pub fn sliding_with_mod3_ranks(
        rows: usize,
        cols: usize,
        goal: Option<&str>,
        puzzle: Option<Sliding>,
        ranks: RangeInclusive<u64>,
    ) -> Result<Self> {
        // The route outside `ranks`: a byte a rank where the board is enumerated, else IDA*.
        let other = |puzzle: Option<Sliding>| -> Result<Box<dyn Route>> {
            Ok(match puzzle.filter(|p| p.states() <= MAX_TABLE_RANKS) {
                Some(puzzle) => Box::new(TableBoards::bytes(puzzle)),
                None => Box::new(SearchBoards::new(rows, cols, goal)?),
            })
        };
        let route = match puzzle {
            Some(puzzle) if ranks.contains(&puzzle.states()) => {
                let fallback = other(Some(puzzle.clone())).ok();
                Box::new(TableBoards::mod3(puzzle, fallback))
            }
            puzzle => other(puzzle)?,
        };
        Ok(Self::new(route))
    }

    /// Chooses the 4x4 pattern databases (`--pdb`); `None` keeps the default.
    pub fn set_pdb(&mut self, pdb: Option<Pdb>) {
        self.pdb = pdb;
    }

    /// Reads one position in the puzzle's notation. Malformed input is an error naming
    /// what is accepted; an unsolvable position is not an error.
    pub fn read(&self, text: &str) -> Result<Position> {
        self.route.read(text)
    }

    /// What a sliding board's position may be, for messages: `a position is the 9 tiles
    /// row by row, 0 for the blank (e.g. ...), or the path of a data file`.
    pub fn accepted(&self) -> String {
        self.route.boards().map(sliding::accepted).unwrap_or_default()
    }

    /// Whether positions may also be given as data files (sliding boards).
    pub fn reads_data_files(&self) -> bool {
        self.route.boards().is_some()
    }

    /// Reads a position from the contents of the data file `label` (see
    /// [`Board::parse_data_file`]).
    pub fn read_data_file(&self, label: &str, contents: &str) -> Result<Position> {
        match self.route.boards() {
            Some(boards) => sliding::read_data_file(boards, label, contents),
            None => bail!("{label}: {} takes no data files", self.route.id()),
        }
    }

    /// Builds the distance table, or loads (building if need be) the pattern databases,
    /// keeping them in the folder `cache` if given (see [`cache`]). Runs on the current
    /// rayon pool; `note` hears about anything slow.
    pub fn prepare(&mut self, cache: Option<&Path>, note: &dyn Fn(&str)) -> Result<()> {
        self.prepare_with_progress(cache, note, &|_, _| {})
    }

    /// [`Solver::prepare`], reporting a long pattern database build to `progress(done,
    /// total)` (search states settled, from any thread).
    pub fn prepare_with_progress(
        &mut self,
        cache: Option<&Path>,
        note: &dyn Fn(&str),
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Result<()> {
        if self.prepared {
            return Ok(());
        }
        let how = Preparing {
            cache,
            identity: self.identity.as_ref(),
            pdb: self.pdb,
            note,
            progress,
        };
        if let Some(instead) = self.route.prepare(&how)? {
            self.route = instead;
        }
        self.prepared = true;
        Ok(())
    }

    /// What [`Solver::prepare`] made, for a note: `distance table of N ranks`, ...
    pub fn prepared_what(&self) -> Option<String> {
        self.route.prepared_what()
    }

    /// Up to `request.count` positions at `request.distance` from the goal, drawn
    /// uniformly with `request.seed` ([`sample`]), in the puzzle's one-line notation:
    /// from the distance table (built or loaded from the folder `cache`), or where only
    /// a table of distances modulo 3 would do, from the search's level. A sliding board
    /// solved by IDA* has no table: refused.
    pub fn sample(&mut self, request: Sample, cache: Option<&Path>, note: &dyn Fn(&str)) -> Result<Vec<String>> {
        let how = Preparing {
            cache,
            identity: self.identity.as_ref(),
            pdb: self.pdb,
            note,
            progress: &|_, _| {},
        };
        self.route.sample(request, &how)
    }

    /// Solves one position, preparing first (without a cache) if [`Solver::prepare`] was
    /// not called, and reports the heuristic search's iterations to `progress` (the bound
    /// no solution is shorter than, positions expanded so far).
    pub fn solve_with_progress(&mut self, position: &Position, progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        if let State::Unsolvable(reason) = &position.state {
            return Ok(Outcome::Unsolvable(reason.clone()));
        }
        self.prepare(None, &|_| {})?;
        self.route.solve(position, progress)
    }

    /// The moves from the goal to `position` (see [`Route::reach`]), preparing first
    /// (without a cache) if [`Solver::prepare`] was not called.
    pub fn reach(&mut self, position: &Position) -> Result<Option<Vec<String>>> {
        if !self.route.walks() {
            return Ok(None);
        }
        self.prepare(None, &|_| {})?;
        self.route.reach(position)
    }
}

/// The outcome for a position the search from the goals never met.
pub(crate) fn unreached() -> Outcome {
    Outcome::Unsolvable(
        "no sequence of moves reaches the goal: the search from the goal over every state it reaches never meets this one"
            .into(),
    )
}

/// A malformed position as a one-line error naming it (its start, if it is long).
fn malformed(text: &str, e: &ParseError) -> anyhow::Error {
    anyhow::anyhow!("cannot read the state {}: {e}", quote(text))
}

/// Sorts a parse error into an unsolvable position (an answer) or malformed input or no
/// position of the puzzle (an error, refused before any position is solved).
pub(crate) fn unsolvable(e: ParseError, text: &str) -> Result<State> {
    match e {
        ParseError::Unsolvable(reason) => Ok(State::Unsolvable(reason)),
        ParseError::Malformed(_) => Err(malformed(text, &e)),
        ParseError::Refused(_) => Err(anyhow::anyhow!("cannot solve the state {}: {e}", quote(text))),
    }
}
