//! Sliding-tile puzzles on an R x C board: the 8-puzzle and its generalisations.
//!
//! A configuration is ranked as `k * cells + blank`, where `blank` is the blank's cell and
//! `k` numbers the tile sequence (tiles read row by row, blank skipped) among the
//! `(cells-1)!/2` sequences of the parity the invariant demands for that blank cell.
//! That gives exactly `cells!/2` ranks, the solvable half, and two useful facts:
//! a horizontal move keeps the tile sequence, so its neighbour is simply `rank +- 1`;
//! and lexicographic ranks `2k` and `2k+1` differ by swapping the last two tiles, so each
//! pair holds one sequence of each parity and `k` ranks one parity class perfectly.
//!
//! The invariant is checked, not trusted: every vertical move recomputes the parity of the
//! new sequence from scratch and reports a move that leaves the class as an escape.

use super::{ClassInfo, ParseError, Puzzle};

/// Largest board the ranking supports: tiles are packed as 4-bit values.
pub const MAX_CELLS: usize = 16;

/// An R x C sliding-tile puzzle, goal `1 2 ... n-1 0`.
#[derive(Debug, Clone)]
pub struct Sliding {
    id: String,
    rows: usize,
    cols: usize,
    cells: usize,
    /// `weight[i]` is `(tiles-1-i)!/2`: the place value of Lehmer digit `i` in `k`
    /// (zero for the last two digits, which only decide the parity).
    weight: [u64; MAX_CELLS],
    /// Parity of the tile sequence the invariant demands for each blank cell.
    parity: [u8; MAX_CELLS],
}

/// A tile sequence (tiles `1..cells`, blank skipped) with its blank cell.
type Tiles = [u8; MAX_CELLS];

impl Sliding {
    /// The 8-puzzle: 3x3, id `eight`.
    pub fn eight() -> Self {
        Self::with_id("eight".into(), 3, 3)
    }

    /// An R x C board, id `sliding-RxC`; `None` unless `2 <= R, C` and `R*C <= 16`.
    pub fn new(rows: usize, cols: usize) -> Option<Self> {
        (rows >= 2 && cols >= 2 && rows * cols <= MAX_CELLS)
            .then(|| Self::with_id(format!("sliding-{rows}x{cols}"), rows, cols))
    }

    fn with_id(id: String, rows: usize, cols: usize) -> Self {
        let cells = rows * cols;
        let tiles = cells - 1;
        let mut weight = [0; MAX_CELLS];
        for (i, w) in weight.iter_mut().enumerate().take(tiles.saturating_sub(2)) {
            *w = factorial(tiles - 1 - i) / 2;
        }
        let mut parity = [0; MAX_CELLS];
        if cols % 2 == 0 {
            // Even width: a vertical move passes cols-1 (odd) tiles, flipping the parity
            // while the blank changes row; the goal has parity 0 with the blank on row R-1.
            for (cell, p) in parity.iter_mut().enumerate().take(cells) {
                *p = ((rows - 1 - cell / cols) % 2) as u8;
            }
        }
        Self { id, rows, cols, cells, weight, parity }
    }

    fn tiles(&self) -> usize {
        self.cells - 1
    }

    /// The tile sequence of pair `k` with the given parity.
    fn unrank(&self, k: u64, parity: u8) -> Tiles {
        let n = self.tiles();
        // Unused tiles packed as 4-bit values in increasing order: removing the d-th one
        // is two shifts, so unranking is linear in the number of tiles.
        let mut pool: u64 = (0..n as u64).fold(0, |acc, t| acc | ((t + 1) << (4 * t)));
        let mut rest = k;
        let mut sum = 0;
        let mut seq = [0; MAX_CELLS];
        for (i, slot) in seq.iter_mut().enumerate().take(n - 2) {
            let digit = rest / self.weight[i];
            rest %= self.weight[i];
            sum ^= digit as u8 & 1;
            let shift = 4 * digit;
            *slot = ((pool >> shift) & 0xF) as u8;
            pool = (pool & ((1 << shift) - 1)) | ((pool >> (shift + 4)) << shift);
        }
        // The last two tiles in increasing order give Lehmer digits 0, 0; swapping them
        // (lexicographic rank 2k+1) flips the parity.
        seq[n - 2] = (pool & 0xF) as u8;
        seq[n - 1] = ((pool >> 4) & 0xF) as u8;
        if sum != parity {
            seq.swap(n - 2, n - 1);
        }
        seq
    }

