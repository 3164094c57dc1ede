//! The heuristic atlas: how good the Hamming, Manhattan and linear-conflict estimates of a
//! sliding board are, measured on every reachable state against its true distance.
//!
//! The search hands each complete level to [`Collector::observe`], which evaluates the
//! estimates of every state in it (in parallel over the level's words, unranking
//! consecutive ranks cheaply) and tallies the joint distribution of true distance and
//! estimate. An estimate above the true distance anywhere is an error, so admissibility is
//! verified on every run. [`astar`] adds the search effort of the assignment's A* on a
//! fixed-seed sample of positions per distance.

pub mod astar;

use crate::engine::Level;
use crate::engine::bfs::Frontier;
use crate::heuristics::{Estimates, Kind};
use crate::puzzle::Puzzle;
use crate::puzzle::sliding::{self, Sliding, Unranked};
use rayon::prelude::*;
use std::ops::Range;
use thiserror::Error;

/// Positions per distance the A* effort is measured on (all of them where fewer).
pub const SAMPLE: usize = 100;

/// Seed of the sample: positions are the ones whose rank hashes smallest with it.
const SEED: u64 = 0x0005_EEDA_71A5;

/// Words of a level one rayon task scans.
const CHUNK_WORDS: usize = 1024;

/// The largest gap between an estimate and the true distance, with an example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// Distance minus estimate.
    pub gap: u32,
    /// True distance of the example.
    pub distance: u32,
    /// The estimate there.
    pub value: u32,
    /// The example configuration (the smallest rank at the smallest distance with this
    /// gap), tiles cell by cell.
    pub tiles: Vec<u8>,
}

/// One estimate's joint distribution with the true distance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joint {
    /// Which estimate.
    pub kind: Kind,
    /// `states[distance][value]`: configurations at that distance with that estimate.
    pub states: Vec<Vec<u64>>,
    /// The largest gap.
    pub worst: Gap,
}

impl Joint {
    fn total(&self) -> u64 {
        self.states.iter().flatten().sum()
    }

    /// Mean estimate over all reachable configurations.
    pub fn mean_value(&self) -> f64 {
        let sum: u64 = self
            .states
            .iter()
            .flat_map(|row| row.iter().enumerate().map(|(v, &n)| v as u64 * n))
            .sum();
        sum as f64 / self.total() as f64
    }

    /// Mean true distance over all reachable configurations.
    pub fn mean_distance(&self) -> f64 {
        let sum: u64 = self
            .states
            .iter()
            .enumerate()
            .map(|(d, row)| d as u64 * row.iter().sum::<u64>())
            .sum();
        sum as f64 / self.total() as f64
    }

    /// Mean of estimate / distance over the configurations other than the goal (where both
    /// are 0).
    pub fn mean_ratio(&self) -> f64 {
        let (mut sum, mut count) = (0.0, 0u64);
        for (d, row) in self.states.iter().enumerate().skip(1) {
            for (v, &n) in row.iter().enumerate() {
                sum += n as f64 * v as f64 / d as f64;
                count += n;
            }
        }
        if count == 0 { 1.0 } else { sum / count as f64 }
    }

    /// Share of configurations where the estimate equals the true distance.
    pub fn exact_share(&self) -> f64 {
        let exact: u64 = self
            .states
            .iter()
            .enumerate()
            .map(|(d, row)| row.get(d).copied().unwrap_or(0))
            .sum();
        exact as f64 / self.total() as f64
    }

    /// Smallest and largest estimate at each distance (`None` for an empty distance).
    pub fn range(&self, distance: usize) -> Option<(u32, u32)> {
        let row = self.states.get(distance)?;
        let min = row.iter().position(|&n| n > 0)?;
        let max = row.iter().rposition(|&n| n > 0)?;
        Some((min as u32, max as u32))
    }

    /// Mean estimate at one distance.
    pub fn mean_at(&self, distance: usize) -> Option<f64> {
        let row = self.states.get(distance)?;
        let n: u64 = row.iter().sum();
        (n > 0).then(|| row.iter().enumerate().map(|(v, &c)| v as f64 * c as f64).sum::<f64>() / n as f64)
    }
}

