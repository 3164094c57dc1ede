//! Flip K of N (Gary Darby's "Coin Flipping"): N coins in a row, a move flips exactly K
//! of them, the goal is all tails (classically from all heads).
//!
//! All configurations with the same number of tails are alike (any permutation of the
//! coins maps moves to moves), so the puzzle is searched over the N + 1 tail counts, each
//! standing for `C(N, t)` configurations. That scales to N = 60 where 2^N bits would not.

use super::coins::{COINS, CoinMove, Coins, read_cells};
use super::family::{Family, SizeArgs};
use super::{ClassInfo, Geometric, Invariant, Notation, ParseError, SearchGraph, Symmetry, SymmetryChoice, Walk};
use crate::util::binomial;

/// Largest N: 2^60 configurations still fit the 64-bit counts.
pub const MAX_COINS: u32 = 60;

/// Flip K of N, searched by symmetry: rank `t` is "t coins show tails".
#[derive(Debug, Clone)]
pub struct FlipK {
    n: u32,
    k: u32,
    /// Another goal than all tails (`--goal`), tails flags. Flipping the coins where it
    /// shows heads maps moves to moves and it to all tails, so rank `t` then stands for
    /// "`t` coins agree with the goal", and only notation changes.
    goal: Option<Vec<bool>>,
    /// Whether rows are counted up to reading them backwards (`--symmetry`).
    reversal: bool,
}

impl FlipK {
    /// N coins, K flipped per move; `1 <= K <= N <= 60` is the caller's promise.
    pub fn new(n: u32, k: u32) -> Self {
        Self {
            n,
            k,
            goal: None,
            reversal: false,
        }
    }

    /// The same puzzle with `goal` (an H/T row) as its goal; the id gets `-goal-` and it.
    fn goal_from(mut self, goal: &str) -> Result<Self, ParseError> {
        self.goal = Some(parse_row(goal, self.n as usize)?);
        Ok(self)
    }

    /// Coin `i` in the goal's frame: tails (true) when it agrees with the goal.
    fn framed(&self, coins: &[bool]) -> Vec<bool> {
        match &self.goal {
            Some(goal) => coins.iter().zip(goal).map(|(c, g)| c == g).collect(),
            None => coins.to_vec(),
        }
    }

    /// Coins `framed` (tails, or with a goal: agreeing with it) as an H/T row.
    fn render_framed(&self, framed: Vec<bool>) -> String {
        match &self.goal {
            Some(goal) => coins_text(&framed.iter().zip(goal).map(|(&f, &g)| f == g).collect::<Vec<_>>()),
            None => coins_text(&framed),
        }
    }

    /// The rank of a row of coins (tails flags): its tails, or with a goal, the coins
    /// that agree with it.
    pub fn rank_of(&self, coins: &[bool]) -> u64 {
        self.framed(coins).iter().filter(|&&t| t).count() as u64
    }

    /// Rank of the move matrix over GF(2): the span of all weight-K vectors.
    pub fn rank(&self) -> u32 {
        match (self.k == self.n, self.k % 2) {
            (true, _) => 1,
            (false, 1) => self.n,
            (false, _) => self.n - 1,
        }
    }

    /// The rank of the classic start, all heads (zero tails).
    pub fn all_heads(&self) -> u64 {
        self.rank_of(&vec![false; self.n as usize])
    }

    /// Calls `f` with the tail count after flipping `j` tails and `K - j` heads, every `j`.
    fn for_each_neighbour(&self, t: u64, mut f: impl FnMut(u64)) {
        let (n, k, t) = (u64::from(self.n), u64::from(self.k), t);
        let lowest = k.saturating_sub(n - t);
        for j in lowest..=t.min(k) {
            f(t + k - 2 * j);
        }
    }

    /// Flips the coins needed for one move from `tails` to `target` tails: the first
    /// `j` tails and the first `K - j` heads. Used to print concrete solutions.
    pub fn concrete_move(&self, config: &[bool], target: u64) -> Vec<usize> {
        // In the goal's frame the rank is a tail count, as without a goal.
        let config = &self.framed(config);
        let t = config.iter().filter(|&&c| c).count() as u64;
        let j = ((t + u64::from(self.k)).saturating_sub(target) / 2) as usize;
        let tails = config.iter().enumerate().filter(|(_, c)| **c).map(|(i, _)| i).take(j);
        let heads = config.iter().enumerate().filter(|(_, c)| !**c).map(|(i, _)| i);
        let mut flipped: Vec<usize> = tails.chain(heads.take(self.k as usize - j)).collect();
        flipped.sort_unstable();
        flipped
    }
}

