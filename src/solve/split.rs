//! Pattern databases of boards up to 16 cells in the *split* layout, built over two bit
//! planes: the additive 7-8 databases of the 4x4 board (Korf & Felner 2002), and tables for
//! any goal (the blank's home anywhere).
//!
//! What a table holds is what [`super::pdb`] computes (for every placement of a group's
//! tiles, the fewest moves of those tiles that bring them home, the blank free to wander),
//! but the 8-tile group of 4x4 has 518,918,400 placements, and a word per placement (as
//! there) would take 2 GiB. Here a placement is split into the *set* of cells its tiles
//! occupy and the *order* of its tiles on those cells, and indexed `order * sets + set`:
//! a tile's horizontal move keeps the order, so half the moves stay near in memory.
//!
//! The breadth-first search runs over (placement, region of the blank's free cells)
//! states, each indexed `order * regions + region`, where `regions` counts the regions of
//! every set of cells. Two bits a state (unseen, this level, next level, done) in two bit
//! planes: 2.75 regions per set on 4x4 make 356 MB for 8 tiles, next to the 519 MB table.

use super::board::MAX_CELLS;
use super::cache;
use super::ida::{Heuristic, Node};
use super::pdb::{placements, rank};
use crate::engine::bitset::{BitSet, TooLarge};
use crate::util::{factorial, human_bytes, thousands};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

fn join(tiles: &[u8], sep: &str) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(sep)
}

/// Largest board: cell sets are indexed through a table of `2^cells` entries.
pub const MAX_SPLIT_CELLS: usize = 16;

/// Marks a placement the search has not reached.
const UNSEEN: u8 = u8::MAX;

/// Orders of the tiles one rayon task expands (each a block of `regions` states).
const ORDERS_PER_TASK: usize = 16;

/// The placements of `k` tiles on a board: sets of cells and orders on them.
#[derive(Debug, Clone)]
struct Layout {
    k: usize,
    /// The sets of `k` cells, by rank.
    sets: Vec<u16>,
    /// `set_rank[mask]`: the rank of a set of `k` cells (other masks: 0).
    set_rank: Vec<u32>,
}

impl Layout {
    fn new(cells: usize, k: usize) -> Self {
        let mut sets = Vec::new();
        let mut set_rank = vec![0u32; 1 << cells];
        for mask in 0..1u32 << cells {
            if mask.count_ones() as usize == k {
                set_rank[mask as usize] = sets.len() as u32;
                sets.push(mask as u16);
            }
        }
        Self { k, sets, set_rank }
    }

    /// The index of the placement whose tiles are on `cells` (in group order), with `occ`
    /// the set of those cells.
    #[inline(always)]
    fn index(&self, occ: u32, cells: &[u8]) -> usize {
        self.order(occ, cells) * self.sets.len() + self.set_rank[occ as usize] as usize
    }

    /// The rank of the tiles' order: each tile's place among the occupied cells, ranked as
    /// a placement of `k` tiles on `k` cells.
    #[inline(always)]
    fn order(&self, occ: u32, cells: &[u8]) -> usize {
        rank(
            self.k,
            cells.iter().map(|&c| (occ & ((1u32 << c) - 1)).count_ones() as u8),
        )
    }
}

/// One group's table in the split layout, for a given goal.
#[derive(Debug, Clone)]
pub struct SplitDb {
    rows: usize,
    cols: usize,
    tiles: Vec<u8>,
    /// The goal cell of each tile, in group order.
    homes: Vec<u8>,
    /// The goal cell of the blank.
    blank: u8,
    layout: Layout,
    values: Vec<u8>,
}

/// Bytes of the finished table of `k` tiles on `cells` cells (on disk and in memory).
pub fn table_bytes(cells: usize, k: usize) -> u64 {
    placements(cells, k)
}

/// Bytes the build of a table of `k` tiles on a `rows x cols` board needs at its peak:
/// the table and the two bit planes.
pub fn build_bytes(rows: usize, cols: usize, k: usize) -> u64 {
    let cells = rows * cols;
    let regions = Regions::new((rows, cols), &Layout::new(cells, k)).total as u64;
    table_bytes(cells, k) + 2 * (factorial(k) * regions).div_ceil(8)
}