/// Everything the atlas measured on one board.
#[derive(Debug, Clone, PartialEq)]
pub struct Atlas {
    /// One joint distribution per estimate, in the order of [`Kind::ALL`].
    pub joints: Vec<Joint>,
    /// The A* effort table, when it was asked for.
    pub effort: Option<astar::Effort>,
}

/// Why the atlas failed: an estimate is not a lower bound.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "{heuristic} is not admissible: it gives {value} for a configuration {distance} moves from the goal ({tiles}, {count} such configurations at that distance)"
)]
pub struct Inadmissible {
    /// The estimate's name.
    pub heuristic: &'static str,
    /// Its value.
    pub value: u32,
    /// The true distance.
    pub distance: u32,
    /// The configuration, one line.
    pub tiles: String,
    /// How many configurations of that level break the bound.
    pub count: u64,
}

/// Per-level tallies of one chunk of ranks.
#[derive(Clone)]
struct Tally {
    /// `counts[kind][value]`.
    counts: [Vec<u64>; 3],
    /// Largest gap per estimate and the smallest rank with it.
    worst: [Option<(u32, u64, u32)>; 3],
    /// `(hash, rank)` of candidates for the sample: the [`SAMPLE`] smallest hashes so far
    /// are among them.
    sample: Vec<(u64, u64)>,
    /// A hash at least this large cannot make the sample any more.
    cutoff: u64,
    /// Estimates above the distance: count and the first rank.
    violations: [(u64, Option<(u64, u32)>); 3],
}

impl Tally {
    fn new(values: usize) -> Self {
        Tally {
            counts: std::array::from_fn(|_| vec![0; values]),
            worst: [None; 3],
            sample: Vec::new(),
            cutoff: u64::MAX,
            violations: [(0, None); 3],
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        for k in 0..3 {
            for (a, b) in self.counts[k].iter_mut().zip(&other.counts[k]) {
                *a += b;
            }
            // Chunks come in rank order: on equal gaps the earlier chunk's rank is smaller.
            self.worst[k] = match (self.worst[k], other.worst[k]) {
                (Some(a), Some(b)) => Some(if b.0 > a.0 { b } else { a }),
                (a, b) => a.or(b),
            };
            self.violations[k].0 += other.violations[k].0;
            self.violations[k].1 = self.violations[k].1.or(other.violations[k].1);
        }
        self.sample.extend(other.sample);
        keep_smallest(&mut self.sample);
        self
    }
}

/// Keeps the [`SAMPLE`] smallest hashes, the largest of them last.
fn keep_smallest(sample: &mut Vec<(u64, u64)>) {
    if sample.len() > SAMPLE {
        sample.select_nth_unstable(SAMPLE - 1);
        sample.truncate(SAMPLE);
    }
}

/// A fixed pseudo-random hash of a rank (a multiplication by an odd constant, the bits
/// rotated so the well-mixed high ones decide): the sample is the ranks of a level with the
/// smallest hashes, the same for any split of the work. One multiplication, as every state
/// is hashed.
#[inline(always)]
fn hash(rank: u64) -> u64 {
    ((rank ^ SEED).wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(32)
}

/// Builds the atlas level by level as the search reports them.
pub struct Collector<'a> {
    puzzle: &'a Sliding,
    estimates: Estimates,
    /// The estimates line by line, on boards whose sides are at most [`LINE_TABLE_SIDE`].
    lines: Option<LineTables>,
    /// Largest estimate any board of this shape can have, plus one.
    values: usize,
    /// `states[kind][distance][value]`.
    states: [Vec<Vec<u64>>; 3],
    worst: [Option<(u32, u64, u32, u32)>; 3],
    /// Sampled ranks per distance, ascending.
    samples: Vec<Vec<u64>>,
}

impl<'a> Collector<'a> {
    /// An empty atlas for `puzzle`; the goal is counted at distance 0 at once.
    pub fn new(puzzle: &'a Sliding) -> Self {
        let (rows, cols) = puzzle.shape();
        let cells = rows * cols;
        // Manhattan is at most (rows - 1 + cols - 1) a tile, conflicts at most 2 a tile.
        let values = (cells - 1) * (rows + cols) + 1;
        let mut collector = Self {
            puzzle,
            estimates: Estimates::new(rows, cols),
            lines: LineTables::new(&Estimates::new(rows, cols)),
            values,
            states: Default::default(),
            worst: [None; 3],
            samples: Vec::new(),
        };
        let mut tally = Tally::new(values);
        for goal in puzzle.goals() {
            collector.visit::<0, 0>(&mut Unranked::default(), goal, 0, &mut tally);
        }
        collector.absorb(0, tally);
        collector
    }

