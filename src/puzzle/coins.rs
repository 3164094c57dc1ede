//! What every coin-flipping puzzle shares: a board of coins ranked as a bit mask, moves
//! that XOR a fixed mask, and classes that are the cosets of the span of those masks.
//!
//! Ranks follow the nine-tails book: coins read row by row are binary digits, H = 0 and
//! T = 1, first coin most significant (so `TTTTTTTTT` is 511). The families (nine tails,
//! lights out, coin lines, flip K of N) differ only in their move lists and goals.

use super::family::{Family, SizeArgs};
use super::gf2::Span;
use super::symmetry::{BoardSym, board_symmetries, choose, shape_name};
use super::{ClassInfo, Invariant, Notation, ParseError, SearchGraph, Symmetry, SymmetryChoice};
use crate::util::thousands;

/// Most coins a board may have: 2^25 configurations take 12 MiB of bit sets and a
/// couple of seconds; each further coin doubles both.
pub const MAX_COINS: usize = 25;

/// A move: flip the coins of `mask`, optionally only if one coin shows heads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoinMove {
    /// Name in the puzzle's notation, e.g. `L2`, `E` or `r2c3`.
    pub name: String,
    /// The coins flipped, as rank bits.
    pub mask: u64,
    /// Rank bit that must be H (0) before the move: nine tails' "pick a face-up coin".
    pub needs_heads: Option<u64>,
    /// What the move costs, at least 1 (1 for every move of an unweighted puzzle).
    pub cost: u32,
}

/// A coin puzzle whose moves XOR fixed masks into a board of up to 25 coins: the one
/// mechanism behind the built-in coin puzzles (rule sets built in code) and rules files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coins {
    /// Report id, e.g. `lights-out-4x3`.
    pub id: String,
    /// One-line name.
    pub title: String,
    /// Rules and goal in a few sentences.
    pub rules: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The legal moves.
    pub moves: Vec<CoinMove>,
    /// Goal ranks.
    pub goals: Vec<u64>,
    /// What distances count: `moves`, or the name of the moves' cost such as `flips`.
    pub metric: String,
    span: Span,
    /// The board's symmetries counted up to (`--symmetry`).
    symmetry: CoinSymmetry,
}

/// A coin puzzle's symmetry group: its members as bit permutations of a rank, by table.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CoinSymmetry {
    group: Symmetry,
    /// For each symmetry but the identity, `tables[4 * s + k][byte]`: the image of
    /// `byte << 8k` (a rank's byte `k`), so a rank's image is four look-ups.
    tables: Vec<[u32; 256]>,
}

impl CoinSymmetry {
    fn none() -> Self {
        CoinSymmetry {
            group: Symmetry::trivial(),
            tables: Vec::new(),
        }
    }

    /// The tables of `syms` (the identity first, left out) on a board of `coins` coins.
    fn new(group: Symmetry, syms: &[BoardSym], coins: usize) -> Self {
        let bit = |cell: usize| 1u32 << (coins - 1 - cell);
        let mut tables = Vec::new();
        for s in &syms[1..] {
            for k in 0..4 {
                let mut table = [0u32; 256];
                for (byte, image) in table.iter_mut().enumerate() {
                    *image = (0..coins)
                        .filter(|&cell| (byte as u64) << (8 * k) & u64::from(bit(cell)) != 0)
                        .fold(0, |m, cell| m | bit(s.to[cell]));
                }
                tables.push(table);
            }
        }
        CoinSymmetry { group, tables }
    }

    /// The images of `rank` under each symmetry but the identity.
    #[inline]
    fn images(&self, rank: u64) -> impl Iterator<Item = u64> + '_ {
        self.tables
            .chunks_exact(4)
            .map(move |t| (0..4).fold(0u64, |m, k| m | u64::from(t[k][(rank >> (8 * k) & 0xff) as usize])))
    }

    /// Whether `rank` is the least of its images: the one rank its class is counted at.
    #[inline]
    fn least(&self, rank: u64) -> bool {
        self.images(rank).all(|image| image >= rank)
    }
}

