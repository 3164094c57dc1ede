//! Nine tails (Liang, *Introduction to Java Programming*): pick a face-up coin and flip
//! it together with its orthogonal neighbours; the goal is every coin tails. Because only
//! face-up coins may be picked, the move graph is directed.

use super::coins::{CoinMove, Coins, cell_name, cross};

/// The nine-tails puzzle on `rows x cols` coins (`rows * cols <= 25`), goal all tails.
pub fn nine_tails(rows: usize, cols: usize) -> Coins {
    let n = rows * cols;
    let bit = |cell: usize| 1u64 << (n - 1 - cell);
    let moves = (0..n)
        .map(|cell| CoinMove {
            name: cell_name(cell, cols),
            mask: cross(rows, cols, cell, bit),
            needs_heads: Some(bit(cell)),
        })
        .collect();
    Coins::new(
        format!("nine-tails-{rows}x{cols}"),
        format!("Nine tails ({rows}x{cols} coins)"),
        format!(
            "{n} coins on a {rows}x{cols} board, each heads (H, face up) or tails (T, face down). A move picks a coin that is face up and flips it together with its orthogonal neighbours. Goal: every coin tails. The move graph is directed (only face-up coins may be picked), so distances are measured to the goal by searching the reverse moves from it."
        ),
        (rows, cols),
        moves,
        vec![(1u64 << n) - 1],
    )
}
