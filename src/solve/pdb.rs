//! Additive disjoint pattern databases (Korf & Felner 2002): the estimate IDA* uses on
//! sliding boards too big to enumerate, up to [`MAX_PATTERN_CELLS`] cells.
//!
//! The tiles are split into groups. For one group, a table holds, for every placement of
//! its tiles on the board (the other tiles unlabelled), the fewest moves *of the group's
//! own tiles* that bring them home. A move moves one tile, so it counts in one group only,
//! and the sum over the groups never exceeds the true distance: the estimate is
//! admissible. On square boards the transposed position (relabelled so the goal stays the
//! goal) is an equally valid lookup, and the larger of the two sums is used.
//!
//! A table is built by a breadth-first search backwards from the goal placement over
//! (placement, blank) states, where the blank wandering through the free cells costs
//! nothing and a group tile's move costs one: every state of a connected region of free
//! cells has the same distance, so a state is a placement plus its region, named by the
//! region's lowest cell. The table keeps each placement's best region.
//!
//! A placement of k tiles on C cells is ranked in `C (C-1) ... (C-k+1)` entries, a byte
//! each: the cell of each tile in turn, counted among the cells still free. That is how
//! tables are built and cached; the search reads them spread out (see
//! [`PatternHeuristic`]).

use super::board::MAX_CELLS;
use super::cache;
use super::ida::{Heuristic, Node};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Instant;

/// Largest table built: 2^24 entries (16 MiB), which allows groups of 6 tiles on 4x4 (6-6-3)
/// and groups of 5 on 5x5. Each table takes a few seconds to build.
pub const MAX_ENTRIES: u64 = 1 << 24;

/// Largest board given pattern databases: with more cells the groups get so small that
/// the estimate is little better than Manhattan distance, and only near-goal positions
/// are solvable anyway.
pub const MAX_PATTERN_CELLS: usize = 25;

/// Marks a placement the search has not reached.
const UNSEEN: u8 = u8::MAX;

/// Frontier states one rayon task expands.
const CHUNK: usize = 1 << 12;

/// The table of one group of tiles.
#[derive(Debug, Clone)]
pub struct PatternDb {
    rows: usize,
    cols: usize,
    tiles: Vec<u8>,
    values: Vec<u8>,
}

/// `cells (cells-1) ... (cells-k+1)`: the placements of `k` tiles.
pub fn placements(cells: usize, k: usize) -> u64 {
    (cells - k + 1..=cells).map(|c| c as u64).product()
}

/// The rank of a placement: `cells` yields the cell of each group tile in group order.
#[inline(always)]
pub fn rank(board_cells: usize, cells: impl Iterator<Item = u8>) -> usize {
    let mut used = 0u64;
    let mut rank = 0;
    let mut radix = board_cells;
    for cell in cells {
        let below = (used & ((1u64 << cell) - 1)).count_ones() as usize;
        rank = rank * radix + usize::from(cell) - below;
        radix -= 1;
        used |= 1 << cell;
    }
    rank
}

impl PatternDb {
    /// Builds the table of `tiles` on a `rows x cols` board on the current rayon pool.
    pub fn build(rows: usize, cols: usize, tiles: &[u8]) -> Self {
        let values = PdbBuilder::new(rows, cols, tiles).run();
        Self {
            rows,
            cols,
            tiles: tiles.to_vec(),
            values,
        }
    }

    /// Loads the table from the cache folder `dir`, or builds and stores it there. Notes
    /// on what happens go to `note`; a cache that cannot be written is only noted.
    pub fn load_or_build(rows: usize, cols: usize, tiles: &[u8], dir: Option<&Path>, note: &dyn Fn(&str)) -> Self {
        let entries = placements(rows * cols, tiles.len()) as usize;
        let name = format!("sliding-{rows}x{cols}-tiles-{}.pdb", join(tiles, "-"));
        let header = format!(
            "analyze pattern database v1: sliding {rows}x{cols}, tiles {}, {entries} entries",
            join(tiles, " ")
        );
        if let Some(dir) = dir {
            let path = dir.join(&name);
            match cache::load(&path, &header, entries) {
                Ok(values) => {
                    return Self {
                        rows,
                        cols,
                        tiles: tiles.to_vec(),
                        values,
                    };
                }
                Err(why) if path.exists() => note(&format!("{}: {why}; rebuilding it", path.display())),
                Err(_) => {}
            }
        }
        let start = Instant::now();
        note(&format!(
            "building the pattern database of tiles {} on {rows}x{cols} ({entries} entries), once",
            join(tiles, " ")
        ));
        let db = Self::build(rows, cols, tiles);
        let stored = cache::store_in(dir, &name, &header, &db.values);
        note(&format!("  built in {:.1} s{stored}", start.elapsed().as_secs_f64()));
        db
    }