    /// Pair index and parity of a tile sequence.
    fn rank_tiles(&self, seq: &Tiles) -> (u64, u8) {
        let mut later: u32 = 0;
        let mut k = 0;
        let mut parity = 0;
        for i in (0..self.tiles()).rev() {
            let tile = seq[i];
            let digit = (later & ((1 << tile) - 1)).count_ones();
            later |= 1 << tile;
            k += u64::from(digit) * self.weight[i];
            parity ^= digit as u8 & 1;
        }
        (k, parity)
    }

    /// Rank of `seq` with the blank at `blank`, or `u64::MAX` if the invariant is broken.
    fn rank_of(&self, seq: &Tiles, blank: usize) -> u64 {
        let (k, parity) = self.rank_tiles(seq);
        if parity == self.parity[blank] {
            k * self.cells as u64 + blank as u64
        } else {
            u64::MAX
        }
    }

    fn split(&self, rank: u64) -> (Tiles, usize) {
        let cells = self.cells as u64;
        let blank = (rank % cells) as usize;
        (self.unrank(rank / cells, self.parity[blank]), blank)
    }

    /// The board cell by cell, 0 for the blank.
    pub fn board(&self, rank: u64) -> Vec<u8> {
        let (seq, blank) = self.split(rank);
        let mut tiles = seq.iter();
        (0..self.cells)
            .map(|cell| if cell == blank { 0 } else { tiles.next().copied().unwrap_or(0) })
            .collect()
    }

    /// Reads a board (cell by cell, 0 = blank) into a rank.
    pub fn rank_board(&self, board: &[u8]) -> Result<u64, ParseError> {
        let n = self.cells;
        if board.len() != n {
            return Err(ParseError::Malformed(format!(
                "expected {n} tiles for a {}x{} board, found {}",
                self.rows,
                self.cols,
                board.len()
            )));
        }
        let mut seen = 0u32;
        for &tile in board {
            if usize::from(tile) >= n {
                return Err(ParseError::Malformed(format!(
                    "tile {tile} is out of range: tiles are 0 (blank) to {}",
                    n - 1
                )));
            }
            if seen & (1 << tile) != 0 {
                return Err(ParseError::Malformed(format!("tile {tile} appears twice")));
            }
            seen |= 1 << tile;
        }
        let blank = board.iter().position(|&t| t == 0).unwrap_or(0);
        let mut seq = [0; MAX_CELLS];
        for (slot, &tile) in seq.iter_mut().zip(board.iter().filter(|&&t| t != 0)) {
            *slot = tile;
        }
        let (k, parity) = self.rank_tiles(&seq);
        if parity != self.parity[blank] {
            return Err(ParseError::Unsolvable(self.why_unsolvable(parity, blank)));
        }
        Ok(k * n as u64 + blank as u64)
    }

    fn why_unsolvable(&self, parity: u8, blank: usize) -> String {
        let kind = if parity == 1 { "odd" } else { "even" };
        if self.cols % 2 == 1 {
            format!("the tiles have an {kind} number of inversions; the width is odd, so only even counts are solvable")
        } else {
            let row = blank / self.cols;
            format!(
                "inversions ({kind}) + blank row {row} is {}, but the width is even and the goal needs the parity of rows - 1 = {}",
                if (usize::from(parity) + row) % 2 == 1 { "odd" } else { "even" },
                self.rows - 1
            )
        }
    }

