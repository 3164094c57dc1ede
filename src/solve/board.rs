//! Sliding-tile boards as the solver reads, checks and draws them, at any size up to
//! [`MAX_CELLS`] cells: the ranked [`crate::puzzle::sliding::Sliding`] stops at 16 cells,
//! and the heuristic search works on plain boards anyway.

use crate::puzzle::{ParseError, quote, sliding};

/// Largest board the solver takes: cell sets are `u64` masks. Beyond the 24-puzzle only
/// positions close to the goal can be solved optimally in any case.
pub const MAX_CELLS: usize = 64;

/// An R x C sliding-tile board, tiles cell by cell in row-major order, 0 for the blank.
/// The goal is `1 2 ... n-1 0`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    tiles: Vec<u8>,
}

impl Board {
    /// The goal board: tiles in row-major order, the blank last.
    pub fn goal(rows: usize, cols: usize) -> Self {
        let cells = rows * cols;
        Self {
            rows,
            cols,
            tiles: (1..cells as u8).chain([0]).collect(),
        }
    }

    /// A board from its tiles, checked to hold each of `0..rows*cols` exactly once.
    pub fn new(rows: usize, cols: usize, tiles: Vec<u8>) -> Result<Self, ParseError> {
        sliding::check_tiles(rows, cols, &tiles)?;
        Ok(Self { rows, cols, tiles })
    }

    /// Reads tiles row by row separated by spaces or commas, e.g. `8 6 7 2 5 4 3 0 1`.
    pub fn parse(rows: usize, cols: usize, text: &str) -> Result<Self, ParseError> {
        Self::new(rows, cols, sliding::read_tiles(text, rows * cols)?)
    }

    /// Reads the assignment's data-file format: a first line `n` (or `rows cols`), then
    /// one line of tiles per row, 0 for the blank. The board must be `rows x cols`.
    pub fn parse_data_file(rows: usize, cols: usize, text: &str) -> Result<Self, ParseError> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let header: Vec<&str> = lines.next().unwrap_or_default().split_whitespace().collect();
        let size = |s: &str| {
            s.parse::<usize>().map_err(|_| {
                ParseError::Malformed(format!("the first line must give the board size, found {}", quote(s)))
            })
        };
        let (file_rows, file_cols) = match header[..] {
            [n] => (size(n)?, size(n)?),
            [r, c] => (size(r)?, size(c)?),
            _ => {
                return Err(ParseError::Malformed(
                    "the first line must give the board size `n` (or `rows cols`)".into(),
                ));
            }
        };
        if (file_rows, file_cols) != (rows, cols) {
            return Err(ParseError::Malformed(format!(
                "the file holds a {file_rows}x{file_cols} board but the puzzle is {rows}x{cols}"
            )));
        }
        let mut tiles = Vec::with_capacity(rows * cols);
        let mut row_count = 0;
        for line in lines {
            row_count += 1;
            let row = sliding::read_tiles(line, rows * cols)?;
            if row.len() != cols {
                return Err(ParseError::Malformed(format!(
                    "row {row_count} has {} {}, expected {cols}",
                    row.len(),
                    if row.len() == 1 { "tile" } else { "tiles" }
                )));
            }
            tiles.extend(row);
        }
        if row_count != rows {
            return Err(ParseError::Malformed(format!(
                "expected {rows} rows of tiles, found {row_count}"
            )));
        }
        Self::new(rows, cols, tiles)
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The tiles cell by cell, 0 for the blank.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// The cells next to `cell`: up, down, left, right, those that exist.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + use<> {
        neighbours(self.rows, self.cols, cell)
    }

    /// Slides the tile at `cell` into the blank; `None` unless `cell` is next to it.
    pub fn slide(&self, cell: usize) -> Option<Board> {
        let blank = self.blank();
        self.neighbours(blank).any(|n| n == cell).then(|| {
            let mut next = self.clone();
            next.tiles.swap(blank, cell);
            next
        })
    }

    /// Checks the invariant that decides solvability, without any search (see
    /// [`sliding::check_solvable`]).
    pub fn check_solvable(&self) -> Result<(), ParseError> {
        sliding::check_solvable(self.rows, self.cols, &self.tiles)
    }

    /// The board as a grid, one line per row, drawn like every sliding puzzle.
    pub fn draw(&self) -> String {
        sliding::draw_tiles(&self.tiles, self.cols)
    }

    /// The tiles on one line, e.g. `1 2 3 4 5 6 7 8 0`.
    pub fn render(&self) -> String {
        sliding::join_tiles(&self.tiles)
    }
}

/// The cells next to `cell` on a `rows x cols` board: up, down, left, right.
pub fn neighbours(rows: usize, cols: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / cols, cell % cols);
    [
        (r > 0).then(|| cell - cols),
        (r + 1 < rows).then(|| cell + cols),
        (c > 0).then(|| cell - 1),
        (c + 1 < cols).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}
