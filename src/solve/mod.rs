//! Shortest solutions of single positions (`--solve`).
//!
//! Two routes to a provably shortest solution:
//! - [`table`]: when the whole rank space fits a distance table (every coin board, sliding
//!   boards up to 10 cells), one breadth-first search from the goals (cached on disk from
//!   65,536 ranks up), then a walk that always steps one move closer. No search per
//!   position.
//! - [`mod3`]: 3x4 and 2x6 (239,500,800 ranks): the same walk over each rank's distance
//!   modulo 3 (2 bits a rank, 60 MB), which is enough on a sliding board since every move
//!   changes the distance by exactly one. Built once and kept in the cache folder; without
//!   one, IDA* below.
//! - [`ida`]: for sliding boards too big to enumerate (3x4, 4x4, 3x5, 2x7, 5x5 ...),
//!   IDA* with an admissible estimate: additive [`pdb`] pattern databases (built once,
//!   cached on disk by [`cache`]) up to 25 cells, [`manhattan`] distance plus linear
//!   conflicts beyond.
//!
//! Unsolvable positions are recognised by the puzzles' invariants before any search.

pub mod board;
pub mod cache;
pub mod ida;
pub mod manhattan;
pub mod mod3;
pub mod pdb;
pub mod sample;
pub mod split;
pub mod table;

use crate::heuristics::PositionFacts;
use crate::identity::Identity;
use crate::puzzle::sliding::Sliding;
use crate::puzzle::{Notation, ParseError, Puzzle, SearchGraph, quote};
use crate::util::thousands;
use anyhow::{Context, Result, bail};
use board::Board;
use manhattan::ManhattanLc;
use mod3::DistanceMod3;
use pdb::PatternHeuristic;
use split::{SplitDb, SplitHeuristic};
use std::ops::RangeInclusive;
use std::path::Path;
use table::{DistanceTable, MAX_TABLE_RANKS};

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

#[derive(Debug, Clone)]
pub(crate) enum State {
    /// A rank of a puzzle solved by its distance table.
    Rank(u64),
    /// A sliding board.
    Board(Board),
    /// Ruled out by the invariant, with the reason.
    Unsolvable(String),
}

impl Position {
    /// Whether solving it needs the table or estimate (not ruled out by the invariant).
    pub fn needs_solver(&self) -> bool {
        !matches!(self.state, State::Unsolvable(_))
    }
}

/// One way to solve the positions of a puzzle (the sliding boards' own routes aside).
pub trait Route: Send {
    /// The board's rows and columns.
    fn shape(&self) -> (usize, usize);
    /// The puzzle's report id.
    fn id(&self) -> String;
    /// Reads one position; see [`Solver::read`].
    fn read(&self, text: &str) -> Result<Position>;
    /// Builds or loads what solving needs; see [`Solver::prepare`].
    /// What it keeps in the cache is keyed by `identity`, the search's.
    fn prepare(&mut self, cache: Option<&Path>, identity: &Identity, note: &dyn Fn(&str)) -> Result<()>;
    /// What [`Route::prepare`] made, for a note.
    fn prepared_what(&self) -> Option<String>;
    /// Solves one position read by [`Route::read`], preparing first if need be.
    fn solve(&mut self, position: &Position) -> Result<Outcome>;
    /// Draws positions at a distance from the goal ([`Solver::sample`]), in the puzzle's
    /// one-line notation.
    fn sample(
        &mut self,
        request: Sample,
        cache: Option<&Path>,
        identity: &Identity,
        note: &dyn Fn(&str),
    ) -> Result<Vec<String>>;
}

/// What `--sample` asks for: `count` positions at `distance` from the goal, drawn with
/// `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Moves (or total cost) from the goal.
    pub distance: usize,
    /// Positions wanted (fewer are given where fewer lie at that distance).
    pub count: usize,
    /// The seed that picks them: the same seed gives the same positions.
    pub seed: u64,
}

