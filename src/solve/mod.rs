//! Shortest solutions of single positions (`--solve`).
//!
//! Two routes to a provably shortest solution:
//! - [`table`]: when the whole rank space fits a distance table (every coin board, sliding
//!   boards up to 10 cells), one breadth-first search from the goals (cached on disk from
//!   65,536 ranks up), then a walk that always steps one move closer. No search per
//!   position.
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
pub mod pdb;
pub mod table;

use crate::job::{AnyPuzzle, Spec};
use crate::puzzle::coins::Coins;
use crate::puzzle::flip_k::{self, FlipK};
use crate::puzzle::sliding::Sliding;
use crate::puzzle::{ParseError, Puzzle};
use anyhow::{Context, Result, bail};
use board::Board;
use manhattan::ManhattanLc;
use pdb::PatternHeuristic;
use std::io::Write;
use std::time::Instant;
use table::{DistanceTable, MAX_TABLE_RANKS};

/// Solves each of `states` for `spec` and prints one block each, then a summary table.
pub fn run(spec: &Spec, states: &[String], threads: usize, quiet: bool, out: &mut impl Write) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let note = |message: &str| {
        if !quiet {
            eprintln!("{message}");
        }
    };
    let mut solver = Solver::new(spec)?;
    // Read every position first, so a typo in the last one fails before a long search.
    let positions = states.iter().map(|s| solver.read(s)).collect::<Result<Vec<_>>>()?;
    if positions.iter().any(Position::needs_solver) {
        let start = Instant::now();
        pool.install(|| solver.prepare(&note))?;
        if let Some(what) = solver.prepared_what() {
            note(&format!(
                "{spec}: {what} ready in {:.2} s",
                start.elapsed().as_secs_f64()
            ));
        }
    }
    let mut summary = Vec::new();
    for (i, position) in positions.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let start = Instant::now();
        let mut progress = |bound: u32, nodes: u64| {
            if start.elapsed().as_secs() >= 2 {
                note(&format!(
                    "  {}: no solution under {bound} moves ({nodes} positions, {:.0} s)",
                    position.label,
                    start.elapsed().as_secs_f64()
                ));
            }
        };
        let outcome = pool.install(|| solver.solve_with_progress(position, &mut progress))?;
        let seconds = start.elapsed().as_secs_f64();
        let moves = match &outcome {
            Outcome::Unsolvable(reason) => {
                writeln!(out, "unsolvable: {reason}")?;
                "unsolvable".to_string()
            }
            Outcome::Solved(solution) => {
                write_solution(solution, out)?;
                if let Some(nodes) = solution.nodes {
                    note(&format!(
                        "{}: {} moves, {nodes} positions searched, {seconds:.3} s",
                        position.label,
                        solution.len()
                    ));
                }
                match solution.weights {
                    Some(_) => solution.length_text(),
                    None => solution.len().to_string(),
                }
            }
        };
        summary.push((position.label.clone(), moves, seconds));
    }
    if positions.len() > 1 {
        writeln!(out)?;
        write_summary(&summary, out)?;
    }
    Ok(())
}

/// One shortest solution, ready to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Each configuration along the path drawn as a grid, the start first, the goal last.
    pub drawings: Vec<String>,
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
    state: State,
}

#[derive(Debug, Clone)]
enum State {
    /// A coin board's rank.
    Rank(u64),
    /// Flip K of N: the coins themselves (tails = true), since the puzzle ranks only counts.
    Row(Vec<bool>),
    /// A sliding board.
    Board(Board),
    /// Ruled out by the invariant, with the reason.
    Unsolvable(String),
}

impl Position {
    fn needs_solver(&self) -> bool {
        !matches!(self.state, State::Unsolvable(_))
    }
}

/// A puzzle ready to solve positions: it owns the distance table or the estimate, which
/// are built once by [`Solver::prepare`] and shared by all positions.
pub struct Solver {
    game: Game,
}

#[expect(
    clippy::large_enum_variant,
    reason = "one per run; a box would only add an indirection"
)]
enum Game {
    Coins {
        puzzle: Coins,
        table: Option<DistanceTable>,
    },
    FlipK {
        puzzle: FlipK,
        table: Option<DistanceTable>,
    },
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
    },
}

