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
use crate::heuristics::{Estimates, Kind, line_conflicts};
use crate::puzzle::sliding::{self, BoardDecoder, Sliding};
use crate::puzzle::{Notation, SearchGraph};
use rayon::prelude::*;
use std::ops::Range;
use thiserror::Error;

/// States [`Collector::scan`] decodes before it keys them (at least a word's 64).
const SCAN_BATCH: usize = 256;

/// Positions per distance the A* effort is measured on (all of them where fewer).
pub const SAMPLE: usize = 100;

/// Seed of the sample: positions are the ones whose rank hashes smallest with it.
const SEED: u64 = 0x0005_EEDA_71A5;

/// Parts a level is split into for each thread.
const PARTS_PER_THREAD: usize = 8;

/// Fewest words of a part: a small level is not worth clearing many tallies for.
const MIN_PART_WORDS: usize = 1024;

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
    /// The A* effort table.
    pub effort: astar::Effort,
}

/// Why the atlas failed: an estimate is not a lower bound.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "{heuristic} is not admissible: it gives {value} for a state {distance} moves from the goal ({tiles}, {count} such states at that distance)"
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

/// How a state's three estimates pack into one key of the level's tally: Hamming in the
/// low [`HAMMING_BITS`] bits, Manhattan from bit `m_shift`, the linear conflicts (the
/// linear-conflict estimate minus Manhattan) from `c_shift`. One increment a state then
/// tallies all three; the three distributions are read off the tally once a level.
#[derive(Debug, Clone, Copy)]
struct KeyLayout {
    m_shift: u32,
    c_shift: u32,
    /// Keys are below `1 << bits`.
    bits: u32,
}

/// Bits of the Hamming field of a key (at most 15 tiles).
const HAMMING_BITS: u32 = 4;

/// Keys of the largest layout (2x8 and 4x4: Hamming 4 bits, Manhattan 7, conflicts 6).
const KEYS: usize = 1 << 17;

impl KeyLayout {
    fn new(rows: usize, cols: usize) -> Self {
        let cells = rows * cols;
        let bits = |n: usize| usize::BITS - n.leading_zeros();
        // A tile is at most (rows - 1 + cols - 1) from home; a line of n cells has at most
        // 2 (n - 1) conflicts. Manhattan gets at least the 6 bits the line tables use.
        let m_bits = bits((cells - 1) * (rows + cols - 2)).max(LINE_C_SHIFT - HAMMING_BITS);
        let c_bits = bits(2 * (rows * (cols - 1) + cols * (rows - 1)));
        debug_assert!(HAMMING_BITS + m_bits + c_bits <= KEYS.trailing_zeros());
        KeyLayout {
            m_shift: HAMMING_BITS,
            c_shift: HAMMING_BITS + m_bits,
            bits: HAMMING_BITS + m_bits + c_bits,
        }
    }

    /// The key of Hamming `h`, Manhattan `m` and linear conflict `lc`.
    fn key(self, [h, m, lc]: [u32; 3]) -> u32 {
        h | m << self.m_shift | (lc - m) << self.c_shift
    }

    /// Hamming, Manhattan and linear conflict of a key.
    #[inline(always)]
    fn values(self, key: u32) -> [u32; 3] {
        let m = (key >> self.m_shift) & ((1 << (self.c_shift - self.m_shift)) - 1);
        [key & ((1 << HAMMING_BITS) - 1), m, m + (key >> self.c_shift)]
    }
}

/// What one part of a level tallies.
#[derive(Clone)]
struct Tally {
    /// `counts[key]`: how many states have the estimates of `key` (see [`KeyLayout`]), and the
    /// first of them as an offset from `start` (where the count is not 0). 32 bits each,
    /// so that the entries a level touches stay in the first-level cache (a part covers
    /// fewer than 2^32 ranks). The smallest estimates, the largest gaps and any estimate
    /// above the distance are all read off this table once a level: a state costs one
    /// increment. Room for the keys of any board, so that a key masked to [`KEYS`] needs no
    /// bounds check; only the first `keys` entries are used.
    counts: Box<[[u32; 2]; KEYS]>,
    /// The board's keys: `1 << KeyLayout::bits`.
    keys: usize,
    /// The part's first rank.
    start: u64,
    /// `(hash, rank)` of candidates for the sample: the [`SAMPLE`] smallest hashes so far
    /// are among them.
    sample: Vec<(u64, u64)>,
    /// A hash at least this large cannot make the sample any more.
    cutoff: u64,
}