    /// Tallies the level `level.next` (distance `level.depth + 1`); an error if an estimate
    /// exceeds the distance there.
    pub fn observe(&mut self, level: &Level) -> Result<(), Inadmissible> {
        let distance = level.depth as u32 + 1;
        let level = &level.next;
        // The common shapes get their line look-ups compiled for their size.
        let scan = match self.puzzle.shape() {
            (3, 4) => Self::scan::<3, 4> as fn(&Self, &Frontier, Range<usize>, u32, &mut Tally),
            (3, 3) => Self::scan::<3, 3>,
            (2, 4) => Self::scan::<2, 4>,
            (4, 3) => Self::scan::<4, 3>,
            _ => Self::scan::<0, 0>,
        };
        let words = level.word_count();
        // One tally per thread, across its chunks (in rank order), so that the sample's
        // cutoff keeps tightening rather than starting over on every chunk.
        let tally = (0..words.div_ceil(CHUNK_WORDS))
            .into_par_iter()
            .fold(
                || Tally::new(self.values),
                |mut tally, chunk| {
                    scan(
                        self,
                        level,
                        chunk * CHUNK_WORDS..words.min((chunk + 1) * CHUNK_WORDS),
                        distance,
                        &mut tally,
                    );
                    tally
                },
            )
            .reduce(|| Tally::new(self.values), Tally::merge);
        if tally.counts[0].iter().all(|&n| n == 0) {
            return Ok(());
        }
        for (k, kind) in Kind::ALL.into_iter().enumerate() {
            if let (count, Some((rank, value))) = tally.violations[k] {
                return Err(Inadmissible {
                    heuristic: kind.name(),
                    value,
                    distance,
                    tiles: self.puzzle.render(rank),
                    count,
                });
            }
        }
        self.absorb(distance as usize, tally);
        Ok(())
    }

    /// Tallies the ranks of the level's words `words`; `R x C` is the board's shape when it
    /// is known at compile time, `0 x 0` otherwise.
    fn scan<const R: usize, const C: usize>(
        &self,
        level: &Frontier,
        words: Range<usize>,
        distance: u32,
        tally: &mut Tally,
    ) {
        let mut memo = Unranked::default();
        for w in words {
            let mut bits = level.word(w);
            while bits != 0 {
                let rank = level.start() + 64 * w as u64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                self.visit::<R, C>(&mut memo, rank, distance, tally);
            }
        }
    }

    /// Evaluates one state.
    #[inline]
    fn visit<const R: usize, const C: usize>(&self, memo: &mut Unranked, rank: u64, distance: u32, tally: &mut Tally) {
        let packed = self.puzzle.packed_board(memo, rank);
        let values = match &self.lines {
            Some(lines) if R > 0 => lines.values(packed, R, C),
            Some(lines) => lines.values(packed, lines.rows, lines.cols),
            None => self.estimates.all(&unpack(packed)),
        };
        for (k, &value) in values.iter().enumerate() {
            tally.counts[k][value as usize] += 1;
            if value > distance {
                tally.violations[k].0 += 1;
                tally.violations[k].1.get_or_insert((rank, value));
                continue;
            }
            let gap = distance - value;
            if tally.worst[k].is_none_or(|(g, _, _)| gap > g) {
                tally.worst[k] = Some((gap, rank, value));
            }
        }
        let h = hash(rank);
        if h < tally.cutoff {
            tally.sample.push((h, rank));
            if tally.sample.len() >= 2 * SAMPLE {
                keep_smallest(&mut tally.sample);
                tally.cutoff = tally.sample[SAMPLE - 1].0;
            }
        }
    }

    fn absorb(&mut self, distance: usize, tally: Tally) {
        for k in 0..3 {
            self.states[k].resize(distance + 1, Vec::new());
            let mut row = tally.counts[k].clone();
            let used = row.iter().rposition(|&n| n > 0).map_or(0, |v| v + 1);
            row.truncate(used);
            self.states[k][distance] = row;
            if let Some((gap, rank, value)) = tally.worst[k]
                && self.worst[k].is_none_or(|(g, ..)| gap > g)
            {
                self.worst[k] = Some((gap, rank, distance as u32, value));
            }
        }
        let mut sample = tally.sample;
        keep_smallest(&mut sample);
        let mut ranks: Vec<u64> = sample.into_iter().map(|(_, r)| r).collect();
        ranks.sort_unstable();
        self.samples.resize(distance + 1, Vec::new());
        self.samples[distance] = ranks;
    }