/// A puzzle ready to solve positions: it owns the distance table or the estimate, which
/// are built once by [`Solver::prepare`] and shared by all positions.
pub struct Solver {
    game: Game,
    /// `--pdb`: the pattern databases chosen for 4x4 (`None`: 7-8 if cached, else 6-6-3).
    pdb: Option<Pdb>,
    /// The search whose distances the cached tables hold (see [`Solver::with_identity`]).
    identity: Option<Identity>,
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

#[allow(
    clippy::large_enum_variant,
    reason = "one per run; a box would only add an indirection (which variant is largest varies)"
)]
enum Game {
    /// Any puzzle whose rank space fits a distance table ([`table::TableRoute`]).
    Table(Box<dyn Route>),
    SlidingTable {
        puzzle: Sliding,
        table: Option<DistanceTable>,
    },
    SlidingSearch {
        rows: usize,
        cols: usize,
        estimate: Option<Estimate>,
        /// With `--goal` (the blank in the last cell): `relabel[t]` is the tile the usual
        /// goal has where the given goal has `t`, so the search and its cached estimate
        /// only ever see the usual goal.
        relabel: Option<Vec<u8>>,
        /// With `--goal` on boards up to 16 cells: the goal itself (tiles cell by cell),
        /// which the split pattern databases are built for.
        goal: Option<Vec<u8>>,
    },
    /// 3x4 and 2x6: the distance modulo 3 ([`mod3`]). `search` is the route taken when no
    /// cache folder can keep the table (IDA*), if one takes the goal; else it is built in
    /// memory.
    SlidingMod3 {
        puzzle: Sliding,
        table: Option<DistanceMod3>,
        search: Option<Box<Game>>,
    },
}

/// The admissible estimate IDA* uses on a board.
#[derive(Debug, Clone)]
pub enum Estimate {
    /// Additive pattern databases (boards up to [`pdb::MAX_PATTERN_CELLS`] cells).
    Patterns(PatternHeuristic),
    /// Manhattan distance plus linear conflicts (larger boards).
    Manhattan(ManhattanLc),
    /// Split-layout pattern databases: 7-8 on 4x4, and any goal on boards up to 16 cells.
    Split(SplitHeuristic),
}

impl Solver {
    /// The solver of a puzzle by its distance table.
    pub fn table(route: Box<dyn Route>) -> Self {
        Self {
            game: Game::Table(route),
            pdb: None,
            identity: None,
        }
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
        Self::sliding_with_mod3_ranks(rows, cols, goal, puzzle, mod3::MOD3_RANKS)
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
        if let Some(ranked) = puzzle.clone().filter(|p| ranks.contains(&p.states())) {
            let search = Self::sliding_game(rows, cols, goal, puzzle).ok().map(Box::new);
            let game = Game::SlidingMod3 {
                puzzle: ranked,
                table: None,
                search,
            };
            return Ok(Self {
                game,
                pdb: None,
                identity: None,
            });
        }
        Ok(Self {
            game: Self::sliding_game(rows, cols, goal, puzzle)?,
            pdb: None,
            identity: None,
        })
    }

    /// The route [`Solver::sliding`] takes outside [`mod3::MOD3_RANKS`].
    fn sliding_game(rows: usize, cols: usize, goal: Option<&str>, puzzle: Option<Sliding>) -> Result<Game> {
        let cells = rows * cols;
        if cells > board::MAX_CELLS {
            bail!(
                "--solve takes sliding boards of up to {} cells (8x8, 4x16, 2x32 ...); {rows}x{cols} has {cells}",
                board::MAX_CELLS
            );
        }
        if let Some(puzzle) = puzzle.filter(|p| p.states() <= MAX_TABLE_RANKS) {
            return Ok(Game::SlidingTable { puzzle, table: None });
        }
        let Some(goal) = goal else {
            return Ok(Game::SlidingSearch {
                rows,
                cols,
                estimate: None,
                relabel: None,
                goal: None,
            });
        };
        let goal = crate::puzzle::sliding::read_tiles(goal, cells)?;
        if cells <= split::MAX_SPLIT_CELLS {
            return Ok(Game::SlidingSearch {
                rows,
                cols,
                estimate: None,
                relabel: None,
                goal: Some(goal),
            });
        }
        if goal.last() != Some(&0) {
            bail!(
                "--solve on sliding-{rows}x{cols} takes a --goal with the blank in the last cell (the pattern databases of boards over 16 cells are built for that cell); boards up to 16 cells take any goal"
            );
        }
        let mut relabel = vec![0u8; goal.len()];
        for (i, &t) in goal.iter().enumerate().filter(|(_, t)| **t != 0) {
            relabel[usize::from(t)] = i as u8 + 1;
        }
        Ok(Game::SlidingSearch {
            rows,
            cols,
            estimate: None,
            relabel: Some(relabel),
            goal: None,
        })
    }

