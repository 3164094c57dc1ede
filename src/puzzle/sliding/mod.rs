//! Sliding-tile puzzles on an R x C board: the 8-puzzle and its generalisations.
//!
//! A configuration is ranked as `k * cells + blank`, where `blank` is the blank's cell and
//! `k` numbers the tile sequence (tiles read row by row, blank skipped) among the
//! `(cells-1)!/2` sequences of the parity the invariant demands for that blank cell.
//! That gives exactly `cells!/2` ranks, the solvable half, and two useful facts:
//! a horizontal move keeps the tile sequence, so its neighbour is simply `rank +- 1`;
//! and lexicographic ranks `2k` and `2k+1` differ by swapping the last two tiles, so each
//! pair holds one sequence of each parity and `k` ranks one parity class perfectly.
//!
//! The ranking covers the solvable half only, so a search over it cannot reach the other
//! half: what a run checks is that it reaches all `cells!/2` ranks. That the ranked half is
//! the half the textbook rule ([`check_solvable`]) calls solvable is what the parity table
//! (`parity_table`) encodes; the tests compare both with a plain search over explicit boards.
//!
//! This file holds the puzzle type, its constructors, its trait implementations and its
//! family descriptors; the rest is split by concern:
//! - [`notation`]: tiles as text and grids, the solvability rule, the plain [`Board`];
//! - `tables`: what the constructor precomputes for ranking and moves;
//! - `rank`: ranking and unranking, with the memo ([`Unranked`]) that makes nearby ranks cheap;
//! - `words`: one rank's moves, and the engine's loop over words of ranks;
//! - `decoder`: consecutive ranks to packed boards ([`BoardDecoder`]), what the atlas reads.

mod decoder;
pub mod notation;
mod rank;
mod tables;
mod words;

pub use decoder::{BoardCursor, BoardDecoder};
pub use notation::{Board, check_solvable, check_tiles, draw_tiles, join_tiles, neighbours, read_tiles};
pub use rank::Unranked;

use super::family::{Family, SizeArgs};
use super::symmetry::{BoardSym, board_symmetries, choose, shape_name};
use super::{Adjacent, ClassInfo, Invariant, Notation, ParseError, SearchGraph, Symmetry, SymmetryChoice};
use crate::util::factorial;
use tables::{Divisor, OFFSETS, Packed, Slide, TABLE_CELLS, TAIL, Tail, TailSequences, Window, at};

/// Largest board the ranking supports: tiles are packed as 4-bit values.
pub const MAX_CELLS: usize = 16;

/// Widest board the ranking supports (2 rows of 8).
const MAX_COLS: usize = MAX_CELLS / 2;

/// Most vertical moves a board has over all blank cells (`2 * (cells - cols)`, at most on
/// 8 x 2): the length of [`Unranked::head_sums`].
const MAX_SLIDES: usize = 2 * (MAX_CELLS - 2);