impl Notation for FlipK {
    fn with_goal(self, goal: &str) -> Result<Self, ParseError> {
        self.goal_from(goal)
    }

    fn start(&self) -> Option<u64> {
        Some(self.all_heads())
    }

    fn id(&self) -> String {
        match &self.goal {
            Some(goal) => format!("flip-k-{}-{}-goal-{}", self.n, self.k, coins_text(goal)),
            None => format!("flip-k-{}-{}", self.n, self.k),
        }
    }

    fn title(&self) -> String {
        let coins = if self.n == 1 { "coin" } else { "coins" };
        match &self.goal {
            Some(goal) => format!("Flip {} of {} {coins}, goal {}", self.k, self.n, coins_text(goal)),
            None => format!("Flip {} of {} {coins}", self.k, self.n),
        }
    }

    fn rules(&self) -> String {
        format!(
            "{} in a row. A move flips {}. Goal: all tails; the classic start is all heads. Configurations with the same number of tails are alike, so the search runs over the {} tail counts and each count stands for C({}, t) configurations.",
            match self.n {
                1 => "One coin".to_string(),
                n => format!("{n} coins"),
            },
            match (self.n, self.k) {
                (1, _) => "it".to_string(),
                (n, k) if n == k => "all of them".to_string(),
                (_, k) => format!("exactly {k} of them"),
            },
            self.n + 1,
            self.n
        )
    }

    fn shape(&self) -> (usize, usize) {
        (1, self.n as usize)
    }

    /// The tail count drawn as its first configuration: the tails on the left (with a
    /// goal: the coins that agree with it on the left).
    fn render(&self, rank: u64) -> String {
        self.render_framed((0..u64::from(self.n)).map(|i| i < rank).collect())
    }

    /// The tail counts' configurations numbered as the subsets of the coins.
    fn render_member(&self, rank: u64, index: u64) -> String {
        let tails = crate::util::subset(self.n, rank as u32, index);
        self.render_framed((0..self.n).map(|i| tails >> i & 1 == 1).collect())
    }

    fn draw(&self, rank: u64) -> String {
        self.render(rank)
    }

    /// Reads an H/T row; the rank is its number of tails.
    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        let coins = parse_row(text, self.n as usize)?;
        let t = self.rank_of(&coins);
        if self.class_of(t) != self.class_of(u64::from(self.n)) {
            return Err(ParseError::Unsolvable(if self.k == self.n {
                "every move flips all coins, so only the goal and its complement reach the goal".into()
            } else if self.goal.is_some() {
                format!(
                    "K = {} is even, so every move keeps the parity of the number of coins that differ from the goal: {} now, 0 at the goal",
                    self.k,
                    u64::from(self.n) - t
                )
            } else {
                format!(
                    "K = {} is even, so every move keeps the parity of the number of tails: {} now, {} at the goal",
                    self.k, t, self.n
                )
            }));
        }
        Ok(t)
    }

    /// The table walks tail counts; each step flips concrete coins of the row as typed.
    fn walk(&self, start: &str, path: &[u64]) -> Result<Walk, ParseError> {
        let draw = |row: &[bool]| row.iter().map(|&t| if t { 'T' } else { 'H' }).collect::<String>();
        let mut row = parse_row(start, self.n as usize)?;
        let (mut drawings, mut moves) = (vec![draw(&row)], Vec::new());
        for &target in path.iter().skip(1) {
            let flipped = self.concrete_move(&row, target);
            for &i in &flipped {
                row[i] = !row[i];
            }
            if self.rank_of(&row) != target {
                return Err(ParseError::Malformed(format!(
                    "flip-k: the move to {target} tails could not be made concrete"
                )));
            }
            moves.push(coin_list(&flipped));
            drawings.push(draw(&row));
        }
        Ok(Walk {
            positions: drawings.clone(),
            drawings,
            moves,
        })
    }

    fn describe_move(&self, from: u64, to: u64) -> String {
        let config: Vec<bool> = self.render(from).chars().map(|c| c == 'T').collect();
        coin_list(&self.concrete_move(&config, to))
    }
}

