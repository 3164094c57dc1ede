//! Sliding-tile notation at any size up to 64 cells, for the ranked puzzle and the solver
//! alike: tiles read from text and written back (one line or a grid), the checks that a
//! board holds each tile once and is solvable, and [`Board`], the one plain tile board of
//! the crate (the ranked [`super::Sliding`] stops at 16 cells; the solver's heuristic
//! search works on plain boards of any size).

use crate::puzzle::{ParseError, quote};

/// Checks that `tiles` holds each of `0..rows*cols` (0 the blank) exactly once, with a
/// message naming what is wrong. Boards up to 64 cells.
pub fn check_tiles(rows: usize, cols: usize, tiles: &[u8]) -> Result<(), ParseError> {
    let n = rows * cols;
    if tiles.len() != n {
        return Err(ParseError::Malformed(format!(
            "expected {n} tiles for a {rows}x{cols} board, found {}",
            tiles.len()
        )));
    }
    let mut seen = 0u64;
    for &tile in tiles {
        if usize::from(tile) >= n {
            // Tiles numbered 1..n, the blank among them, are the common slip.
            let hint = if usize::from(tile) == n && !tiles.contains(&0) {
                format!(" (numbered from 1? the blank is 0: write 0 where the {n} is)")
            } else {
                String::new()
            };
            return Err(ParseError::Malformed(format!(
                "tile {tile} is out of range: tiles are 0 (blank) to {}{hint}",
                n - 1
            )));
        }
        if seen & (1 << tile) != 0 {
            return Err(ParseError::Malformed(format!("tile {tile} appears twice")));
        }
        seen |= 1 << tile;
    }
    Ok(())
}

/// A board (cell by cell, 0 = blank) as a grid: one line per row, tiles right-aligned,
/// `.` for the blank.
pub fn draw_tiles(board: &[u8], cols: usize) -> String {
    let width = (board.len() - 1).to_string().len();
    board
        .chunks(cols)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&t| {
                    if t == 0 {
                        format!("{:>width$}", ".")
                    } else {
                        format!("{t:>width$}")
                    }
                })
                .collect();
            cells.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Tiles on one line, e.g. `1 2 3 4 5 6 7 8 0`.
pub fn join_tiles(tiles: &[u8]) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// Whether `c` only separates or frames tiles: spaces, commas, semicolons, slashes and
/// brackets, so that `[[1,2,3],[4,5,6],[7,8,0]]` and `1 2 3 / 4 5 6 / 7 8 0` read as
/// `1 2 3 4 5 6 7 8 0` (what students paste from Python, JSON or a textbook).
fn separates(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | '/' | '|' | '[' | ']' | '(' | ')' | '{' | '}')
}

/// Reads tile numbers separated as [`separates`] allows (no check of the board: see
/// [`check_tiles`]); `cells` is the board's size. On boards of at most 10 cells every tile
/// is one digit, so digits may also be run together (`123456780`, or a row a word:
/// `123 456 780`), every word of several digits. Elsewhere, and when the digits are not one
/// a cell, the text is refused rather than guessed at: a word of two digits among words of
/// one (`3 5 7 6 10 2 4 8`) is a tile 10, not tiles 1 and 0.
pub fn read_tiles(text: &str, cells: usize) -> Result<Vec<u8>, ParseError> {
    let words: Vec<&str> = text.split(separates).filter(|s| !s.is_empty()).collect();
    let digits_only = |w: &&str| w.bytes().all(|b| b.is_ascii_digit());
    if cells <= 10 && words.iter().all(|w| w.len() > 1 && digits_only(w)) {
        let digits = words.concat();
        if digits.len() != cells {
            return Err(ParseError::Malformed(format!(
                "{} has {} digits: a {cells}-cell board written as digits takes one a cell, {cells} in all",
                quote(text),
                digits.len()
            )));
        }
        return Ok(digits.bytes().map(|b| b - b'0').collect());
    }
    words
        .iter()
        .map(|s| {
            s.parse::<u8>()
                .map_err(|_| ParseError::Malformed(format!("{} is not a tile number (0 to {})", quote(s), cells - 1)))
        })
        .collect()
}