/// The regions of free cells of every set of a layout.
struct Regions {
    /// Every region's free cells, set by set.
    masks: Vec<u16>,
    /// The set each region belongs to.
    set: Vec<u32>,
    /// Where each set's regions start in `masks`.
    first: Vec<u32>,
    /// `ordinal[set * cells + cell]`: which of its set's regions a free cell is in.
    ordinal: Vec<u8>,
    total: usize,
}

impl Regions {
    fn new((rows, cols): (usize, usize), layout: &Layout) -> Self {
        let cells = rows * cols;
        let all = (1u32 << cells) - 1;
        let neighbours: Vec<u32> = (0..cells)
            .map(|c| super::board::neighbours(rows, cols, c).fold(0u32, |m, n| m | 1 << n))
            .collect();
        let mut r = Regions {
            masks: Vec::new(),
            set: Vec::new(),
            first: Vec::with_capacity(layout.sets.len()),
            ordinal: vec![0; layout.sets.len() * cells],
            total: 0,
        };
        for (s, &occ) in layout.sets.iter().enumerate() {
            r.first.push(r.masks.len() as u32);
            let mut left = all & !u32::from(occ);
            let mut n = 0u8;
            while left != 0 {
                let mut region = left & left.wrapping_neg();
                loop {
                    let grown = region
                        | (0..cells)
                            .filter(|&c| region >> c & 1 == 1)
                            .fold(0, |m, c| m | neighbours[c])
                            & left;
                    if grown == region {
                        break;
                    }
                    region = grown;
                }
                for c in (0..cells).filter(|&c| region >> c & 1 == 1) {
                    r.ordinal[s * cells + c] = n;
                }
                r.masks.push(region as u16);
                r.set.push(s as u32);
                left &= !region;
                n += 1;
            }
        }
        r.total = r.masks.len();
        r
    }
}

