//! Manhattan distance plus linear conflicts as IDA*'s estimate, for boards without pattern
//! databases, and a baseline the tests compare them with. The estimate itself is
//! [`crate::heuristics`] (the code the heuristic atlas measures on every state); this file
//! only keeps its per-line terms so that a move recomputes just the two lines it touches.

use super::board::MAX_CELLS;
use super::ida::{Heuristic, Node};
use crate::heuristics::Estimates;

/// Longest side of a board of up to [`MAX_CELLS`] cells with both sides at least 2.
const MAX_SIDE: usize = MAX_CELLS / 2;

/// Manhattan distance plus linear conflicts on an R x C board.
#[derive(Debug, Clone)]
pub struct ManhattanLc {
    estimates: Estimates,
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
        Self {
            estimates: Estimates::new(rows, cols),
        }
    }
}

impl Heuristic for ManhattanLc {
    type Memo = LcMemo;

    fn evaluate(&self, node: &Node) -> (LcMemo, u32) {
        let e = &self.estimates;
        let mut memo = LcMemo {
            manhattan: e.manhattan(&node.tiles),
            conflicts: 0,
            row: [0; MAX_SIDE],
            col: [0; MAX_SIDE],
        };
        for r in 0..e.rows() {
            let extra = e.row_conflicts(&node.tiles, r);
            memo.row[r] = extra as u8;
            memo.conflicts += extra;
        }
        for c in 0..e.cols() {
            let extra = e.col_conflicts(&node.tiles, c);
            memo.col[c] = extra as u8;
            memo.conflicts += extra;
        }
        (memo, memo.manhattan + memo.conflicts)
    }

    #[inline]
    fn update(&self, memo: &mut LcMemo, node: &Node, cell: u8) -> u32 {
        let e = &self.estimates;
        let (from, to) = (usize::from(cell), usize::from(node.cells[0]));
        // The lines' conflicts are counted on the board after the move.
        let mut node = node.clone();
        let tile = usize::from(node.slide(cell));
        memo.manhattan = memo.manhattan + e.tile_distance(tile, to) - e.tile_distance(tile, from);
        let cols = e.cols();
        if from / cols == to / cols {
            // A horizontal move changes the columns the tile leaves and enters.
            for c in [from % cols, to % cols] {
                let new = e.col_conflicts(&node.tiles, c);
                memo.conflicts = memo.conflicts + new - u32::from(memo.col[c]);
                memo.col[c] = new as u8;
            }
        } else {
            for r in [from / cols, to / cols] {
                let new = e.row_conflicts(&node.tiles, r);
                memo.conflicts = memo.conflicts + new - u32::from(memo.row[r]);
                memo.row[r] = new as u8;
            }
        }
        memo.manhattan + memo.conflicts
    }
}