    /// The sampled positions at each distance, tiles cell by cell.
    pub fn samples(&self) -> Vec<Vec<Vec<u8>>> {
        self.samples
            .iter()
            .map(|ranks| ranks.iter().map(|&r| self.puzzle.board(r)).collect())
            .collect()
    }

    /// The joint distributions.
    pub fn finish(&self, effort: Option<astar::Effort>) -> Atlas {
        let joints = Kind::ALL
            .into_iter()
            .enumerate()
            .map(|(k, kind)| {
                let (gap, rank, distance, value) = self.worst[k].unwrap_or_default();
                Joint {
                    kind,
                    states: self.states[k].clone(),
                    worst: Gap {
                        gap,
                        distance,
                        value,
                        tiles: self.puzzle.board(rank),
                    },
                }
            })
            .collect();
        Atlas { joints, effort }
    }
}

/// A board packed 4 bits a cell, cell by cell.
fn unpack(packed: u64) -> [u8; sliding::MAX_CELLS] {
    std::array::from_fn(|cell| ((packed >> (4 * cell)) & 0xF) as u8)
}

/// Longest side whose lines the atlas tabulates: a line of 4 cells is a 16-bit key.
const LINE_TABLE_SIDE: usize = 4;

/// The three estimates as sums of per-line terms, each term looked up by the line's packed
/// tiles: 7 look-ups a state on 3x4 instead of evaluating the estimates tile by tile. The
/// tables are filled by [`Estimates`] itself, on boards holding one line's tiles only, so
/// they are the same definition, and the tests compare both routes state by state.
struct LineTables {
    rows: usize,
    cols: usize,
    /// `row[r << 4 cols | tiles]`: Hamming (bits 0..3), Manhattan (3..8) and row conflicts
    /// (8..11) of row `r` holding `tiles` (4 bits a cell, first cell lowest); `u16` so that
    /// the tables stay in cache (a row of 4 tiles has Manhattan 20 at most).
    row: Vec<u16>,
    /// `col[c << 4 rows | tiles]`: conflicts of column `c` holding `tiles`.
    col: Vec<u8>,
}

impl LineTables {
    fn new(estimates: &Estimates) -> Option<Self> {
        let (rows, cols) = (estimates.rows(), estimates.cols());
        if rows.max(cols) > LINE_TABLE_SIDE {
            return None;
        }
        let cells = rows * cols;
        // The board with only the given cells filled (the rest blank), if the tiles exist.
        let board = |line: &[usize], key: usize| {
            let mut board = vec![0u8; cells];
            for (i, &cell) in line.iter().enumerate() {
                let tile = (key >> (4 * i)) & 0xF;
                if tile >= cells {
                    return None;
                }
                board[cell] = tile as u8;
            }
            Some(board)
        };
        let mut row = vec![0; rows << (4 * cols)];
        for r in 0..rows {
            let line: Vec<usize> = (0..cols).map(|c| r * cols + c).collect();
            for key in 0..1 << (4 * cols) {
                if let Some(b) = board(&line, key) {
                    row[(r << (4 * cols)) | key] =
                        (estimates.hamming(&b) | estimates.manhattan(&b) << 3 | estimates.row_conflicts(&b, r) << 8)
                            as u16;
                }
            }
        }
        let mut col = vec![0; cols << (4 * rows)];
        for c in 0..cols {
            let line: Vec<usize> = (0..rows).map(|r| r * cols + c).collect();
            for key in 0..1 << (4 * rows) {
                if let Some(b) = board(&line, key) {
                    col[(c << (4 * rows)) | key] = estimates.col_conflicts(&b, c) as u8;
                }
            }
        }
        Some(Self { rows, cols, row, col })
    }

    /// Conflicts of row `r` of a board packed 4 bits a cell.
    #[inline]
    fn row_conflicts(&self, packed: u64, r: usize) -> u32 {
        let key = (packed >> (4 * self.cols * r)) & ((1 << (4 * self.cols)) - 1);
        u32::from(self.row[(r << (4 * self.cols)) | key as usize] >> 8)
    }

