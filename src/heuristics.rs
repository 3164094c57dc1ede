//! The three classic estimates of sliding-tile boards, one function each: the heuristic
//! atlas measures them on every state, and the solver's IDA* searches with the same code,
//! so the atlas certifies exactly what the solver relies on.
//!
//! - Hamming: tiles off their goal cell (the blank not counted).
//! - Manhattan: each tile's rows plus columns from its goal cell; a move changes it by one.
//! - Linear conflict (Hansson, Mayer & Yung 1992): Manhattan plus, for each row, twice the
//!   number of its tiles in their goal row that lie outside a longest subsequence already
//!   in goal order, and the same for each column. Two such tiles in the wrong order cannot
//!   pass each other inside the line: one must leave it and come back, two moves Manhattan
//!   does not count. Row conflicts cost vertical moves and column conflicts horizontal
//!   ones, so both add up.
//!
//! Boards are tiles cell by cell, 0 for the blank; the goal is `1 2 ... n-1 0`.

use std::fmt;

/// Longest line of a board the solver takes (64 cells, both sides at least 2).
const MAX_SIDE: usize = 32;

/// The estimates, in the order every report lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Tiles off their goal cell.
    Hamming,
    /// Sum of the tiles' row and column distances to their goal cells.
    Manhattan,
    /// Manhattan plus linear conflicts.
    LinearConflict,
}

impl Kind {
    /// Every estimate, weakest first.
    pub const ALL: [Kind; 3] = [Kind::Hamming, Kind::Manhattan, Kind::LinearConflict];

    /// The name used in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Hamming => "hamming",
            Kind::Manhattan => "manhattan",
            Kind::LinearConflict => "linear-conflict",
        }
    }
}

/// The estimates for one board shape: a table of tile distances, built once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimates {
    rows: usize,
    cols: usize,
    /// `distance[tile * cells + cell]`: rows plus columns from `cell` to the tile's goal.
    distance: Vec<u8>,
}

impl Estimates {
    /// The estimates for `rows x cols` boards (at most 64 cells).
    pub fn new(rows: usize, cols: usize) -> Self {
        let cells = rows * cols;
        let mut distance = vec![0; cells * cells];
        for tile in 1..cells {
            let home = tile - 1;
            for cell in 0..cells {
                distance[tile * cells + cell] =
                    ((home / cols).abs_diff(cell / cols) + (home % cols).abs_diff(cell % cols)) as u8;
            }
        }
        Self { rows, cols, distance }
    }

    /// Board rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Board columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Rows plus columns from `cell` to the goal cell of `tile` (0 for the blank).
    #[inline(always)]
    pub fn tile_distance(&self, tile: usize, cell: usize) -> u32 {
        u32::from(self.distance[tile * self.rows * self.cols + cell])
    }

    /// Tiles not on their goal cell, the blank not counted.
    #[inline]
    pub fn hamming(&self, tiles: &[u8]) -> u32 {
        let cells = self.rows * self.cols;
        tiles[..cells]
            .iter()
            .enumerate()
            .map(|(cell, &t)| u32::from(t != 0 && usize::from(t) != cell + 1))
            .sum()
    }

    /// Sum over the tiles of their row and column distances to their goal cells.
    #[inline]
    pub fn manhattan(&self, tiles: &[u8]) -> u32 {
        let cells = self.rows * self.cols;
        tiles[..cells]
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.tile_distance(usize::from(t), cell))
            .sum()
    }

    /// Extra moves for row `r`: twice its tiles in their goal row outside a longest run
    /// already in goal order.
    #[inline]
    pub fn row_conflicts(&self, tiles: &[u8], r: usize) -> u32 {
        let cols = self.cols;
        line_conflicts((0..cols).filter_map(|c| {
            let tile = usize::from(tiles[r * cols + c]);
            (tile != 0 && (tile - 1) / cols == r).then(|| (tile - 1) % cols)
        }))
    }

    /// Extra moves for column `c`, as [`Estimates::row_conflicts`].
    #[inline]
    pub fn col_conflicts(&self, tiles: &[u8], c: usize) -> u32 {
        let cols = self.cols;
        line_conflicts((0..self.rows).filter_map(|r| {
            let tile = usize::from(tiles[r * cols + c]);
            (tile != 0 && (tile - 1) % cols == c).then(|| (tile - 1) / cols)
        }))
    }

    /// Extra moves of every row and column.
    pub fn conflicts(&self, tiles: &[u8]) -> u32 {
        (0..self.rows).map(|r| self.row_conflicts(tiles, r)).sum::<u32>()
            + (0..self.cols).map(|c| self.col_conflicts(tiles, c)).sum::<u32>()
    }

    /// Manhattan distance plus linear conflicts.
    pub fn linear_conflict(&self, tiles: &[u8]) -> u32 {
        self.manhattan(tiles) + self.conflicts(tiles)
    }

    /// One estimate of `tiles`.
    pub fn value(&self, kind: Kind, tiles: &[u8]) -> u32 {
        match kind {
            Kind::Hamming => self.hamming(tiles),
            Kind::Manhattan => self.manhattan(tiles),
            Kind::LinearConflict => self.linear_conflict(tiles),
        }
    }

    /// Every estimate of `tiles`, in the order of [`Kind::ALL`].
    #[inline]
    pub fn all(&self, tiles: &[u8]) -> [u32; 3] {
        let manhattan = self.manhattan(tiles);
        [self.hamming(tiles), manhattan, manhattan + self.conflicts(tiles)]
    }
}