/// The textbook solvability rule, checked on the board itself (any size up to 64 cells),
/// with a message saying why a board is unsolvable.
///
/// A move swaps the blank with a neighbour. A horizontal move keeps the order of the
/// tiles read row by row; a vertical move carries a tile past `cols - 1` others,
/// changing the number of inversions by `cols - 1` plus or minus an even number. So with
/// an odd width the parity of the inversions never changes; with an even width the
/// parity of inversions + blank row never changes. The goal has no inversions and the
/// blank on the last row, and every configuration of the right parity is reachable.
pub fn check_solvable(rows: usize, cols: usize, tiles: &[u8]) -> Result<(), ParseError> {
    check_tiles(rows, cols, tiles)?;
    let seq: Vec<u8> = tiles.iter().copied().filter(|&t| t != 0).collect();
    let inversions: usize = (0..seq.len())
        .map(|i| seq[i + 1..].iter().filter(|&&t| t < seq[i]).count())
        .sum();
    let plural = |n: usize| if n == 1 { "inversion" } else { "inversions" };
    if cols % 2 == 1 {
        if inversions % 2 == 1 {
            return Err(ParseError::Unsolvable(format!(
                "the tiles read row by row have {inversions} {} (an odd number); with an odd width every move keeps that parity, and the goal has none",
                plural(inversions)
            )));
        }
    } else {
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let above = rows - 1 - blank / cols;
        if (inversions + above) % 2 == 1 {
            return Err(ParseError::Unsolvable(format!(
                "the tiles read row by row have {inversions} {} and the blank is {above} {} above the bottom row: with an even width every move keeps the parity of their sum, which is odd here ({}) but even at the goal (0)",
                plural(inversions),
                if above == 1 { "row" } else { "rows" },
                inversions + above
            )));
        }
    }
    Ok(())
}

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
        check_tiles(rows, cols, &tiles)?;
        Ok(Self { rows, cols, tiles })
    }

    /// Reads tiles row by row separated by spaces or commas, e.g. `8 6 7 2 5 4 3 0 1`.
    pub fn parse(rows: usize, cols: usize, text: &str) -> Result<Self, ParseError> {
        Self::new(rows, cols, read_tiles(text, rows * cols)?)
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
            let row = read_tiles(line, rows * cols)?;
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
    /// [`check_solvable`]).
    pub fn check_solvable(&self) -> Result<(), ParseError> {
        check_solvable(self.rows, self.cols, &self.tiles)
    }

    /// The board as a grid, one line per row, drawn like every sliding puzzle.
    pub fn draw(&self) -> String {
        draw_tiles(&self.tiles, self.cols)
    }

    /// The tiles on one line, e.g. `1 2 3 4 5 6 7 8 0`.
    pub fn render(&self) -> String {
        join_tiles(&self.tiles)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(text: &str, cells: usize) -> Result<Vec<u8>, String> {
        read_tiles(text, cells).map_err(|e| e.to_string())
    }

    #[test]
    fn every_spelling_of_the_8_puzzle_goal_reads_the_same() {
        let goal = vec![1, 2, 3, 4, 5, 6, 7, 8, 0];
        for text in [
            "1 2 3 4 5 6 7 8 0",
            "1,2,3,4,5,6,7,8,0",
            "123456780",
            "123 456 780",
            "123/456/780",
            "[1,2,3],[4,5,6],[7,8,0]",
            "[[1, 2, 3], [4, 5, 6], [7, 8, 0]]",
            "(1 2 3) (4 5 6) (7 8 0)",
            "1 2 3 / 4 5 6 / 7 8 0",
            "1 2 3\n4 5 6\n7 8 0",
        ] {
            assert_eq!(tiles(text, 9), Ok(goal.clone()), "{text:?}");
        }
    }

    #[test]
    fn digits_run_together_are_refused_where_a_tile_takes_two() {
        // 3x4 has tiles up to 11: `1011` could be 10 11 or 1 0 1 1.
        let e = tiles("123456789ab0", 12).expect_err("refused");
        assert!(e.contains("is not a tile number"), "{e}");
        assert_eq!(tiles("1 2 3 4 5 6 7 8 9 10 11 0", 12).map(|t| t.len()), Ok(12));
        assert!(tiles("1234567890", 12).is_err_and(|e| e.contains("not a tile number")));
    }

    #[test]
    fn a_word_of_two_digits_among_single_digits_is_one_tile() {
        // Read as 1 and 0 it made a board of 9 tiles of the 8 given.
        let e = Board::parse(3, 3, "3 5 7 6 10 2 4 8").expect_err("refused");
        assert!(e.to_string().contains("found 8"), "{e}");
        assert!(tiles("3 5 7 6 1 0 2 4 8", 9).is_ok());
    }

    #[test]
    fn digits_that_are_not_one_a_cell_are_refused() {
        let e = tiles("12345678", 9).expect_err("refused");
        assert!(e.contains("has 8 digits") && e.contains("9 in all"), "{e}");
        let e = tiles("1234567801", 9).expect_err("refused");
        assert!(e.contains("has 10 digits"), "{e}");
    }

    #[test]
    fn tiles_numbered_from_1_get_a_hint() {
        let e = Board::parse(3, 3, "1 2 3 4 5 6 7 8 9")
            .expect_err("refused")
            .to_string();
        assert!(e.contains("numbered from 1? the blank is 0"), "{e}");
        // An out-of-range tile beside a blank is a plain mistake, with no hint.
        let e = Board::parse(3, 3, "1 2 3 4 5 6 7 9 0")
            .expect_err("refused")
            .to_string();
        assert!(!e.contains("numbered from 1"), "{e}");
    }
}