    /// Conflicts of column `c` of a board packed 4 bits a cell.
    #[inline]
    fn col_conflicts(&self, packed: u64, c: usize) -> u32 {
        let key = (0..self.rows).fold(0, |key, r| {
            key | ((packed >> (4 * (r * self.cols + c))) & 0xF) << (4 * r)
        });
        u32::from(self.col[(c << (4 * self.rows)) | key as usize])
    }

    /// Hamming, Manhattan and linear conflict of a board packed 4 bits a cell.
    /// `rows` and `cols` are the board's (passed in so that callers with constants get
    /// the loops unrolled).
    #[inline(always)]
    fn values(&self, packed: u64, rows: usize, cols: usize) -> [u32; 3] {
        let row_mask = (1u64 << (4 * cols)) - 1;
        // Sums of the three fields, each kept apart in its own bits.
        let (mut hamming, mut manhattan, mut conflicts) = (0, 0, 0);
        for r in 0..rows {
            let key = (packed >> (4 * cols * r)) & row_mask;
            let entry = u32::from(self.row[(r << (4 * cols)) | key as usize]);
            hamming += entry & 7;
            manhattan += (entry >> 3) & 31;
            conflicts += entry >> 8;
        }
        for c in 0..cols {
            let mut key = 0;
            for r in 0..rows {
                key |= ((packed >> (4 * (r * cols + c))) & 0xF) << (4 * r);
            }
            conflicts += u32::from(self.col[(c << (4 * rows)) | key as usize]);
        }
        [hamming, manhattan, manhattan + conflicts]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of `cells` tiles (the blank as 0), by Heap's algorithm.
    fn each_board(cells: usize, mut f: impl FnMut(&[u8])) {
        let mut board: Vec<u8> = (0..cells as u8).collect();
        let mut c = vec![0; cells];
        f(&board);
        let mut i = 0;
        while i < cells {
            if c[i] < i {
                board.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
                f(&board);
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    }

    fn pack(board: &[u8]) -> u64 {
        board
            .iter()
            .enumerate()
            .fold(0, |p, (cell, &t)| p | (u64::from(t) << (4 * cell)))
    }

    /// The table route (a whole board, and the lines A* looks up one by one) against
    /// `Estimates` on one board.
    fn check(lines: &LineTables, estimates: &Estimates, board: &[u8]) {
        let (rows, cols) = (estimates.rows(), estimates.cols());
        let packed = pack(board);
        assert_eq!(lines.values(packed, rows, cols), estimates.all(board), "{board:?}");
        for r in 0..rows {
            assert_eq!(
                lines.row_conflicts(packed, r),
                estimates.row_conflicts(board, r),
                "{board:?}"
            );
        }
        for c in 0..cols {
            assert_eq!(
                lines.col_conflicts(packed, c),
                estimates.col_conflicts(board, c),
                "{board:?}"
            );
        }
    }

    #[test]
    fn line_tables_equal_the_estimates_on_every_board_up_to_3x3_and_2x4() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)] {
            let estimates = Estimates::new(rows, cols);
            let lines = LineTables::new(&estimates).expect("sides up to 4");
            // Both parity classes: the tables do not depend on solvability.
            each_board(rows * cols, |board| check(&lines, &estimates, board));
        }
    }

    #[test]
    fn line_tables_equal_the_estimates_on_random_3x4_and_4x4_boards() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for (rows, cols) in [(3, 4), (4, 3), (4, 4)] {
            let estimates = Estimates::new(rows, cols);
            let lines = LineTables::new(&estimates).expect("sides up to 4");
            let mut board: Vec<u8> = (0..(rows * cols) as u8).collect();
            for _ in 0..20_000 {
                // Fisher-Yates with a xorshift generator.
                for i in (1..board.len()).rev() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    board.swap(i, (state % (i as u64 + 1)) as usize);
                }
                check(&lines, &estimates, &board);
            }
        }
    }

    #[test]
    fn no_line_tables_beyond_sides_of_4() {
        assert!(LineTables::new(&Estimates::new(2, 5)).is_none());
        assert!(LineTables::new(&Estimates::new(2, 8)).is_none());
    }
}
