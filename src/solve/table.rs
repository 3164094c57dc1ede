//! Solving by table: when a puzzle's whole rank space is small, one breadth-first search
//! from the goals gives every configuration's distance, and a shortest solution is a walk
//! that always steps to a successor one move closer. No search per position.

use super::mod3::{self, DistanceMod3, MAX_MOD3_RANKS};
use super::{Outcome, Position, Preparing, Route, Sample, Solution, State, cache, sample, unreached, unsolvable};
use crate::engine::{self, EngineError, Options};
use crate::identity::Identity;
use crate::puzzle::Puzzle;
use crate::util::thousands;
use anyhow::{Context, Result};
use std::ops::ControlFlow;
use std::path::Path;
use thiserror::Error;

/// Largest rank space solved by table: a byte per rank (64 MiB) plus the engine's 2 bits.
/// It covers the 8-puzzle, the 2x5 board (1.8 M ranks) and every coin board up to 5x5;
/// 3x4 and 2x6 (239 M ranks) get their distance modulo 3 instead ([`super::mod3`]).
pub const MAX_TABLE_RANKS: u64 = 1 << 26;

/// Rank spaces solved through the distance modulo 3 ([`super::mod3`]) by default: above
/// the byte-a-rank table's limit, up to the 12-cell boards (3x4 and 2x6, 12!/2 ranks). The
/// next board, 2x7, has 182 times as many.
pub const MOD3_RANKS: std::ops::RangeInclusive<u64> = (MAX_TABLE_RANKS + 1)..=(1 << 28);

/// Smallest table worth caching on disk: the 8-puzzle's takes 20 ms to build, a millisecond
/// to read.
pub const CACHED_RANKS: u64 = 1 << 16;

/// Marks a rank the search from the goals never reached.
const UNREACHED: u8 = u8::MAX;

/// Why a distance table could not be built.
#[derive(Debug, Error)]
pub enum TableError {
    /// The rank space is larger than [`MAX_TABLE_RANKS`].
    #[error("{states} ranks are too many for a distance table (the limit is {MAX_TABLE_RANKS})")]
    TooLarge {
        /// Size of the rank space.
        states: u64,
    },
    /// A configuration lies 255 or more moves (or cost) from the goal: distances are
    /// stored in bytes.
    #[error("distances of 255 or more do not fit the table's bytes")]
    TooDeep,
    /// The breadth-first search itself failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The distance to the nearest goal of every rank of a puzzle.
#[derive(Debug, Clone)]
pub struct DistanceTable {
    distances: Vec<u8>,
}

impl DistanceTable {
    /// Runs the engine's breadth-first search from the goals (on the current rayon pool)
    /// and records each level's ranks as it completes.
    pub fn build<P: Puzzle>(puzzle: &P) -> Result<Self, TableError> {
        let states = puzzle.states();
        if states > MAX_TABLE_RANKS {
            return Err(TableError::TooLarge { states });
        }
        let mut distances = vec![UNREACHED; states as usize];
        for goal in puzzle.goals() {
            if let Some(d) = distances.get_mut(goal as usize) {
                *d = 0;
            }
        }
        let mut too_deep = false;
        engine::search(puzzle, Options::default(), |level| {
            let depth = level.depth + 1;
            match u8::try_from(depth) {
                Ok(d) if d < UNREACHED => level.next.iter().for_each(|rank| distances[rank as usize] = d),
                _ => too_deep |= level.next.iter().next().is_some(),
            }
            ControlFlow::Continue(())
        })?;
        if too_deep {
            return Err(TableError::TooDeep);
        }
        Ok(Self { distances })
    }

    /// Loads the table from the cache folder `dir`, or builds and stores it there. Tables
    /// under [`CACHED_RANKS`] ranks are always built: that takes less than reading a file.
    ///
    /// The file is keyed by `identity`, the search's (see [`crate::identity`]): its name
    /// carries the start of the hash and its header the whole, so a rules file named like a
    /// built-in, or an edited one, never reads another's table. The header also carries a
    /// fingerprint of the ranking (a sample of ranks with their renderings and successors),
    /// so a table written by a program that ranked otherwise is rebuilt rather than trusted.
    pub fn load_or_build<P: Puzzle>(
        puzzle: &P,
        identity: &Identity,
        dir: Option<&Path>,
        note: &dyn Fn(&str),
    ) -> Result<Self, TableError> {
        let states = puzzle.states();
        let Some(dir) = dir.filter(|_| (CACHED_RANKS..=MAX_TABLE_RANKS).contains(&states)) else {
            return Self::build(puzzle);
        };
        let path = dir.join(cache::file_name(&puzzle.id(), identity, "dist"));
        let header = format!(
            "analyze distance table v2: {}, {states} ranks, identity {identity}, ranking fingerprint {:016x}",
            puzzle.id(),
            cache::fingerprint(puzzle)
        );
        match cache::load(&path, &header, states as usize) {
            Ok(distances) => return Ok(Self { distances }),
            Err(why) if path.exists() => note(&format!("{}: {why}; rebuilding it", path.display())),
            Err(_) => {}
        }
        let table = Self::build(puzzle)?;
        if let Err(e) = cache::store(&path, &header, &table.distances) {
            note(&format!("cannot cache the distance table in {}: {e}", dir.display()));
        }
        Ok(table)
    }