    /// The group's tiles, in ranking order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Board shape the table is for.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The raw table, one byte per placement rank.
    pub fn values(&self) -> &[u8] {
        &self.values
    }
}

fn join(tiles: &[u8], sep: &str) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(sep)
}

/// Bits of a placement's word that mark its regions already reached, by lowest cell.
const REGION_BITS: u32 = MAX_PATTERN_CELLS as u32;

/// The breadth-first search that fills one table.
///
/// Each placement has one atomic word: which of its regions were reached (a bit per
/// lowest cell) and, above those, the depth at which the first one was. Keeping both in
/// one word costs one cache miss per generated state, which is what the build spends
/// its time on.
struct PdbBuilder {
    cells: usize,
    cols: usize,
    tiles: usize,
    /// Every cell of the board.
    all: u64,
    /// Cells not in the first column / not in the last column.
    not_first: u64,
    not_last: u64,
    /// `neighbours[cell]`: the cells next to `cell`, as a mask.
    neighbours: Vec<u64>,
    /// The home cell of each group tile, in group order.
    goal: Vec<u8>,
    /// For boards of up to 16 cells, `lowest[free * cells + cell]`: the lowest cell of the
    /// region of `cell` within the free cells `free` (a 1 MiB table for 4x4, in cache,
    /// instead of a flood fill per move).
    lowest: Vec<u8>,
}

/// Boards up to this many cells get the region table.
const REGION_TABLE_CELLS: usize = 16;

impl PdbBuilder {
    fn new(rows: usize, cols: usize, tiles: &[u8]) -> Self {
        let cells = rows * cols;
        let all = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let first = (0..rows).fold(0u64, |m, r| m | 1 << (r * cols));
        let neighbours = (0..cells)
            .map(|c| super::board::neighbours(rows, cols, c).fold(0u64, |m, n| m | 1 << n))
            .collect();
        let mut builder = Self {
            cells,
            cols,
            tiles: tiles.len(),
            all,
            not_first: all & !first,
            not_last: all & !(first << (cols - 1)),
            neighbours,
            goal: tiles.iter().map(|&t| t - 1).collect(),
            lowest: Vec::new(),
        };
        if cells <= REGION_TABLE_CELLS {
            builder.lowest = (0..1u64 << cells)
                .into_par_iter()
                .flat_map_iter(|free| {
                    let b = &builder;
                    (0..cells).map(move |c| {
                        if free >> c & 1 == 1 {
                            b.region(1 << c, free).trailing_zeros() as u8
                        } else {
                            0
                        }
                    })
                })
                .collect();
        }
        builder
    }