/// The admissible estimate IDA* uses on a board.
#[derive(Debug, Clone)]
pub enum Estimate {
    /// Additive pattern databases (boards up to [`pdb::MAX_PATTERN_CELLS`] cells).
    Patterns(PatternHeuristic),
    /// Manhattan distance plus linear conflicts (larger boards).
    Manhattan(ManhattanLc),
}

impl Solver {
    /// The solver for `spec`; fails (one line) on a sliding board it does not take.
    pub fn new(spec: &Spec) -> Result<Self> {
        let game = match *spec {
            Spec::Eight => Game::SlidingTable {
                puzzle: Sliding::eight(),
                table: None,
            },
            Spec::Sliding { rows, cols } => {
                let cells = rows * cols;
                if cells > board::MAX_CELLS {
                    bail!(
                        "--solve takes sliding boards of up to {} cells (8x8, 4x16, 2x32 ...); {rows}x{cols} has {cells}",
                        board::MAX_CELLS
                    );
                }
                match Sliding::new(rows, cols) {
                    Some(puzzle) if puzzle.states() <= MAX_TABLE_RANKS => Game::SlidingTable { puzzle, table: None },
                    _ => Game::SlidingSearch {
                        rows,
                        cols,
                        estimate: None,
                        relabel: None,
                    },
                }
            }
            Spec::Goal { ref base, ref goal } if matches!(**base, Spec::Eight | Spec::Sliding { .. }) => {
                match spec.build() {
                    Some(AnyPuzzle::Sliding(puzzle)) if puzzle.states() <= MAX_TABLE_RANKS => {
                        Game::SlidingTable { puzzle, table: None }
                    }
                    _ => {
                        let (rows, cols) = match **base {
                            Spec::Sliding { rows, cols } => (rows, cols),
                            _ => (3, 3),
                        };
                        let goal = crate::puzzle::sliding::read_tiles(goal, rows * cols)?;
                        if goal.last() != Some(&0) {
                            bail!(
                                "--solve on {base} takes a --goal with the blank in the last cell (the pattern databases are built for that cell); boards up to 10 cells take any goal"
                            );
                        }
                        let mut relabel = vec![0u8; goal.len()];
                        for (i, &t) in goal.iter().enumerate().filter(|(_, t)| **t != 0) {
                            relabel[usize::from(t)] = i as u8 + 1;
                        }
                        Game::SlidingSearch {
                            rows,
                            cols,
                            estimate: None,
                            relabel: Some(relabel),
                        }
                    }
                }
            }
            _ => match spec.build() {
                Some(AnyPuzzle::Coins(puzzle)) => Game::Coins { puzzle, table: None },
                Some(AnyPuzzle::FlipK(puzzle)) => Game::FlipK { puzzle, table: None },
                _ => bail!("{spec}: not a coin puzzle"),
            },
        };
        Ok(Self { game })
    }

    /// Reads one position: the puzzle's notation, or for sliding boards also the path of
    /// a data file. Malformed input is an error; an unsolvable position is not.
    pub fn read(&self, text: &str) -> Result<Position> {
        let label = text.to_string();
        let state = match &self.game {
            Game::Coins { puzzle, .. } => match puzzle.parse(text) {
                Ok(rank) => State::Rank(rank),
                Err(e) => unsolvable(e, text)?,
            },
            Game::FlipK { puzzle, .. } => {
                let row = flip_k::parse_row(text, puzzle.shape().1).map_err(|e| malformed(text, &e))?;
                match puzzle.parse(text) {
                    Ok(_) => State::Row(row),
                    Err(e) => unsolvable(e, text)?,
                }
            }
            // The puzzle's own ranking decides solvability: it knows the goal (see --goal).
            Game::SlidingTable { puzzle, .. } => {
                read_board(puzzle.shape(), text, |b| puzzle.rank_board(b.tiles()).map(|_| ()))?
            }
            Game::SlidingSearch {
                rows, cols, relabel, ..
            } => read_board((*rows, *cols), text, |b| {
                relabelled(b, relabel.as_deref())?.check_solvable()
            })?,
        };
        Ok(Position { label, state })
    }