/// An R x C sliding-tile puzzle, goal `1 2 ... n-1 0`.
#[derive(Debug, Clone)]
pub struct Sliding {
    id: String,
    rows: usize,
    cols: usize,
    cells: usize,
    /// `weight[i]` is `(tiles-1-i)!/2`: the place value of Lehmer digit `i` in `k`
    /// (zero for the last two digits, which only decide the parity).
    weight: [u64; MAX_CELLS],
    /// Division by `weight[i]`, for unranking.
    by_weight: [Divisor; MAX_CELLS],
    /// Division by the number of cells, to split a rank into pair and blank.
    by_cells: Divisor,
    /// Parity of the tile sequence the invariant demands for each blank cell.
    parity: [u8; MAX_CELLS],
    /// Tiles `1..cells` packed in increasing order: the pool unranking draws from.
    identity: Packed,
    /// `moves[cell]`: which moves the blank on `cell` has, as [`LEFT`] | [`RIGHT`] | [`UP`] |
    /// [`DOWN`] (a table, because `cell % cols` is a hardware divide on the hot path).
    moves: [u8; MAX_CELLS],
    /// `slides[cell]`: the blank's vertical moves from `cell` (a table rather than two
    /// branches on the blank's row, which the processor cannot predict).
    slides: [Vec<Slide>; MAX_CELLS],
    /// `windows[slide.id]`: the digits' part of each vertical move's closed form.
    windows: Vec<Window>,
    /// The tiles a vertical move passes, as a mask over packed positions.
    passed_mask: Packed,
    /// [`odd_shift`](tables::odd_shift) of the width, for [`greater`](tables::greater).
    odd_shift: u32,
    /// How many of the last positions are decoded by table look-up ([`TAIL`] or fewer).
    tail: usize,
    /// `tails[k % block]`: the arrangement of the last `tail` tiles of pair `k`.
    tails: Vec<Tail>,
    /// Division by `tails.len()`: pairs sharing `k / block` share all the other digits.
    by_block: Divisor,
    /// The gains of both directions' windows ([`Vertical::gain`](tables::Vertical::gain)), each [`Slide`] pointing at
    /// its window's (each window is one slide's), as rank offsets ([`rank_gains`](tables::rank_gains)).
    gains: Vec<u64>,
    /// `window_sums[(hp * block + i) * windows.len() + s]`: the tail's part of window `s`'s
    /// digit sum ([`Window`]) for tail `i` under a head of digit-sum parity `hp`, times
    /// `cells`, plus `i * cells` (the pair's first rank within its block). With the head's
    /// part and the block's first rank, kept per block in [`Unranked::head_sums`], a move's
    /// new rank is two additions and a gain away. 2 x 360 x 16 entries on 3x4, 92 KB.
    window_sums: Vec<u64>,
    /// The tails of every tile set ([`Sliding::tail_sequences`]) on boards of at most
    /// [`TABLE_CELLS`] cells, where unranking a pair reads its tail rather than gathering it.
    tail_table: Option<TailSequences>,
    /// `offsets[i]`: the pair and blank cell `i` ranks after a pair's first rank, and the
    /// parity of the tile sequence on that cell.
    offsets: [(u8, u8, u8); OFFSETS],
    /// Another goal than `1 2 ... n-1 0`, if one was given (see [`Sliding::with_goal`]).
    goal: Option<Goal>,
    /// The board's symmetries counted up to (`--symmetry`).
    symmetry: TileSymmetry,
}

/// A sliding board's symmetry group: the board's symmetries that keep the blank's goal
/// cell, the tiles relabelled so that the goal maps to itself. Moves map to moves, so a
/// board and its image are as far from the goal.
///
/// A board is counted where it is the least of its images, boards read cell by cell in the
/// user's tiles. They are compared as integers, 4 bits a cell with the first cell highest,
/// made straight from the packed boards the ranking gives ([`Sliding::packed_board`]): no
/// board is unpacked.
#[derive(Debug, Clone)]
struct TileSymmetry {
    group: Symmetry,
    /// `user[tile]`: the user's label of the ranking's tile (itself without a goal).
    user: [u64; MAX_CELLS],
    /// Each symmetry but the identity.
    maps: Vec<TileMap>,
}

/// One symmetry, from a packed board in the ranking's tiles to its image read as a key.
#[derive(Debug, Clone)]
struct TileMap {
    /// `shift[cell]`: where the tile of `cell` lands in the key.
    shift: [u8; MAX_CELLS],
    /// `label[tile]`: the user's label the ranking's tile takes.
    label: [u64; MAX_CELLS],
}

impl TileMap {
    /// The key of the image of a packed board of `cells` cells.
    #[inline]
    fn image(&self, packed: u64, cells: usize) -> u64 {
        (0..cells).fold(0, |m, c| m | self.label[nibble(packed, c)] << self.shift[c])
    }
}

/// The tile in cell `c` of a packed board.
#[inline]
fn nibble(packed: u64, c: usize) -> usize {
    (packed >> (4 * c) & 0xf) as usize
}

impl TileSymmetry {
    fn none() -> Self {
        TileSymmetry {
            group: Symmetry::trivial(),
            user: [0; MAX_CELLS],
            maps: Vec::new(),
        }
    }

    /// Whether the packed board `packed` is the least of its images: the one board its
    /// class is counted at.
    #[inline]
    fn least(&self, packed: u64, cells: usize) -> bool {
        let key = (0..cells).fold(0, |m, c| m | self.user[nibble(packed, c)] << (4 * (cells - 1 - c)));
        self.maps.iter().all(|map| map.image(packed, cells) >= key)
    }
}

thread_local! {
    /// Each thread's last board unranked by [`SearchGraph::classes_at`], with the board's
    /// shape: the engine asks about a level's ranks in ascending order, so consecutive
    /// questions share most of their tiles, and the memo makes the next unranking a few
    /// steps, as the moves' memo does. What a memo holds depends on the ranking alone, which
    /// the shape decides.
    static CLASS_MEMO: std::cell::RefCell<((usize, usize), Unranked)> =
        std::cell::RefCell::new(((0, 0), Unranked::default()));
}