    /// Chooses the 4x4 pattern databases (`--pdb`); `None` keeps the default.
    pub fn set_pdb(&mut self, pdb: Option<Pdb>) {
        self.pdb = pdb;
    }

    /// Reads one position in the puzzle's notation. Malformed input is an error naming
    /// what is accepted; an unsolvable position is not an error.
    pub fn read(&self, text: &str) -> Result<Position> {
        if let Game::Table(route) = &self.game {
            return route.read(text);
        }
        let (rows, cols) = self.shape();
        let board = Board::parse(rows, cols, text)
            .map_err(|e| anyhow::anyhow!("{}; {}", malformed(text, &e), self.accepted()))?;
        Ok(Position {
            label: text.to_string(),
            facts: self.facts(&board),
            state: self.checked(board, text)?,
        })
    }

    /// What a sliding board's position may be, for messages: `a position is the 9 tiles
    /// row by row, 0 for the blank (e.g. ...), or the path of a data file`.
    pub fn accepted(&self) -> String {
        let (rows, cols) = self.shape();
        format!(
            "a position is the {} tiles row by row, 0 for the blank (e.g. `{}`), or the path of a data file",
            rows * cols,
            Board::goal(rows, cols).render()
        )
    }

    /// Whether positions may also be given as data files (sliding boards).
    pub fn reads_data_files(&self) -> bool {
        matches!(
            self.game,
            Game::SlidingTable { .. } | Game::SlidingSearch { .. } | Game::SlidingMod3 { .. }
        )
    }

    /// Reads a position from the contents of the data file `label` (see
    /// [`Board::parse_data_file`]).
    pub fn read_data_file(&self, label: &str, contents: &str) -> Result<Position> {
        let (rows, cols) = self.shape();
        let board = Board::parse_data_file(rows, cols, contents).map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
        Ok(Position {
            label: label.to_string(),
            facts: self.facts(&board),
            state: self.checked(board, label)?,
        })
    }

    /// A sliding board's verdict: the puzzle's own ranking decides, as it knows the goal
    /// (see `--goal`).
    fn checked(&self, board: Board, text: &str) -> Result<State> {
        let verdict = match &self.game {
            Game::SlidingTable { puzzle, .. } | Game::SlidingMod3 { puzzle, .. } => {
                puzzle.rank_board(board.tiles()).map(|_| ())
            }
            Game::SlidingSearch { goal: Some(goal), .. } => same_class(&board, goal),
            Game::SlidingSearch { relabel, .. } => {
                relabelled(&board, relabel.as_deref()).and_then(|b| b.check_solvable())
            }
            _ => board.check_solvable(),
        };
        Ok(match verdict {
            Ok(()) => State::Board(board),
            Err(e) => unsolvable(e, text)?,
        })
    }

    /// What `--solve` states about a sliding board (estimates, inversions, the parity rule),
    /// all measured to the usual goal: none when the goal is another (`--goal`).
    fn facts(&self, board: &Board) -> Option<PositionFacts> {
        let usual = match &self.game {
            Game::SlidingTable { puzzle, .. } | Game::SlidingMod3 { puzzle, .. } => !puzzle.has_custom_goal(),
            Game::SlidingSearch { relabel, goal, .. } => relabel.is_none() && goal.is_none(),
            _ => false,
        };
        usual.then(|| PositionFacts::new(board.rows(), board.cols(), board.tiles()))
    }

