//! Coin puzzles restated from their published rules, and a plain breadth-first search over
//! coin vectors.

use super::sliding::neighbours;
use std::collections::{HashMap, VecDeque};

/// Coins packed into an integer, coin `i` (row-major from 0) in bit `i`, set for tails.
/// The order is the reverse of the library's ranks on purpose: [`book_rank`] converts.
pub type CoinVector = u32;

/// A move written out from the rules: the coins it flips and the coin that must show
/// heads before it (nine tails' "pick a face-up coin").
#[derive(Debug, Clone)]
pub struct RefMove {
    pub flips: CoinVector,
    pub needs_heads: Option<usize>,
}

/// A coin puzzle restated from its published rules.
#[derive(Debug, Clone)]
pub struct CoinRules {
    pub coins: usize,
    pub moves: Vec<RefMove>,
    pub goals: Vec<CoinVector>,
}

impl RefMove {
    /// A move that flips `flips` whatever the coins show.
    pub fn free(flips: CoinVector) -> Self {
        RefMove {
            flips,
            needs_heads: None,
        }
    }
}

impl CoinRules {
    /// Whether `mv` may be played on `config`.
    pub fn legal(mv: &RefMove, config: CoinVector) -> bool {
        mv.needs_heads.is_none_or(|coin| config >> coin & 1 == 0)
    }

    /// Every configuration one legal move after `config`.
    pub fn successors(&self, config: CoinVector) -> impl Iterator<Item = CoinVector> + '_ {
        self.moves
            .iter()
            .filter(move |m| Self::legal(m, config))
            .map(move |m| config ^ m.flips)
    }

    /// Every configuration of the puzzle.
    pub fn all(&self) -> std::ops::Range<CoinVector> {
        0..1 << self.coins
    }

    /// All coins tails.
    pub fn all_tails(&self) -> CoinVector {
        all_tails(self.coins)
    }
}

/// All of `coins` coins tails.
fn all_tails(coins: usize) -> CoinVector {
    ((1u64 << coins) - 1) as CoinVector
}

fn vector(cells: impl IntoIterator<Item = usize>) -> CoinVector {
    cells.into_iter().fold(0, |v, cell| v | 1 << cell)
}

/// A cell and its orthogonal neighbours.
fn plus(rows: usize, cols: usize, cell: usize) -> CoinVector {
    vector([cell].into_iter().chain(neighbours(rows, cols, cell)))
}

/// Lights out: press any cell, it and its orthogonal neighbours flip; goal all heads.
pub fn ref_lights_out(rows: usize, cols: usize) -> CoinRules {
    let n = rows * cols;
    let moves = (0..n).map(|cell| RefMove::free(plus(rows, cols, cell))).collect();
    CoinRules {
        coins: n,
        moves,
        goals: vec![0],
    }
}

/// Nine tails: pick a face-up coin, flip it and its orthogonal neighbours; goal all tails.
pub fn ref_nine_tails(rows: usize, cols: usize) -> CoinRules {
    let n = rows * cols;
    let moves = (0..n)
        .map(|cell| RefMove {
            flips: plus(rows, cols, cell),
            needs_heads: Some(cell),
        })
        .collect();
    CoinRules {
        coins: n,
        moves,
        goals: vec![all_tails(n)],
    }
}

/// Coin lines: flip a whole row, column or main diagonal; goal all heads or all tails.
pub fn ref_coin_lines(size: usize) -> CoinRules {
    let n = size * size;
    let mut lines: Vec<CoinVector> = Vec::new();
    for i in 0..size {
        lines.push(vector((0..size).map(|c| i * size + c)));
        lines.push(vector((0..size).map(|r| r * size + i)));
    }
    lines.push(vector((0..size).map(|i| i * size + i)));
    lines.push(vector((0..size).map(|i| i * size + size - 1 - i)));
    CoinRules {
        coins: n,
        moves: lines.into_iter().map(RefMove::free).collect(),
        goals: vec![0, all_tails(n)],
    }
}

/// Flip K of N: flip any K of the N coins; goal all tails.
pub fn ref_flip_k(n: usize, k: usize) -> CoinRules {
    let moves = (0..1u32 << n)
        .filter(|m| m.count_ones() as usize == k)
        .map(RefMove::free)
        .collect();
    CoinRules {
        coins: n,
        moves,
        goals: vec![all_tails(n)],
    }
}

/// Distance *to* the nearest goal of every configuration that can reach one.
///
/// A breadth-first search from the goals over reversed moves: `before` is one move before
/// `after` when a move legal in `before` turns it into `after`. A move XORs its coins, so
/// the only candidate `before` for a move is `after ^ flips`; its legality is checked in
/// `before`, which is what makes nine tails' directed rule come out right.
pub fn coin_distances(rules: &CoinRules) -> HashMap<CoinVector, usize> {
    let mut distance: HashMap<CoinVector, usize> = rules.goals.iter().map(|&g| (g, 0)).collect();
    let mut queue: VecDeque<CoinVector> = rules.goals.iter().copied().collect();
    while let Some(after) = queue.pop_front() {
        let d = distance[&after];
        for mv in &rules.moves {
            let before = after ^ mv.flips;
            if CoinRules::legal(mv, before) && !distance.contains_key(&before) {
                distance.insert(before, d + 1);
                queue.push_back(before);
            }
        }
    }
    distance
}

/// The configuration as the puzzles write it: `H` heads, `T` tails, row-major.
pub fn coin_text(config: CoinVector, coins: usize) -> String {
    (0..coins)
        .map(|i| if config >> i & 1 == 1 { 'T' } else { 'H' })
        .collect()
}

/// The configuration an `H`/`T` text writes (rows may be separated by `/`): the inverse of
/// [`coin_text`].
pub fn coin_vector(text: &str) -> CoinVector {
    text.chars()
        .filter(|&c| c != '/')
        .enumerate()
        .fold(0, |v, (i, c)| v | u32::from(c == 'T') << i)
}

/// The configuration's number in the nine-tails book: coins read row-major as binary
/// digits, H = 0, T = 1, first coin most significant (so all tails is `2^n - 1`).
pub fn book_rank(config: CoinVector, coins: usize) -> u64 {
    (0..coins).fold(0, |rank, i| rank << 1 | u64::from(config >> i & 1))
}

/// Every board shape with both sides at least 2 and at most `max_cells` cells.
pub fn boards_up_to(max_cells: usize) -> Vec<(usize, usize)> {
    (2..=max_cells / 2)
        .flat_map(|r| (2..=max_cells / r).map(move |c| (r, c)))
        .collect()
}
