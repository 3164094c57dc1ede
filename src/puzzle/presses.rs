//! A coin board whose press matrix is invertible over GF(2), searched by press weight.
//!
//! Where every move XORs a fixed mask, moves commute and each undoes itself, so a
//! configuration `b` is solved by the press sets `x` with `A·x = b` (column `j` of `A`: the
//! coins move `j` flips). Where `A` is invertible that set is unique, every configuration is
//! solvable, and a shortest solution presses exactly the cells of `x = A⁻¹·b`: the distance
//! is its weight. So `C(n, w)` configurations lie at distance `w`, and the board is searched
//! over the `n + 1` weights, as flip-k over tail counts: that reaches 7x7, whose 2^49
//! configurations no bit set holds. The board's symmetries commute with `A`, so classes of
//! configurations are classes of press sets, counted weight by weight by Burnside.

use super::coins::Coins;
use super::gf2::inverse;
use super::symmetry::{BoardSym, board_symmetries, choose, shape_name};
use super::{ClassInfo, Invariant, Notation, ParseError, SearchGraph, Symmetry, SymmetryChoice, Walk};
use crate::util::binomial;

/// Most coins: 2^N configurations must fit the engine's 64-bit counts (flip-k's limit).
pub const MAX_COINS: usize = super::flip_k::MAX_COINS as usize;

/// A board of plain presses with an invertible matrix: rank `w` is "the press set of the
/// configuration has `w` cells", standing for `C(n, w)` configurations.
#[derive(Debug, Clone)]
pub struct Presses {
    /// The board as a coin puzzle: its moves, goal, notation and symmetries.
    board: Coins,
    /// `solve[i]`: the press set that flips rank bit `i` alone, in rank bits (move `j` is
    /// the bit of coin `j`, so the first moves are the highest bits as the first coins are).
    solve: Vec<u64>,
    /// The symmetries counted up to (`--symmetry`).
    group: Symmetry,
    /// `classes[w]`: the press sets of weight `w` up to [`Presses::group`].
    classes: Vec<u64>,
}

/// Why a board of `n` coins is too large for the press route, one clause (`None`: it is not).
pub fn refusal_of_size(n: usize) -> Option<String> {
    (n > MAX_COINS).then(|| format!("it is over the {MAX_COINS} coins whose 2^N configurations the 64-bit counts hold"))
}

/// Why `board` cannot be searched by press weight, one clause (`None`: it can).
pub fn refusal(board: &Coins) -> Option<String> {
    let n = board.coins();
    let plain = board.moves.iter().all(|m| m.needs_heads.is_none() && m.cost == 1);
    if let Some(why) = refusal_of_size(n) {
        Some(why)
    } else if !plain || board.goals.len() != 1 {
        Some("its moves are not plain presses to one goal".into())
    } else if board.moves.len() != n || board.rank() as usize != n {
        let nullity = n - board.rank() as usize;
        Some(format!(
            "presses are not unique: the press matrix has nullity {nullity} over GF(2), so 2^{nullity} press sets solve each solvable configuration"
        ))
    } else {
        None
    }
}

impl Presses {
    /// The board searched by press weight, or why it cannot be ([`refusal`]).
    pub fn new(board: Coins) -> Result<Self, String> {
        if let Some(why) = refusal(&board) {
            return Err(format!("{}: {why}", board.id));
        }
        let n = board.coins();
        // Column k of A is the move of rank bit k, i.e. of coin n - 1 - k.
        let columns: Vec<u64> = (0..n).map(|k| board.moves[n - 1 - k].mask).collect();
        let solve = inverse(&columns).ok_or_else(|| format!("{}: its press matrix is singular", board.id))?;
        let classes = (0..=n as u32).map(|w| binomial(n as u32, w)).collect();
        Ok(Self {
            board,
            solve,
            group: Symmetry::trivial(),
            classes,
        })
    }

    fn coins(&self) -> u32 {
        self.board.coins() as u32
    }

    /// The unique press set (rank bits) that takes configuration `config` to the goal.
    pub fn presses(&self, config: u64) -> u64 {
        let change = config ^ self.board.goals[0];
        (0..self.coins())
            .filter(|&i| change >> i & 1 == 1)
            .fold(0, |x, i| x ^ self.solve[i as usize])
    }

    /// The distance of `config`: the weight of its press set.
    pub fn distance(&self, config: u64) -> u64 {
        u64::from(self.presses(config).count_ones())
    }