impl SplitDb {
    /// Builds the table of `tiles` on a `rows x cols` board for the goal `goal` (the tiles
    /// cell by cell, 0 for the blank), on the current rayon pool; `progress(done, total)`
    /// hears how many search states are settled, from any thread.
    pub fn build(
        rows: usize,
        cols: usize,
        tiles: &[u8],
        goal: &[u8],
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Result<Self, TooLarge> {
        let cells = rows * cols;
        assert!(cells <= MAX_SPLIT_CELLS && !tiles.is_empty() && tiles.len() < cells);
        let home = |t: u8| goal.iter().position(|&g| g == t).unwrap_or(0) as u8;
        let homes: Vec<u8> = tiles.iter().map(|&t| home(t)).collect();
        let blank = home(0);
        let layout = Layout::new(cells, tiles.len());
        let values = SplitBuilder::new(rows, cols, &layout).run(&homes, blank, progress)?;
        Ok(Self {
            rows,
            cols,
            tiles: tiles.to_vec(),
            homes,
            blank,
            layout,
            values,
        })
    }

    /// A table from stored values (see [`SplitDb::values`]); `None` if the length is wrong.
    pub fn from_values(rows: usize, cols: usize, tiles: &[u8], goal: &[u8], values: Vec<u8>) -> Option<Self> {
        let cells = rows * cols;
        let home = |t: u8| goal.iter().position(|&g| g == t).unwrap_or(0) as u8;
        (values.len() as u64 == placements(cells, tiles.len())).then(|| Self {
            rows,
            cols,
            tiles: tiles.to_vec(),
            homes: tiles.iter().map(|&t| home(t)).collect(),
            blank: home(0),
            layout: Layout::new(cells, tiles.len()),
            values,
        })
    }

    /// The cache file's name and header line for the table of `tiles` for `goal`: the
    /// usual goal keeps the name short, any other is named in full.
    fn cache_key(rows: usize, cols: usize, tiles: &[u8], goal: &[u8]) -> (String, String) {
        let usual: Vec<u8> = (1..(rows * cols) as u8).chain([0]).collect();
        let goal_part = if goal == usual {
            String::new()
        } else {
            format!("-goal-{}", join(goal, "-"))
        };
        let entries = placements(rows * cols, tiles.len());
        (
            format!("sliding-{rows}x{cols}-split-tiles-{}{goal_part}.pdb", join(tiles, "-")),
            format!(
                "analyze split pattern database v1: sliding {rows}x{cols}, tiles {}, goal {}, {entries} entries",
                join(tiles, " "),
                join(goal, " ")
            ),
        )
    }

    /// Whether the cache folder `dir` holds the table of `tiles` for `goal` (by its size;
    /// loading checks the rest).
    pub fn is_cached(rows: usize, cols: usize, tiles: &[u8], goal: &[u8], dir: Option<&Path>) -> bool {
        let (name, header) = Self::cache_key(rows, cols, tiles, goal);
        let entries = placements(rows * cols, tiles.len());
        dir.and_then(|d| std::fs::metadata(d.join(name)).ok())
            .is_some_and(|m| m.is_file() && m.len() >= entries + header.len() as u64)
    }

    /// Loads the table from the cache folder `dir`, or builds and stores it there. Notes go
    /// to `note` (first the disk and memory the build takes), the build's progress to
    /// `progress`; a cache that cannot be written is only noted.
    pub fn load_or_build(
        rows: usize,
        cols: usize,
        tiles: &[u8],
        goal: &[u8],
        dir: Option<&Path>,
        note: &dyn Fn(&str),
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Result<Self, TooLarge> {
        let cells = rows * cols;
        let entries = placements(cells, tiles.len());
        let (name, header) = Self::cache_key(rows, cols, tiles, goal);
        if let Some(dir) = dir {
            let path = dir.join(&name);
            match cache::load(&path, &header, entries as usize) {
                Ok(values) => {
                    if let Some(db) = Self::from_values(rows, cols, tiles, goal, values) {
                        return Ok(db);
                    }
                }
                Err(why) if path.exists() => note(&format!("{}: {why}; rebuilding it", path.display())),
                Err(_) => {}
            }
        }
        let start = Instant::now();
        note(&format!(
            "building the pattern database of tiles {} on {rows}x{cols} ({} entries), once: {} on disk, {} of memory while building",
            join(tiles, " "),
            thousands(entries),
            human_bytes(u128::from(table_bytes(cells, tiles.len()))),
            human_bytes(u128::from(build_bytes(rows, cols, tiles.len()))),
        ));
        let db = Self::build(rows, cols, tiles, goal, progress)?;
        let stored = cache::store_in(dir, &name, &header, &db.values);
        note(&format!("  built in {:.1} s{stored}", start.elapsed().as_secs_f64()));
        Ok(db)
    }

    /// The group's tiles, in group order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The goal cells of the group's tiles, and of the blank.
    pub fn homes(&self) -> (&[u8], u8) {
        (&self.homes, self.blank)
    }

    /// The raw table in the split layout, a byte per placement.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The value of the placement with the group's tiles on `cells` (in group order).
    pub fn value(&self, cells: &[u8]) -> u8 {
        let occ = cells.iter().fold(0u32, |m, &c| m | 1 << c);
        self.values[self.layout.index(occ, cells)]
    }
}

/// The breadth-first search that fills one table.
struct SplitBuilder<'a> {
    cells: usize,
    layout: &'a Layout,
    regions: Regions,
    neighbours: Vec<u32>,
    /// `occupied[set]`: the set's cells in increasing order.
    occupied: Vec<[u8; MAX_SPLIT_CELLS]>,
}

impl<'a> SplitBuilder<'a> {
    fn new(rows: usize, cols: usize, layout: &'a Layout) -> Self {
        let cells = rows * cols;
        Self {
            cells,
            layout,
            regions: Regions::new((rows, cols), layout),
            neighbours: (0..cells)
                .map(|c| super::board::neighbours(rows, cols, c).fold(0u32, |m, n| m | 1 << n))
                .collect(),
            occupied: layout
                .sets
                .iter()
                .map(|&set| {
                    let mut cells = [0u8; MAX_SPLIT_CELLS];
                    let mut rest = u32::from(set);
                    for cell in &mut cells {
                        if rest != 0 {
                            *cell = rest.trailing_zeros() as u8;
                            rest &= rest - 1;
                        }
                    }
                    cells
                })
                .collect(),
        }
    }

