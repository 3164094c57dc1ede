//! Nine tails (Liang, *Introduction to Java Programming*): pick a face-up coin and flip
//! it together with its orthogonal neighbours; the goal is every coin tails. Because only
//! face-up coins may be picked, the move graph is directed.
//!
//! The book's weighted variant (`WeightedNineTail`) charges each move the coins it flips,
//! so the question becomes the fewest flips rather than the fewest moves.

use super::coins::{BoardFamily, CoinMove, Coins, cell_name, cross};

/// The nine-tails puzzle on `rows x cols` coins (`rows * cols <= 25`), goal all tails.
pub fn nine_tails(rows: usize, cols: usize) -> Coins {
    let n = rows * cols;
    Coins::new(
        format!("nine-tails-{rows}x{cols}"),
        format!("Nine tails ({rows}x{cols} coins)"),
        format!(
            "{n} coins on a {rows}x{cols} board, each heads (H, face up) or tails (T, face down). A move picks a coin that is face up and flips it together with its orthogonal neighbours. Goal: every coin tails. The move graph is directed (only face-up coins may be picked), so distances are measured to the goal by searching the reverse moves from it."
        ),
        (rows, cols),
        moves(rows, cols, false),
        vec![(1u64 << n) - 1],
    )
}

/// Weighted nine tails: the same moves, each costing the number of coins it flips (3 in
/// a corner, 4 on an edge, 5 inside); distances count flips.
pub fn weighted_nine_tails(rows: usize, cols: usize) -> Coins {
    let n = rows * cols;
    Coins::new(
        format!("weighted-nine-tails-{rows}x{cols}"),
        format!("Weighted nine tails ({rows}x{cols} coins)"),
        format!(
            "{n} coins on a {rows}x{cols} board, each heads (H, face up) or tails (T, face down). A move picks a coin that is face up and flips it together with its orthogonal neighbours, and costs the number of coins it flips. Goal: every coin tails, with the fewest flips (not the fewest moves). Distances are least total costs, found by Dial's bucketed search from the goal over the reverse moves."
        ),
        (rows, cols),
        moves(rows, cols, true),
        vec![(1u64 << n) - 1],
    )
    .with_metric("flips")
}

/// Pick coin `cell` (it must be heads) and flip it with its neighbours; `weighted`: the
/// move costs the coins it flips.
fn moves(rows: usize, cols: usize, weighted: bool) -> Vec<CoinMove> {
    let n = rows * cols;
    let bit = |cell: usize| 1u64 << (n - 1 - cell);
    (0..n)
        .map(|cell| {
            let mask = cross(rows, cols, cell, bit);
            CoinMove {
                name: cell_name(cell, cols),
                mask,
                needs_heads: Some(bit(cell)),
                cost: if weighted { mask.count_ones() } else { 1 },
            }
        })
        .collect()
}

/// `--puzzle nine-tails`: the book's nine tails on any board up to 25 coins.
pub static NINE_TAILS: BoardFamily = BoardFamily {
    name: "nine-tails",
    about: "nine-tails   flip a face-up coin with its neighbours until all are tails; --rows --cols (3x3)",
    default: (3, 3),
    all: &[(3, 3), (4, 4)],
    max_move_cost: 1,
    make: nine_tails,
};

/// `--puzzle weighted-nine-tails`: nine tails where a move costs the coins it flips.
pub static WEIGHTED_NINE_TAILS: BoardFamily = BoardFamily {
    name: "weighted-nine-tails",
    about: "weighted-nine-tails   nine tails counting flips: a move costs the coins it flips; --rows --cols (3x3)",
    default: (3, 3),
    all: &[],
    // A move flips at most 5 coins (a cell and its 4 neighbours).
    max_move_cost: 5,
    make: weighted_nine_tails,
};
