//! The sliding boards' side of solving: positions read as boards (tiles row by row, or a
//! data file) with the facts `--solve` prints, and the route by table for boards whose
//! rank space is enumerated (a byte a rank up to 10 cells, the distance modulo 3 on 3x4
//! and 2x6, handing over to IDA* where no cache folder can keep that table). IDA* itself
//! is [`super::search`].

use super::board::Board;
use super::mod3::DistanceMod3;
use super::table::{DistanceTable, Table};
use super::{Outcome, Position, Preparing, Route, Sample, Solution, State, malformed, sample, unreached, unsolvable};
use crate::heuristics::PositionFacts;
use crate::puzzle::sliding::Sliding;
use crate::puzzle::{Notation, ParseError, SearchGraph};
use anyhow::{Context, Result};

/// What the sliding routes share: reading a board and saying what it can be.
pub trait Boards {
    /// The board's rows and columns.
    fn shape(&self) -> (usize, usize);
    /// Whether `board` can reach this route's goal (the route knows its goal).
    fn check(&self, board: &Board) -> Result<(), ParseError>;
    /// Whether the goal is the usual one, to which the printed facts are measured.
    fn usual_goal(&self) -> bool;
}

/// Reads a position typed as tiles row by row.
pub(crate) fn read(route: &dyn Boards, text: &str) -> Result<Position> {
    let (rows, cols) = route.shape();
    let board =
        Board::parse(rows, cols, text).map_err(|e| anyhow::anyhow!("{}; {}", malformed(text, &e), accepted(route)))?;
    position(route, board, text)
}

/// Reads a position from the contents of the data file `label` (see
/// [`Board::parse_data_file`]).
pub(crate) fn read_data_file(route: &dyn Boards, label: &str, contents: &str) -> Result<Position> {
    let (rows, cols) = route.shape();
    let board = Board::parse_data_file(rows, cols, contents).map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
    position(route, board, label)
}

/// What a position may be, for messages: `a position is the 9 tiles row by row, 0 for the
/// blank (e.g. ...), or the path of a data file`.
pub(crate) fn accepted(route: &dyn Boards) -> String {
    let (rows, cols) = route.shape();
    format!(
        "a state is the {} tiles row by row, 0 for the blank (e.g. `{}`), or the path of a data file",
        rows * cols,
        Board::goal(rows, cols).render()
    )
}

/// `board`, labelled `label`, with its verdict and (to the usual goal) its facts.
fn position(route: &dyn Boards, board: Board, label: &str) -> Result<Position> {
    let facts = route
        .usual_goal()
        .then(|| PositionFacts::new(board.rows(), board.cols(), board.tiles()));
    let state = match route.check(&board) {
        Ok(()) => State::Board(board),
        Err(e) => unsolvable(e, label)?,
    };
    Ok(Position {
        label: label.to_string(),
        facts,
        state,
    })
}

/// A sliding board whose rank space is enumerated, solved by a walk down its distance
/// table: a byte a rank, or (3x4 and 2x6) the distance modulo 3. The mod 3 table is kept
/// in the cache folder; without one the route hands over to `fallback` (IDA*) where there
/// is one, else builds the table in memory.
pub struct TableBoards {
    puzzle: Sliding,
    table: Option<Table>,
    /// Solve by the distance modulo 3 (else a byte a rank).
    mod3: bool,
    fallback: Option<Box<dyn Route>>,
}

impl TableBoards {
    /// The route for `puzzle` (ranked, with its goal) by a byte a rank.
    pub(crate) fn bytes(puzzle: Sliding) -> Self {
        Self {
            puzzle,
            table: None,
            mod3: false,
            fallback: None,
        }
    }

    /// The route for `puzzle` by the distance modulo 3; `fallback` is taken when that table
    /// cannot be kept.
    pub(crate) fn mod3(puzzle: Sliding, fallback: Option<Box<dyn Route>>) -> Self {
        Self {
            puzzle,
            table: None,
            mod3: true,
            fallback,
        }
    }
}

