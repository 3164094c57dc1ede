//! Lights out, "the flipping game": pressing any cell flips it and its orthogonal
//! neighbours; the goal is every coin face up. The classic board is 4 rows x 3 columns
//! with cells `A..L` row by row. Boards up to [`MAX_COINS`](super::coins::MAX_COINS) coins are searched as bit
//! masks; larger ones whose press matrix is invertible by press weight ([`Presses`]).

use super::coins::{BoardFamily, CoinMove, Coins, cell_name, cross, too_many_coins};
use super::family::{Family, SizeArgs};
use super::presses::{self, Presses};
use super::sliding::Sliding;
use super::{Adjacent, Bins, ClassInfo, Invariant, Notation, ParseError, SearchGraph, Symmetry, SymmetryChoice, Walk};

/// The lights-out puzzle on `rows x cols` coins, goal all heads: searched as it is up to
/// [`MAX_COINS`](super::coins::MAX_COINS) coins, and a description of the board for [`Presses`] up to 60.
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

/// A lights-out board as it is searched: up to [`MAX_COINS`](super::coins::MAX_COINS) coins as bit masks, over that
/// by press weight where its press matrix is invertible ([`Presses`]).
#[derive(Debug, Clone)]
pub enum LightsOut {
    /// Every configuration a rank.
    Masks(Coins),
    /// Every press weight a rank.
    Presses(Presses),
}

/// `$body` with `$p` bound to the board's puzzle, whichever route it takes.
macro_rules! either {
    ($value:expr, $p:ident => $body:expr) => {
        match $value {
            LightsOut::Masks($p) => $body,
            LightsOut::Presses($p) => $body,
        }
    };
}

/// `$body` (a result of the puzzle's own type) wrapped back into the route it took.
macro_rules! rewrap {
    ($value:expr, $p:ident => $body:expr) => {
        match $value {
            LightsOut::Masks($p) => $body.map(LightsOut::Masks),
            LightsOut::Presses($p) => $body.map(LightsOut::Presses),
        }
    };
}

/// Whether a board is searched by press weight (`Ok(true)`) or as bit masks (`Ok(false)`),
/// or why it cannot be searched at all.
fn by_presses(rows: usize, cols: usize) -> Result<bool, String> {
    let Some(over) = too_many_coins(rows * cols) else {
        return Ok(false);
    };
    // Beyond the press route's limit no board is built: its masks would not fit 64 bits.
    let why = match rows * cols > presses::MAX_COINS {
        true => presses::refusal_of_size(rows * cols),
        false => presses::refusal(&lights_out(rows, cols)),
    };
    match why {
        None => Ok(true),
        Some(why) => Err(format!("{over}; larger boards are searched by press weight, but {why}")),
    }
}

/// `--puzzle lights-out`: lights out on any board up to 25 coins as bit masks, and on
/// larger boards whose press matrix is invertible (7x7) by press weight.
pub struct LightsOutFamily(BoardFamily);

/// See [`LightsOutFamily`].
pub static LIGHTS_OUT: LightsOutFamily = LightsOutFamily(BoardFamily {
    name: "lights-out",
    about: "lights-out   press a coin to flip it with its neighbours until all are heads; --rows --cols (4x3)",
    default: (4, 3),
    all: &[(4, 3), (4, 4), (5, 5)],
    max_move_cost: 1,
    make: lights_out,
});

impl Family for LightsOutFamily {
    type Size = (usize, usize);
    type Puzzle = LightsOut;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn about(&self) -> Option<&'static str> {
        self.0.about()
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        self.0.flags()
    }

    fn choose(&self, args: &SizeArgs) -> Result<(usize, usize), String> {
        self.0.choose(args)
    }

    fn all(&self) -> Vec<(usize, usize)> {
        self.0.all()
    }

    fn id(&self, size: &(usize, usize)) -> String {
        self.0.id(size)
    }

    /// The press weights on the press route, else every configuration.
    fn states(&self, &(rows, cols): &(usize, usize)) -> u128 {
        match by_presses(rows, cols) {
            Ok(true) => (rows * cols) as u128 + 1,
            _ => self.0.states(&(rows, cols)),
        }
    }

    fn beyond(&self, &(rows, cols): &(usize, usize)) -> Option<String> {
        by_presses(rows, cols).err()
    }

    fn build(&self, &(rows, cols): &(usize, usize)) -> Result<LightsOut, String> {
        match by_presses(rows, cols)? {
            true => Presses::new(lights_out(rows, cols)).map(LightsOut::Presses),
            false => Ok(LightsOut::Masks(lights_out(rows, cols))),
        }
    }
}

impl SearchGraph for LightsOut {
    fn states(&self) -> u64 {
        either!(self, p => p.states())
    }

    fn goals(&self) -> Vec<u64> {
        either!(self, p => p.goals())
    }

    type Memo = ();