    /// Moves from `rank` to the nearest goal; `None` if no sequence of moves gets there.
    pub fn distance(&self, rank: u64) -> Option<usize> {
        match self.distances.get(rank as usize) {
            Some(&d) if d != UNREACHED => Some(usize::from(d)),
            _ => None,
        }
    }

    /// Starts fetching `rank`'s distance into the cache (see [`DistanceMod3::prefetch`]).
    ///
    /// [`DistanceMod3::prefetch`]: super::mod3::DistanceMod3::prefetch
    #[inline]
    pub fn prefetch(&self, rank: u64) {
        if let Some(byte) = self.distances.get(rank as usize) {
            crate::engine::bitset::prefetch(byte);
        }
    }

    /// Every rank the search reached with its distance, ranks ascending.
    pub fn distances(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.distances
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != UNREACHED)
            .map(|(rank, &d)| (rank as u64, usize::from(d)))
    }

    /// One shortest (least-cost) path from `rank` to a goal, both ends included; `None` if
    /// there is none. Each step takes the first move (in the puzzle's move order) whose
    /// cost is exactly what it brings the distance down by.
    pub fn path<P: Puzzle>(&self, puzzle: &P, rank: u64) -> Option<Vec<u64>> {
        let mut d = self.distance(rank)?;
        let mut path = vec![rank];
        let mut here = rank;
        while d > 0 {
            let mut closer = None;
            puzzle.for_each_weighted_successor(here, |next, cost| {
                let cost = cost as usize;
                if closer.is_none() && cost <= d && self.distance(next) == Some(d - cost) {
                    closer = Some((next, cost));
                }
            });
            // The table came from the same moves, so such a successor always exists.
            let (next, cost) = closer?;
            here = next;
            path.push(here);
            d -= cost;
        }
        Some(path)
    }
}

/// Solving any puzzle whose rank space fits a [`DistanceTable`], or above
/// [`MAX_TABLE_RANKS`] a [`DistanceMod3`] where [`mod3::applies`]: positions in the
/// puzzle's notation, solutions walked down the table.
pub struct TableRoute<P> {
    puzzle: P,
    table: Option<Table>,
}

/// The table a route walks: [`TableRoute`], and the sliding boards' by table.
pub(crate) enum Table {
    /// A byte a rank: each distance.
    Bytes(DistanceTable),
    /// 2 bits a rank: each distance modulo 3.
    Mod3(DistanceMod3),
}

impl Table {
    /// A shortest path from `rank` to a goal of `puzzle`, both ends included; `None` if
    /// there is none.
    pub(crate) fn path<P: Puzzle>(&self, puzzle: &P, rank: u64) -> Option<Vec<u64>> {
        match self {
            Table::Bytes(table) => table.path(puzzle, rank),
            Table::Mod3(table) => table.path(puzzle, rank),
        }
    }

    /// What it is, for a note: `distance table of N ranks`, with `(mod 3, SIZE)`.
    pub(crate) fn describe(&self, states: u64) -> String {
        match self {
            Table::Bytes(_) => format!("distance table of {} ranks", thousands(states)),
            Table::Mod3(_) => format!(
                "distance table (mod 3, {}) of {} ranks",
                mod3::megabytes(states),
                thousands(states)
            ),
        }
    }
}

/// Why `puzzle` cannot be solved by a table, in one line naming the limit and the memory;
/// `None` if it can.
pub fn refusal<P: Puzzle>(puzzle: &P) -> Option<String> {
    let states = puzzle.states();
    if states <= MAX_TABLE_RANKS || mod3::applies(puzzle) {
        return None;
    }
    let why = if states > MAX_MOD3_RANKS {
        format!(
            "its distance modulo 3 would take {} (2 bits a rank), over the {} the solver allows",
            crate::util::human_bytes(u128::from(states.div_ceil(4))),
            crate::util::human_bytes(u128::from(MAX_MOD3_RANKS / 4))
        )
    } else if puzzle.max_move_cost() != 1 {
        "its moves have different costs, so only a byte a rank would do".to_string()
    } else {
        "some move cannot be undone, so only a byte a rank would do".to_string()
    };
    Some(format!(
        "{}: --solve cannot solve it: it has {} ranks, over the {} of a distance table of a byte a rank ({}), and {why}",
        puzzle.id(),
        thousands(states),
        thousands(MAX_TABLE_RANKS),
        crate::util::human_bytes(u128::from(MAX_TABLE_RANKS))
    ))
}