impl Boards for TableBoards {
    fn shape(&self) -> (usize, usize) {
        self.puzzle.shape()
    }

    /// The puzzle's own ranking decides, as it knows the goal (see `--goal`).
    fn check(&self, board: &Board) -> Result<(), ParseError> {
        self.puzzle.rank_board(board.tiles()).map(|_| ())
    }

    fn usual_goal(&self) -> bool {
        !self.puzzle.has_custom_goal()
    }
}

impl Route for TableBoards {
    fn id(&self) -> String {
        self.puzzle.id()
    }

    fn read(&self, text: &str) -> Result<Position> {
        read(self, text)
    }

    fn boards(&self) -> Option<&dyn Boards> {
        Some(self)
    }

    fn prepare(&mut self, how: &Preparing) -> Result<Option<Box<dyn Route>>> {
        if self.table.is_some() {
            return Ok(None);
        }
        let id = self.puzzle.id();
        let identity = how.identity(&id);
        if !self.mod3 {
            let built = DistanceTable::load_or_build(&self.puzzle, &identity, how.cache, how.note);
            self.table = Some(Table::Bytes(
                built.with_context(|| format!("{id}: cannot build the distance table"))?,
            ));
            return Ok(None);
        }
        let built = DistanceMod3::prepare(&self.puzzle, &identity, how.cache, self.fallback.is_none(), how.note)
            .with_context(|| format!("{id}: cannot build the distance table"))?;
        match (built, self.fallback.take()) {
            (Some(built), _) => self.table = Some(Table::Mod3(built)),
            (None, Some(mut fallback)) => {
                fallback.prepare(how)?;
                return Ok(Some(fallback));
            }
            (None, None) => anyhow::bail!("{id}: no route to solve it"),
        }
        Ok(None)
    }

    fn prepared_what(&self) -> Option<String> {
        self.table
            .as_ref()
            .map(|table| table.describe(self.puzzle.states(), "ranks"))
    }

    fn sample(&mut self, request: Sample, how: &Preparing) -> Result<Vec<String>> {
        let (distance, count, seed) = (request.distance, request.count, request.seed);
        let ranks = if self.mod3 {
            // A table of distances modulo 3 cannot tell a rank's distance: the search from
            // the goal up to level `distance` can.
            let drawn = sample::by_search(&self.puzzle, distance, count, seed)?;
            drawn.into_iter().map(|(rank, _)| rank).collect()
        } else {
            self.prepare(how)?;
            let Some(Table::Bytes(table)) = &self.table else {
                anyhow::bail!("{}: no distance table was built", self.puzzle.id());
            };
            sample::from_table(table.distances(), distance, count, seed)?
        };
        if ranks.len() < count {
            (how.note)(&sample::shortfall(&self.puzzle.id(), ranks.len(), distance));
        }
        Ok(ranks.into_iter().map(|rank| self.puzzle.render(rank)).collect())
    }

    fn solve(&mut self, position: &Position, _: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        let (Some(table), State::Board(board)) = (&self.table, &position.state) else {
            anyhow::bail!("{}: this state does not belong to this puzzle", position.label);
        };
        let puzzle = &self.puzzle;
        let rank = puzzle.rank_board(board.tiles()).map_err(|e| anyhow::anyhow!("{e}"))?;
        let Some(path) = table.path(puzzle, rank) else {
            return Ok(unreached());
        };
        let (rows, cols) = puzzle.shape();
        let boards = path
            .iter()
            .map(|&r| Board::new(rows, cols, puzzle.board(r)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Outcome::Solved(solution(&boards, None)))
    }
}

/// A sliding solution from its boards: each move names the tile that slid.
pub(crate) fn solution(boards: &[Board], nodes: Option<u64>) -> Solution {
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