    /// The configuration that press set `x` solves.
    fn configuration(&self, x: u64) -> u64 {
        (0..self.board.coins())
            .filter(|&j| x & self.board.bit(j) != 0)
            .fold(self.board.goals[0], |config, j| config ^ self.board.moves[j].mask)
    }

    /// The configuration solved by pressing the first `w` moves: weight `w`'s drawing.
    fn representative(&self, w: u64) -> u64 {
        let first = match w {
            0 => 0,
            w => (u64::MAX >> (64 - w)) << (u64::from(self.coins()) - w),
        };
        self.configuration(first)
    }
}

/// For each weight, the press sets of `n` cells up to `syms` by Burnside: the mean over the
/// symmetries of the sets each fixes, `[t^w]` of the product over its cycles `c` of
/// `1 + t^|c|` (a fixed set takes a cycle whole or not at all).
pub fn classes_by_weight(syms: &[BoardSym], n: usize) -> Vec<u64> {
    let mut total = vec![0u128; n + 1];
    for s in syms {
        let mut fixed = vec![0u128; n + 1];
        fixed[0] = 1;
        let mut seen = vec![false; n];
        for start in 0..n {
            let (mut cell, mut len) = (start, 0);
            while !seen[cell] {
                seen[cell] = true;
                cell = s.to[cell];
                len += 1;
            }
            if len > 0 {
                for w in (len..=n).rev() {
                    fixed[w] += fixed[w - len];
                }
            }
        }
        total.iter_mut().zip(&fixed).for_each(|(t, f)| *t += f);
    }
    total.iter().map(|&t| (t / syms.len() as u128) as u64).collect()
}

impl SearchGraph for Presses {
    fn states(&self) -> u64 {
        u64::from(self.coins()) + 1
    }

    fn multiplicity(&self, rank: u64) -> u64 {
        binomial(self.coins(), rank as u32)
    }

    fn goals(&self) -> Vec<u64> {
        vec![0]
    }

    type Memo = ();

    /// One press more or one less: every press either joins the press set or leaves it.
    fn for_each_predecessor(&self, _memo: &mut (), rank: u64, f: impl FnMut(u64)) {
        self.for_each_successor(rank, f);
    }

    fn for_each_successor(&self, rank: u64, mut f: impl FnMut(u64)) {
        if rank > 0 {
            f(rank - 1);
        }
        if rank < u64::from(self.coins()) {
            f(rank + 1);
        }
    }

    fn counts_classes(&self) -> bool {
        self.group.order > 1
    }

    fn classes_at(&self, rank: u64) -> u64 {
        self.classes[rank as usize]
    }
}

impl Invariant for Presses {
    fn symmetry(&self) -> Symmetry {
        self.group.clone()
    }

    fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Self, String> {
        let (rows, cols) = (self.board.rows, self.board.cols);
        let kept = board_symmetries(rows, cols)
            .into_iter()
            .filter(|s| self.board.keeps(s))
            .collect();
        let (syms, group) = choose(kept, choice, shape_name(rows, cols))?;
        self.classes = classes_by_weight(&syms, self.board.coins());
        self.group = group;
        Ok(self)
    }

    fn gf2_rank(&self) -> Option<u32> {
        Some(self.coins())
    }

    fn configurations(&self) -> (u128, String) {
        self.board.configurations()
    }

    fn classes(&self) -> Vec<ClassInfo> {
        self.board.classes()
    }

    fn invariant(&self) -> String {
        self.board.invariant()
    }
}

impl Notation for Presses {
    fn with_goal(mut self, goal: &str) -> Result<Self, ParseError> {
        self.board = self.board.with_goal(goal)?;
        Ok(self)
    }

    fn id(&self) -> String {
        self.board.id()
    }

    fn title(&self) -> String {
        self.board.title()
    }

    fn rules(&self) -> String {
        let n = self.coins();
        format!(
            "{} The press matrix is invertible over GF(2), so each configuration has exactly one press set and its distance is that set's size: the search runs over the {} press weights, weight w standing for C({n}, w) configurations.",
            self.board.rules(),
            n + 1
        )
    }

    fn shape(&self) -> (usize, usize) {
        self.board.shape()
    }

    /// The weight drawn as the configuration its first `w` presses solve.
    fn render(&self, rank: u64) -> String {
        self.board.render(self.representative(rank))
    }