    /// Builds the distance table, or loads (building if need be) the pattern databases.
    /// Runs on the current rayon pool; `note` hears about anything slow.
    pub fn prepare(&mut self, note: &dyn Fn(&str)) -> Result<()> {
        match &mut self.game {
            Game::Coins { puzzle, table } => prepare_table(puzzle, table, note),
            Game::FlipK { puzzle, table } => prepare_table(puzzle, table, note),
            Game::SlidingTable { puzzle, table } => prepare_table(puzzle, table, note),
            Game::SlidingSearch {
                rows, cols, estimate, ..
            } => {
                if estimate.is_none() {
                    *estimate = Some(Estimate::for_board(*rows, *cols, cache::cache_dir().as_deref(), note));
                }
                Ok(())
            }
        }
    }

    /// What [`Solver::prepare`] made, for a note: `distance table of N ranks`, ...
    fn prepared_what(&self) -> Option<String> {
        match &self.game {
            Game::Coins { puzzle, table: Some(_) } => Some(format!("distance table of {} ranks", puzzle.states())),
            Game::FlipK { puzzle, table: Some(_) } => {
                Some(format!("distance table of {} tail counts", puzzle.states()))
            }
            Game::SlidingTable { puzzle, table: Some(_) } => {
                Some(format!("distance table of {} ranks", puzzle.states()))
            }
            Game::SlidingSearch {
                estimate: Some(Estimate::Patterns(_)),
                ..
            } => Some("pattern databases".into()),
            _ => None,
        }
    }

    /// Solves one position, preparing first if [`Solver::prepare`] was not called.
    pub fn solve(&mut self, position: &Position) -> Result<Outcome> {
        self.solve_with_progress(position, &mut |_, _| {})
    }