impl SearchGraph for FlipK {
    fn class_count(&self) -> usize {
        self.classes().len()
    }

    fn states(&self) -> u64 {
        u64::from(self.n) + 1
    }

    fn multiplicity(&self, rank: u64) -> u64 {
        binomial(self.n, rank as u32)
    }

    fn goals(&self) -> Vec<u64> {
        vec![u64::from(self.n)]
    }

    type Memo = ();

    fn for_each_predecessor(&self, _memo: &mut (), rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(rank, f);
    }

    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(rank, f);
    }

    fn counts_classes(&self) -> bool {
        self.reversal
    }

    /// The rows of `rank` tails up to reading backwards: by Burnside, those a reversal
    /// keeps (palindromes: the tails of a half, and the middle coin on an odd row) and the
    /// others in pairs.
    fn classes_at(&self, rank: u64) -> u64 {
        let (n, t) = (self.n, rank as u32);
        let palindromes = match (n % 2, t % 2) {
            (0, 1) => 0,
            _ => binomial(n / 2, t / 2),
        };
        (binomial(n, t) + palindromes) / 2
    }

    fn class_of(&self, rank: u64) -> usize {
        if self.k == self.n {
            usize::from(rank != 0 && rank != u64::from(self.n))
        } else if self.k % 2 == 1 {
            0
        } else {
            (rank % 2) as usize
        }
    }
}

impl Invariant for FlipK {
    fn symmetry(&self) -> Symmetry {
        match self.reversal {
            true => Symmetry {
                order: 2,
                made_of: "the identity and the row read backwards".into(),
            },
            false => Symmetry::trivial(),
        }
    }

    /// Reading the row backwards maps moves to moves, and keeps the goal where it is a
    /// palindrome; it is a reflection, so `rotations` finds none. One coin reads the same
    /// backwards: there it is the identity.
    fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Self, String> {
        let palindrome = self.goal.as_ref().is_none_or(|g| g.iter().eq(g.iter().rev()));
        let found = match (self.n > 1, palindrome) {
            (false, _) => "none but the identity: one coin reads the same backwards",
            (true, true) => "2: the identity and the row read backwards (a reflection)",
            (true, false) => "none but the identity: the goal is no palindrome",
        };
        let exists = self.n > 1 && palindrome;
        let wanted = matches!(choice.group, None | Some(Geometric::All)) && choice.inverse != Some(true);
        if choice.asks_for_more() && !(wanted && exists) {
            return Err(choice.missing(found));
        }
        self.reversal = wanted && exists;
        Ok(self)
    }

    fn gf2_rank(&self) -> Option<u32> {
        Some(self.rank())
    }

    fn configurations(&self) -> (u128, String) {
        (1 << self.n, format!("2^{}", self.n))
    }

    fn classes(&self) -> Vec<ClassInfo> {
        let n = self.n;
        let half = 1u64 << (n - 1);
        let example = |t: u64| self.render(t);
        if self.k == n {
            let goal = ClassInfo {
                label: "complements".into(),
                configurations: 2,
                solvable: true,
                example: example(u64::from(n)),
            };
            let others = ClassInfo {
                label: format!("other-{}-classes", half - 1),
                configurations: (1 << n) - 2,
                solvable: false,
                example: example(1),
            };
            // With one coin, all tails and all heads are the only configurations.
            if n == 1 { vec![goal] } else { vec![goal, others] }
        } else if self.k % 2 == 1 {
            vec![ClassInfo {
                label: "all".into(),
                configurations: 1 << n,
                solvable: true,
                example: example(0),
            }]
        } else {
            let goal = u64::from(n % 2);
            ["tails-even", "tails-odd"]
                .iter()
                .zip(0u64..)
                .map(|(label, parity)| ClassInfo {
                    label: (*label).into(),
                    configurations: half,
                    solvable: parity == goal,
                    example: example(parity),
                })
                .collect()
        }
    }