/// A goal with the blank anywhere, of either parity. Rather than a second ranking, the
/// tiles are relabelled: the goal's tiles, read row by row, become `1 2 ... n-1` (the last
/// two swapped if that is what puts the goal in the ranked class). Relabelling tiles maps
/// moves to moves, so distances are unchanged; boards are relabelled on the way in and out.
#[derive(Debug, Clone)]
struct Goal {
    /// The goal's rank (in the relabelled tiles).
    rank: u64,
    /// `inner[t]`: the ranking's label of the user's tile `t` (`inner[0] = 0`).
    inner: [u8; MAX_CELLS],
    /// `outer[t]`: the user's label of the ranking's tile `t`.
    outer: [u8; MAX_CELLS],
}

/// The blank can move left (a tile slides right into it).
const LEFT: u8 = 1;
/// The blank can move right.
const RIGHT: u8 = 2;
/// The blank can move up.
const UP: u8 = 4;
/// The blank can move down.
const DOWN: u8 = 8;

impl Sliding {
    /// The 8-puzzle: 3x3, id `eight`.
    pub fn eight() -> Self {
        Self::with_id("eight".into(), 3, 3)
    }

    /// Whether the goal is another than the usual one (see [`Sliding::with_goal`]).
    pub fn has_custom_goal(&self) -> bool {
        self.goal.is_some()
    }

    /// The same board with `goal` (cell by cell, 0 = blank) as its goal, in place of
    /// `1 2 ... n-1 0`: any arrangement, the blank anywhere, either parity. The id gets the
    /// suffix `-goal-` and the goal's tiles joined by `-`.
    pub fn with_goal_tiles(mut self, goal: &[u8]) -> Result<Self, ParseError> {
        check_tiles(self.rows, self.cols, goal)?;
        self.goal = None;
        let mut inner = [0u8; MAX_CELLS];
        let mut outer = [0u8; MAX_CELLS];
        let tiles: Vec<u8> = goal.iter().copied().filter(|&t| t != 0).collect();
        for (i, &t) in tiles.iter().enumerate() {
            inner[usize::from(t)] = i as u8 + 1;
        }
        let relabelled = |inner: &[u8; MAX_CELLS]| goal.iter().map(|&t| inner[usize::from(t)]).collect::<Vec<u8>>();
        let rank = match self.rank_board(&relabelled(&inner)) {
            Ok(rank) => rank,
            Err(_) => {
                // The other class: swapping two labels flips the parity of the inversions.
                let (a, b) = (tiles[tiles.len() - 2], tiles[tiles.len() - 1]);
                inner.swap(usize::from(a), usize::from(b));
                self.rank_board(&relabelled(&inner))?
            }
        };
        for t in 1..self.cells {
            outer[usize::from(inner[t])] = t as u8;
        }
        let tiles: Vec<String> = goal.iter().map(u8::to_string).collect();
        self.id.push_str(&crate::util::goal_suffix(&tiles.join(" ")));
        self.goal = Some(Goal { rank, inner, outer });
        Ok(self)
    }

    /// An R x C board, id `sliding-RxC`; `None` unless `2 <= R, C` and `R*C <= 16`.
    pub fn new(rows: usize, cols: usize) -> Option<Self> {
        (rows >= 2 && cols >= 2 && rows * cols <= MAX_CELLS)
            .then(|| Self::with_id(format!("sliding-{rows}x{cols}"), rows, cols))
    }

    fn with_id(id: String, rows: usize, cols: usize) -> Self {
        let cells = rows * cols;
        let tiles = cells - 1;
        let weight = place_values(tiles);
        let parity = parity_table(rows, cols);
        let pairs = factorial(tiles) / 2;
        let by_weight = weight.map(|w| Divisor::new(w.max(1), pairs));
        let by_cells = Divisor::new(cells as u64, pairs * cells as u64);
        let identity = (0..tiles as u64).fold(0, |acc, t| acc | ((t + 1) << (4 * t)));
        let moves = move_table(rows, cols);
        let (vertical, slides, windows) = tables::vertical_moves(&weight, &parity, &moves, tiles, cols);
        let tail = tiles.min(TAIL);
        let tails = tables::tail_table(tail);
        let window_sums = tables::window_sums(&windows, &tails, cells, tail, cols);
        let gains = tables::rank_gains(&vertical, &slides, cells, cols);
        let mut puzzle = Self {
            id,
            rows,
            cols,
            cells,
            weight,
            by_weight,
            by_cells,
            parity,
            identity,
            moves,
            slides,
            windows,
            passed_mask: (1 << (4 * (cols - 1))) - 1,
            odd_shift: tables::odd_shift(cols),
            tail,
            by_block: Divisor::new(tails.len() as u64, pairs),
            tails,
            gains,
            window_sums,
            offsets: std::array::from_fn(|i| ((i / cells) as u8, (i % cells) as u8, parity[i % cells])),
            tail_table: None,
            goal: None,
            symmetry: TileSymmetry::none(),
        };
        if cells <= TABLE_CELLS {
            puzzle.tail_table = Some(puzzle.tail_sequences());
        }
        puzzle
    }

