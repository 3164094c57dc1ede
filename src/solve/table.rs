//! Solving by table: when a puzzle's whole rank space is small, one breadth-first search
//! from the goals gives every configuration's distance, and a shortest solution is a walk
//! that always steps to a successor one move closer. No search per position.

use super::mod3::{self, DistanceMod3, MAX_ROUTE_RANKS};
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
        self.path_through(puzzle, rank, |rank| rank)
    }

    /// [`DistanceTable::path`] where the table's ranks are not `puzzle`'s: `index` gives a
    /// rank of `puzzle` (a position) the table's rank (its class), so the walk is on
    /// `puzzle`'s own ranks and moves.
    pub fn path_through<P: Puzzle>(&self, puzzle: &P, rank: u64, index: impl Fn(u64) -> u64) -> Option<Vec<u64>> {
        let mut d = self.distance(index(rank))?;
        let mut path = vec![rank];
        let mut here = rank;
        while d > 0 {
            let mut closer = None;
            puzzle.for_each_weighted_successor(here, |next, cost| {
                let cost = cost as usize;
                if closer.is_none() && cost <= d && self.distance(index(next)) == Some(d - cost) {
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
///
/// Where the puzzle's ranks are classes up to its symmetries (a definition searched by
/// class), the table is of classes and `positions` is the same puzzle ranked by positions
/// ([`Invariant::positions`](crate::puzzle::Invariant::positions)): a position is read as
/// itself, and walked move by move on its own neighbours, each looked up at its class. A
/// position and its images are equally far from the goal, so the walk is a shortest one.
pub struct TableRoute<P> {
    puzzle: P,
    positions: Option<P>,
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
        self.path_through(puzzle, rank, |rank| rank)
    }

    /// [`Table::path`] on the ranks of `puzzle`, whose rank `r` is the table's `index(r)`
    /// (see [`DistanceTable::path_through`]).
    pub(crate) fn path_through<P: Puzzle>(
        &self,
        puzzle: &P,
        rank: u64,
        index: impl Fn(u64) -> u64,
    ) -> Option<Vec<u64>> {
        match self {
            Table::Bytes(table) => table.path_through(puzzle, rank, index),
            Table::Mod3(table) => table.path_through(puzzle, rank, index),
        }
    }

    /// What it is, for a note: `distance table of N ranks`, with `(mod 3, SIZE)`; `of`
    /// says what the ranks are (`ranks`, or `classes (of N positions)`).
    pub(crate) fn describe(&self, states: u64, of: &str) -> String {
        match self {
            Table::Bytes(_) => format!("distance table of {} {of}", thousands(states)),
            Table::Mod3(_) => format!(
                "distance table (mod 3, {}) of {} {of}",
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
    let why = if states > MAX_ROUTE_RANKS {
        format!(
            "its distance modulo 3 would take {} (2 bits a rank), over the {} the solver allows",
            crate::util::human_bytes(u128::from(states.div_ceil(4))),
            crate::util::human_bytes(u128::from(MAX_ROUTE_RANKS / 4))
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
        let positions = puzzle.positions();
        Self {
            puzzle,
            positions,
            table: None,
        }
    }

    /// The puzzle positions are read and walked on: [`TableRoute::positions`]', or the
    /// table's own.
    fn walker(&self) -> &P {
        self.positions.as_ref().unwrap_or(&self.puzzle)
    }

    /// The identity the cached table is kept under: a table of classes is never read as
    /// one of positions, nor the other way round (an older table of this search's
    /// positions has the same identity but no `table` part).
    fn identity(&self, how: &Preparing) -> Identity {
        let identity = how.identity(&self.puzzle.id());
        match self.positions {
            Some(_) => identity.with("table", "classes"),
            None => identity,
        }
    }

    /// A shortest path from the position of `rank` (a rank of [`TableRoute::walker`]),
    /// both ends included, walked on its own moves.
    fn path(&self, table: &Table, rank: u64) -> Option<Vec<u64>> {
        match &self.positions {
            Some(positions) => table.path_through(positions, rank, |r| self.puzzle.class_rank(r)),
            None => table.path(&self.puzzle, rank),
        }
    }

    /// What the table's ranks are, for a note: `ranks`, or `ranks (classes of ...)`.
    fn ranks_are(&self) -> String {
        match &self.positions {
            Some(positions) => format!(
                "ranks (classes of its {} positions up to its symmetries)",
                thousands(positions.states())
            ),
            None => "ranks".into(),
        }
    }

    /// The cost of the cheapest move from `from` to `to`, positions of the walker.
    fn cost(&self, from: u64, to: u64) -> u32 {
        let mut cost = u32::MAX;
        self.walker().for_each_weighted_successor(from, |next, c| {
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
        let state = match self.walker().parse(text) {
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
        let (identity, cache, note) = (self.identity(how), how.cache, how.note);
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
        let of = self.ranks_are();
        self.table
            .as_ref()
            .map(|table| table.describe(self.puzzle.states(), &of))
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
            sample::by_search(&self.puzzle, distance, count, seed)?
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
        let Some(mut path) = self.path(table, *rank) else {
            return Ok(None);
        };
        path.reverse();
        let walker = self.walker();
        Ok(Some(
            path.windows(2).map(|w| walker.describe_move(w[0], w[1])).collect(),
        ))
    }

    fn solve(&mut self, position: &Position, _: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        let (Some(table), State::Rank(rank)) = (&self.table, &position.state) else {
            anyhow::bail!("{}: this state does not belong to this puzzle", position.label);
        };
        let Some(path) = self.path(table, *rank) else {
            return Ok(unreached());
        };
        let walk = self
            .walker()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::{Metric, PermPuzzle};
    use crate::puzzle::{Invariant, Notation, SearchGraph, SymmetryChoice};
    use std::collections::HashMap;

    /// The 6 edges of a tetrahedron, each move a third turn of the three edges at a vertex:
    /// 360 positions under 24 symmetries, searched by class through blocks of opposite
    /// edges, its classes of many sizes (the goal's alone, most of 24).
    const TETRAHEDRON_EDGES: &str = "Name TetrahedronEdges\nSet EDGE 6 1\n\
        Solved\nEDGE\n1 2 3 4 5 6\nEnd\n\
        Move V0\nEDGE\n2 3 1 4 5 6\nEnd\nMove V1\nEDGE\n5 2 3 1 4 6\nEnd\n\
        Move V2\nEDGE\n1 4 3 6 5 2\nEnd\nMove V3\nEDGE\n1 2 6 4 3 5\nEnd\n";

    fn example(file: &str) -> String {
        std::fs::read_to_string(format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"))).expect("example")
    }

    /// The solver's puzzle for `text` with the symmetries `choice` asks for.
    fn solving(text: &str, choice: SymmetryChoice) -> PermPuzzle {
        PermPuzzle::from_text(text, "test", Metric::Face)
            .expect("definition")
            .with_symmetry(choice)
            .expect("group")
            .for_solving()
    }

    /// The table of classes (of `text` searched by class) and the plain table (with no
    /// symmetry), with their puzzles.
    struct Tables {
        classes: PermPuzzle,
        positions: PermPuzzle,
        by_class: DistanceTable,
        plain: PermPuzzle,
        /// A byte a position, or its distance modulo 3 above [`MAX_TABLE_RANKS`].
        by_position: Table,
    }

    impl Tables {
        fn of(text: &str) -> Tables {
            let classes = solving(text, SymmetryChoice::default());
            let positions = classes.positions().expect("searched by class");
            let plain = solving(text, SymmetryChoice::NONE);
            assert!(plain.positions().is_none());
            assert!(classes.states() * 2 <= plain.states(), "{} classes", classes.states());
            let by_class = DistanceTable::build(&classes).expect("a table of classes");
            let by_position = match DistanceTable::build(&plain) {
                Ok(table) => Table::Bytes(table),
                Err(_) => Table::Mod3(DistanceMod3::build(&plain).expect("a table of positions")),
            };
            Tables {
                classes,
                positions,
                by_class,
                plain,
                by_position,
            }
        }

        /// The plain table's rank `rank`: the same distance from the table of classes, and
        /// a walk on its own moves, as long as the plain table's, that replays to the goal.
        fn check(&self, rank: u64) {
            let text = self.plain.render(rank);
            let own = self.positions.parse(&text).expect("the same position");
            let d = self.by_position.path(&self.plain, rank).map(|path| path.len() - 1);
            assert_eq!(self.by_class.distance(self.classes.class_rank(own)), d, "{text}");
            let Some(d) = d else { return };
            let path = self
                .by_class
                .path_through(&self.positions, own, |r| self.classes.class_rank(r))
                .expect("a path");
            assert_eq!(path.len(), d + 1, "{text}");
            assert_eq!(path.last(), self.positions.goals().first(), "{text}");
            for step in path.windows(2) {
                let mut next = Vec::new();
                self.positions.for_each_successor(step[0], |n| next.push(n));
                assert!(next.contains(&step[1]), "{text}: a move");
                assert_ne!(self.positions.describe_move(step[0], step[1]), "?");
            }
        }
    }

    #[test]
    fn every_position_has_its_distance_in_the_table_of_classes() {
        let tables = Tables::of(TETRAHEDRON_EDGES);
        assert_eq!(tables.plain.states(), 360);
        (0..360).for_each(|rank| tables.check(rank));
    }

    /// The held pocket cube counts a position with its inverse beside its 6 symmetries:
    /// 500 positions spread over the ranks. (The pocket cube's and the pyraminx's plain
    /// tables take seconds to build, too long here: the binary is compared on them.)
    #[test]
    fn positions_of_the_held_pocket_cube_have_their_distance_in_the_table_of_classes() {
        let tables = Tables::of(&example("pocket-cube-held.tws"));
        let states = tables.plain.states();
        (0..500u64).for_each(|i| tables.check(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % states));
    }

    /// The route of classes reads the user's own position and prints its own moves, as the
    /// plain route does, however its class's representative lies.
    #[test]
    fn the_route_of_classes_solves_as_the_plain_route() {
        let text = example("pocket-cube-held.tws");
        let how = Preparing::quietly();
        let mut routes = [SymmetryChoice::default(), SymmetryChoice::NONE].map(|c| TableRoute::new(solving(&text, c)));
        routes
            .iter_mut()
            .for_each(|route| assert!(route.prepare(&how).expect("a table").is_none()));
        for scramble in ["R U F' R2 U' F R U2", "F R' U2 F' R", "U", "R U R' U R U2 R'"] {
            let solved: Vec<Solution> = routes
                .iter_mut()
                .map(|route| {
                    let position = route.read(scramble).expect("a position");
                    match route.solve(&position, &mut |_, _| {}).expect("solved") {
                        Outcome::Solved(solution) => solution,
                        Outcome::Unsolvable(why) => panic!("{scramble}: {why}"),
                    }
                })
                .collect();
            assert_eq!(solved[0].len(), solved[1].len(), "{scramble}");
            // The walk starts from the position as read, not its class's representative.
            assert_eq!(solved[0].positions.first(), solved[1].positions.first(), "{scramble}");
            let mut moves = routes[1].read(scramble).expect("a position");
            let reach = routes[0].reach(&moves).expect("the moves");
            moves = routes[1].read(&reach.expect("a table walks").join(" ")).expect("moves");
            assert_eq!(
                routes[1].solve(&moves, &mut |_, _| {}).ok(),
                Some(Outcome::Solved(solved[1].clone()))
            );
        }
    }

    /// Drawn from the table of classes, each position of a distance is as likely, whatever
    /// the size of its class: one position a seed, 200 times the level's size, a
    /// chi-square test against the plain table's positions.
    #[test]
    fn a_sample_of_classes_draws_positions_uniformly() {
        let tables = Tables::of(TETRAHEDRON_EDGES);
        let how = Preparing::quietly();
        let mut route = TableRoute::new(tables.classes.clone());
        let plain = DistanceTable::build(&tables.plain).expect("a table");
        let mut sizes_differ = false;
        for distance in 1..=plain.distances().map(|(_, d)| d).max().unwrap_or(0) {
            let level: Vec<String> = (0..360)
                .filter(|&r| plain.distance(r) == Some(distance))
                .map(|r| tables.plain.render(r))
                .collect();
            let sizes: Vec<u64> = (0..tables.classes.states())
                .filter(|&c| tables.by_class.distance(c) == Some(distance))
                .map(|c| tables.classes.multiplicity(c))
                .collect();
            sizes_differ |= sizes.iter().any(|&s| s != sizes[0]);
            // Asked for them all, every position once.
            let request = Sample {
                distance: Some(distance),
                count: 1000,
                seed: 1,
            };
            let mut all = route.sample(request, &how).expect("a sample");
            all.sort();
            let mut expected = level.clone();
            expected.sort();
            assert_eq!(all, expected, "at {distance}");
            let rounds = 200 * level.len();
            let mut drawn: HashMap<String, usize> = HashMap::new();
            for seed in 0..rounds as u64 {
                let request = Sample {
                    distance: Some(distance),
                    count: 1,
                    seed,
                };
                for position in route.sample(request, &how).expect("a sample") {
                    *drawn.entry(position).or_default() += 1;
                }
            }
            assert_eq!(drawn.len(), level.len(), "at {distance}");
            let chi2: f64 = drawn.values().map(|&n| (n as f64 - 200.0).powi(2) / 200.0).sum();
            let dof = (level.len() - 1) as f64;
            assert!(chi2 < dof + 5.0 * (2.0 * dof).sqrt(), "chi-square {chi2} at {distance}");
        }
        assert!(sizes_differ, "classes of one size");
        let request = Sample {
            distance: Some(3),
            count: 5,
            seed: 9,
        };
        assert_eq!(route.sample(request, &how).ok(), route.sample(request, &how).ok());
    }
}