    fn invariant(&self) -> String {
        if self.k == self.n {
            "Every move flips all coins, so a configuration only meets its complement: each class is a configuration and its complement, and only the goal's class (all tails, all heads) is solvable.".into()
        } else if self.k % 2 == 1 {
            format!(
                "Two moves differing in one coin flip exactly two coins, so any pair can be flipped; with K = {} odd, one move changes the parity too: the moves span all of GF(2)^{}, one class, all solvable.",
                self.k, self.n
            )
        } else {
            format!(
                "K = {} is even, so every move keeps the parity of the number of tails; pairs of coins can be flipped, so the parity is the only invariant: two classes, and the one with the goal's parity ({}) is solvable.",
                self.k,
                if self.n % 2 == 0 { "even" } else { "odd" }
            )
        }
    }
}

/// Tails flags as an H/T string.
fn coins_text(coins: &[bool]) -> String {
    coins.iter().map(|&t| if t { 'T' } else { 'H' }).collect()
}

/// Names a set of flipped coins, counting from 1: `coins 1 2 5`.
pub fn coin_list(flipped: &[usize]) -> String {
    let names: Vec<String> = flipped.iter().map(|i| (i + 1).to_string()).collect();
    format!("coins {}", names.join(" "))
}

/// Reads `n` coins written as H and T into tails flags (the coin boards' reader, one row).
pub fn parse_row(text: &str, n: usize) -> Result<Vec<bool>, ParseError> {
    read_cells(text, (1, n), &COINS).map_err(ParseError::Malformed)
}

/// The same puzzle without symmetry: all `C(N, K)` masks over 2^N configurations.
/// Only for checking [`FlipK`] on small N.
pub fn flip_k_brute(n: usize, k: usize) -> Coins {
    let mut moves = Vec::new();
    for mask in 0u64..(1 << n) {
        if mask.count_ones() as usize == k {
            let flipped: Vec<usize> = (0..n).filter(|i| mask >> (n - 1 - i) & 1 == 1).collect();
            moves.push(CoinMove {
                name: coin_list(&flipped),
                mask,
                needs_heads: None,
                cost: 1,
            });
        }
    }
    Coins::new(
        format!("flip-k-brute-{n}-{k}"),
        format!("Flip {k} of {n} coins (every configuration)"),
        String::new(),
        (1, n),
        moves,
        vec![(1 << n) - 1],
    )
}

/// flip-k's size when --coins or --flip is not given.
const DEFAULT_COINS: u64 = 7;
/// See [`DEFAULT_COINS`].
const DEFAULT_FLIP: u64 = 5;

/// `--puzzle flip-k --coins N --flip K`: flip K of N coins, by symmetry up to N = 60.
pub struct FlipKFamily;

impl Family for FlipKFamily {
    type Size = (u32, u32);
    type Puzzle = FlipK;