impl<P: Puzzle> TableRoute<P> {
    /// The route for `puzzle`; the table is built (or loaded) by [`Route::prepare`].
    pub fn new(puzzle: P) -> Self {
        Self { puzzle, table: None }
    }

    /// The cost of the cheapest move from `from` to `to`.
    fn cost(&self, from: u64, to: u64) -> u32 {
        let mut cost = u32::MAX;
        self.puzzle.for_each_weighted_successor(from, |next, c| {
            if next == to {
                cost = cost.min(c);
            }
        });
        cost
    }
}

impl<P: Puzzle + Send> Route for TableRoute<P> {
    fn id(&self) -> String {
        self.puzzle.id()
    }

    fn read(&self, text: &str) -> Result<Position> {
        let state = match self.puzzle.parse(text) {
            Ok(rank) => State::Rank(rank),
            Err(e) => unsolvable(e, text)?,
        };
        Ok(Position::read_as(text, state))
    }

    fn prepare(&mut self, how: &Preparing) -> Result<Option<Box<dyn Route>>> {
        if self.table.is_some() {
            return Ok(None);
        }
        let id = self.puzzle.id();
        if let Some(why) = refusal(&self.puzzle) {
            anyhow::bail!(why);
        }
        let (identity, cache, note) = (how.identity(&id), how.cache, how.note);
        let table = if self.puzzle.states() > MAX_TABLE_RANKS {
            let built = DistanceMod3::prepare(&self.puzzle, &identity, cache, true, note)
                .with_context(|| format!("{id}: cannot build the distance table"))?;
            Table::Mod3(built.with_context(|| format!("{id}: no distance table was built"))?)
        } else {
            let built = DistanceTable::load_or_build(&self.puzzle, &identity, cache, note);
            Table::Bytes(built.with_context(|| format!("{id}: cannot build the distance table"))?)
        };
        self.table = Some(table);
        Ok(None)
    }

    fn prepared_what(&self) -> Option<String> {
        self.table.as_ref().map(|table| table.describe(self.puzzle.states()))
    }

    fn sample(&mut self, request: Sample, how: &Preparing) -> Result<Vec<String>> {
        if let Some(why) = refusal(&self.puzzle) {
            return Err(sample::SampleError::NoTable(
                why.replace("--solve cannot solve it", "--sample has no table to draw from"),
            )
            .into());
        }
        let (distance, count, seed) = (request.distance, request.count, request.seed);
        let drawn: Vec<(u64, u64)> = if self.puzzle.states() > MAX_TABLE_RANKS {
            let ranks = sample::by_search(&self.puzzle, distance, count, seed)?;
            ranks.into_iter().map(|rank| (rank, 0)).collect()
        } else {
            self.prepare(how)?;
            let Some(Table::Bytes(table)) = &self.table else {
                anyhow::bail!("{}: no distance table was built", self.puzzle.id());
            };
            // Where a rank stands for several configurations, they are drawn among, not it.
            match table.distances().any(|(rank, _)| self.puzzle.multiplicity(rank) > 1) {
                true => sample::members(table.distances(), distance, count, seed, |r| {
                    self.puzzle.multiplicity(r)
                })?,
                false => {
                    let ranks = sample::from_table(table.distances(), distance, count, seed)?;
                    ranks.into_iter().map(|rank| (rank, 0)).collect()
                }
            }
        };
        if drawn.len() < count {
            let id = self.puzzle.id();
            (how.note)(&sample::shortfall(&id, drawn.len(), distance));
        }
        Ok(drawn
            .into_iter()
            .map(|(rank, index)| self.puzzle.render_member(rank, index))
            .collect())
    }

    fn reach(&mut self, position: &Position) -> Result<Option<Vec<String>>> {
        let (Some(table), State::Rank(rank)) = (&self.table, &position.state) else {
            return Ok(None);
        };
        if !self.puzzle.symmetric() {
            return Ok(None);
        }
        let Some(mut path) = table.path(&self.puzzle, *rank) else {
            return Ok(None);
        };
        path.reverse();
        Ok(Some(
            path.windows(2).map(|w| self.puzzle.describe_move(w[0], w[1])).collect(),
        ))
    }

    fn solve(&mut self, position: &Position, _: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        let (Some(table), State::Rank(rank)) = (&self.table, &position.state) else {
            anyhow::bail!("{}: this state does not belong to this puzzle", position.label);
        };
        let Some(path) = table.path(&self.puzzle, *rank) else {
            return Ok(unreached());
        };
        let walk = self
            .puzzle
            .walk(&position.label, &path)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let weights = (self.puzzle.max_move_cost() > 1).then(|| {
            let costs = path.windows(2).map(|w| self.cost(w[0], w[1])).collect();
            (self.puzzle.metric(), costs)
        });
        Ok(Outcome::Solved(Solution {
            drawings: walk.drawings,
            positions: walk.positions,
            moves: walk.moves,
            nodes: None,
            weights,
        }))
    }
}