impl Coins {
    /// Builds a puzzle whose distances count `moves` (set [`Coins::metric`] for weighted
    /// moves); costs of at least 1 are the caller's promise, and so is `rows * cols <=
    /// MAX_COINS` for a puzzle searched or counted up to symmetry as it is (a larger board,
    /// up to 60 coins, is only read by the search by press weight, `presses.rs`).
    pub fn new(
        id: String,
        title: String,
        rules: String,
        (rows, cols): (usize, usize),
        moves: Vec<CoinMove>,
        goals: Vec<u64>,
    ) -> Self {
        let span = Span::new((rows * cols) as u32, moves.iter().map(|m| m.mask));
        Self {
            id,
            title,
            rules,
            rows,
            cols,
            moves,
            goals,
            metric: "moves".into(),
            span,
            symmetry: CoinSymmetry::none(),
        }
    }

    /// Whether the board symmetry `s` maps the moves onto the moves and the goals onto the
    /// goals: then it maps every configuration to one as far from the goal.
    pub(crate) fn keeps(&self, s: &BoardSym) -> bool {
        let n = self.coins();
        let map = |mask: u64| {
            (0..n)
                .filter(|&c| mask & self.bit(c) != 0)
                .fold(0, |m, c| m | self.bit(s.to[c]))
        };
        let key = |m: &CoinMove| (m.mask, m.needs_heads, m.cost);
        let mut moves: Vec<_> = self.moves.iter().map(key).collect();
        let mut images: Vec<_> = self
            .moves
            .iter()
            .map(|m| (map(m.mask), m.needs_heads.map(map), m.cost))
            .collect();
        let (mut goals, mut goal_images) = (
            self.goals.clone(),
            self.goals.iter().map(|&g| map(g)).collect::<Vec<_>>(),
        );
        for list in [&mut goals, &mut goal_images] {
            list.sort_unstable();
        }
        moves.sort_unstable();
        images.sort_unstable();
        moves == images && goals == goal_images
    }

    /// The rank of a configuration written as an H/T string, whatever its class.
    fn read_rank(&self, text: &str) -> Result<u64, ParseError> {
        let coins = read_cells(text, (self.rows, self.cols), &COINS).map_err(ParseError::Malformed)?;
        Ok(coins
            .iter()
            .enumerate()
            .filter(|(_, tails)| **tails)
            .fold(0, |rank, (i, _)| rank | self.bit(i)))
    }

    /// The same puzzle with `goal` (an H/T string) as its only goal; the id gets the suffix
    /// `-goal-` and the goal's H/T string.
    fn goal_from(mut self, goal: &str) -> Result<Self, ParseError> {
        let rank = self.read_rank(goal)?;
        self.goals = vec![rank];
        let text = self.render(rank);
        self.id.push_str(&crate::util::goal_suffix(&text));
        self.title = format!("{}, goal {text}", self.title);
        self.rules = format!("{} Here the goal is {text} instead.", self.rules);
        Ok(self)
    }

    /// The same puzzle with distances named `metric` (the costs are the moves' own).
    pub fn with_metric(mut self, metric: &str) -> Self {
        self.metric = metric.into();
        self
    }

    /// Number of coins.
    pub fn coins(&self) -> usize {
        self.rows * self.cols
    }

    /// Rank bit of coin `cell` (row-major from 0): the first coin is the top bit.
    pub fn bit(&self, cell: usize) -> u64 {
        1 << (self.coins() - 1 - cell)
    }

    /// Rank with every coin tails.
    pub fn all_tails(&self) -> u64 {
        (1u64 << self.coins()) - 1
    }

    /// Rank of the move matrix over GF(2).
    pub fn rank(&self) -> u32 {
        self.span.rank()
    }