    fn run(&self, homes: &[u8], blank: u8, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Vec<u8>, TooLarge> {
        let k = self.layout.k;
        let regions = self.regions.total as u64;
        let states = factorial(k) * regions;
        let entries = placements(self.cells, k) as usize;
        let mut values: Vec<AtomicU8> = Vec::new();
        values
            .try_reserve_exact(entries)
            .map_err(|_| TooLarge { bytes: entries as u128 })?;
        values.resize_with(entries, || AtomicU8::new(UNSEEN));
        // Two bits a state: (lo, hi) = unseen 00, this level 10, next level 01, done 11.
        let lo = BitSet::try_new(states)?;
        let hi = BitSet::try_new(states)?;
        let occ = homes.iter().fold(0u32, |m, &c| m | 1 << c);
        let set = self.layout.set_rank[occ as usize] as usize;
        let start = self.layout.order(occ, homes) as u64 * regions
            + u64::from(self.regions.first[set])
            + u64::from(self.regions.ordinal[set * self.cells + usize::from(blank)]);
        lo.insert(start);
        let (lo_words, hi_words) = (lo.words(), hi.words());
        let settled = AtomicU64::new(0);
        let orders = factorial(k) as usize;
        let mut depth = 0u8;
        loop {
            (0..orders.div_ceil(ORDERS_PER_TASK)).into_par_iter().for_each(|task| {
                let mut count = 0;
                for order in task * ORDERS_PER_TASK..orders.min((task + 1) * ORDERS_PER_TASK) {
                    count += self.expand_order(order, depth, &values, &lo, &hi);
                }
                if count > 0 {
                    progress(settled.fetch_add(count, Relaxed) + count, states);
                }
            });
            // This level is done, the next one becomes this level.
            let next: u64 = lo_words
                .par_iter()
                .zip(hi_words)
                .map(|(l, h)| {
                    let (a, b) = (l.load(Relaxed), h.load(Relaxed));
                    l.store(a | b, Relaxed);
                    h.store(a, Relaxed);
                    u64::from((b & !a).count_ones())
                })
                .sum();
            if next == 0 {
                break;
            }
            depth += 1;
        }
        Ok(values.into_iter().map(AtomicU8::into_inner).collect())
    }

    /// Expands every state of this level with the tiles in order `order`: records the
    /// value of its placement if it is the first of its regions reached, and marks its
    /// unseen neighbours (one group move away) for the next level. Returns the states.
    fn expand_order(&self, order: usize, depth: u8, values: &[AtomicU8], lo: &BitSet, hi: &BitSet) -> u64 {
        let total = self.regions.total;
        let k = self.layout.k;
        // Each tile's place among the occupied cells: the order's digits pick it.
        let mut places = [0u8; MAX_SPLIT_CELLS];
        let mut left = order;
        let mut digits = [0usize; MAX_SPLIT_CELLS];
        for i in (0..k).rev() {
            let radix = k - i;
            digits[i] = left % radix;
            left /= radix;
        }
        let mut unused = (1u32 << k) - 1;
        for i in 0..k {
            let mut pick = unused;
            for _ in 0..digits[i] {
                pick &= pick - 1;
            }
            let place = pick.trailing_zeros();
            unused &= !(1 << place);
            places[i] = place as u8;
        }
        let (lo_words, hi_words) = (lo.words(), hi.words());
        let base = order * total;
        let (first, last) = (base / 64, (base + total).div_ceil(64));
        let mut count = 0;
        for w in first..last {
            let mut bits = lo_words[w].load(Relaxed) & !hi_words[w].load(Relaxed);
            // Only this order's part of the edge words.
            if w == first {
                bits &= u64::MAX << (base % 64);
            }
            if w + 1 == last && (base + total) % 64 != 0 {
                bits &= (1u64 << ((base + total) % 64)) - 1;
            }
            count += u64::from(bits.count_ones());
            while bits != 0 {
                let region = w * 64 + bits.trailing_zeros() as usize - base;
                bits &= bits - 1;
                self.expand(order, &places[..k], region, depth, values, lo, hi);
            }
        }
        count
    }

    /// Expands one state: the tiles in order `order` (`places`), the blank in `region`.
    #[inline(always)]
    #[expect(clippy::too_many_arguments, reason = "the hot loop's state, passed as is")]
    fn expand(
        &self,
        order: usize,
        places: &[u8],
        region: usize,
        depth: u8,
        values: &[AtomicU8],
        lo: &BitSet,
        hi: &BitSet,
    ) {
        let total = self.regions.total as u64;
        let set = self.regions.set[region] as usize;
        let occ = u32::from(self.layout.sets[set]);
        let free = u32::from(self.regions.masks[region]);
        let value = &values[order * self.layout.sets.len() + set];
        if value.load(Relaxed) == UNSEEN {
            value.store(depth, Relaxed);
        }
        let occupied = &self.occupied[set];
        let k = places.len();
        let mut cells = [0u8; MAX_SPLIT_CELLS];
        for (cell, &place) in cells.iter_mut().zip(places) {
            *cell = occupied[usize::from(place)];
        }
        for i in 0..k {
            let from = cells[i];
            let mut targets = self.neighbours[usize::from(from)] & free;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let moved = occ ^ (1 << from) ^ (1 << to);
                let (low, high) = (from.min(to), from.max(to));
                let between = ((1u32 << high) - 1) & !((2u32 << low) - 1);
                // Passing no other tile keeps the tiles' order.
                let order = if occ & between == 0 {
                    order
                } else {
                    cells[i] = to;
                    let o = self.layout.order(moved, &cells[..k]);
                    cells[i] = from;
                    o
                };
                let set = self.layout.set_rank[moved as usize] as usize;
                // The blank is now where the tile was: its region names the state.
                let region = self.regions.first[set] as usize
                    + usize::from(self.regions.ordinal[set * self.cells + usize::from(from)]);
                let next = order as u64 * total + region as u64;
                if !lo.contains(next) {
                    hi.insert(next);
                }
            }
        }
    }
}

/// Korf and Felner's split of the 4x4 tiles: `1..=7` (the top row and most of the
/// second) and `8..=15`; the 8-tile group first, so that the larger build runs while the
/// smaller table is not yet in memory.
pub fn groups_78() -> Vec<Vec<u8>> {
    vec![(8..=15).collect(), (1..=7).collect()]
}

/// The groups of the usual goal turned into groups for `goal`: each group keeps its goal
/// cells (tile `t`'s cell is `t - 1`), except that the cell of `goal`'s blank gives its
/// place to the usual blank's cell, the last; a group's tiles are then those `goal` has
/// on its cells.
pub fn goal_groups(groups: &[Vec<u8>], goal: &[u8]) -> Vec<Vec<u8>> {
    let last = goal.len() - 1;
    let blank = goal.iter().position(|&t| t == 0).unwrap_or(last);
    groups
        .iter()
        .map(|g| {
            g.iter()
                .map(|&t| {
                    let cell = usize::from(t) - 1;
                    goal[if cell == blank { last } else { cell }]
                })
                .collect()
        })
        .collect()
}

/// Most groups a [`SplitHeuristic`] combines.
const MAX_GROUPS: usize = 4;

/// The sum of split-layout pattern database values, maximised with the transposed
/// position on square boards whose goal allows it (the blank's home on the diagonal).
///
/// A move changes one group's placement; its index is recomputed from the group's cells
/// (a few population counts): the 8-tile table is too large to keep spread out as
/// [`super::pdb::PatternHeuristic`] does.
#[derive(Debug, Clone)]
pub struct SplitHeuristic {
    tables: Vec<SplitDb>,
    sides: usize,
    /// `roles[side][group]`: the tiles that play the group's tiles, in group order.
    roles: [[[u8; MAX_SPLIT_CELLS]; MAX_GROUPS]; 2],
    /// `group_of[side][tile]`.
    group_of: [[u8; MAX_CELLS]; 2],
    /// `cell_maps[side][cell]`: the cell as the side sees it.
    cell_maps: [[u8; MAX_CELLS]; 2],
}

/// The values read for the position (side 0) and its transpose (side 1), and their sums.
#[derive(Debug, Clone, Copy)]
pub struct SplitMemo {
    values: [[u8; MAX_GROUPS]; 2],
    sums: [u32; 2],
    /// Each group's occupied cells and the rank of its tiles' order on them, per side: a
    /// move that passes none of the group's other tiles keeps the order.
    occ: [[u32; MAX_GROUPS]; 2],
    order: [[u32; MAX_GROUPS]; 2],
}

impl SplitHeuristic {
    /// Combines the tables of a partition of one board's tiles for one goal; `None` unless
    /// the groups cover every tile exactly once and share the board and the goal.
    pub fn new(tables: Vec<SplitDb>) -> Option<Self> {
        let first = tables.first()?;
        let (rows, cols, blank) = (first.rows, first.cols, first.blank);
        let cells = rows * cols;
        let mut covered: Vec<u8> = tables.iter().flat_map(|t| t.tiles.iter().copied()).collect();
        covered.sort_unstable();
        let mut home_of = [u8::MAX; MAX_CELLS];
        for t in &tables {
            for (&tile, &h) in t.tiles.iter().zip(&t.homes) {
                home_of[usize::from(tile)] = h;
            }
        }
        let mut homes_used: Vec<u8> = home_of[1..cells].to_vec();
        homes_used.push(blank);
        homes_used.sort_unstable();
        if tables.len() > MAX_GROUPS
            || tables.iter().any(|t| (t.rows, t.cols, t.blank) != (rows, cols, blank))
            || covered != (1..cells as u8).collect::<Vec<_>>()
            || homes_used != (0..cells as u8).collect::<Vec<_>>()
        {
            return None;
        }
        let transpose = |c: usize| ((c % cols) * cols + c / cols) as u8;
        let sides = if rows == cols && usize::from(transpose(usize::from(blank))) == usize::from(blank) {
            2
        } else {
            1
        };
        let mut tile_at = [0u8; MAX_CELLS];
        for tile in 1..cells {
            tile_at[usize::from(home_of[tile])] = tile as u8;
        }
        let mut roles = [[[0u8; MAX_SPLIT_CELLS]; MAX_GROUPS]; 2];
        let mut group_of = [[0u8; MAX_CELLS]; 2];
        for (g, t) in tables.iter().enumerate() {
            for (i, (&tile, &h)) in t.tiles.iter().zip(&t.homes).enumerate() {
                roles[0][g][i] = tile;
                group_of[0][usize::from(tile)] = g as u8;
                if sides == 2 {
                    let role = tile_at[usize::from(transpose(usize::from(h)))];
                    roles[1][g][i] = role;
                    group_of[1][usize::from(role)] = g as u8;
                }
            }
        }
        let cell_maps = [
            std::array::from_fn(|c| c as u8),
            std::array::from_fn(|c| if c < cells { transpose(c) } else { 0 }),
        ];
        Some(Self {
            tables,
            sides,
            roles,
            group_of,
            cell_maps,
        })
    }