impl Tally {
    fn new(layout: KeyLayout) -> Self {
        Tally {
            counts: zeros(),
            keys: 1 << layout.bits,
            start: 0,
            sample: Vec::new(),
            cutoff: u64::MAX,
        }
    }

    /// Empties the tally for a part starting at rank `start`, keeping its memory.
    fn clear(&mut self, start: u64) {
        for entry in &mut self.counts[..self.keys] {
            entry[0] = 0;
        }
        self.start = start;
        self.sample.clear();
        self.cutoff = u64::MAX;
    }

    /// Counts the state `rank` (ranks come in increasing order) with estimates `key`.
    #[inline(always)]
    fn add(&mut self, key: u32, rank: u64) {
        let entry = &mut self.counts[key as usize % KEYS];
        if entry[0] == 0 {
            entry[1] = (rank - self.start) as u32;
        }
        entry[0] += 1;
        let h = hash(rank);
        if h < self.cutoff {
            self.sample.push((h, rank));
            if self.sample.len() >= 2 * SAMPLE {
                keep_smallest(&mut self.sample);
                self.cutoff = self.sample[SAMPLE - 1].0;
            }
        }
    }
}

/// A whole level's tally.
struct LevelTally {
    /// `counts[key]`: states with the estimates of `key` and the first of them.
    counts: Vec<(u64, u64)>,
    /// The sample's candidates.
    sample: Vec<(u64, u64)>,
}

impl LevelTally {
    /// The sum of `parts`, tallies of consecutive ranks in order.
    fn new(parts: &[Tally]) -> Self {
        let mut counts = vec![(0u64, u64::MAX); parts.first().map_or(0, |p| p.keys)];
        let mut sample = Vec::new();
        for part in parts {
            for (sum, &[n, first]) in counts.iter_mut().zip(&part.counts[..part.keys]) {
                if n > 0 {
                    // Parts come in rank order: the first part with the key has its first.
                    *sum = (sum.0 + u64::from(n), sum.1.min(part.start + u64::from(first)));
                }
            }
            sample.extend_from_slice(&part.sample);
            keep_smallest(&mut sample);
        }
        LevelTally { counts, sample }
    }

    /// For each estimate: its states above `distance` (how many, and the first with its
    /// value), and its smallest value with the first rank that has it.
    #[allow(clippy::type_complexity)]
    fn extremes(&self, layout: KeyLayout, distance: u32) -> [((u64, Option<(u64, u32)>), Option<(u32, u64)>); 3] {
        let mut out = [((0, None), None); 3];
        for (key, &(n, first)) in self.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            for ((above, least), value) in out.iter_mut().zip(layout.values(key as u32)) {
                if value > distance {
                    above.0 += n;
                    if above.1.is_none_or(|(rank, _)| first < rank) {
                        above.1 = Some((first, value));
                    }
                } else if least.is_none_or(|(v, rank)| (value, first) < (v, rank)) {
                    *least = Some((value, first));
                }
            }
        }
        out
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
    /// The estimates line by line, on boards whose sides are at most [`LINE_TABLE_SIDE`]
    /// (and whose keys fit the tables' layout).
    lines: Option<LineTables>,
    layout: KeyLayout,
    /// Level states to packed boards, in rank order.
    decoder: BoardDecoder<'a>,
    /// `states[kind][distance][value]`.
    states: [Vec<Vec<u64>>; 3],
    worst: [Option<(u32, u64, u32, u32)>; 3],
    /// Sampled ranks per distance, ascending.
    samples: Vec<Vec<u64>>,
    /// One tally per part of a level, kept from level to level.
    tallies: Vec<Tally>,
}