    fn goal_syndromes(&self) -> Vec<u64> {
        let mut s: Vec<u64> = self.goals.iter().map(|&g| self.span.syndrome(g)).collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// The first legal move (in move order) that takes `from` to `to`.
    pub fn move_between(&self, from: u64, to: u64) -> Option<&CoinMove> {
        self.moves.iter().find(|m| m.mask == from ^ to && Self::legal(m, from))
    }

    fn legal(m: &CoinMove, before: u64) -> bool {
        m.needs_heads.is_none_or(|bit| before & bit == 0)
    }

    fn syndrome_label(&self, s: u64) -> String {
        let width = (self.span.dimension() - self.span.rank()) as usize;
        if width == 0 {
            "all".into()
        } else {
            format!("{s:0width$b}")
        }
    }
}

/// Names cell `i` of a board as `r{row}c{col}`, counting from 1.
pub fn cell_name(i: usize, cols: usize) -> String {
    format!("r{}c{}", i / cols + 1, i % cols + 1)
}

/// Why a coin board of `coins` coins cannot be enumerated (the limit is [`MAX_COINS`]).
pub(crate) fn too_many_coins(coins: usize) -> Option<String> {
    (coins > MAX_COINS).then(|| {
        format!("{coins} coins is over the limit of {MAX_COINS} (5x5): every coin more doubles the memory and the time")
    })
}

/// A board of `rows x cols` coins, built by `make` unless it is over the limit.
pub(crate) fn coin_board(rows: usize, cols: usize, make: impl FnOnce(usize, usize) -> Coins) -> Result<Coins, String> {
    match too_many_coins(rows * cols) {
        Some(why) => Err(why),
        None => Ok(make(rows, cols)),
    }
}

/// A family of coin puzzles on any board of `--rows` x `--cols` coins (nine tails, lights
/// out ...): what tells one from another is its name and how a board is made.
pub struct BoardFamily {
    /// See [`Family::name`].
    pub name: &'static str,
    /// See [`Family::about`].
    pub about: &'static str,
    /// The board without `--rows` and `--cols`.
    pub default: (usize, usize),
    /// The boards `--all` analyses.
    pub all: &'static [(usize, usize)],
    /// The dearest move on any board (1: every move costs 1).
    pub max_move_cost: u32,
    /// Makes the puzzle on a board of at most [`MAX_COINS`] coins.
    pub make: fn(usize, usize) -> Coins,
}

impl Family for BoardFamily {
    type Size = (usize, usize);
    type Puzzle = Coins;

    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> Option<&'static str> {
        Some(self.about)
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&["--rows", "--cols"], "")
    }

    fn choose(&self, args: &SizeArgs) -> Result<(usize, usize), String> {
        args.board(&format!("--puzzle {}", self.name), Some(self.default))
    }

    fn all(&self) -> Vec<(usize, usize)> {
        self.all.to_vec()
    }

    fn id(&self, &(rows, cols): &(usize, usize)) -> String {
        format!("{}-{rows}x{cols}", self.name)
    }

    fn states(&self, &(rows, cols): &(usize, usize)) -> u128 {
        1u128.checked_shl((rows * cols) as u32).unwrap_or(u128::MAX)
    }

    fn max_move_cost(&self, _: &(usize, usize)) -> u32 {
        self.max_move_cost
    }

    fn beyond(&self, &(rows, cols): &(usize, usize)) -> Option<String> {
        too_many_coins(rows * cols)
    }

    fn build(&self, &(rows, cols): &(usize, usize)) -> Result<Coins, String> {
        coin_board(rows, cols, self.make)
    }
}

impl Notation for Coins {
    fn with_goal(self, goal: &str) -> Result<Self, ParseError> {
        self.goal_from(goal)
    }

