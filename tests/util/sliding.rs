//! Sliding tiles restated: boards cell by cell, their slides, and a plain breadth-first
//! search over them.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

/// A sliding board cell by cell, row-major, 0 for the blank.
pub type Board = Vec<u8>;

/// Every board size the exhaustive tests cover (up to 9 cells).
pub const SMALL_BOARDS: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)];

/// Tiles `1..cells` in row-major order with the blank last.
pub fn goal_board(rows: usize, cols: usize) -> Board {
    let cells = (rows * cols) as u8;
    (1..cells).chain([0]).collect()
}

/// The cells orthogonally next to `cell` on a `rows x cols` board.
pub(super) fn neighbours(rows: usize, cols: usize, cell: usize) -> Vec<usize> {
    let (row, col) = (cell / cols, cell % cols);
    let mut cells = Vec::new();
    if row > 0 {
        cells.push(cell - cols);
    }
    if row + 1 < rows {
        cells.push(cell + cols);
    }
    if col > 0 {
        cells.push(cell - 1);
    }
    if col + 1 < cols {
        cells.push(cell + 1);
    }
    cells
}

/// Every board one move from `board`: a tile next to the blank slides into it.
pub fn slides(board: &[u8], rows: usize, cols: usize) -> Vec<Board> {
    let blank = board.iter().position(|&t| t == 0).expect("a board has a blank");
    neighbours(rows, cols, blank)
        .into_iter()
        .map(|cell| {
            let mut next = board.to_vec();
            next.swap(blank, cell);
            next
        })
        .collect()
}

/// A board as a hash key: 4 bits a cell, first cell lowest (up to 16 cells), so that a
/// reference holds millions of boards cheaply.
pub fn pack(board: &[u8]) -> u64 {
    board.iter().rev().fold(0, |key, &tile| key << 4 | u64::from(tile))
}

/// The board of `cells` cells packed in `key` by [`pack`].
pub fn unpack(key: u64, cells: usize) -> Board {
    (0..cells).map(|i| (key >> (4 * i) & 15) as u8).collect()
}

/// Distance to `goal` of every board that reaches it, keyed by [`pack`]: a plain queue
/// over boards. Slides are reversible, so this is also every board's distance *from* it.
pub fn distances_to(goal: &[u8], rows: usize, cols: usize) -> HashMap<u64, usize> {
    let mut distance = HashMap::from([(pack(goal), 0)]);
    let mut queue = VecDeque::from([(goal.to_vec(), 0)]);
    while let Some((board, d)) = queue.pop_front() {
        for next in slides(&board, rows, cols) {
            if let Entry::Vacant(slot) = distance.entry(pack(&next)) {
                slot.insert(d + 1);
                queue.push_back((next, d + 1));
            }
        }
    }
    distance
}

/// The boards of a [`distances_to`] table in key order, so that tests sampling every n-th
/// check the same boards every run (a hash map's order changes from run to run).
pub fn in_key_order(distances: &HashMap<u64, usize>) -> Vec<(u64, usize)> {
    let mut boards: Vec<(u64, usize)> = distances.iter().map(|(&key, &d)| (key, d)).collect();
    boards.sort_unstable();
    boards
}

/// [`distances_to`] the usual goal ([`goal_board`]).
pub fn sliding_distances(rows: usize, cols: usize) -> HashMap<u64, usize> {
    distances_to(&goal_board(rows, cols), rows, cols)
}

/// The textbook rule: with an odd width a board is solvable iff its tiles (read row by
/// row, blank skipped) have an even number of inversions; with an even width iff
/// inversions + the blank's row (from the top) has the parity of `rows - 1`.
pub fn textbook_solvable(board: &[u8], rows: usize, cols: usize) -> bool {
    let tiles: Vec<u8> = board.iter().copied().filter(|&t| t != 0).collect();
    let inversions: usize = (0..tiles.len())
        .map(|i| tiles[i + 1..].iter().filter(|&&later| later < tiles[i]).count())
        .sum();
    let blank_row = board.iter().position(|&t| t == 0).expect("a board has a blank") / cols;
    if cols % 2 == 1 {
        inversions % 2 == 0
    } else {
        (inversions + blank_row) % 2 == (rows - 1) % 2
    }
}

/// Calls `f` with every arrangement of the tiles `0..cells`, in lexicographic order.
pub fn for_each_arrangement(cells: usize, mut f: impl FnMut(&[u8])) {
    let mut board: Board = (0..cells as u8).collect();
    loop {
        f(&board);
        // Next permutation: the longest decreasing suffix, the pivot before it, swap the
        // pivot with the smallest larger element of the suffix, reverse the suffix.
        let Some(pivot) = (0..cells - 1).rev().find(|&i| board[i] < board[i + 1]) else {
            return;
        };
        let larger = (pivot + 1..cells)
            .rev()
            .find(|&j| board[j] > board[pivot])
            .expect("suffix has a larger tile");
        board.swap(pivot, larger);
        board[pivot + 1..].reverse();
    }
}

/// A board written the way the library's one-line notation writes it: `1 2 3 0`.
pub fn board_text(board: &[u8]) -> String {
    let mut text = String::with_capacity(3 * board.len());
    for (i, tile) in board.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text += &tile.to_string();
    }
    text
}

/// The tiles of a board written `1 2 3 0` (any whitespace between them).
pub fn tiles(text: &str) -> Board {
    text.split_whitespace().map(|t| t.parse().expect("a tile")).collect()
}

/// `n!`.
pub fn factorial(n: u64) -> u64 {
    (1..=n).product()
}
