//! Lights out, "the flipping game": pressing any cell flips it and its orthogonal
//! neighbours; the goal is every coin face up. The classic board is 4 rows x 3 columns
//! with cells `A..L` row by row.

use super::coins::{BoardFamily, CoinMove, Coins, cell_name, cross};

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
pub static LIGHTS_OUT: BoardFamily = BoardFamily {
    name: "lights-out",
    about: "lights-out   press a coin to flip it with its neighbours until all are heads; --rows --cols (4x3)",
    default: (4, 3),
    all: &[(4, 3), (4, 4), (5, 5)],
    max_move_cost: 1,
    make: lights_out,
};