impl<'a> Collector<'a> {
    /// An empty atlas for `puzzle`; the goal is counted at distance 0 at once.
    pub fn new(puzzle: &'a Sliding) -> Self {
        let (rows, cols) = puzzle.shape();
        let estimates = Estimates::new(rows, cols);
        let layout = KeyLayout::new(rows, cols);
        let mut collector = Self {
            puzzle,
            lines: LineTables::new(&estimates).filter(|_| layout.c_shift == LINE_C_SHIFT),
            estimates,
            layout,
            decoder: BoardDecoder::new(puzzle),
            states: Default::default(),
            worst: [None; 3],
            samples: Vec::new(),
            tallies: Vec::new(),
        };
        let goals = puzzle.goals();
        let mut tally = Tally::new(layout);
        tally.clear(goals.iter().copied().min().unwrap_or(0));
        for &goal in &goals {
            let packed = collector.decoder.packed_board(goal);
            tally.add(collector.key(packed), goal);
        }
        let level = LevelTally::new(std::slice::from_ref(&tally));
        // The goal's estimates are 0: nothing to fail.
        let _ = collector.close(0, &level);
        collector
    }

    /// Tallies the level `level.next` (distance `level.depth + 1`); an error if an estimate
    /// exceeds the distance there.
    pub fn observe(&mut self, level: &Level) -> Result<(), Inadmissible> {
        let distance = level.depth as u32 + 1;
        let level = &level.next;
        // The common shapes get their line look-ups compiled for their size.
        let scan = match self.puzzle.shape() {
            (3, 4) => Self::scan::<3, 4> as fn(&Self, &Frontier, Range<usize>, &mut Tally),
            (3, 3) => Self::scan::<3, 3>,
            (2, 4) => Self::scan::<2, 4>,
            (4, 3) => Self::scan::<4, 3>,
            _ => Self::scan::<0, 0>,
        };
        let words = level.word_count();
        // Contiguous parts of the level, a few per thread so that a busy thread's share is
        // taken over; each part's tally is reused from level to level.
        let parts = (rayon::current_num_threads() * PARTS_PER_THREAD)
            .min(words / MIN_PART_WORDS)
            .max(words.div_ceil(1 << 25))
            .max(1);
        let mut tallies = std::mem::take(&mut self.tallies);
        tallies.truncate(parts);
        tallies.resize_with(parts, || Tally::new(self.layout));
        tallies.par_iter_mut().enumerate().for_each(|(p, tally)| {
            let words = words * p / parts..words * (p + 1) / parts;
            tally.clear(level.start() + 64 * words.start as u64);
            scan(self, level, words, tally);
        });
        let result = self.close(distance, &LevelTally::new(&tallies));
        self.tallies = tallies;
        result
    }

    /// Checks and keeps the tally of a whole level.
    fn close(&mut self, distance: u32, level: &LevelTally) -> Result<(), Inadmissible> {
        if level.counts.iter().all(|&(n, _)| n == 0) {
            return Ok(());
        }
        let extremes = level.extremes(self.layout, distance);
        for (&((count, above), _), kind) in extremes.iter().zip(Kind::ALL) {
            if let Some((rank, value)) = above {
                return Err(Inadmissible {
                    heuristic: kind.name(),
                    value,
                    distance,
                    tiles: self.puzzle.render(rank),
                    count,
                });
            }
        }
        let distance = distance as usize;
        let mut rows: [Vec<u64>; 3] = Default::default();
        for (key, &(n, _)) in level.counts.iter().enumerate() {
            if n > 0 {
                for (row, value) in rows.iter_mut().zip(self.layout.values(key as u32)) {
                    let value = value as usize;
                    if row.len() <= value {
                        row.resize(value + 1, 0);
                    }
                    row[value] += n;
                }
            }
        }
        for (k, row) in rows.into_iter().enumerate() {
            self.states[k].resize(distance + 1, Vec::new());
            self.states[k][distance] = row;
            if let (_, Some((value, rank))) = extremes[k] {
                let gap = distance as u32 - value;
                if self.worst[k].is_none_or(|(g, ..)| gap > g) {
                    self.worst[k] = Some((gap, rank, distance as u32, value));
                }
            }
        }
        let mut ranks: Vec<u64> = level.sample.iter().map(|&(_, r)| r).collect();
        ranks.sort_unstable();
        self.samples.resize(distance + 1, Vec::new());
        self.samples[distance] = ranks;
        Ok(())
    }