    fn tiles(&self) -> usize {
        self.cells - 1
    }

    /// The board cell by cell, 0 for the blank (in the user's tiles, with a goal).
    pub fn board(&self, rank: u64) -> Vec<u8> {
        let (u, blank) = self.decode(rank);
        let mut next = 0;
        (0..self.cells)
            .map(|cell| {
                if cell == blank {
                    0
                } else {
                    next += 1;
                    let tile = at(u.seq, next - 1) as u8;
                    self.goal.as_ref().map_or(tile, |g| g.outer[usize::from(tile)])
                }
            })
            .collect()
    }

    /// The user's label of each of the ranking's tiles.
    fn user_labels(&self) -> [u8; MAX_CELLS] {
        self.goal.as_ref().map_or(std::array::from_fn(|t| t as u8), |g| g.outer)
    }

    /// The symmetry `s` (which keeps the blank's cell in `goal`, the goal's board in the
    /// user's tiles) as a [`TileMap`]: tile `t` goes where `s` takes it and becomes the tile
    /// the goal has there, so the goal maps to itself.
    fn tile_map(&self, goal: &[u8], s: &BoardSym) -> TileMap {
        let home = |tile: u8| goal.iter().position(|&t| t == tile).unwrap_or(0);
        let mut map = TileMap {
            shift: [0; MAX_CELLS],
            label: [0; MAX_CELLS],
        };
        for (shift, &to) in map.shift.iter_mut().zip(&s.to) {
            *shift = (4 * (self.cells - 1 - to)) as u8;
        }
        for (label, &mine) in map.label.iter_mut().zip(&self.user_labels()).take(self.cells) {
            *label = u64::from(goal[s.to[home(mine)]]);
        }
        map
    }

    /// Reads a board (cell by cell, 0 = blank) into a rank.
    pub fn rank_board(&self, board: &[u8]) -> Result<u64, ParseError> {
        let n = self.cells;
        check_tiles(self.rows, self.cols, board)?;
        // A custom goal is reached through tiles relabelled so that it becomes the usual
        // goal; the textbook rule then decides on the relabelled board.
        let relabelled: Vec<u8>;
        let board = match &self.goal {
            Some(g) => {
                relabelled = board.iter().map(|&t| g.inner[usize::from(t)]).collect();
                &relabelled
            }
            None => board,
        };
        check_solvable(self.rows, self.cols, board)?;
        let blank = board.iter().position(|&t| t == 0).unwrap_or(0);
        let seq = board
            .iter()
            .filter(|&&t| t != 0)
            .enumerate()
            .fold(0, |s, (i, &t)| s | (u64::from(t) << (4 * i)));
        let (k, parity) = self.rank_tiles(seq);
        debug_assert_eq!(parity, self.parity[blank], "the textbook rule and the ranking agree");
        Ok(k * n as u64 + blank as u64)
    }

    /// The goal board with tiles 1 and 2 swapped: the standard unsolvable example.
    fn swapped_goal(&self) -> String {
        let mut board = self.board(self.goals()[0]);
        let tiles: Vec<usize> = (0..self.cells).filter(|&c| board[c] != 0).take(2).collect();
        board.swap(tiles[0], tiles[1]);
        join_tiles(&board)
    }
}

/// `weight[i]` of a board of `tiles` tiles: `(tiles-1-i)!/2`, the place value of Lehmer
/// digit `i` in the pair index (zero for the last two digits, which only decide the parity).
fn place_values(tiles: usize) -> [u64; MAX_CELLS] {
    let mut weight = [0; MAX_CELLS];
    for (i, w) in weight.iter_mut().enumerate().take(tiles.saturating_sub(2)) {
        *w = factorial(tiles - 1 - i) / 2;
    }
    weight
}