    fn name(&self) -> &'static str {
        "flip-k"
    }

    fn about(&self) -> Option<&'static str> {
        Some("flip-k       flip exactly K of N coins per move until all are tails; --coins N --flip K (7, 5)")
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&["--coins", "--flip"], " (use --coins N --flip K)")
    }

    fn choose(&self, args: &SizeArgs) -> Result<(u32, u32), String> {
        let coins = args.coins.unwrap_or(DEFAULT_COINS);
        let flip = args.flip.unwrap_or(DEFAULT_FLIP);
        if !(1..=u64::from(MAX_COINS)).contains(&coins) {
            return Err(format!(
                "--coins {coins} is out of range: use 1 to {MAX_COINS} (2^{MAX_COINS} configurations is the most the counts hold)"
            ));
        }
        if !(1..=coins).contains(&flip) {
            return Err(match (args.flip, args.coins) {
                (None, _) => format!(
                    "--flip defaults to {DEFAULT_FLIP}, more than the {coins} coins: pass --flip K with K from 1 to {coins}"
                ),
                (Some(_), None) => format!(
                    "--flip {flip} is out of range: a move flips 1 to N coins, and --coins defaults to {DEFAULT_COINS}; pass --coins N with N >= {flip}"
                ),
                (Some(_), Some(_)) => format!("--flip {flip} is out of range: a move flips 1 to N = {coins} coins"),
            });
        }
        Ok((coins as u32, flip as u32))
    }

    fn all(&self) -> Vec<(u32, u32)> {
        vec![(7, 5), (60, 31)]
    }

    fn id(&self, &(coins, flip): &(u32, u32)) -> String {
        format!("flip-k-{coins}-{flip}")
    }

    fn parameters(&self, &(coins, flip): &(u32, u32)) -> Vec<(String, u64)> {
        vec![("coins".into(), u64::from(coins)), ("flip".into(), u64::from(flip))]
    }

    fn states(&self, &(coins, _): &(u32, u32)) -> u128 {
        u128::from(coins) + 1
    }

    fn build(&self, &(coins, flip): &(u32, u32)) -> Result<FlipK, String> {
        Ok(FlipK::new(coins, flip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, search};
    use std::ops::ControlFlow;

    fn classes_per_level<P: SearchGraph>(puzzle: &P) -> Vec<u64> {
        search(puzzle, Options::default(), |_| ControlFlow::Continue(()))
            .expect("a small search")
            .classes
    }

    fn largest(n: u32, k: u32) -> FlipK {
        FlipK::new(n, k)
            .with_symmetry(SymmetryChoice::default())
            .expect("the default group")
    }

    /// Each tail count's classes, against the rows of that many tails counted one by one
    /// up to reading backwards (each counted at the lesser of it and its reverse).
    #[test]
    fn a_tail_count_holds_its_rows_up_to_reversal() {
        for n in 2..=12u32 {
            let puzzle = largest(n, 1);
            let reverse = |v: u64| {
                (0..n)
                    .filter(|&i| v >> i & 1 == 1)
                    .fold(0u64, |m, i| m | 1 << (n - 1 - i))
            };
            let mut counted = vec![0u64; n as usize + 1];
            for v in (0..1u64 << n).filter(|&v| reverse(v) >= v) {
                counted[v.count_ones() as usize] += 1;
            }
            let classes: Vec<u64> = (0..=u64::from(n)).map(|t| puzzle.classes_at(t)).collect();
            assert_eq!(classes, counted, "N={n}");
        }
    }

    /// Up to 60 coins, exactly: the classes of every tail count add up to Burnside's
    /// (2^N + 2^ceil(N/2)) / 2 for the whole row.
    #[test]
    fn the_classes_add_up_to_burnsides_count_up_to_60_coins() {
        for n in [59u32, 60] {
            let puzzle = largest(n, 1);
            let total: u128 = (0..=u64::from(n)).map(|t| u128::from(puzzle.classes_at(t))).sum();
            assert_eq!(total, ((1u128 << n) + (1u128 << n.div_ceil(2))) / 2, "N={n}");
        }
    }

    /// The rows as a coin board one cell high find the same group, and count the same
    /// classes at every distance.
    #[test]
    fn the_coin_board_of_the_same_row_counts_the_same_classes() {
        for (n, k) in [(7, 3), (8, 2), (6, 6), (5, 1)] {
            let brute = flip_k_brute(n as usize, k as usize)
                .with_symmetry(SymmetryChoice::default())
                .expect("the row's group");
            let puzzle = largest(n, k);
            assert_eq!(brute.symmetry(), puzzle.symmetry(), "N={n} K={k}");
            assert_eq!(classes_per_level(&brute), classes_per_level(&puzzle), "N={n} K={k}");
        }
    }

    #[test]
    fn reversal_needs_a_palindrome_goal_and_two_coins() {
        assert_eq!(largest(7, 3).symmetry().order, 2);
        let all = "all".parse().expect("a choice");
        let off = FlipK::new(5, 2).with_goal("TTHHH").expect("a goal");
        assert!(
            !off.clone()
                .with_symmetry(SymmetryChoice::default())
                .expect("none")
                .counts_classes()
        );
        assert!(
            off.with_symmetry(all)
                .expect_err("no palindrome")
                .contains("no palindrome")
        );
        let centred = FlipK::new(5, 2).with_goal("HTHTH").expect("a goal");
        assert_eq!(centred.with_symmetry(all).expect("a palindrome").symmetry().order, 2);
        let one = FlipK::new(1, 1);
        assert!(one.clone().with_symmetry(all).is_err());
        assert!(
            !one.with_symmetry(SymmetryChoice::default())
                .expect("trivial")
                .counts_classes()
        );
        let rotations = "rotations".parse().expect("a choice");
        assert!(FlipK::new(7, 3).with_symmetry(rotations).is_err());
        let none = FlipK::new(7, 3).with_symmetry(SymmetryChoice::NONE).expect("none");
        assert!(!none.counts_classes());
    }
}