    /// The groups' sizes and whether the transposed lookup is used, e.g. `8-7, transposed`.
    pub fn describe(&self) -> String {
        let sizes: Vec<String> = self.tables.iter().map(|t| t.tiles.len().to_string()).collect();
        format!(
            "{}{}",
            sizes.join("-"),
            if self.sides == 2 {
                ", with the transposed lookup"
            } else {
                ""
            }
        )
    }

    /// The occupied cells and order rank of group `g` on `side` with the tiles where
    /// `node` has them, except `moved` on `to`.
    #[inline(always)]
    fn place(&self, side: usize, g: usize, node: &Node, moved: u8, to: u8) -> (u32, u32) {
        let table = &self.tables[g];
        let k = table.tiles.len();
        let map = &self.cell_maps[side];
        let mut cells = [0u8; MAX_SPLIT_CELLS];
        let mut occ = 0u32;
        for (slot, &tile) in cells.iter_mut().zip(&self.roles[side][g][..k]) {
            let cell = if tile == moved {
                to
            } else {
                node.cells[usize::from(tile)]
            };
            *slot = map[usize::from(cell)];
            occ |= 1 << *slot;
        }
        (occ, table.layout.order(occ, &cells[..k]) as u32)
    }

    /// The value of group `g` at a placement.
    #[inline(always)]
    fn value(&self, g: usize, occ: u32, order: u32) -> u8 {
        let table = &self.tables[g];
        table.values[order as usize * table.layout.sets.len() + table.layout.set_rank[occ as usize] as usize]
    }
}

impl Heuristic for SplitHeuristic {
    type Memo = SplitMemo;