    /// The free cells connected to `seed` within `free`.
    #[inline]
    fn region(&self, seed: u64, free: u64) -> u64 {
        let mut region = seed;
        loop {
            let grown = (region
                | ((region << 1) & self.not_first)
                | ((region >> 1) & self.not_last)
                | (region << self.cols)
                | (region >> self.cols))
                & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The lowest cell of the region of `cell` within `free`.
    #[inline]
    fn lowest(&self, cell: u8, free: u64) -> u8 {
        if self.lowest.is_empty() {
            self.region(1 << cell, free).trailing_zeros() as u8
        } else {
            self.lowest[free as usize * self.cells + usize::from(cell)]
        }
    }

    /// The cells of the placement with rank `rank`, in group order.
    fn unrank(&self, mut rank: u64) -> [u8; MAX_CELLS] {
        let mut digits = [0u64; MAX_CELLS];
        for i in (0..self.tiles).rev() {
            let radix = (self.cells - i) as u64;
            digits[i] = rank % radix;
            rank /= radix;
        }
        let mut cells = [0u8; MAX_CELLS];
        let mut free = self.all;
        for i in 0..self.tiles {
            let mut rest = free;
            for _ in 0..digits[i] {
                rest &= rest - 1;
            }
            let cell = rest.trailing_zeros() as u8;
            cells[i] = cell;
            free &= !(1 << cell);
        }
        cells
    }

    /// Calls `f(rank, lowest)` for every state (placement rank, lowest cell of the blank's
    /// region) one group move from the state `(rank, lowest)`.
    fn expand(&self, rank_here: usize, lowest: u8, mut f: impl FnMut(usize, u8)) {
        let mut placement = self.unrank(rank_here as u64);
        let occupied = placement[..self.tiles].iter().fold(0u64, |m, &c| m | 1 << c);
        let free = self.all & !occupied;
        let region = self.region(1 << lowest, free);
        for i in 0..self.tiles {
            let from = placement[i];
            let mut targets = self.neighbours[usize::from(from)] & region;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                placement[i] = to;
                let next = rank(self.cells, placement[..self.tiles].iter().copied());
                placement[i] = from;
                // The blank is now where the tile was; its region decides the state.
                f(next, self.lowest(from, (free | 1 << from) & !(1 << to)));
            }
        }
    }

    fn run(&self) -> Vec<u8> {
        let entries = placements(self.cells, self.tiles);
        let words: Vec<AtomicU32> = (0..entries).map(|_| AtomicU32::new(0)).collect();
        let goal = rank(self.cells, self.goal.iter().copied());
        let occupied = self.goal.iter().fold(0u64, |m, &c| m | 1 << c);
        let start = self.lowest(self.cells as u8 - 1, self.all & !occupied);
        words[goal].store(1 << start, Relaxed);
        let cells = self.cells as u64;
        let mut frontier = vec![goal as u64 * cells + u64::from(start)];
        let mut depth = 0u32;
        while !frontier.is_empty() {
            depth += 1;
            frontier = frontier
                .par_chunks(CHUNK)
                .flat_map_iter(|chunk| {
                    let mut next = Vec::new();
                    for &state in chunk {
                        self.expand((state / cells) as usize, (state % cells) as u8, |rank, lowest| {
                            let word = &words[rank];
                            let bit = 1 << lowest;
                            if word.load(Relaxed) & bit == 0 {
                                // The first region of a placement reached records the depth.
                                let old = word.fetch_or(bit, Relaxed);
                                if old & bit == 0 {
                                    if old & REGION_MASK == 0 {
                                        word.fetch_or(depth.min(MAX_DEPTH) << REGION_BITS, Relaxed);
                                    }
                                    next.push(rank as u64 * cells + u64::from(lowest));
                                }
                            }
                        });
                    }
                    next
                })
                .collect();
        }
        words
            .into_iter()
            .map(|w| {
                let w = w.into_inner();
                if w & REGION_MASK == 0 {
                    UNSEEN
                } else {
                    (w >> REGION_BITS) as u8
                }
            })
            .collect()
    }
}

/// The region bits of a placement's word.
const REGION_MASK: u32 = (1 << REGION_BITS) - 1;

/// Depths kept in the 7 bits above the region bits (group distances stay far below).
const MAX_DEPTH: u32 = (1 << (32 - REGION_BITS)) - 1;

/// How the tiles of a board are split into groups.
///
/// 4x4 uses the 6-6-3 split that expanded the fewest positions on Korf's first 20 random
/// instances among the compact splits tried: `1 2 3 / 5 6 7` (the top left 2x3 block),
/// `4 8 / 11 12 / 14 15` (the right edge) and `9 10 13` (with the transposed lookup, half
/// the positions of the split into columns).
///
/// Other boards: consecutive goal cells along the shorter side first (so groups are
/// compact blocks), as many groups of the largest size [`MAX_ENTRIES`] allows as fit, and
/// the rest in a last group.
pub fn partition(rows: usize, cols: usize) -> Vec<Vec<u8>> {
    if (rows, cols) == (4, 4) {
        return vec![vec![1, 2, 3, 5, 6, 7], vec![4, 8, 11, 12, 14, 15], vec![9, 10, 13]];
    }
    let cells = rows * cols;
    let size = (1..cells)
        .take_while(|&k| placements(cells, k) <= MAX_ENTRIES)
        .last()
        .unwrap_or(1);
    let order: Vec<u8> = if rows <= cols {
        (0..cols)
            .flat_map(|c| (0..rows).map(move |r| r * cols + c))
            .collect::<Vec<_>>()
    } else {
        (0..cells).collect()
    }
    .into_iter()
    .filter(|&cell| cell != cells - 1)
    .map(|cell| cell as u8 + 1)
    .collect();
    order.chunks(size).map(<[u8]>::to_vec).collect()
}

/// Most groups a heuristic combines (each is looked up for the position and, on square
/// boards, for its transpose): the [`partition`]s of boards up to [`MAX_PATTERN_CELLS`]
/// cells have at most 5.
const MAX_GROUPS: usize = 5;

/// Most tiles in a group.
const MAX_GROUP_TILES: usize = 16;

/// Where a tile counts in one lookup (of the position or of its transpose): the group,
/// and what one cell of the tile's position is worth in that group's spread index.
#[derive(Debug, Clone, Copy, Default)]
struct Term {
    group: u8,
    weight: u32,
}

/// The sum of pattern database values, maximised with the transposed position on square
/// boards.
///
/// The tables are kept spread out: a placement of `k` tiles on `C` cells is read at
/// `c_1 C^(k-1) + c_2 C^(k-2) + ... + c_k`, with `c_i` the cell of the group's `i`-th tile.
/// That takes more room than the ranked table (2.9 times for 6 tiles on 4x4, 9 times for 7
/// tiles on 3x4: the unused entries are placements with two tiles on one cell), but a
/// move changes the index by one term, `(to - from) C^(k-i)`, where a rank would be
/// recomputed tile by tile, and the search spends its time on these reads.
#[derive(Debug, Clone)]
pub struct PatternHeuristic {
    /// Every group's spread table, one after the other: one slice to index on the hot path.
    values: Vec<u8>,
    /// Where each group's table starts in `values`.
    offsets: [u32; MAX_GROUPS],
    groups: usize,
    /// 1 for the position alone, 2 with its transpose (square boards).
    sides: usize,
    /// `terms[tile][side]`: where `tile` counts in the position (side 0) and in its
    /// transpose (side 1).
    terms: Vec<[Term; 2]>,
    /// `cell_maps[side][cell]`: the cell as the side sees it (the transposed cell on side 1).
    cell_maps: [[u8; MAX_CELLS]; 2],
}

/// Where each lookup reads the tables, and the sum of the values read, for the position
/// (side 0) and its transpose (side 1).
#[derive(Debug, Clone, Copy)]
pub struct PatternMemo {
    index: [[u32; MAX_GROUPS]; 2],
    /// The value read at each index, so that a move reads the table once per side.
    values: [[u8; MAX_GROUPS]; 2],
    sums: [u32; 2],
}

impl PatternHeuristic {
    /// Combines the tables of a partition of one board's tiles (one table per group).
    ///
    /// `None` unless the groups cover every tile exactly once and fit the limits (the
    /// spread tables together must stay under 4 GiB).
    pub fn new(tables: Vec<PatternDb>) -> Option<Self> {
        let (rows, cols) = tables.first()?.shape();
        let cells = rows * cols;
        let mut covered: Vec<u8> = tables.iter().flat_map(|t| t.tiles().iter().copied()).collect();
        covered.sort_unstable();
        if tables.len() > MAX_GROUPS
            || tables
                .iter()
                .any(|t| t.shape() != (rows, cols) || t.tiles().is_empty() || t.tiles().len() > MAX_GROUP_TILES)
            || covered != (1..cells as u8).collect::<Vec<_>>()
        {
            return None;
        }
        let mut offsets = [0; MAX_GROUPS];
        let mut total = 0u32;
        for (group, t) in tables.iter().enumerate() {
            offsets[group] = total;
            let size = cells.checked_pow(t.tiles().len() as u32)?;
            total = total.checked_add(u32::try_from(size).ok()?)?;
        }
        let mut values = vec![0; total as usize];
        for (t, &start) in tables.iter().zip(&offsets) {
            let (start, k) = (start as usize, t.tiles().len());
            spread(cells, k, t.values(), &mut values[start..start + cells.pow(k as u32)]);
        }
        // Transposing swaps rows and columns and keeps the goal's blank corner; tile t
        // (home cell t-1) plays the part of the tile whose home is the transposed cell.
        let sides = if rows == cols { 2 } else { 1 };
        let transpose: [u8; MAX_CELLS] = std::array::from_fn(|c| {
            if c < cells {
                ((c % cols) * cols + c / cols) as u8
            } else {
                0
            }
        });
        let mut terms = vec![[Term::default(); 2]; cells];
        for (group, t) in tables.iter().enumerate() {
            let k = t.tiles().len();
            for (i, &tile) in t.tiles().iter().enumerate() {
                let term = Term {
                    group: group as u8,
                    weight: cells.pow((k - 1 - i) as u32) as u32,
                };
                terms[usize::from(tile)][0] = term;
                if sides == 2 {
                    terms[usize::from(transpose[usize::from(tile) - 1] + 1)][1] = term;
                }
            }
        }
        Some(Self {
            values,
            offsets,
            groups: tables.len(),
            sides,
            terms,
            cell_maps: [std::array::from_fn(|c| c as u8), transpose],
        })
    }