    /// Tallies the ranks of the level's words `words`; `R x C` is the board's shape when it
    /// is known at compile time, `0 x 0` otherwise.
    fn scan<const R: usize, const C: usize>(&self, level: &Frontier, words: Range<usize>, tally: &mut Tally) {
        match &self.lines {
            // A constant shape's line look-ups unroll.
            Some(lines) if R > 0 => self.scan_with(level, words, tally, |packed| lines.key::<R, C>(packed)),
            _ => self.scan_with(level, words, tally, |packed| self.key(packed)),
        }
    }

    /// [`Collector::scan`] with `key` turning a packed board into its tally key.
    #[inline(always)]
    fn scan_with(&self, level: &Frontier, words: Range<usize>, tally: &mut Tally, key: impl Fn(u64) -> u32) {
        let mut cursor = self.decoder.cursor();
        // Boards decoded first and keyed after, a batch at a time: the table look-ups of
        // many states then run back to back and their cache misses overlap.
        let mut batch = [(0u64, 0u64); SCAN_BATCH];
        let mut len = 0;
        let mut flush = |batch: &[(u64, u64)]| {
            let mut keys = [0u32; SCAN_BATCH];
            for (k, &(packed, _)) in keys.iter_mut().zip(batch) {
                *k = key(packed);
            }
            for (&k, &(_, rank)) in keys.iter().zip(batch) {
                tally.add(k, rank);
            }
        };
        for w in level.occupied(words).flatten() {
            let mut bits = level.word(w);
            if bits == 0 {
                continue;
            }
            let base = level.start() + 64 * w as u64;
            cursor.start_word(base);
            if len + bits.count_ones() as usize > SCAN_BATCH {
                flush(&batch[..len]);
                len = 0;
            }
            while bits != 0 {
                let offset = bits.trailing_zeros() as usize;
                let rank = base + offset as u64;
                bits &= bits - 1;
                batch[len] = (cursor.packed_board(offset), rank);
                len += 1;
            }
        }
        flush(&batch[..len]);
    }

    /// The tally key of a board packed 4 bits a cell.
    fn key(&self, packed: u64) -> u32 {
        match &self.lines {
            Some(lines) => lines.key::<0, 0>(packed),
            None => self.layout.key(self.estimates.all(&unpack(packed))),
        }
    }

    /// The sampled positions at each distance, tiles cell by cell.
    pub fn samples(&self) -> Vec<Vec<Vec<u8>>> {
        self.samples
            .iter()
            .map(|ranks| ranks.iter().map(|&r| self.puzzle.board(r)).collect())
            .collect()
    }

    /// The joint distributions.
    pub fn finish(&self, effort: astar::Effort) -> Atlas {
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

/// Longest side whose lines the atlas tabulates: a row of 4 cells is a 16-bit key.
const LINE_TABLE_SIDE: usize = 4;

/// Bit of a line-table entry where its conflicts start (Hamming in bits 0..4, Manhattan in
/// 4..10): the entries of a board's lines add up to its tally key (see [`KeyLayout`]).
const LINE_C_SHIFT: u32 = 10;

/// Bit of a row entry where its column codes start; below it are the row's own terms.
const CODE_SHIFT: u32 = 16;

/// Bits of column codes one look-up of the column table reads: all of a 4-row board's
/// column (3 bits a cell), two columns of a 3-row board, three of a 2-row one (2 bits a cell).
const GROUP_BITS: u32 = 12;

/// Entries of the row table: the index of a row (2 bits) and its tiles (4 bits a cell).
const ROW_ENTRIES: usize = LINE_TABLE_SIDE << (4 * LINE_TABLE_SIDE);

/// Entries of the column table: the index of a group of columns (2 bits) and their codes.
const COL_ENTRIES: usize = LINE_TABLE_SIDE << GROUP_BITS;

/// Bits of one cell's column code on a board of `rows` rows (the goal row + 1, or 0).
const fn code_bits(rows: usize) -> usize {
    if rows <= 3 { 2 } else { 3 }
}

/// Columns whose codes one look-up of the column table reads, and how many look-ups a board
/// of `rows x cols` needs (none for `0 x 0`).
const fn groups(rows: usize, cols: usize) -> (usize, usize) {
    let group = GROUP_BITS as usize / (code_bits(rows) * if rows == 0 { 1 } else { rows });
    (group, cols.div_ceil(group))
}

/// A boxed array of `N` zeros.
fn zeros<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("the vector has N entries"),
    }
}

