//! Coin lines: a move flips a whole row, column or main diagonal of an N x N board;
//! the goal is every coin heads or every coin tails.

use super::coins::{CoinMove, Coins, coin_board, too_many_coins};
use super::family::{Family, SizeArgs, dimension};

/// The coin-lines puzzle on an `size x size` board (`size <= 5`), goals all H and all T.
pub fn coin_lines(size: usize) -> Coins {
    let n = size * size;
    let bit = |r: usize, c: usize| 1u64 << (n - 1 - (r * size + c));
    let line = |name: String, cells: &mut dyn Iterator<Item = (usize, usize)>| CoinMove {
        name,
        mask: cells.fold(0, |m, (r, c)| m | bit(r, c)),
        needs_heads: None,
        cost: 1,
    };
    let mut moves = Vec::new();
    for i in 0..size {
        moves.push(line(format!("L{}", i + 1), &mut (0..size).map(|c| (i, c))));
    }
    for i in 0..size {
        moves.push(line(format!("C{}", i + 1), &mut (0..size).map(|r| (r, i))));
    }
    moves.push(line("D1".into(), &mut (0..size).map(|i| (i, i))));
    moves.push(line("D2".into(), &mut (0..size).map(|i| (i, size - 1 - i))));
    Coins::new(
        format!("coin-lines-{size}x{size}"),
        format!("Coin lines ({size}x{size} coins)"),
        format!(
            "{n} coins on a {size}x{size} board. A move flips all coins of one row (L1..L{size}), one column (C1..C{size}) or one of the two diagonals (D1 from the top left, D2 from the top right). Goal: all heads or all tails; distances are to the nearer of the two."
        ),
        (size, size),
        moves,
        vec![0, (1u64 << n) - 1],
    )
}

/// `--puzzle coin-lines --size N`: coin lines on a square board.
pub struct CoinLinesFamily;

impl Family for CoinLinesFamily {
    type Size = usize;
    type Puzzle = Coins;

    fn name(&self) -> &'static str {
        "coin-lines"
    }

    fn about(&self) -> Option<&'static str> {
        Some("coin-lines   flip a row, column or diagonal until all coins match; --size N (3)")
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&["--size"], " (the board is square: use --size N)")
    }

    fn choose(&self, args: &SizeArgs) -> Result<usize, String> {
        dimension("--size", args.size.unwrap_or(3))
    }

    fn all(&self) -> Vec<usize> {
        vec![3, 4]
    }

    fn id(&self, size: &usize) -> String {
        format!("coin-lines-{size}x{size}")
    }

    fn parameters(&self, &size: &usize) -> Vec<(String, u64)> {
        vec![("size".into(), size as u64)]
    }

    fn states(&self, &size: &usize) -> u128 {
        1u128.checked_shl((size * size) as u32).unwrap_or(u128::MAX)
    }

    fn beyond(&self, &size: &usize) -> Option<String> {
        too_many_coins(size * size)
    }

    fn build(&self, &size: &usize) -> Result<Coins, String> {
        coin_board(size, size, |size, _| coin_lines(size))
    }
}
