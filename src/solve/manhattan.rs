//! Manhattan distance plus linear conflicts (Hansson, Mayer & Yung 1992): the estimate
//! for boards without pattern databases, and a baseline the tests compare them with.
//!
//! Manhattan distance counts each tile's rows and columns from home; every move changes
//! it by one. Two tiles in their home row but in the wrong order cannot pass each other
//! inside the row: one of them must leave it and come back, two vertical moves Manhattan
//! does not count. In a line whose home tiles are out of order, all but a longest
//! increasing run of them must step out, so the line adds twice that many moves. Row
//! conflicts cost vertical moves and column conflicts horizontal ones, so both add up.

use super::board::MAX_CELLS;
use super::ida::{Heuristic, Node};

/// Longest side of a board of up to [`MAX_CELLS`] cells with both sides at least 2.
const MAX_SIDE: usize = MAX_CELLS / 2;

/// Manhattan distance plus linear conflicts on an R x C board.
#[derive(Debug, Clone)]
pub struct ManhattanLc {
    rows: usize,
    cols: usize,
    /// `distance[tile * cells + cell]`: rows plus columns from `cell` to the tile's home.
    distance: Vec<u8>,
}

/// The estimate's parts, so that a move only recomputes the two lines it touches.
#[derive(Debug, Clone, Copy)]
pub struct LcMemo {
    manhattan: u32,
    conflicts: u32,
    /// Extra moves of each row and each column.
    row: [u8; MAX_SIDE],
    col: [u8; MAX_SIDE],
}

impl ManhattanLc {
    /// The estimate for `rows x cols` boards (goal `1 2 ... 0`).
    pub fn new(rows: usize, cols: usize) -> Self {
        let cells = rows * cols;
        let mut distance = vec![0; cells * cells];
        for tile in 1..cells {
            let home = tile - 1;
            for cell in 0..cells {
                distance[tile * cells + cell] =
                    (home / cols).abs_diff(cell / cols) as u8 + (home % cols).abs_diff(cell % cols) as u8;
            }
        }
        Self { rows, cols, distance }
    }

    /// Extra moves for row `r`: tiles at home in the row, out of order.
    fn row_conflicts(&self, tiles: &[u8], r: usize) -> u8 {
        let homes = (0..self.cols).filter_map(|c| {
            let tile = usize::from(tiles[r * self.cols + c]);
            (tile != 0 && (tile - 1) / self.cols == r).then(|| (tile - 1) % self.cols)
        });
        conflicts(homes)
    }

    /// Extra moves for column `c`.
    fn col_conflicts(&self, tiles: &[u8], c: usize) -> u8 {
        let homes = (0..self.rows).filter_map(|r| {
            let tile = usize::from(tiles[r * self.cols + c]);
            (tile != 0 && (tile - 1) % self.cols == c).then(|| (tile - 1) / self.cols)
        });
        conflicts(homes)
    }
}

/// Twice the number of values outside a longest increasing subsequence of `homes`.
fn conflicts(homes: impl Iterator<Item = usize>) -> u8 {
    // Patience sorting: `tails[i]` is the smallest end of an increasing run of length i+1.
    let mut tails = [0usize; MAX_SIDE];
    let (mut longest, mut count) = (0, 0);
    for home in homes {
        count += 1;
        let at = tails[..longest].partition_point(|&t| t < home);
        tails[at] = home;
        longest = longest.max(at + 1);
    }
    (2 * (count - longest)) as u8
}

impl Heuristic for ManhattanLc {
    type Memo = LcMemo;

    fn evaluate(&self, node: &Node) -> (LcMemo, u32) {
        let cells = self.rows * self.cols;
        let manhattan = (1..cells)
            .map(|t| u32::from(self.distance[t * cells + usize::from(node.cells[t])]))
            .sum();
        let mut memo = LcMemo {
            manhattan,
            conflicts: 0,
            row: [0; MAX_SIDE],
            col: [0; MAX_SIDE],
        };
        for r in 0..self.rows {
            memo.row[r] = self.row_conflicts(&node.tiles, r);
            memo.conflicts += u32::from(memo.row[r]);
        }
        for c in 0..self.cols {
            memo.col[c] = self.col_conflicts(&node.tiles, c);
            memo.conflicts += u32::from(memo.col[c]);
        }
        (memo, memo.manhattan + memo.conflicts)
    }

    #[inline]
    fn update(&self, memo: &mut LcMemo, node: &Node, cell: u8) -> u32 {
        let cells = self.rows * self.cols;
        let (from, to) = (usize::from(cell), usize::from(node.cells[0]));
        // The lines' conflicts are counted on the board after the move.
        let mut node = node.clone();
        let tile = usize::from(node.slide(cell));
        memo.manhattan = memo.manhattan + u32::from(self.distance[tile * cells + to])
            - u32::from(self.distance[tile * cells + from]);
        let cols = self.cols;
        if from / cols == to / cols {
            // A horizontal move changes the columns the tile leaves and enters.
            for c in [from % cols, to % cols] {
                let new = self.col_conflicts(&node.tiles, c);
                memo.conflicts = memo.conflicts + u32::from(new) - u32::from(memo.col[c]);
                memo.col[c] = new;
            }
        } else {
            for r in [from / cols, to / cols] {
                let new = self.row_conflicts(&node.tiles, r);
                memo.conflicts = memo.conflicts + u32::from(new) - u32::from(memo.row[r]);
                memo.row[r] = new;
            }
        }
        memo.manhattan + memo.conflicts
    }
}