    fn id(&self) -> String {
        self.id.clone()
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn rules(&self) -> String {
        self.rules.clone()
    }

    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn metric(&self) -> String {
        self.metric.clone()
    }

    fn render(&self, rank: u64) -> String {
        (0..self.coins())
            .map(|i| if rank & self.bit(i) == 0 { 'H' } else { 'T' })
            .collect()
    }

    fn draw(&self, rank: u64) -> String {
        let line = self.render(rank);
        let chars: Vec<char> = line.chars().collect();
        chars
            .chunks(self.cols)
            .map(|row| row.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        let rank = self.read_rank(text)?;
        let s = self.span.syndrome(rank);
        if !self.goal_syndromes().contains(&s) {
            return Err(ParseError::Unsolvable(format!(
                "its class (syndrome {}) is not the goal's: every move keeps the class, so no sequence of moves reaches the goal",
                self.syndrome_label(s)
            )));
        }
        Ok(rank)
    }

    fn describe_move(&self, from: u64, to: u64) -> String {
        self.move_between(from, to)
            .map_or_else(|| "?".into(), |m| m.name.clone())
    }
}

impl SearchGraph for Coins {
    fn class_count(&self) -> usize {
        self.classes().len()
    }

    fn states(&self) -> u64 {
        1 << self.coins()
    }

    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }

    type Memo = ();

    fn for_each_predecessor(&self, _memo: &mut (), rank: u64, mut f: impl FnMut(u64)) {
        for m in &self.moves {
            let before = rank ^ m.mask;
            if Self::legal(m, before) {
                f(before);
            }
        }
    }

    fn for_each_successor(&self, rank: u64, mut f: impl FnMut(u64)) {
        for m in &self.moves {
            if Self::legal(m, rank) {
                f(rank ^ m.mask);
            }
        }
    }

    fn max_move_cost(&self) -> u32 {
        self.moves.iter().map(|m| m.cost).max().unwrap_or(1)
    }

    fn for_each_weighted_predecessor(&self, _memo: &mut (), rank: u64, mut f: impl FnMut(u64, u32)) {
        for m in &self.moves {
            let before = rank ^ m.mask;
            if Self::legal(m, before) {
                f(before, m.cost);
            }
        }
    }

    fn for_each_weighted_successor(&self, rank: u64, mut f: impl FnMut(u64, u32)) {
        for m in &self.moves {
            if Self::legal(m, rank) {
                f(rank ^ m.mask, m.cost);
            }
        }
    }

    fn class_of(&self, rank: u64) -> usize {
        self.span.syndrome(rank) as usize
    }

    fn counts_classes(&self) -> bool {
        !self.symmetry.tables.is_empty()
    }

    fn classes_at(&self, rank: u64) -> u64 {
        u64::from(self.symmetry.least(rank))
    }
}

impl Invariant for Coins {
    fn symmetry(&self) -> Symmetry {
        self.symmetry.group.clone()
    }

    fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Self, String> {
        let kept = board_symmetries(self.rows, self.cols)
            .into_iter()
            .filter(|s| self.keeps(s))
            .collect();
        let (syms, group) = choose(kept, choice, shape_name(self.rows, self.cols))?;
        self.symmetry = CoinSymmetry::new(group, &syms, self.coins());
        Ok(self)
    }

    fn exact(&self) -> bool {
        self.moves.iter().all(|m| m.needs_heads.is_none())
    }

    fn gf2_rank(&self) -> Option<u32> {
        Some(self.rank())
    }

    fn configurations(&self) -> (u128, String) {
        (u128::from(self.states()), format!("2^{}", self.coins()))
    }

    fn classes(&self) -> Vec<ClassInfo> {
        let goals = self.goal_syndromes();
        let size = 1u64 << self.span.rank();
        (0..self.span.cosets())
            .map(|s| {
                let goal = self.goals.iter().find(|&&g| self.span.syndrome(g) == s);
                ClassInfo {
                    label: self.syndrome_label(s),
                    configurations: size,
                    solvable: goals.contains(&s),
                    example: self.render(goal.copied().unwrap_or_else(|| self.span.representative(s))),
                }
            })
            .collect()
    }