/// Twice the number of values outside a longest increasing subsequence of `homes` (goal
/// positions along a line, each below 32).
#[inline]
pub fn line_conflicts(homes: impl Iterator<Item = usize>) -> u32 {
    // Patience sorting: `tails[i]` is the smallest end of an increasing run of length i+1.
    let mut tails = [0u8; MAX_SIDE];
    let (mut longest, mut count) = (0, 0);
    for home in homes {
        count += 1;
        let home = home as u8;
        let at = tails[..longest].partition_point(|&t| t < home);
        tails[at] = home;
        longest = longest.max(at + 1);
    }
    2 * (count - longest) as u32
}

/// Pairs of tiles (the blank skipped) that appear in the opposite order of their numbers
/// when the board is read row by row.
pub fn inversions(tiles: &[u8]) -> usize {
    let seq: Vec<u8> = tiles.iter().copied().filter(|&t| t != 0).collect();
    (0..seq.len())
        .map(|i| seq[i + 1..].iter().filter(|&&t| t < seq[i]).count())
        .sum()
}

/// What a student's `Board` client reports about one position: the three estimates and
/// the facts that decide solvability. Printed by `--solve` through its `Display`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionFacts {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Tiles off their goal cell.
    pub hamming: u32,
    /// Manhattan distance.
    pub manhattan: u32,
    /// Manhattan distance plus linear conflicts.
    pub linear_conflict: u32,
    /// Inversions of the tiles read row by row.
    pub inversions: usize,
    /// The blank's row, counted from 0 at the top.
    pub blank_row: usize,
}

impl PositionFacts {
    /// The facts of a `rows x cols` board (tiles cell by cell, 0 for the blank).
    pub fn new(rows: usize, cols: usize, tiles: &[u8]) -> Self {
        let estimates = Estimates::new(rows, cols);
        let [hamming, manhattan, linear_conflict] = estimates.all(tiles);
        Self {
            rows,
            cols,
            hamming,
            manhattan,
            linear_conflict,
            inversions: inversions(tiles),
            blank_row: tiles.iter().position(|&t| t == 0).unwrap_or(0) / cols,
        }
    }

    /// Whether the parity rule lets the position reach the goal.
    pub fn solvable(&self) -> bool {
        if self.cols % 2 == 1 {
            self.inversions % 2 == 0
        } else {
            (self.inversions + self.rows - 1 - self.blank_row) % 2 == 0
        }
    }
}

impl fmt::Display for PositionFacts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "hamming {}, manhattan {}, linear-conflict {}",
            self.hamming, self.manhattan, self.linear_conflict
        )?;
        writeln!(
            f,
            "inversions {}, blank row {} (0 = top, {} = bottom)",
            self.inversions,
            self.blank_row,
            self.rows - 1
        )?;
        let verdict = if self.solvable() { "solvable" } else { "unsolvable" };
        let parity = |n: usize| if n % 2 == 0 { "even" } else { "odd" };
        if self.cols % 2 == 1 {
            write!(
                f,
                "parity rule: the width {} is odd, so a configuration is solvable exactly when its inversions are even; {} is {}: {verdict}",
                self.cols,
                self.inversions,
                parity(self.inversions)
            )
        } else {
            let above = self.rows - 1 - self.blank_row;
            write!(
                f,
                "parity rule: the width {} is even, so a configuration is solvable exactly when inversions + the blank's rows above the bottom row is even; {} + {above} = {} is {}: {verdict}",
                self.cols,
                self.inversions,
                self.inversions + above,
                parity(self.inversions + above)
            )
        }
    }
}