    fn evaluate(&self, node: &Node) -> (SplitMemo, u32) {
        let mut memo = SplitMemo {
            values: [[0; MAX_GROUPS]; 2],
            sums: [0; 2],
            occ: [[0; MAX_GROUPS]; 2],
            order: [[0; MAX_GROUPS]; 2],
        };
        for side in 0..self.sides {
            for g in 0..self.tables.len() {
                let (occ, order) = self.place(side, g, node, 0, node.cells[0]);
                let v = self.value(g, occ, order);
                memo.values[side][g] = v;
                memo.sums[side] += u32::from(v);
                memo.occ[side][g] = occ;
                memo.order[side][g] = order;
            }
        }
        (memo, memo.sums[0].max(memo.sums[1]))
    }

    #[inline(always)]
    fn update(&self, memo: &mut SplitMemo, node: &Node, cell: u8) -> u32 {
        let tile = node.tiles[usize::from(cell)];
        let to = node.cells[0];
        for side in 0..self.sides {
            let g = usize::from(self.group_of[side][usize::from(tile)]);
            let map = &self.cell_maps[side];
            let (a, b) = (map[usize::from(cell)], map[usize::from(to)]);
            let occ = memo.occ[side][g];
            let moved = occ ^ (1 << a) ^ (1 << b);
            let (low, high) = (a.min(b), a.max(b));
            let between = ((1u32 << high) - 1) & !((2u32 << low) - 1);
            // Passing none of the group's other tiles keeps the order.
            let order = if occ & between == 0 {
                memo.order[side][g]
            } else {
                self.place(side, g, node, tile, to).1
            };
            let v = self.value(g, moved, order);
            memo.sums[side] = memo.sums[side] + u32::from(v) - u32::from(memo.values[side][g]);
            memo.values[side][g] = v;
            memo.occ[side][g] = moved;
            memo.order[side][g] = order;
        }
        memo.sums[0].max(memo.sums[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::pdb::PatternDb;

    /// Every placement's value equals the one the region-word builder of `pdb` computes
    /// (an independent search) for the usual goal.
    fn same_as_pdb(rows: usize, cols: usize, tiles: &[u8]) {
        let cells = rows * cols;
        let goal: Vec<u8> = (1..cells as u8).chain([0]).collect();
        let split = SplitDb::build(rows, cols, tiles, &goal, &|_, _| {}).expect("a small table fits");
        let old = PatternDb::build(rows, cols, tiles);
        let k = tiles.len();
        let mut checked = 0;
        for r in 0..placements(cells, k) {
            // Unrank the falling-factorial rank of `pdb`.
            let mut digits = vec![0u64; k];
            let mut left = r;
            for i in (0..k).rev() {
                let radix = (cells - i) as u64;
                digits[i] = left % radix;
                left /= radix;
            }
            let mut free: Vec<u8> = (0..cells as u8).collect();
            let placed: Vec<u8> = digits.iter().map(|&d| free.remove(d as usize)).collect();
            assert_eq!(split.value(&placed), old.values()[r as usize], "{placed:?}");
            checked += 1;
        }
        assert_eq!(checked, split.values().len());
    }

    #[test]
    fn split_tables_equal_the_region_word_tables() {
        same_as_pdb(3, 3, &[1, 2, 3, 4]);
        same_as_pdb(3, 3, &[5, 6, 7, 8]);
        same_as_pdb(2, 4, &[1, 2, 5, 6]);
        same_as_pdb(2, 4, &[3, 4, 7]);
        same_as_pdb(4, 4, &[1, 2, 3]);
        same_as_pdb(4, 4, &[9, 10, 13, 14]);
        same_as_pdb(3, 4, &[1, 5, 9, 2]);
    }
}