/// The parity of the tile sequence the invariant demands for each blank cell.
fn parity_table(rows: usize, cols: usize) -> [u8; MAX_CELLS] {
    let mut parity = [0; MAX_CELLS];
    if cols % 2 == 0 {
        // Even width: a vertical move passes cols-1 (odd) tiles, flipping the parity
        // while the blank changes row; the goal has parity 0 with the blank on row R-1.
        for (cell, p) in parity.iter_mut().enumerate().take(rows * cols) {
            *p = ((rows - 1 - cell / cols) % 2) as u8;
        }
    }
    parity
}

/// `moves[cell]`: the moves of the blank on `cell`, as [`LEFT`] | [`RIGHT`] | [`UP`] | [`DOWN`].
fn move_table(rows: usize, cols: usize) -> [u8; MAX_CELLS] {
    let mut moves = [0; MAX_CELLS];
    for (cell, m) in moves.iter_mut().enumerate().take(rows * cols) {
        let (row, col) = (cell / cols, cell % cols);
        for (legal, bit) in [
            (col > 0, LEFT),
            (col + 1 < cols, RIGHT),
            (row > 0, UP),
            (row + 1 < rows, DOWN),
        ] {
            if legal {
                *m |= bit;
            }
        }
    }
    moves
}

impl Notation for Sliding {
    fn tile_board(&self) -> Option<&Sliding> {
        Some(self)
    }

    fn with_goal(self, goal: &str) -> Result<Self, ParseError> {
        let tiles = read_tiles(goal, self.rows * self.cols)?;
        self.with_goal_tiles(&tiles)
    }

    fn id(&self) -> String {
        self.id.clone()
    }

    fn title(&self) -> String {
        let title = if self.id.starts_with("eight") {
            "8-puzzle (3x3 sliding tiles)".into()
        } else {
            format!(
                "{}x{} sliding-tile puzzle ({} tiles)",
                self.rows,
                self.cols,
                self.tiles()
            )
        };
        match self.goal {
            Some(_) => format!("{title}, goal {}", self.render(self.goals()[0])),
            None => title,
        }
    }

    fn rules(&self) -> String {
        format!(
            "Tiles 1 to {} and one blank on a {}x{} board. A move slides a tile next to the blank into it. Goal: {} (`{}`).",
            self.tiles(),
            self.rows,
            self.cols,
            if self.goal.is_some() {
                "given on the command line; the classes below count inversions of the tiles relabelled so that the goal reads 1 2 3 ... in its cells, its class `even`"
            } else {
                "the tiles in row-major order with the blank last"
            },
            self.render(self.goals()[0])
        )
    }

    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn render(&self, rank: u64) -> String {
        join_tiles(&self.board(rank))
    }

    fn draw(&self, rank: u64) -> String {
        draw_tiles(&self.board(rank), self.cols)
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        self.rank_board(&read_tiles(text, self.cells)?)
    }

    fn describe_move(&self, from: u64, to: u64) -> String {
        let blank_after = (to % self.cells as u64) as usize;
        format!("tile {}", self.board(from)[blank_after])
    }
}

impl SearchGraph for Sliding {
    fn class_count(&self) -> usize {
        self.classes().len()
    }

    fn states(&self) -> u64 {
        factorial(self.cells) / 2
    }

    fn goals(&self) -> Vec<u64> {
        // Tiles in order (k = 0, parity 0) with the blank in the last cell.
        vec![self.goal.as_ref().map_or(self.cells as u64 - 1, |g| g.rank)]
    }

    type Memo = Unranked;

    fn for_each_predecessor(&self, memo: &mut Unranked, rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(memo, rank, f);
    }

    /// Horizontal moves: the blank's cell is `rank % cells` and the tile sequence stays.
    fn adjacent_predecessors(&self) -> Option<Adjacent> {
        let moves = &self.moves[..self.cells];
        Some(Adjacent {
            below: moves.iter().map(|m| m & LEFT != 0).collect(),
            above: moves.iter().map(|m| m & RIGHT != 0).collect(),
        })
    }

    /// Ranks `k * cells + blank` sharing the first digit of `k`, then the first two: a
    /// vertical move changes the digits of the positions it jumps, so only those whose
    /// window starts at the first (or second) position leave such a run.
    fn locality(&self) -> Vec<u64> {
        let tiles = self.cells - 1;
        // Sharing the first `shared` digits, of place value `(tiles - shared)! / 2`.
        (1..=2)
            .filter(|&shared| tiles >= shared + 2)
            .map(|shared| crate::util::factorial(tiles - shared) / 2 * self.cells as u64)
            .collect()
    }

