//! Lights out, "the flipping game": pressing any cell flips it and its orthogonal
//! neighbours; the goal is every coin face up. The classic board is 4 rows x 3 columns
//! with cells `A..L` row by row.

use super::coins::{CoinMove, Coins, cell_name, coin_board, cross, too_many_coins};
use super::family::{Family, SizeArgs};

/// The lights-out puzzle on `rows x cols` coins (`rows * cols <= 25`), goal all heads.
pub fn lights_out(rows: usize, cols: usize) -> Coins {
    let n = rows * cols;
    let bit = |cell: usize| 1u64 << (n - 1 - cell);
    // The 4x3 flipping game names its cells by letter; other boards by row and column.
    let lettered = (rows, cols) == (4, 3);
    let moves = (0..n)
        .map(|cell| CoinMove {
            name: if lettered {
                char::from(b'A' + cell as u8).to_string()
            } else {
                cell_name(cell, cols)
            },
            mask: cross(rows, cols, cell, bit),
            needs_heads: None,
            cost: 1,
        })
        .collect();
    Coins::new(
        format!("lights-out-{rows}x{cols}"),
        format!("Lights out ({rows}x{cols} coins)"),
        format!(
            "{n} coins on a {rows}x{cols} board, each heads (H, face up) or tails (T). A move presses any coin and flips it together with its orthogonal neighbours. Goal: every coin heads. Pressing is commutative and pressing twice undoes it, so a solution is a set of cells."
        ),
        (rows, cols),
        moves,
        vec![0],
    )
}

/// `--puzzle lights-out`: lights out on any board up to 25 coins.
pub struct LightsOutFamily;

impl Family for LightsOutFamily {
    type Size = (usize, usize);
    type Puzzle = Coins;

    fn name(&self) -> &'static str {
        "lights-out"
    }

    fn about(&self) -> Option<&'static str> {
        Some("lights-out   press a coin to flip it with its neighbours until all are heads; --rows --cols (4x3)")
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&["--rows", "--cols"], "")
    }

    fn choose(&self, args: &SizeArgs) -> Result<(usize, usize), String> {
        args.board("--puzzle lights-out", Some((4, 3)))
    }

    fn id(&self, &(rows, cols): &(usize, usize)) -> String {
        format!("lights-out-{rows}x{cols}")
    }

    fn states(&self, &(rows, cols): &(usize, usize)) -> u128 {
        1u128.checked_shl((rows * cols) as u32).unwrap_or(u128::MAX)
    }

    fn beyond(&self, &(rows, cols): &(usize, usize)) -> Option<String> {
        too_many_coins(rows * cols)
    }

    fn build(&self, &(rows, cols): &(usize, usize)) -> Result<Coins, String> {
        coin_board(rows, cols, lights_out)
    }

    fn all(&self) -> Vec<(usize, usize)> {
        vec![(4, 3), (4, 4), (5, 5)]
    }
}