    /// The board's rows and columns.
    fn shape(&self) -> (usize, usize) {
        match &self.game {
            Game::Table(route) => route.shape(),
            Game::SlidingTable { puzzle, .. } | Game::SlidingMod3 { puzzle, .. } => puzzle.shape(),
            Game::SlidingSearch { rows, cols, .. } => (*rows, *cols),
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
        let pdb = self.pdb;
        let given = self.identity.clone();
        let identity = |id: String| given.clone().unwrap_or_else(|| Identity::new([("id", id)]));
        if let Game::SlidingMod3 {
            puzzle,
            table: table @ None,
            search,
        } = &mut self.game
        {
            let built = DistanceMod3::prepare(puzzle, &identity(puzzle.id()), cache, search.is_none(), note)
                .with_context(|| format!("{}: cannot build the distance table", puzzle.id()))?;
            match (built, search.take()) {
                (Some(built), _) => *table = Some(built),
                (None, Some(search)) => self.game = *search,
                (None, None) => bail!("{}: no route to solve it", puzzle.id()),
            }
        }
        match &mut self.game {
            Game::Table(route) => {
                let id = route.id();
                route.prepare(cache, &identity(id), note)
            }
            Game::SlidingTable { puzzle, table } => prepare_table(puzzle, table, &identity(puzzle.id()), cache, note),
            Game::SlidingSearch {
                rows,
                cols,
                estimate,
                goal,
                ..
            } => {
                if estimate.is_none() {
                    *estimate = Some(Estimate::for_goal(
                        (*rows, *cols),
                        goal.as_deref(),
                        pdb,
                        cache,
                        note,
                        progress,
                    )?);
                }
                Ok(())
            }
            Game::SlidingMod3 { .. } => Ok(()),
        }
    }

    /// What [`Solver::prepare`] made, for a note: `distance table of N ranks`, ...
    pub fn prepared_what(&self) -> Option<String> {
        match &self.game {
            Game::Table(route) => route.prepared_what(),
            Game::SlidingTable { puzzle, table: Some(_) } => {
                Some(format!("distance table of {} ranks", thousands(puzzle.states())))
            }
            Game::SlidingSearch {
                estimate: Some(Estimate::Patterns(_)),
                ..
            } => Some("pattern databases".into()),
            Game::SlidingMod3 {
                puzzle, table: Some(_), ..
            } => Some(format!(
                "distance table (mod 3, {}) of {} ranks",
                mod3::megabytes(puzzle.states()),
                thousands(puzzle.states())
            )),
            Game::SlidingSearch {
                estimate: Some(Estimate::Split(h)),
                ..
            } => Some(format!("pattern databases ({})", h.describe())),
            _ => None,
        }
    }

    /// Up to `request.count` positions at `request.distance` from the goal, drawn
    /// uniformly with `request.seed` ([`sample`]), in the puzzle's one-line notation:
    /// from the distance table (built or loaded from the folder `cache`), or where only
    /// a table of distances modulo 3 would do, from the search's level. A sliding board
    /// solved by IDA* has no table: refused.
    pub fn sample(&mut self, request: Sample, cache: Option<&Path>, note: &dyn Fn(&str)) -> Result<Vec<String>> {
        let given = self.identity.clone();
        let identity = |id: String| given.clone().unwrap_or_else(|| Identity::new([("id", id)]));
        let ranks = match &mut self.game {
            Game::Table(route) => {
                let id = route.id();
                return route.sample(request, cache, &identity(id), note);
            }
            Game::SlidingTable { puzzle, table } => {
                prepare_table(puzzle, table, &identity(puzzle.id()), cache, note)?;
                let table = table.as_ref().context("no distance table was built")?;
                sample::from_table(table, request.distance, request.count, request.seed)?
            }
            Game::SlidingMod3 { puzzle, .. } => {
                sample::by_search(puzzle, request.distance, request.count, request.seed)?
            }
            Game::SlidingSearch { rows, cols, .. } => {
                return Err(sample::SampleError::NoTable(format!(
                    "sliding-{rows}x{cols} is solved by IDA*, without a distance table to draw positions from: --sample takes sliding boards of up to 12 cells (3x4, 2x6)"
                ))
                .into());
            }
        };
        let (Game::SlidingTable { puzzle, .. } | Game::SlidingMod3 { puzzle, .. }) = &self.game else {
            bail!("no sliding board to draw positions from");
        };
        Ok(ranks.into_iter().map(|rank| puzzle.render(rank)).collect())
    }

    /// Solves one position, preparing first (without a cache) if [`Solver::prepare`] was
    /// not called, and
    /// reports the heuristic search's iterations to `progress` (the bound no solution is
    /// shorter than, positions expanded so far).
    pub fn solve_with_progress(&mut self, position: &Position, progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        if let State::Unsolvable(reason) = &position.state {
            return Ok(Outcome::Unsolvable(reason.clone()));
        }
        if let Game::Table(route) = &mut self.game {
            return route.solve(position);
        }
        self.prepare(None, &|_| {})?;
        Ok(match (&self.game, &position.state) {
            (
                Game::SlidingTable {
                    puzzle,
                    table: Some(table),
                },
                State::Board(board),
            ) => walk_board(puzzle, board, |rank| table.path(puzzle, rank))?,
            (
                Game::SlidingMod3 {
                    puzzle,
                    table: Some(table),
                    ..
                },
                State::Board(board),
            ) => walk_board(puzzle, board, |rank| table.path(puzzle, rank))?,
            (
                Game::SlidingSearch {
                    estimate: Some(estimate),
                    relabel,
                    ..
                },
                State::Board(board),
            ) => match estimate.solve(&relabelled(board, relabel.as_deref())?, progress) {
                Some(found) => {
                    let mut boards = vec![board.clone()];
                    for &cell in &found.slides {
                        let next = boards
                            .last()
                            .and_then(|b| b.slide(usize::from(cell)))
                            .context("the search returned an illegal move")?;
                        boards.push(next);
                    }
                    Outcome::Solved(sliding_solution(&boards, Some(found.nodes)))
                }
                None => unreached(),
            },
            _ => bail!("{}: this position does not belong to this puzzle", position.label),
        })
    }
}

impl Estimate {
    /// The estimate for a `rows x cols` board and `goal` (`None`: the usual goal):
    /// split pattern databases for any other goal on boards up to 16 cells and for 7-8 on
    /// 4x4 (chosen by `pdb`, or by default when cached), else [`Estimate::for_board`].
    pub fn for_goal(
        (rows, cols): (usize, usize),
        goal: Option<&[u8]>,
        pdb: Option<Pdb>,
        cache_dir: Option<&Path>,
        note: &dyn Fn(&str),
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Result<Self> {
        let usual = Board::goal(rows, cols);
        let goal = goal.unwrap_or(usual.tiles());
        let custom = goal != usual.tiles();
        let groups = if (rows, cols) == (4, 4) {
            let seven_eight = split::groups_78();
            let wanted = match pdb {
                Some(choice) => choice == Pdb::SevenEight,
                None => split::goal_groups(&seven_eight, goal)
                    .iter()
                    .all(|tiles| SplitDb::is_cached(rows, cols, tiles, goal, cache_dir)),
            };
            if wanted {
                seven_eight
            } else {
                if pdb.is_none() {
                    note(
                        "4x4: the 7-8 pattern databases are not built, so 6-6-3 is used; `--pdb 78` builds them once (577 MB on disk, a few minutes) and they are the default from then on",
                    );
                }
                pdb::partition(rows, cols)
            }
        } else {
            pdb::partition(rows, cols)
        };
        let split_wanted = groups.len() == 2 && (rows, cols) == (4, 4);
        if !(split_wanted || custom && rows * cols <= split::MAX_SPLIT_CELLS) {
            return Ok(Self::for_board(rows, cols, cache_dir, note));
        }
        let groups = split::goal_groups(&groups, goal);
        let missing: Vec<&Vec<u8>> = groups
            .iter()
            .filter(|tiles| !SplitDb::is_cached(rows, cols, tiles, goal, cache_dir))
            .collect();
        if !missing.is_empty() {
            let disk: u64 = missing.iter().map(|t| split::table_bytes(rows * cols, t.len())).sum();
            let memory = missing
                .iter()
                .map(|t| split::build_bytes(rows, cols, t.len()))
                .max()
                .unwrap_or(0);
            note(&format!(
                "{rows}x{cols}: {} pattern database{} to build, once: {} on disk in all, at most {} of memory while building",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" },
                crate::util::human_bytes(u128::from(disk)),
                crate::util::human_bytes(u128::from(memory)),
            ));
        }
        let tables = groups
            .iter()
            .map(|tiles| SplitDb::load_or_build(rows, cols, tiles, goal, cache_dir, note, progress))
            .collect::<Result<Vec<_>, _>>()?;
        SplitHeuristic::new(tables)
            .map(Estimate::Split)
            .context("the pattern databases do not cover the board's tiles")
    }

    /// The best estimate available for a `rows x cols` board: pattern databases (loaded
    /// from `cache_dir` or built) up to [`pdb::MAX_PATTERN_CELLS`] cells, else Manhattan
    /// distance plus linear conflicts.
    pub fn for_board(rows: usize, cols: usize, cache_dir: Option<&Path>, note: &dyn Fn(&str)) -> Self {
        if rows * cols <= pdb::MAX_PATTERN_CELLS
            && let Some(patterns) = PatternHeuristic::for_board(rows, cols, cache_dir, note)
        {
            return Estimate::Patterns(patterns);
        }
        Estimate::Manhattan(ManhattanLc::new(rows, cols))
    }

    /// A shortest solution of `board` by IDA*; `None` if it is unsolvable.
    pub fn solve(&self, board: &Board, progress: &mut dyn FnMut(u32, u64)) -> Option<ida::Found> {
        match self {
            Estimate::Patterns(h) => ida::solve_with_progress(board, h, progress),
            Estimate::Manhattan(h) => ida::solve_with_progress(board, h, progress),
            Estimate::Split(h) => ida::search_with_progress(board, h, progress),
        }
    }
}

fn prepare_table<P: Puzzle>(
    puzzle: &P,
    table: &mut Option<DistanceTable>,
    identity: &Identity,
    cache: Option<&Path>,
    note: &dyn Fn(&str),
) -> Result<()> {
    if table.is_none() {
        let built = DistanceTable::load_or_build(puzzle, identity, cache, note);
        *table = Some(built.with_context(|| format!("{}: cannot build the distance table", puzzle.id()))?);
    }
    Ok(())
}

/// The outcome for a position the search from the goals never met.
pub(crate) fn unreached() -> Outcome {
    Outcome::Unsolvable(
        "no sequence of moves reaches the goal: the search from the goal over every configuration never meets this one"
            .into(),
    )
}

/// A malformed position as a one-line error naming it (its start, if it is long).
fn malformed(text: &str, e: &ParseError) -> anyhow::Error {
    anyhow::anyhow!("cannot read the position {}: {e}", quote(text))
}

/// Sorts a parse error into an unsolvable position (fine) or malformed input (an error).
pub(crate) fn unsolvable(e: ParseError, text: &str) -> Result<State> {
    match e {
        ParseError::Unsolvable(reason) => Ok(State::Unsolvable(reason)),
        ParseError::Malformed(_) => Err(malformed(text, &e)),
    }
}

/// Whether `board` can reach `goal`: the parity rule puts every board in one of two
/// classes, and a board reaches exactly the boards of its own class.
fn same_class(board: &Board, goal: &[u8]) -> Result<(), ParseError> {
    let goal_class = crate::puzzle::sliding::check_solvable(board.rows(), board.cols(), goal).is_ok();
    if board.check_solvable().is_ok() == goal_class {
        Ok(())
    } else {
        Err(ParseError::Unsolvable(format!(
            "this position and the goal `{}` are in different classes of the parity rule (tile inversions and the blank's row), which no move changes",
            crate::puzzle::sliding::join_tiles(goal)
        )))
    }
}

/// `board` with its tiles renamed by `relabel` (the blank stays 0), or as it is.
fn relabelled(board: &Board, relabel: Option<&[u8]>) -> Result<Board, ParseError> {
    match relabel {
        None => Ok(board.clone()),
        Some(map) => {
            let (rows, cols) = (board.rows(), board.cols());
            Board::new(rows, cols, board.tiles().iter().map(|&t| map[usize::from(t)]).collect())
        }
    }
}

/// A sliding board solved by a table's walk from its rank (`path`).
fn walk_board(puzzle: &Sliding, board: &Board, path: impl FnOnce(u64) -> Option<Vec<u64>>) -> Result<Outcome> {
    let rank = puzzle.rank_board(board.tiles()).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(match path(rank) {
        Some(path) => Outcome::Solved(sliding_walk(puzzle, &path)?),
        None => unreached(),
    })
}

/// A sliding solution from the ranks a table walked, the start first.
fn sliding_walk(puzzle: &Sliding, path: &[u64]) -> Result<Solution> {
    let (rows, cols) = puzzle.shape();
    let boards = path
        .iter()
        .map(|&r| Board::new(rows, cols, puzzle.board(r)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(sliding_solution(&boards, None))
}

/// A sliding solution from its boards: each move names the tile that slid.
fn sliding_solution(boards: &[Board], nodes: Option<u64>) -> Solution {
    Solution {
        drawings: boards.iter().map(Board::draw).collect(),
        positions: boards.iter().map(Board::render).collect(),
        moves: boards
            .windows(2)
            .map(|w| format!("tile {}", w[0].tiles()[w[1].blank()]))
            .collect(),
        nodes,
        weights: None,
    }
}