    /// The tables, loaded or built, for the standard [`partition`] of a board.
    pub fn for_board(rows: usize, cols: usize, dir: Option<&Path>, note: &dyn Fn(&str)) -> Option<Self> {
        let tables = partition(rows, cols)
            .iter()
            .map(|tiles| PatternDb::load_or_build(rows, cols, tiles, dir, note))
            .collect();
        Self::new(tables)
    }
}

/// Writes a ranked table of placements of `tiles` tiles on `cells` cells to `out` spread
/// out (see [`PatternHeuristic`]), leaving the entries of no placement alone.
///
/// Ranks list the placements with the first tile's cell slowest and each tile's cell
/// rising among the cells still free, so a walk over the cells in that order meets the
/// ranks one after the other. The first tile's cell splits the work.
fn spread(cells: usize, tiles: usize, ranked: &[u8], out: &mut [u8]) {
    /// The placements with a given first cell: the rest of the walk.
    struct Walk<'a> {
        cells: usize,
        ranked: std::slice::Iter<'a, u8>,
        out: &'a mut [u8],
    }
    impl Walk<'_> {
        fn place(&mut self, left: usize, used: u64, index: usize) {
            if left == 0 {
                if let Some(&value) = self.ranked.next() {
                    self.out[index] = value;
                }
                return;
            }
            for cell in (0..self.cells).filter(|&c| used >> c & 1 == 0) {
                self.place(left - 1, used | 1 << cell, index * self.cells + cell);
            }
        }
    }
    out.par_chunks_mut(cells.pow(tiles as u32 - 1))
        .zip(ranked.par_chunks(placements(cells - 1, tiles - 1) as usize))
        .enumerate()
        .for_each(|(first, (out, ranked))| {
            let ranked = ranked.iter();
            Walk { cells, ranked, out }.place(tiles - 1, 1 << first, 0);
        });
}