    fn for_each_predecessor(&self, memo: &mut (), rank: u64, f: impl FnMut(u64)) {
        either!(self, p => p.for_each_predecessor(memo, rank, f))
    }

    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        either!(self, p => p.for_each_successor(rank, f))
    }

    fn symmetric(&self) -> bool {
        either!(self, p => p.symmetric())
    }

    fn any_predecessor(&self, memo: &mut (), rank: u64, test: impl FnMut(u64) -> bool) -> bool {
        either!(self, p => p.any_predecessor(memo, rank, test))
    }

    fn multiplicity(&self, rank: u64) -> u64 {
        either!(self, p => p.multiplicity(rank))
    }

    fn counts_classes(&self) -> bool {
        either!(self, p => p.counts_classes())
    }

    fn classes_at(&self, rank: u64) -> u64 {
        either!(self, p => p.classes_at(rank))
    }

    fn class_count(&self) -> usize {
        either!(self, p => p.class_count())
    }

    fn class_of(&self, rank: u64) -> usize {
        either!(self, p => p.class_of(rank))
    }

    fn uniform(&self) -> bool {
        either!(self, p => p.uniform())
    }

    fn adjacent_predecessors(&self) -> Option<Adjacent> {
        either!(self, p => p.adjacent_predecessors())
    }

    fn bins(&self) -> Option<Bins> {
        either!(self, p => p.bins())
    }

    fn binned(&self) -> Option<Self> {
        rewrap!(self, p => p.binned())
    }

    fn binned_image(&self, memo: &mut (), rank: u64) -> Option<u64> {
        either!(self, p => p.binned_image(memo, rank))
    }

    fn unbin(&self, bin: u64, indices: impl Iterator<Item = u64>, f: impl FnMut(u64)) -> u64 {
        either!(self, p => p.unbin(bin, indices, f))
    }

    /// Matched once a run of words, so the hot loop runs specialised for either route.
    fn for_each_far_predecessor_in_words(&self, memo: &mut (), first: u64, words: &[u64], f: impl FnMut(u64, u64)) {
        either!(self, p => p.for_each_far_predecessor_in_words(memo, first, words, f))
    }

    fn max_move_cost(&self) -> u32 {
        either!(self, p => p.max_move_cost())
    }

    fn for_each_weighted_predecessor(&self, memo: &mut (), rank: u64, f: impl FnMut(u64, u32)) {
        either!(self, p => p.for_each_weighted_predecessor(memo, rank, f))
    }

    fn for_each_weighted_successor(&self, rank: u64, f: impl FnMut(u64, u32)) {
        either!(self, p => p.for_each_weighted_successor(rank, f))
    }
}

impl Invariant for LightsOut {
    fn configurations(&self) -> (u128, String) {
        either!(self, p => p.configurations())
    }

    fn classes(&self) -> Vec<ClassInfo> {
        either!(self, p => p.classes())
    }

    fn invariant(&self) -> String {
        either!(self, p => p.invariant())
    }

    fn exact(&self) -> bool {
        either!(self, p => p.exact())
    }

    fn group_order(&self) -> Option<u64> {
        either!(self, p => p.group_order())
    }

    fn gf2_rank(&self) -> Option<u32> {
        either!(self, p => p.gf2_rank())
    }

    fn symmetry(&self) -> Symmetry {
        either!(self, p => p.symmetry())
    }

    fn with_symmetry(self, choice: SymmetryChoice) -> Result<Self, String> {
        rewrap!(self, p => p.with_symmetry(choice))
    }

    fn for_solving(self) -> Self {
        match self {
            LightsOut::Masks(p) => LightsOut::Masks(p.for_solving()),
            LightsOut::Presses(p) => LightsOut::Presses(p.for_solving()),
        }
    }
}

impl Notation for LightsOut {
    fn id(&self) -> String {
        either!(self, p => p.id())
    }

    fn title(&self) -> String {
        either!(self, p => p.title())
    }

    fn rules(&self) -> String {
        either!(self, p => p.rules())
    }

    fn shape(&self) -> (usize, usize) {
        either!(self, p => p.shape())
    }

    fn on_board(&self) -> bool {
        either!(self, p => p.on_board())
    }

    fn metric(&self) -> String {
        either!(self, p => p.metric())
    }

    fn render(&self, rank: u64) -> String {
        either!(self, p => p.render(rank))
    }

    fn render_member(&self, rank: u64, index: u64) -> String {
        either!(self, p => p.render_member(rank, index))
    }

    fn draw(&self, rank: u64) -> String {
        either!(self, p => p.draw(rank))
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        either!(self, p => p.parse(text))
    }

    fn describe_move(&self, from: u64, to: u64) -> String {
        either!(self, p => p.describe_move(from, to))
    }

    fn tile_board(&self) -> Option<&Sliding> {
        either!(self, p => p.tile_board())
    }

    fn walk(&self, start: &str, path: &[u64]) -> Result<Walk, ParseError> {
        either!(self, p => p.walk(start, path))
    }

    fn start(&self) -> Option<u64> {
        either!(self, p => p.start())
    }

    fn with_goal(self, goal: &str) -> Result<Self, ParseError> {
        rewrap!(self, p => p.with_goal(goal))
    }
}