    /// Calls `f` with the rank after each legal move (the graph is undirected).
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64)) {
        let cols = self.cols;
        let (seq, blank) = self.split(rank);
        if blank % cols > 0 {
            f(rank - 1);
        }
        if blank % cols + 1 < cols {
            f(rank + 1);
        }
        if blank >= cols {
            let mut up = seq;
            up[blank - cols..blank].rotate_left(1);
            f(self.rank_of(&up, blank - cols));
        }
        if blank + cols < self.cells {
            let mut down = seq;
            down[blank..blank + cols].rotate_right(1);
            f(self.rank_of(&down, blank + cols));
        }
    }

    /// The goal board with tiles 1 and 2 swapped: the standard unsolvable example.
    fn swapped_goal(&self) -> String {
        let mut board: Vec<u8> = (1..self.cells as u8).chain([0]).collect();
        board.swap(0, 1);
        join(&board)
    }
}

fn join(board: &[u8]) -> String {
    board.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// `n!` (only called with `n <= 16`).
pub fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

impl Puzzle for Sliding {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn title(&self) -> String {
        if self.id == "eight" {
            "8-puzzle (3x3 sliding tiles)".into()
        } else {
            format!("{}x{} sliding-tile puzzle ({} tiles)", self.rows, self.cols, self.tiles())
        }
    }

    fn rules(&self) -> String {
        format!(
            "Tiles 1 to {} and one blank on a {}x{} board. A move slides a tile next to the blank into it. Goal: the tiles in row-major order with the blank last (`{}`).",
            self.tiles(),
            self.rows,
            self.cols,
            self.render(self.goals()[0])
        )
    }

    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn states(&self) -> u64 {
        factorial(self.cells) / 2
    }

    fn configurations(&self) -> (u64, String) {
        (factorial(self.cells), format!("{}!", self.cells))
    }

    fn goals(&self) -> Vec<u64> {
        // Tiles in order (k = 0, parity 0) with the blank in the last cell.
        vec![self.cells as u64 - 1]
    }

    fn for_each_predecessor(&self, rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(rank, f);
    }

    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(rank, f);
    }

    fn classes(&self) -> Vec<ClassInfo> {
        let half = factorial(self.cells) / 2;
        vec![
            ClassInfo {
                label: "even".into(),
                configurations: half,
                solvable: true,
                example: self.render(self.goals()[0]),
            },
            ClassInfo {
                label: "odd".into(),
                configurations: half,
                solvable: false,
                example: self.swapped_goal(),
            },
        ]
    }

    fn invariant(&self) -> String {
        if self.cols % 2 == 1 {
            "The width is odd, so a move never changes the parity of the number of inversions of the tiles read row by row (blank skipped): `even` boards are solvable, `odd` ones are not.".into()
        } else {
            "The width is even, so a vertical move flips the parity of the inversion count while the blank changes row: the class is the parity of inversions + the blank's row distance from the bottom row; `even` boards are solvable, `odd` ones are not.".into()
        }
    }

    fn render(&self, rank: u64) -> String {
        join(&self.board(rank))
    }

    fn draw(&self, rank: u64) -> String {
        let board = self.board(rank);
        let width = (self.cells - 1).to_string().len();
        board
            .chunks(self.cols)
            .map(|row| {
                row.iter()
                    .map(|&t| if t == 0 { format!("{:>width$}", ".") } else { format!("{t:>width$}") })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        let board = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<u8>().map_err(|_| {
                    ParseError::Malformed(format!("`{s}` is not a tile number (0 to {})", self.cells - 1))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.rank_board(&board)
    }

    fn describe_move(&self, from: u64, to: u64) -> String {
        let blank_after = (to % self.cells as u64) as usize;
        format!("tile {}", self.board(from)[blank_after])
    }
}