    /// The vertical moves of the words' ranks.
    fn for_each_far_predecessor_in_words(
        &self,
        memo: &mut Unranked,
        first: u64,
        words: &[u64],
        f: impl FnMut(u64, u64),
    ) {
        self.words_neighbours(memo, first, words, f);
    }

    fn uniform(&self) -> bool {
        true
    }

    fn counts_classes(&self) -> bool {
        !self.symmetry.maps.is_empty()
    }

    fn classes_at(&self, rank: u64) -> u64 {
        let packed = CLASS_MEMO.with_borrow_mut(|(shape, memo)| {
            if *shape != (self.rows, self.cols) {
                *shape = (self.rows, self.cols);
                *memo = Unranked::default();
            }
            self.packed_board(memo, rank)
        });
        u64::from(self.symmetry.least(packed, self.cells))
    }

    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(&mut Unranked::default(), rank, f);
    }
}

impl Invariant for Sliding {
    fn symmetry(&self) -> Symmetry {
        self.symmetry.group.clone()
    }

    fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Self, String> {
        let goal = self.board(self.goals()[0]);
        let home = |tile: u8| goal.iter().position(|&t| t == tile).unwrap_or(0);
        let kept: Vec<BoardSym> = board_symmetries(self.rows, self.cols)
            .into_iter()
            .filter(|s| s.to[home(0)] == home(0))
            .collect();
        let (syms, group) = choose(kept, choice, shape_name(self.rows, self.cols))?;
        let maps = syms[1..].iter().map(|s| self.tile_map(&goal, s)).collect();
        let mut group = group;
        if group.order > 1 {
            group
                .made_of
                .push_str(" keeping the blank's goal cell, tiles relabelled");
        }
        let user = self.user_labels().map(u64::from);
        self.symmetry = TileSymmetry { group, user, maps };
        Ok(self)
    }

    fn configurations(&self) -> (u128, String) {
        (u128::from(factorial(self.cells)), format!("{}!", self.cells))
    }

    fn classes(&self) -> Vec<ClassInfo> {
        let half = factorial(self.cells) / 2;
        vec![
            ClassInfo {
                label: "even".into(),
                configurations: half,
                solvable: true,
                example: self.render(self.goals()[0]),
            },
            ClassInfo {
                label: "odd".into(),
                configurations: half,
                solvable: false,
                example: self.swapped_goal(),
            },
        ]
    }

    fn invariant(&self) -> String {
        if self.cols % 2 == 1 {
            "The width is odd, so a move never changes the parity of the number of inversions of the tiles read row by row (blank skipped): `even` boards are solvable, `odd` ones are not.".into()
        } else {
            "The width is even, so a vertical move flips the parity of the inversion count while the blank changes row: the class is the parity of inversions + the blank's row distance from the bottom row; `even` boards are solvable, `odd` ones are not.".into()
        }
    }
}

/// `--puzzle eight`: the 8-puzzle, always 3x3.
pub struct EightFamily;

impl Family for EightFamily {
    type Size = ();
    type Puzzle = Sliding;

    fn name(&self) -> &'static str {
        "eight"
    }

    fn about(&self) -> Option<&'static str> {
        Some("eight        the 8-puzzle: tiles 1-8 on 3x3, goal 1 2 3 / 4 5 6 / 7 8 _ (181,440 states)")
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (
            &[],
            " (it is always 3x3; use --puzzle sliding --rows R --cols C for other boards)",
        )
    }

    fn choose(&self, _: &SizeArgs) -> Result<(), String> {
        Ok(())
    }

    fn all(&self) -> Vec<()> {
        vec![()]
    }

    fn id(&self, _: &()) -> String {
        "eight".into()
    }

    fn states(&self, _: &()) -> u128 {
        SlidingFamily.states(&(3, 3))
    }

    fn build(&self, _: &()) -> Result<Sliding, String> {
        Ok(Sliding::eight())
    }

    fn tiles(&self, _: &()) -> Option<(usize, usize)> {
        Some((3, 3))
    }
}

/// `--puzzle sliding --rows R --cols C`: sliding tiles on any board, enumerated up to
/// [`MAX_CELLS`] cells and solved position by position beyond.
pub struct SlidingFamily;

impl Family for SlidingFamily {
    type Size = (usize, usize);
    type Puzzle = Sliding;