/// The three estimates as sums of per-line terms, each term looked up by the line's packed
/// tiles: 3 row look-ups and 2 look-ups for the 4 columns a state on 3x4, instead of
/// evaluating the estimates tile by tile. A row's entry also carries what its tiles tell the
/// columns, so the columns need no gathering of tiles across rows. The tables are filled by
/// [`Estimates`] itself, on boards holding one line's tiles only, so they are the same
/// definition, and the tests compare both routes state by state.
struct LineTables {
    rows: usize,
    cols: usize,
    /// `row[r << 4 cols | tiles]` for row `r` holding `tiles` (4 bits a cell, first cell
    /// lowest): its Hamming (bits 0..4), Manhattan (4..10) and row conflicts (from
    /// [`LINE_C_SHIFT`]); and from [`CODE_SHIFT`], for each cell `c` of the row, the column
    /// code of its tile (its goal row + 1 if its goal column is `c`, else 0), [`code_bits`]
    /// wide, at bit `code_bits (rows c + r)`. The entries of a board's rows add up to its
    /// rows' terms and to every column's codes, column after column (nothing carries: each
    /// field has room for its sum). Arrays of a fixed size any line's index is below, so that
    /// a look-up needs no bounds check.
    row: Box<[u64; ROW_ENTRIES]>,
    /// `col[g << GROUP_BITS | codes]`: conflicts of the columns of group `g` (the
    /// [`GROUP_BITS`] of codes from bit `GROUP_BITS g`) with those codes, shifted to
    /// [`LINE_C_SHIFT`]; `u16` so that the table stays in the first-level cache.
    col: Box<[u16; COL_ENTRIES]>,
}

impl LineTables {
    fn new(estimates: &Estimates) -> Option<Self> {
        let (rows, cols) = (estimates.rows(), estimates.cols());
        if rows.max(cols) > LINE_TABLE_SIDE {
            return None;
        }
        let (cells, bits) = (rows * cols, code_bits(rows));
        let mut row = zeros();
        for r in 0..rows {
            for key in 0..1usize << (4 * cols) {
                let tiles: Vec<usize> = (0..cols).map(|c| (key >> (4 * c)) & 0xF).collect();
                if tiles.iter().any(|&t| t >= cells) {
                    continue;
                }
                // The board with only this row filled (the rest blank).
                let mut board = vec![0u8; cells];
                for (c, &tile) in tiles.iter().enumerate() {
                    board[r * cols + c] = tile as u8;
                }
                let terms = estimates.hamming(&board)
                    | estimates.manhattan(&board) << HAMMING_BITS
                    | estimates.row_conflicts(&board, r) << LINE_C_SHIFT;
                let codes = tiles.iter().enumerate().fold(0u64, |codes, (c, &tile)| {
                    if tile != 0 && (tile - 1) % cols == c {
                        codes | (((tile - 1) / cols + 1) as u64) << (bits * (rows * c + r))
                    } else {
                        codes
                    }
                });
                row[(r << (4 * cols)) | key] = u64::from(terms) | codes << CODE_SHIFT;
            }
        }
        // A column's conflicts from its codes, if they are codes of that board's tiles.
        let column = |codes: usize| {
            let homes = (0..rows).filter_map(|r| (codes >> (bits * r) & ((1 << bits) - 1)).checked_sub(1));
            homes.clone().all(|home| home < rows).then(|| line_conflicts(homes))
        };
        let (group, lookups) = groups(rows, cols);
        let mut col = zeros();
        for g in 0..lookups {
            for codes in 0..1usize << GROUP_BITS {
                let conflicts = (0..group)
                    .map(|i| column(codes >> (bits * rows * i) & ((1 << (bits * rows)) - 1)))
                    .sum::<Option<u32>>();
                if let Some(conflicts) = conflicts {
                    col[g << GROUP_BITS | codes] = (conflicts << LINE_C_SHIFT) as u16;
                }
            }
        }
        Some(Self { rows, cols, row, col })
    }