impl Heuristic for PatternHeuristic {
    type Memo = PatternMemo;

    fn evaluate(&self, node: &Node) -> (PatternMemo, u32) {
        let mut memo = PatternMemo {
            index: [self.offsets; 2],
            values: [[0; MAX_GROUPS]; 2],
            sums: [0; 2],
        };
        for (tile, terms) in self.terms.iter().enumerate().skip(1) {
            for (side, term) in terms.iter().enumerate().take(self.sides) {
                let cell = self.cell_maps[side][usize::from(node.cells[tile])];
                memo.index[side][usize::from(term.group)] += u32::from(cell) * term.weight;
            }
        }
        for side in 0..self.sides {
            for group in 0..self.groups {
                memo.values[side][group] = self.values[memo.index[side][group] as usize];
                memo.sums[side] += u32::from(memo.values[side][group]);
            }
        }
        (memo, memo.sums[0].max(memo.sums[1]))
    }

    #[inline(always)]
    fn update(&self, memo: &mut PatternMemo, node: &Node, cell: u8) -> u32 {
        // The tile moves from `cell` to the blank's cell: on each side, one term of one
        // index changes.
        let tile = node.tiles[usize::from(cell)];
        let (from, to) = (usize::from(cell), usize::from(node.cells[0]));
        for side in 0..self.sides {
            let term = self.terms[usize::from(tile)][side];
            let group = usize::from(term.group);
            let map = &self.cell_maps[side];
            let step = u32::from(map[to]).wrapping_sub(u32::from(map[from]));
            let index = memo.index[side][group].wrapping_add(step.wrapping_mul(term.weight));
            let value = self.values[index as usize];
            memo.sums[side] = memo.sums[side] + u32::from(value) - u32::from(memo.values[side][group]);
            memo.index[side][group] = index;
            memo.values[side][group] = value;
        }
        memo.sums[0].max(memo.sums[1])
    }
}