    /// [`Solver::solve`], reporting the heuristic search's iterations to `progress`
    /// (the bound no solution is shorter than, positions expanded so far).
    pub fn solve_with_progress(&mut self, position: &Position, progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        if let State::Unsolvable(reason) = &position.state {
            return Ok(Outcome::Unsolvable(reason.clone()));
        }
        self.prepare(&|_| {})?;
        let unreached = || {
            Outcome::Unsolvable(
                "no sequence of moves reaches the goal: the search from the goal over every configuration never meets this one".into(),
            )
        };
        Ok(match (&self.game, &position.state) {
            (
                Game::Coins {
                    puzzle,
                    table: Some(table),
                },
                State::Rank(rank),
            ) => match table.path(puzzle, *rank) {
                Some(path) => Outcome::Solved(Solution {
                    drawings: path.iter().map(|&r| puzzle.draw(r)).collect(),
                    moves: path.windows(2).map(|w| puzzle.describe_move(w[0], w[1])).collect(),
                    nodes: None,
                    weights: (puzzle.max_move_cost() > 1).then(|| {
                        let cost = |w: &[u64]| puzzle.move_between(w[0], w[1]).map_or(0, |m| m.cost);
                        (puzzle.metric(), path.windows(2).map(cost).collect())
                    }),
                }),
                None => unreached(),
            },
            (
                Game::FlipK {
                    puzzle,
                    table: Some(table),
                },
                State::Row(row),
            ) => match table.path(puzzle, puzzle.rank_of(row)) {
                Some(counts) => Outcome::Solved(flip_k_solution(puzzle, row, &counts)?),
                None => unreached(),
            },
            (
                Game::SlidingTable {
                    puzzle,
                    table: Some(table),
                },
                State::Board(board),
            ) => {
                let rank = puzzle.rank_board(board.tiles()).map_err(|e| anyhow::anyhow!("{e}"))?;
                match table.path(puzzle, rank) {
                    Some(path) => {
                        let (rows, cols) = puzzle.shape();
                        let boards = path
                            .iter()
                            .map(|&r| Board::new(rows, cols, puzzle.board(r)))
                            .collect::<Result<Vec<_>, _>>()?;
                        Outcome::Solved(sliding_solution(&boards, None))
                    }
                    None => unreached(),
                }
            }
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
    /// The best estimate available for a `rows x cols` board: pattern databases (loaded
    /// from `cache_dir` or built) up to [`pdb::MAX_PATTERN_CELLS`] cells, else Manhattan
    /// distance plus linear conflicts.
    pub fn for_board(rows: usize, cols: usize, cache_dir: Option<&std::path::Path>, note: &dyn Fn(&str)) -> Self {
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
        }
    }
}

fn prepare_table<P: Puzzle>(puzzle: &P, table: &mut Option<DistanceTable>, note: &dyn Fn(&str)) -> Result<()> {
    if table.is_none() {
        let dir = cache::cache_dir();
        let built = DistanceTable::load_or_build(puzzle, dir.as_deref(), note);
        *table = Some(built.with_context(|| format!("{}: cannot build the distance table", puzzle.id()))?);
    }
    Ok(())
}

/// A malformed position as a one-line error naming it.
fn malformed(text: &str, e: &ParseError) -> anyhow::Error {
    anyhow::anyhow!("cannot read the position `{text}`: {e}")
}

/// Sorts a parse error into an unsolvable position (fine) or malformed input (an error).
fn unsolvable(e: ParseError, text: &str) -> Result<State> {
    match e {
        ParseError::Unsolvable(reason) => Ok(State::Unsolvable(reason)),
        ParseError::Malformed(_) => Err(malformed(text, &e)),
    }
}

/// Reads a sliding board: tiles on the command line, or a data file's path (anything that
/// is not just numbers, spaces and commas).
fn read_board(
    (rows, cols): (usize, usize),
    text: &str,
    check: impl Fn(&Board) -> Result<(), ParseError>,
) -> Result<State> {
    let is_tiles = text
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace() || c == ',');
    let board = if is_tiles {
        Board::parse(rows, cols, text).map_err(|e| malformed(text, &e))?
    } else {
        let contents =
            std::fs::read_to_string(text).with_context(|| format!("cannot read the position file {text}"))?;
        Board::parse_data_file(rows, cols, &contents).map_err(|e| anyhow::anyhow!("{text}: {e}"))?
    };
    Ok(match check(&board) {
        Ok(()) => State::Board(board),
        Err(e) => unsolvable(e, text)?,
    })
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

/// A sliding solution from its boards: each move names the tile that slid.
fn sliding_solution(boards: &[Board], nodes: Option<u64>) -> Solution {
    Solution {
        drawings: boards.iter().map(Board::draw).collect(),
        moves: boards
            .windows(2)
            .map(|w| format!("tile {}", w[0].tiles()[w[1].blank()]))
            .collect(),
        nodes,
        weights: None,
    }
}

/// Flip K of N: the table walks tail counts; each step flips concrete coins of `row`.
fn flip_k_solution(puzzle: &FlipK, row: &[bool], counts: &[u64]) -> Result<Solution> {
    let draw = |row: &[bool]| row.iter().map(|&t| if t { 'T' } else { 'H' }).collect::<String>();
    let mut row = row.to_vec();
    let mut solution = Solution {
        drawings: vec![draw(&row)],
        moves: Vec::new(),
        nodes: None,
        weights: None,
    };
    for &target in &counts[1..] {
        let flipped = puzzle.concrete_move(&row, target);
        for &i in &flipped {
            row[i] = !row[i];
        }
        if puzzle.rank_of(&row) != target {
            bail!("flip-k: the move to {target} tails could not be made concrete");
        }
        solution.moves.push(flip_k::coin_list(&flipped));
        solution.drawings.push(draw(&row));
    }
    Ok(solution)
}

/// Writes `N moves` (or the total cost, `N flips`), the start, then each move's name (and
/// cost) and the configuration after it.
pub fn write_solution(solution: &Solution, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{}", solution.length_text())?;
    if let Some(start) = solution.drawings.first() {
        writeln!(out, "{start}")?;
    }
    for (i, (name, drawing)) in solution.moves.iter().zip(&solution.drawings[1..]).enumerate() {
        let cost = match &solution.weights {
            Some((metric, costs)) => format!(" ({} {metric})", costs.get(i).copied().unwrap_or(0)),
            None => String::new(),
        };
        writeln!(out, "\nmove {}: {name}{cost}\n{drawing}", i + 1)?;
    }
    Ok(())
}

/// The summary of several positions as a Markdown table: state, moves, seconds.
fn write_summary(rows: &[(String, String, f64)], out: &mut impl Write) -> std::io::Result<()> {
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max("state".len());
    writeln!(out, "| {:width$} | {:>10} | {:>8} |", "state", "moves", "seconds")?;
    writeln!(
        out,
        "|{}|{}:|{}:|",
        "-".repeat(width + 2),
        "-".repeat(11),
        "-".repeat(9)
    )?;
    for (label, moves, seconds) in rows {
        writeln!(out, "| {label:width$} | {moves:>10} | {seconds:>8.3} |")?;
    }
    Ok(())
}