    fn invariant(&self) -> String {
        let (n, rank) = (self.coins() as u32, self.span.rank());
        let why = format!(
            "Every move adds (XOR) a fixed set of coins, so a configuration can only reach configurations that differ from it by a sum of moves: its coset of the span of the {} move vectors.",
            self.moves.len()
        );
        if rank == n {
            return format!(
                "{why} The move matrix has full rank {rank} over GF(2): the moves span every configuration, so there is one class, all {} configurations.",
                thousands(1u128 << n)
            );
        }
        format!(
            "{why} The move matrix has rank {rank} over GF(2), so there are 2^({n} - {rank}) = {} classes of 2^{rank} configurations each; a class is named by its syndrome (the configuration reduced by the moves, read on the {} coin{} no move can clear).",
            thousands(u128::from(self.span.cosets())),
            n - rank,
            if n - rank == 1 { "" } else { "s" }
        )
    }
}

/// The two letters a board of cells is written with, and how to name them in errors.
#[derive(Debug, Clone, Copy)]
pub struct Letters {
    /// The letter of a cell that is off (heads, not flipped); either case is accepted.
    pub off: char,
    /// The letter of a cell that is on (tails, flipped); either case is accepted.
    pub on: char,
    /// What a cell is, e.g. `coin`.
    pub noun: &'static str,
    /// What to write instead of a wrong letter.
    pub hint: &'static str,
}

/// Coins: H is heads (face up), T is tails.
pub const COINS: Letters = Letters {
    off: 'H',
    on: 'T',
    noun: "coin",
    hint: "write H (heads, face up) or T (tails, face down)",
};

/// Move patterns in rules files: `x` flips the cell, `.` leaves it.
pub const PATTERN: Letters = Letters {
    off: '.',
    on: 'x',
    noun: "cell",
    hint: "write x (the move flips this cell) or . (it does not)",
};

/// Reads a `rows x cols` board written cell by cell, row by row, into on/off flags: the one
/// reader for coin positions, goals and move patterns. Spaces and commas are ignored; `/`
/// separates rows, and when it is used there must be `rows` rows of exactly `cols` cells
/// (so a board is never re-cut into rows of another width).
pub fn read_cells(text: &str, (rows, cols): (usize, usize), letters: &Letters) -> Result<Vec<bool>, String> {
    let noun = letters.noun;
    let mut cells = Vec::with_capacity(rows * cols);
    let mut row_lengths = vec![0usize];
    for c in text.chars().filter(|c| !c.is_whitespace() && *c != ',') {
        let on = match c {
            '/' => {
                row_lengths.push(0);
                continue;
            }
            _ if c.eq_ignore_ascii_case(&letters.off) => false,
            _ if c.eq_ignore_ascii_case(&letters.on) => true,
            _ => return Err(format!("`{c}` is not a {noun}: {}", letters.hint)),
        };
        cells.push(on);
        if let Some(last) = row_lengths.last_mut() {
            *last += 1;
        }
    }
    let (on, off) = (letters.on, letters.off);
    if row_lengths.len() > 1 {
        if row_lengths.len() != rows {
            return Err(format!(
                "{} rows separated by /, but the board has {rows} row{} of {cols} {noun}s",
                row_lengths.len(),
                if rows == 1 { "" } else { "s" }
            ));
        }
        if let Some((i, &n)) = row_lengths.iter().enumerate().find(|&(_, &n)| n != cols) {
            return Err(format!(
                "row {} has {n} {noun}{}, but the board is {cols} {noun}{} wide (a {rows}x{cols} board: {rows} rows of {cols} separated by /)",
                i + 1,
                if n == 1 { "" } else { "s" },
                if cols == 1 { "" } else { "s" }
            ));
        }
    }
    let n = rows * cols;
    if cells.len() != n {
        return Err(format!(
            "expected {n} {noun}s ({off} or {on}) for a {rows}x{cols} board, found {}",
            cells.len()
        ));
    }
    Ok(cells)
}

/// The mask of a cell and its orthogonal neighbours (a press in lights out and nine tails).
pub fn cross(rows: usize, cols: usize, cell: usize, bit: impl Fn(usize) -> u64) -> u64 {
    let (r, c) = (cell / cols, cell % cols);
    let mut mask = bit(cell);
    if r > 0 {
        mask |= bit(cell - cols);
    }
    if r + 1 < rows {
        mask |= bit(cell + cols);
    }
    if c > 0 {
        mask |= bit(cell - 1);
    }
    if c + 1 < cols {
        mask |= bit(cell + 1);
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::coin_lines::coin_lines;
    use crate::puzzle::lights_out::lights_out;
    use crate::puzzle::nine_tails::{nine_tails, weighted_nine_tails};

    fn largest(puzzle: Coins) -> Coins {
        puzzle
            .with_symmetry(SymmetryChoice::default())
            .expect("the default group exists")
    }

    /// Each configuration's distance to the goal (`None`: unreachable), by a plain
    /// breadth-first search over the reverse moves.
    fn distances(puzzle: &Coins) -> Vec<Option<u32>> {
        let mut distance = vec![None; puzzle.states() as usize];
        let mut queue: std::collections::VecDeque<u64> = puzzle.goals().into_iter().collect();
        for &g in &queue {
            distance[g as usize] = Some(0);
        }
        while let Some(rank) = queue.pop_front() {
            let d = distance[rank as usize].map(|d| d + 1);
            puzzle.for_each_predecessor(&mut (), rank, |before| {
                if distance[before as usize].is_none() {
                    distance[before as usize] = d;
                    queue.push_back(before);
                }
            });
        }
        distance
    }

    #[test]
    fn boards_find_the_symmetries_that_keep_their_moves_and_goal() {
        let orders = [
            (lights_out(4, 3), 4),
            (lights_out(4, 4), 8),
            (lights_out(3, 3), 8),
            (lights_out(3, 2), 4),
            (nine_tails(3, 3), 8),
            (weighted_nine_tails(3, 3), 8),
            (coin_lines(3), 8),
        ];
        for (puzzle, order) in orders {
            let id = puzzle.id.clone();
            assert_eq!(largest(puzzle).symmetry().order, order, "{id}");
        }
    }

    /// Each image the tables give is the configuration with its coins moved cell by cell,
    /// and as far from the goal: the group is one of the puzzle's automorphisms.
    #[test]
    fn every_image_moves_the_coins_and_keeps_the_distance() {
        for puzzle in [lights_out(3, 3), lights_out(4, 3), nine_tails(3, 3), lights_out(3, 2)] {
            let puzzle = largest(puzzle);
            let kept: Vec<BoardSym> = board_symmetries(puzzle.rows, puzzle.cols)
                .into_iter()
                .filter(|s| puzzle.keeps(s))
                .collect();
            let distance = distances(&puzzle);
            for rank in 0..puzzle.states() {
                let by_cells = kept[1..].iter().map(|s| {
                    (0..puzzle.coins())
                        .filter(|&c| rank & puzzle.bit(c) != 0)
                        .fold(0, |m, c| m | puzzle.bit(s.to[c]))
                });
                let images: Vec<u64> = puzzle.symmetry.images(rank).collect();
                assert_eq!(images, by_cells.collect::<Vec<_>>(), "{} {rank}", puzzle.id);
                for image in images {
                    assert_eq!(
                        distance[image as usize], distance[rank as usize],
                        "{} {rank}",
                        puzzle.id
                    );
                }
            }
        }
    }

    /// A goal with one tail in a corner keeps only the reflection through that corner's
    /// diagonal: `rotations` is refused, naming it.
    #[test]
    fn a_goal_off_the_centre_keeps_fewer_symmetries() {
        let cornered = || lights_out(3, 3).with_goal("THH/HHH/HHH").expect("a goal");
        let group = largest(cornered()).symmetry();
        assert_eq!(
            (group.order, group.made_of.as_str()),
            (2, "the identity and 1 reflection of the square")
        );
        let refused = cornered()
            .with_symmetry("rotations".parse().expect("a choice"))
            .expect_err("no rotation keeps a corner");
        assert!(refused.contains("found: 2: the identity and 1 reflection"), "{refused}");
    }

    #[test]
    fn no_symmetry_counts_nothing_and_inverse_is_refused() {
        let none = lights_out(4, 3).with_symmetry(SymmetryChoice::NONE).expect("none");
        assert!(!none.counts_classes());
        assert_eq!(none.symmetry(), Symmetry::trivial());
        let refused = lights_out(4, 3)
            .with_symmetry("all+inverse".parse().expect("a choice"))
            .expect_err("coins have no inverse");
        assert!(
            refused.contains("found: 4: the rectangle's 2 rotations and 2 reflections"),
            "{refused}"
        );
        let rotations = lights_out(3, 3).with_symmetry("rotations".parse().expect("a choice"));
        assert_eq!(rotations.expect("a square's rotations").symmetry().order, 4);
    }

    /// The classes of lights-out 3x3 up to its 8 symmetries, counted at least members,
    /// add up over orbits to every configuration reached.
    #[test]
    fn least_members_count_each_orbit_once() {
        let puzzle = largest(lights_out(3, 3));
        let mut covered = 0;
        for rank in (0..puzzle.states()).filter(|&r| puzzle.classes_at(r) == 1) {
            let mut orbit: Vec<u64> = puzzle.symmetry.images(rank).chain([rank]).collect();
            orbit.sort_unstable();
            orbit.dedup();
            assert_eq!(orbit[0], rank);
            covered += orbit.len() as u64;
        }
        assert_eq!(covered, puzzle.states());
    }
}
