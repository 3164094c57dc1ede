//! Sliding boards too big to enumerate, solved by IDA* ([`super::ida`]) with the best
//! admissible estimate at hand: additive pattern databases up to 25 cells (the split
//! layout for 7-8 on 4x4 and for any goal up to 16 cells), Manhattan distance plus linear
//! conflicts beyond.

use super::board::{self, Board};
use super::ida;
use super::manhattan::ManhattanLc;
use super::pdb::{self, PatternHeuristic};
use super::sliding::{self, Boards};
use super::split::{self, SplitDb, SplitHeuristic};
use super::{Outcome, Pdb, Position, Preparing, Route, Sample, State, sample, unreached};
use crate::puzzle::ParseError;
use anyhow::{Context, Result, bail};
use std::path::Path;

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

/// A sliding board solved by IDA*, measured to the usual goal or to another (`--goal`).
pub struct SearchBoards {
    rows: usize,
    cols: usize,
    estimate: Option<Estimate>,
    /// With `--goal` (the blank in the last cell) beyond 16 cells: `relabel[t]` is the tile
    /// the usual goal has where the given goal has `t`, so the search and its cached
    /// estimate only ever see the usual goal.
    relabel: Option<Vec<u8>>,
    /// With `--goal` on boards up to 16 cells: the goal itself (tiles cell by cell), which
    /// the split pattern databases are built for.
    goal: Option<Vec<u8>>,
}

impl SearchBoards {
    /// The route for a `rows x cols` board and `goal` (`None`: the usual one); fails (one
    /// line) on a board or goal it does not take.
    pub(crate) fn new(rows: usize, cols: usize, goal: Option<&str>) -> Result<Self> {
        let cells = rows * cols;
        if cells > board::MAX_CELLS {
            bail!(
                "--solve takes sliding boards of up to {} cells (8x8, 4x16, 2x32 ...); {rows}x{cols} has {cells}",
                board::MAX_CELLS
            );
        }
        let mut route = Self {
            rows,
            cols,
            estimate: None,
            relabel: None,
            goal: None,
        };
        let Some(goal) = goal else {
            return Ok(route);
        };
        let goal = crate::puzzle::sliding::read_tiles(goal, cells)?;
        if cells <= split::MAX_SPLIT_CELLS {
            route.goal = Some(goal);
            return Ok(route);
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
        route.relabel = Some(relabel);
        Ok(route)
    }
}

impl Boards for SearchBoards {
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn check(&self, board: &Board) -> Result<(), ParseError> {
        match &self.goal {
            Some(goal) => same_class(board, goal),
            None => relabelled(board, self.relabel.as_deref()).and_then(|b| b.check_solvable()),
        }
    }

    fn usual_goal(&self) -> bool {
        self.relabel.is_none() && self.goal.is_none()
    }
}

impl Route for SearchBoards {
    fn id(&self) -> String {
        format!("sliding-{}x{}", self.rows, self.cols)
    }

    fn read(&self, text: &str) -> Result<Position> {
        sliding::read(self, text)
    }

    fn boards(&self) -> Option<&dyn Boards> {
        Some(self)
    }

    fn prepare(&mut self, how: &Preparing) -> Result<Option<Box<dyn Route>>> {
        if self.estimate.is_none() {
            self.estimate = Some(Estimate::for_goal(
                (self.rows, self.cols),
                self.goal.as_deref(),
                how.pdb,
                how.cache,
                how.note,
                how.progress,
            )?);
        }
        Ok(None)
    }

    fn prepared_what(&self) -> Option<String> {
        match &self.estimate {
            Some(Estimate::Patterns(_)) => Some("pattern databases".into()),
            Some(Estimate::Split(h)) => Some(format!("pattern databases ({})", h.describe())),
            _ => None,
        }
    }

    fn walks(&self) -> bool {
        false
    }

    fn sample(&mut self, _: Sample, _: &Preparing) -> Result<Vec<String>> {
        Err(sample::SampleError::NoTable(format!(
            "sliding-{}x{} is solved by IDA*, without a distance table to draw states from: --sample takes sliding boards of up to 12 cells (3x4, 2x6)",
            self.rows, self.cols
        ))
        .into())
    }

    fn solve(&mut self, position: &Position, progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        let (Some(estimate), State::Board(board)) = (&self.estimate, &position.state) else {
            bail!("{}: this state does not belong to this puzzle", position.label);
        };
        let Some(found) = estimate.solve(&relabelled(board, self.relabel.as_deref())?, progress) else {
            return Ok(unreached());
        };
        let mut boards = vec![board.clone()];
        for &cell in &found.slides {
            let next = boards
                .last()
                .and_then(|b| b.slide(usize::from(cell)))
                .context("the search returned an illegal move")?;
            boards.push(next);
        }
        Ok(Outcome::Solved(sliding::solution(&boards, Some(found.nodes))))
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
            "this state and the goal `{}` are in different classes of the parity rule (tile inversions and the blank's row), which no move changes",
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