    /// The sum of the row entries of a board packed 4 bits a cell.
    #[inline(always)]
    fn row_sum(&self, packed: u64, rows: usize, cols: usize) -> u64 {
        let row_mask = (1u64 << (4 * cols)) - 1;
        (0..rows).fold(0, |sum, r| {
            sum + self.row[(r << (4 * cols)) | ((packed >> (4 * cols * r)) & row_mask) as usize]
        })
    }

    /// The column-table entries of a board whose row entries sum to `sum`, added up: the
    /// conflicts of all its columns, shifted to [`LINE_C_SHIFT`].
    #[inline(always)]
    fn columns(&self, sum: u64, lookups: usize) -> u32 {
        (0..lookups).fold(0, |total, g| {
            let codes = (sum >> (CODE_SHIFT + GROUP_BITS * g as u32)) as usize & ((1 << GROUP_BITS) - 1);
            total + u32::from(self.col[(g << GROUP_BITS) | codes])
        })
    }

    /// Conflicts of row `r` of a board packed 4 bits a cell.
    #[inline]
    fn row_conflicts(&self, packed: u64, r: usize) -> u32 {
        let key = (packed >> (4 * self.cols * r)) & ((1 << (4 * self.cols)) - 1);
        (self.row[(r << (4 * self.cols)) | key as usize] as u32 & 0xFFFF) >> LINE_C_SHIFT
    }

    /// Conflicts of every column of a board packed 4 bits a cell.
    #[inline]
    fn col_conflicts(&self, packed: u64) -> u32 {
        let sum = self.row_sum(packed, self.rows, self.cols);
        self.columns(sum, groups(self.rows, self.cols).1) >> LINE_C_SHIFT
    }

    /// The sum of the entries of every line of a board packed 4 bits a cell: its tally key
    /// where the three sums fit their fields (see [`KeyLayout`]). `R x C` is the board's shape
    /// when the caller knows it at compile time (the loops unrolled), `0 x 0` to read it from
    /// the tables.
    #[inline(always)]
    fn key<const R: usize, const C: usize>(&self, packed: u64) -> u32 {
        let (rows, cols, lookups) = if R > 0 {
            (R, C, const { groups(R, C).1 })
        } else {
            (self.rows, self.cols, groups(self.rows, self.cols).1)
        };
        let sum = self.row_sum(packed, rows, cols);
        (sum as u32 & 0xFFFF) + self.columns(sum, lookups)
    }

    #[cfg(test)]
    /// Hamming, Manhattan and linear conflict of a board packed 4 bits a cell, on any board
    /// the tables cover (the fields are summed apart: a 4x4 board's Manhattan can exceed 6
    /// bits).
    fn values(&self, packed: u64) -> [u32; 3] {
        let (rows, cols) = (self.rows, self.cols);
        let row_mask = (1u64 << (4 * cols)) - 1;
        let (mut hamming, mut manhattan, mut conflicts) = (0, 0, 0);
        for r in 0..rows {
            let key = (packed >> (4 * cols * r)) & row_mask;
            let entry = self.row[(r << (4 * cols)) | key as usize] as u32 & 0xFFFF;
            hamming += entry & ((1 << HAMMING_BITS) - 1);
            manhattan += (entry >> HAMMING_BITS) & ((1 << (LINE_C_SHIFT - HAMMING_BITS)) - 1);
            conflicts += entry >> LINE_C_SHIFT;
        }
        conflicts += self.col_conflicts(packed);
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
        assert_eq!(lines.values(packed), estimates.all(board), "{board:?}");
        let layout = KeyLayout::new(rows, cols);
        if layout.c_shift == LINE_C_SHIFT {
            assert_eq!(
                layout.values(lines.key::<0, 0>(packed)),
                estimates.all(board),
                "{board:?}"
            );
        }
        for r in 0..rows {
            assert_eq!(
                lines.row_conflicts(packed, r),
                estimates.row_conflicts(board, r),
                "{board:?}"
            );
        }
        assert_eq!(
            lines.col_conflicts(packed),
            (0..cols).map(|c| estimates.col_conflicts(board, c)).sum::<u32>(),
            "{board:?}"
        );
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