    /// The press sets of weight `rank`, numbered as subsets of the cells.
    fn render_member(&self, rank: u64, index: u64) -> String {
        let cells = crate::util::subset(self.coins(), rank as u32, index);
        let presses = (0..self.board.coins())
            .filter(|&j| cells >> j & 1 == 1)
            .fold(0, |x, j| x | self.board.bit(j));
        self.board.render(self.configuration(presses))
    }

    fn draw(&self, rank: u64) -> String {
        self.board.draw(self.representative(rank))
    }

    /// Reads a board as the coin puzzle does; the rank is its press set's weight.
    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        self.board.parse(text).map(|config| self.distance(config))
    }

    /// Between representatives, one step presses move `min(from, to)`.
    fn describe_move(&self, from: u64, to: u64) -> String {
        let j = from.min(to) as usize;
        self.board.moves.get(j).map_or_else(|| "?".into(), |m| m.name.clone())
    }

    /// The table walks weights; the solution presses the cells of the start's press set,
    /// in board order, one a step.
    fn walk(&self, start: &str, path: &[u64]) -> Result<Walk, ParseError> {
        let mut config = self.board.parse(start)?;
        let x = self.presses(config);
        let cells: Vec<usize> = (0..self.board.coins())
            .filter(|&j| x & self.board.bit(j) != 0)
            .collect();
        if cells.len() + 1 != path.len() {
            return Err(ParseError::Malformed(format!(
                "{}: a walk of {} moves for a press set of {}",
                self.id(),
                path.len().saturating_sub(1),
                cells.len()
            )));
        }
        let mut walk = Walk {
            positions: vec![self.board.render(config)],
            drawings: vec![self.board.draw(config)],
            moves: Vec::new(),
        };
        for j in cells {
            config ^= self.board.moves[j].mask;
            walk.positions.push(self.board.render(config));
            walk.drawings.push(self.board.draw(config));
            walk.moves.push(self.board.moves[j].name.clone());
        }
        Ok(walk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::lights_out::lights_out;

    /// The press sets of each weight counted one by one up to the board's symmetries, each
    /// at the least of its images (cells moved bit by bit), against Burnside's count.
    #[test]
    fn burnside_counts_the_press_sets_each_at_its_least_image() {
        for (rows, cols) in [(3, 3), (4, 3), (2, 4), (4, 4)] {
            let n = rows * cols;
            let syms = board_symmetries(rows, cols);
            let image = |s: &BoardSym, x: u64| (0..n).filter(|&c| x >> c & 1 == 1).fold(0, |m, c| m | 1 << s.to[c]);
            let mut counted = vec![0u64; n + 1];
            for x in (0..1u64 << n).filter(|&x| syms.iter().all(|s| image(s, x) >= x)) {
                counted[x.count_ones() as usize] += 1;
            }
            assert_eq!(classes_by_weight(&syms, n), counted, "{rows}x{cols}");
        }
    }

    /// Each configuration's press set solves it, and its weight is the distance a plain
    /// breadth-first search over the configurations finds.
    #[test]
    fn the_press_set_solves_the_configuration_at_its_distance() {
        for (rows, cols) in [(3, 3), (4, 3), (2, 2)] {
            let board = lights_out(rows, cols);
            let puzzle = Presses::new(board.clone()).expect("an invertible board");
            let mut distance = vec![u64::MAX; 1 << board.coins()];
            let mut queue = std::collections::VecDeque::from([0u64]);
            distance[0] = 0;
            while let Some(config) = queue.pop_front() {
                board.for_each_successor(config, |next| {
                    if distance[next as usize] == u64::MAX {
                        distance[next as usize] = distance[config as usize] + 1;
                        queue.push_back(next);
                    }
                });
            }
            for (config, &d) in (0u64..).zip(&distance) {
                assert_eq!(puzzle.configuration(puzzle.presses(config)), config, "{rows}x{cols}");
                assert_eq!(puzzle.distance(config), d, "{rows}x{cols} {config}");
            }
        }
    }

    /// A singular board names its nullity; 2x3 is one (nullity 2), as is 5x5 (nullity 2).
    #[test]
    fn a_singular_board_is_refused_with_its_nullity() {
        for (rows, cols, nullity) in [(2, 3, 2), (5, 5, 2), (4, 4, 4)] {
            let refused = Presses::new(lights_out(rows, cols)).expect_err("singular");
            assert!(refused.contains(&format!("nullity {nullity}")), "{refused}");
        }
    }
}