    fn name(&self) -> &'static str {
        "sliding"
    }

    fn about(&self) -> Option<&'static str> {
        Some("sliding      sliding tiles on R x C, --rows R --cols C (2x2 up to 3x4 and 2x7 as memory allows)")
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&["--rows", "--cols"], "")
    }

    fn choose(&self, args: &SizeArgs) -> Result<(usize, usize), String> {
        args.board("--puzzle sliding", None)
    }

    fn all(&self) -> Vec<(usize, usize)> {
        vec![(2, 3), (2, 4), (2, 5)]
    }

    fn id(&self, &(rows, cols): &(usize, usize)) -> String {
        format!("sliding-{rows}x{cols}")
    }

    fn states(&self, &(rows, cols): &(usize, usize)) -> u128 {
        (1..=(rows * cols) as u128)
            .try_fold(1u128, |a, b| a.checked_mul(b))
            .map_or(u128::MAX, |f| f / 2)
    }

    fn beyond(&self, &(rows, cols): &(usize, usize)) -> Option<String> {
        (rows * cols > MAX_CELLS).then(|| {
            format!(
                "this tool enumerates sliding boards of up to {MAX_CELLS} cells in memory, and boards this large are searched on disk (Korf & Schultze 2005)"
            )
        })
    }

    fn build(&self, size: &(usize, usize)) -> Result<Sliding, String> {
        Sliding::new(size.0, size.1).ok_or_else(|| self.beyond(size).unwrap_or_default())
    }

    fn tiles(&self, &board: &(usize, usize)) -> Option<(usize, usize)> {
        Some(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The images of `board` under the board's symmetries that keep the blank's cell in
    /// `goal`, but the identity: each tile moved where the symmetry takes its cell, and
    /// relabelled as the goal's tile at the image of its home.
    fn images(board: &[u8], goal: &[u8], (rows, cols): (usize, usize)) -> Vec<Vec<u8>> {
        let home = |tile: u8| goal.iter().position(|&t| t == tile).expect("every tile");
        let kept = board_symmetries(rows, cols)
            .into_iter()
            .filter(|s| s.to[home(0)] == home(0));
        kept.skip(1)
            .map(|s| {
                let mut image = vec![0; board.len()];
                for (cell, &tile) in board.iter().enumerate() {
                    image[s.to[cell]] = goal[s.to[home(tile)]];
                }
                image
            })
            .collect()
    }

    /// Each rank's distance to the goal, by a plain breadth-first search over ranks.
    fn distances(puzzle: &Sliding) -> Vec<Option<u32>> {
        let mut distance = vec![None; puzzle.states() as usize];
        let goal = puzzle.goals()[0];
        distance[goal as usize] = Some(0);
        let mut queue = std::collections::VecDeque::from([goal]);
        let mut memo = Unranked::default();
        while let Some(rank) = queue.pop_front() {
            let d = distance[rank as usize].map(|d| d + 1);
            puzzle.for_each_predecessor(&mut memo, rank, |before| {
                if distance[before as usize].is_none() {
                    distance[before as usize] = d;
                    queue.push_back(before);
                }
            });
        }
        distance
    }

    fn with_goal(rows: usize, cols: usize, goal: Option<&[u8]>) -> Sliding {
        let board = Sliding::new(rows, cols).expect("a small board");
        let board = match goal {
            Some(goal) => board.with_goal_tiles(goal).expect("a goal"),
            None => board,
        };
        board
            .with_symmetry(SymmetryChoice::default())
            .expect("the default group")
    }

    /// The symmetries that keep the blank's goal cell: a corner's diagonal on a square, none
    /// on a rectangle's corner, all 8 round the centre of 3x3, a flip round an edge's middle.
    #[test]
    fn boards_keep_the_symmetries_that_fix_the_blanks_goal_cell() {
        let cases: [(usize, usize, Option<&[u8]>, u64); 5] = [
            (3, 3, None, 2),
            (2, 3, None, 1),
            (3, 4, None, 1),
            (3, 3, Some(&[1, 2, 3, 4, 0, 5, 6, 7, 8]), 8),
            (3, 2, Some(&[1, 2, 0, 3, 4, 5]), 2),
        ];
        for (rows, cols, goal, order) in cases {
            let puzzle = with_goal(rows, cols, goal);
            assert_eq!(puzzle.symmetry().order, order, "{rows}x{cols} {goal:?}");
            assert_eq!(puzzle.counts_classes(), order > 1, "{rows}x{cols} {goal:?}");
        }
        let rotations = "rotations".parse().expect("a choice");
        let refused = Sliding::eight().with_symmetry(rotations).expect_err("no rotation");
        assert!(refused.contains("found: 2: the identity and 1 reflection"), "{refused}");
    }

    /// The memo [`SearchGraph::classes_at`] keeps gives the same answers in any order of
    /// ranks, and from one board's shape to another's.
    #[test]
    fn classes_do_not_depend_on_the_order_ranks_are_asked_in() {
        let centre = with_goal(3, 3, Some(&[1, 2, 3, 4, 0, 5, 6, 7, 8]));
        let edge = with_goal(3, 2, Some(&[1, 2, 0, 3, 4, 5]));
        let ascending: Vec<u64> = (0..centre.states()).map(|r| centre.classes_at(r)).collect();
        let mut descending: Vec<u64> = (0..centre.states())
            .rev()
            .map(|r| {
                edge.classes_at(r % edge.states());
                centre.classes_at(r)
            })
            .collect();
        descending.reverse();
        assert_eq!(ascending, descending);
    }

    /// Every image of every board is in the ranked class and as far from the goal, each
    /// class is counted at its least board, and those boards' orbits cover the board once.
    #[test]
    fn images_are_ranked_boards_at_the_same_distance() {
        // The centre goals are of both parities: one of them is ranked with two tiles
        // swapped.
        let cases: [(usize, usize, Option<&[u8]>); 4] = [
            (3, 3, None),
            (3, 3, Some(&[1, 2, 3, 4, 0, 5, 6, 7, 8])),
            (3, 3, Some(&[2, 1, 3, 4, 0, 5, 6, 7, 8])),
            (3, 2, Some(&[1, 2, 0, 3, 4, 5])),
        ];
        for (rows, cols, goal) in cases {
            let puzzle = with_goal(rows, cols, goal);
            let distance = distances(&puzzle);
            let goal_board = puzzle.board(puzzle.goals()[0]);
            let mut covered = 0;
            for rank in 0..puzzle.states() {
                let board = puzzle.board(rank);
                let mut orbit = vec![rank];
                let mut least = true;
                for image in images(&board, &goal_board, (rows, cols)) {
                    least &= image >= board;
                    let image = puzzle.rank_board(&image).expect("a ranked board");
                    assert_eq!(distance[image as usize], distance[rank as usize], "{board:?}");
                    orbit.push(image);
                }
                orbit.sort_unstable();
                orbit.dedup();
                // Counted at the least board in the user's tiles, read cell by cell.
                assert_eq!(puzzle.classes_at(rank), u64::from(least), "{board:?}");
                covered += puzzle.classes_at(rank) * orbit.len() as u64;
            }
            assert_eq!(covered, puzzle.states(), "{rows}x{cols} {goal:?}");
        }
    }

    /// A search on disk cuts 3x4 into runs of the first tile: a predecessor leaves its run
    /// only by a vertical move whose window starts at the first position, 2 of the 16
    /// (blank, vertical move) pairs, so about an eighth of the vertical ones.
    #[test]
    fn few_moves_leave_a_run_of_the_first_tile() {
        let p = Sliding::new(3, 4).expect("a 3x4 board");
        let spans = p.locality();
        assert_eq!(spans, [21_772_800, 2_177_280]);
        for span in &spans {
            assert_eq!((p.states() % span, span % 64), (0, 0));
        }
        let (mut moves, mut left) = (0u64, 0u64);
        let mut memo = Unranked::default();
        for rank in (0..p.states()).step_by(9_973) {
            p.for_each_predecessor(&mut memo, rank, |pred| {
                moves += 1;
                left += u64::from(pred / spans[0] != rank / spans[0]);
            });
        }
        // 5.9% of every move (horizontal ones stay); 8.8% leave 15 parts cut evenly.
        assert!(left * 12 < moves, "{left} of {moves} left their run");
        assert!(left > 0);
    }

    /// The engine's loop divides by these two without the fallback: on every board the
    /// multiply must be exact, which the constructor decides.
    #[test]
    fn block_and_cell_divisors_are_exact_on_every_board() {
        for rows in 2..=8 {
            for cols in 2..=8 {
                if let Some(p) = Sliding::new(rows, cols) {
                    assert_ne!(p.by_block.m, 0, "{rows}x{cols} pairs by block");
                    assert_ne!(p.by_cells.m, 0, "{rows}x{cols} ranks by cells");
                }
            }
        }
    }
}
