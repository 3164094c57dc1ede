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
//! A vertical move never re-ranks: it changes only the Lehmer digits of the `cols` positions
//! the moved tile passes, by amounts known in closed form ([`Vertical`]). Unranking a pair
//! near the last one decodes only the digits that differ, the last [`TAIL`] by table; and
//! the digits' part of each move's closed form is two sums looked up, one per block of
//! pairs and one per tail ([`Sliding::window_sums`]), so a move costs no sum over digits.
//!
//! The ranking covers the solvable half only, so a search over it cannot reach the other
//! half: what a run checks is that it reaches all `cells!/2` ranks. That the ranked half is
//! the half the textbook rule ([`check_solvable`]) calls solvable is what the parity table
//! below encodes; the tests compare both with a plain search over explicit boards.

use super::family::{Family, SizeArgs};
use super::{Adjacent, ClassInfo, Invariant, Notation, ParseError, SearchGraph, quote};
use crate::util::{WORD_BITS, factorial};
use std::borrow::Cow;

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
    /// [`odd_shift`] of the width, for [`greater`].
    odd_shift: u32,
    /// How many of the last positions are decoded by table look-up ([`TAIL`] or fewer).
    tail: usize,
    /// `tails[k % block]`: the arrangement of the last `tail` tiles of pair `k`.
    tails: Vec<Tail>,
    /// Division by `tails.len()`: pairs sharing `k / block` share all the other digits.
    by_block: Divisor,
    /// The gains of both directions' windows ([`Vertical::gain`]), each [`Slide`] pointing at
    /// its window's (each window is one slide's), as rank offsets ([`rank_gains`]).
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

/// A vertical move of the blank, in terms of the tile sequence: the tile at position
/// `from` moves over the `cols - 1` tiles from position `passed` on, and the blank ends on
/// cell `to`. Its window's digit sum ([`Window`]) is looked up by `id`.
#[derive(Debug, Clone, Copy)]
struct Slide {
    /// The move's index in [`Sliding::windows`], [`Unranked::head_sums`] and each row of
    /// [`Sliding::window_sums`].
    id: usize,
    /// Where the window's [`Vertical::gain`] entries start in [`Sliding::gains`].
    gain: usize,
    from: usize,
    passed: usize,
    to: usize,
}

/// The digits' part of a vertical move's closed form ([`Vertical`]): the sum of the digits
/// at positions `lo..lo + cols` times `coefficient`, taken in the sequence of parity
/// `parity` (that of the move's blank cell). The head's digits are fixed for a block of
/// pairs and the tail's for a tail, so the sum splits into two parts known in advance.
#[derive(Debug, Clone, Copy)]
struct Window {
    /// The window's [`Vertical::coefficient`] row, for the direction the tile moves.
    coefficient: [u64; MAX_COLS],
    lo: usize,
    parity: u8,
}

/// Largest board whose unranking reads tails from a table (9.9 MB on 2x7; 28.8 MB on 4x4,
/// which the search never enumerates, would be paid by every solve).
const TABLE_CELLS: usize = 14;

/// Offsets of ranks from a pair's first rank that [`Sliding::offsets`] splits: a word's.
const OFFSETS: usize = 128;

/// Positions at the end of the tile sequence decoded from a table of `TAIL!/2` entries
/// rather than digit by digit: nearby pairs (the engine's next rank) differ only there.
const TAIL: usize = 6;

/// The tails of every block's pairs ([`Sliding::tails`]): a block's head leaves
/// one of a few sets of tiles for its tail (462 on 3x4), and with the set the tails of the
/// block's pairs are fixed, so a reader of every pair stores them once per set rather than
/// decoding them block after block.
#[derive(Debug, Clone)]
pub struct TailSequences {
    /// The tails of the sets in the order of [`tile_set`], `block` per set.
    entries: Vec<[u64; 2]>,
    block: usize,
}

impl TailSequences {
    /// The sequence of tail `i` under the head in `memo`, what swaps its last two tiles,
    /// and its parity: the tail in place, swapped to the head's parity where its own is odd.
    #[inline(always)]
    fn under(&self, memo: &Unranked, i: usize) -> (Packed, Packed, u8) {
        let [seq, swap] = self.entries[memo.set_start + i];
        (memo.head_seq | seq, swap, memo.head_parity)
    }
}

/// The last `tail` tiles of a pair as a pattern over the tiles left for them.
#[derive(Debug, Clone, Copy)]
struct Tail {
    /// Position `j` holds the tile at bit `shift[j]` of the pool of those tiles (4 times its
    /// index among them, sorted); positions past the tail read bit 60, always empty.
    shift: [u8; TAIL],
    /// The Lehmer digits of those positions, packed like a sequence.
    digits: u32,
    /// Parity of their sum.
    parity: u8,
}

impl Tail {
    /// The tail's tiles drawn from `pool` (the tiles left for it, packed in increasing
    /// order), position 0 lowest. A fixed count of steps, unrolled; boards with fewer tail
    /// tiles read empty bits for the rest.
    #[inline(always)]
    fn gather(&self, pool: Packed) -> Packed {
        let mut seq = 0;
        for j in 0..TAIL {
            seq |= ((pool >> self.shift[j]) & 0xF) << (4 * j);
        }
        seq
    }
}

/// A tile sequence packed 4 bits a tile, position `i` in bits `4i..4i+4`: moving a tile
/// is a few shifts and masks on one register.
type Packed = u64;

/// The tile at position `i` of a packed sequence.
#[inline]
fn at(seq: Packed, i: usize) -> u64 {
    (seq >> (4 * i)) & 0xF
}

/// What a sequence of `n` tiles is XORed with to swap its last two tiles (and so flip its
/// parity).
#[inline(always)]
fn swap_mask(seq: Packed, n: usize) -> Packed {
    let swap = at(seq, n - 2) ^ at(seq, n - 1);
    (swap << (4 * (n - 2))) | (swap << (4 * (n - 1)))
}

/// An unranked configuration with what unranking a nearby pair reuses.
#[derive(Clone)]
pub struct Unranked {
    /// Pair index ([`NONE`] for a fresh memo).
    k: u64,
    /// The tile sequence.
    seq: Packed,
    /// Parity of the sequence.
    parity: u8,
    /// What `seq` is XORed with to swap its last two tiles (and so flip its parity).
    swap: Packed,
    /// The row of [`Sliding::window_sums`] for `k`'s tail and head parity.
    sums_row: usize,
    /// The head, every position before the tail: `k / block` of the pair it was decoded
    /// for ([`NONE`] for a fresh memo), its tiles, digits and digit-sum parity, and the
    /// tiles left for the tail.
    block: u64,
    head_seq: Packed,
    /// Lehmer digits, packed like `head_seq`: digit `i` counts later tiles smaller than tile `i`.
    head_digits: Packed,
    head_parity: u8,
    /// `head_sums[s]`: the head's part of window `s`'s digit sum ([`Window`]), times `cells`,
    /// plus the block's first rank.
    head_sums: [u64; MAX_SLIDES],
    /// Where the rows of [`Sliding::window_sums`] for the head's parity start.
    sums_base: usize,
    pool: Packed,
    /// Where the tails of the head's tile set start in [`Sliding::tail_table`], if any.
    set_start: usize,
    /// `pools[i]`: the unused tiles (packed, increasing) after position `i` was filled,
    /// from which a later `k` sharing the first `i + 1` digits resumes decoding the head;
    /// bit `i` of `sums`: the digit-sum parity so far.
    pools: [Packed; MAX_CELLS],
    sums: u16,
}

/// The pair and block of a fresh memo: no pair's (pairs number at most 15!/2).
const NONE: u64 = u64::MAX;

impl Default for Unranked {
    fn default() -> Self {
        Unranked {
            k: NONE,
            seq: 0,
            parity: 0,
            swap: 0,
            sums_row: 0,
            block: NONE,
            head_seq: 0,
            head_digits: 0,
            head_parity: 0,
            head_sums: [0; MAX_SLIDES],
            sums_base: 0,
            pool: 0,
            set_start: 0,
            pools: [0; MAX_CELLS],
            sums: 0,
        }
    }
}

impl Unranked {
    /// Gives the sequence the parity `parity` by swapping its last two tiles if needed:
    /// lexicographic ranks `2k` and `2k + 1` are the two sequences of pair `k`.
    #[inline]
    fn set_parity(&mut self, parity: u8) {
        self.seq = self.with_parity(parity);
        self.parity = parity;
    }

    /// The sequence with parity `parity`, the memo left as it is.
    #[inline(always)]
    fn with_parity(&self, parity: u8) -> Packed {
        in_parity(self.seq, self.swap, self.parity, parity)
    }
}

/// `seq`, of parity `parity`, in parity `want`: swapped by `swap` (its last two tiles) if
/// they differ. Without a branch: which parity the next rank wants is a coin toss.
#[inline(always)]
fn in_parity(seq: Packed, swap: Packed, parity: u8, want: u8) -> Packed {
    let flip = u64::from(parity ^ want);
    seq ^ (flip.wrapping_neg() & swap)
}

/// A vertical move in closed form. Moving a tile `t` over the `cols - 1` tiles between
/// its cell and the blank's changes only the Lehmer digits of that window, by amounts
/// that depend on the old digits and on which of those tiles exceed `t`; so the new pair
/// index is `k + sum(digit * coefficient) + gain[which exceed t]`, with no re-ranking.
#[derive(Debug, Clone, Default)]
struct Vertical {
    /// `coefficient[lo][j]`: multiplies the old digit at position `lo + j` of the
    /// window starting at sequence position `lo` (wrapping arithmetic: some are negative).
    /// Zero for `j >= cols`, so that the sum has a fixed length the compiler unrolls.
    coefficient: Vec<[u64; MAX_COLS]>,
    /// `gain[lo << (cols - 1) | mask]`: the rest, for a mask of the passed tiles above `t`
    /// (tile `j`'s bit is [`lane`]`(j, cols)`, as [`greater`] sets it).
    gain: Vec<u64>,
}

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
        self.id = format!(
            "{}-goal-{}",
            self.id,
            goal.iter().map(u8::to_string).collect::<Vec<_>>().join("-")
        );
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
        let mut weight = [0; MAX_CELLS];
        for (i, w) in weight.iter_mut().enumerate().take(tiles.saturating_sub(2)) {
            *w = factorial(tiles - 1 - i) / 2;
        }
        let mut parity = [0; MAX_CELLS];
        if cols % 2 == 0 {
            // Even width: a vertical move passes cols-1 (odd) tiles, flipping the parity
            // while the blank changes row; the goal has parity 0 with the blank on row R-1.
            for (cell, p) in parity.iter_mut().enumerate().take(cells) {
                *p = ((rows - 1 - cell / cols) % 2) as u8;
            }
        }
        let pairs = factorial(tiles) / 2;
        let by_weight = weight.map(|w| Divisor::new(w.max(1), pairs));
        let by_cells = Divisor::new(cells as u64, pairs * cells as u64);
        let identity = (0..tiles as u64).fold(0, |acc, t| acc | ((t + 1) << (4 * t)));
        let mut moves = [0; MAX_CELLS];
        for (cell, m) in moves.iter_mut().enumerate().take(cells) {
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
        // A vertical move passes `cols - 1` tiles, changing the digit sum by `cols - 1` plus
        // an even number: the parity table above is built so that this lands on the parity
        // the ranking expects on the new blank cell (a consistency check of the table, true
        // by construction; it is not a check of the rule, which the tests do).
        let passing = ((cols - 1) & 1) as u8;
        let keeps_class = |blank: usize, to: usize| parity[blank] ^ passing == parity[to];
        // `[0]`: the tile drops into the blank (it moves later in the sequence), `[1]`: it rises.
        let vertical = [tile_drops(&weight, tiles, cols), tile_rises(&weight, tiles, cols)];
        let mut windows = Vec::new();
        let mut window = |dir: usize, lo: usize, blank: usize| {
            windows.push(Window {
                coefficient: vertical[dir].coefficient[lo],
                lo,
                parity: parity[blank],
            });
            (windows.len() - 1, dir * vertical[0].gain.len() + (lo << (cols - 1)))
        };
        let slides = std::array::from_fn(|blank| {
            let mut list = Vec::new();
            if moves[blank] & UP != 0 {
                // The tile above drops into the blank: in the sequence it moves from
                // position blank-cols to blank-1, past the cols-1 tiles between.
                let (lo, to) = (blank - cols, blank - cols);
                debug_assert!(keeps_class(blank, to));
                let (id, gain) = window(0, lo, blank);
                list.push(Slide {
                    id,
                    gain,
                    from: lo,
                    passed: lo + 1,
                    to,
                });
            }
            if moves[blank] & DOWN != 0 {
                // The tile below rises: from position blank+cols-1 to blank.
                let (lo, hi, to) = (blank, blank + cols - 1, blank + cols);
                debug_assert!(keeps_class(blank, to));
                let (id, gain) = window(1, lo, blank);
                list.push(Slide {
                    id,
                    gain,
                    from: hi,
                    passed: lo,
                    to,
                });
            }
            list
        });
        let tail = tiles.min(TAIL);
        let tails = tail_table(tail);
        let window_sums = window_sums(&windows, &tails, cells, tail, cols);
        let gains = rank_gains(&vertical, &slides, cells, cols);
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
            odd_shift: odd_shift(cols),
            tail,
            by_block: Divisor::new(tails.len() as u64, pairs),
            tails,
            gains,
            window_sums,
            offsets: std::array::from_fn(|i| ((i / cells) as u8, (i % cells) as u8, parity[i % cells])),
            tail_table: None,
            goal: None,
        };
        if cells <= TABLE_CELLS {
            puzzle.tail_table = Some(puzzle.tail_sequences());
        }
        puzzle
    }

    fn tiles(&self) -> usize {
        self.cells - 1
    }

    /// The tile sequence of pair `k` with the given parity.
    fn unrank(&self, k: u64, parity: u8) -> Unranked {
        let mut out = Unranked::default();
        self.unrank_cached(&mut out, k, parity);
        out
    }

    /// Unranks pair `k` with the given parity into `memo`, reusing what it holds: nothing
    /// to do for the same `k` (another blank cell of the same pair), one table look-up for
    /// the tail when the head is the same (the engine hands ranks over in order), and only
    /// the head's digits after the common prefix otherwise.
    ///
    /// The checks and the tail are inlined into the caller and the head decoding is not:
    /// most calls find the head already decoded.
    #[inline(always)]
    fn unrank_cached<'m>(&self, memo: &'m mut Unranked, k: u64, parity: u8) -> &'m Unranked {
        self.unrank_pair(memo, k);
        memo.set_parity(parity);
        memo
    }

    /// [`Sliding::unrank_cached`] in whichever parity the memo holds.
    #[inline(always)]
    fn unrank_pair<'m>(&self, memo: &'m mut Unranked, k: u64) -> &'m Unranked {
        if memo.k != k {
            self.unrank_new_pair(memo, k);
        }
        memo
    }

    /// [`Sliding::unrank_pair`] without the check for the same pair: the engine's loop
    /// takes this, as redoing the tail's look-up costs less than the branch, which the
    /// processor mispredicts about as often as not.
    #[inline(always)]
    fn unrank_new_pair<'m>(&self, memo: &'m mut Unranked, k: u64) -> &'m Unranked {
        let (row, seq, swap, parity) = self.locate(memo, k, |m, i| self.tail_of(m, i));
        (memo.sums_row, memo.seq, memo.swap, memo.parity, memo.k) = (row, seq, swap, parity, k);
        memo
    }

    /// Pair `k`'s row of [`Sliding::window_sums`], sequence, swap mask and parity, its
    /// block's head decoded into `memo` if the memo holds another block's, the tail read by
    /// `tail`; the memo's own pair is left as it was.
    #[inline(always)]
    fn locate(
        &self,
        memo: &mut Unranked,
        k: u64,
        tail: impl Fn(&Unranked, usize) -> (Packed, Packed, u8),
    ) -> (usize, Packed, Packed, u8) {
        let block = self.by_block.div_exact(k);
        if memo.block != block {
            self.decode_head(memo, k, block);
        }
        let i = (k - block * self.tails.len() as u64) as usize;
        let (seq, swap, parity) = tail(memo, i);
        (memo.sums_base + i * self.windows.len(), seq, swap, parity)
    }

    /// The sequence of tail `i` under the head in `memo` (in the parity the head and tail
    /// give it), what swaps its last two tiles, and that parity.
    #[inline(always)]
    fn tail_of(&self, memo: &Unranked, i: usize) -> (Packed, Packed, u8) {
        match &self.tail_table {
            Some(table) => table.under(memo, i),
            None => self.gather_tail(memo, i),
        }
    }

    /// The tail `i` under the head in `memo`, on boards too big for [`Sliding::tail_table`]:
    /// kept out of line, so that the engine's loop, which never takes it, does not hold its
    /// constants.
    #[inline(never)]
    fn gather_tail(&self, memo: &Unranked, i: usize) -> (Packed, Packed, u8) {
        let tail = self.tails[i];
        let (n, head) = (self.tiles(), 4 * (self.tiles() - self.tail));
        let seq = memo.head_seq | (tail.gather(memo.pool) << head);
        (seq, swap_mask(seq, n), memo.head_parity ^ tail.parity)
    }

    /// Decodes the head of pair `k` (in block `block`) into `u`, keeping the digits it
    /// shares with the head there.
    #[inline(never)]
    fn decode_head(&self, u: &mut Unranked, k: u64, block: u64) {
        let head = self.tiles() - self.tail;
        let from = if u.block == NONE {
            0
        } else {
            self.common_digits(u.k, k, head)
        };
        // Unused tiles as 4-bit values in increasing order: taking the d-th one out is two
        // shifts, so decoding is linear in the number of tiles.
        let (mut pool, mut sum, mut rest) = match from {
            0 => (self.identity, 0, k),
            _ => {
                let before = self.by_weight[from - 1].div(k);
                (
                    u.pools[from - 1],
                    (u.sums >> (from - 1)) & 1,
                    k - before * self.weight[from - 1],
                )
            }
        };
        let keep = (1u64 << (4 * from)) - 1;
        let (mut seq, mut digits) = (u.head_seq & keep, u.head_digits & keep);
        for i in from..head {
            let digit = self.by_weight[i].div(rest);
            rest -= digit * self.weight[i];
            sum ^= digit as u16 & 1;
            let shift = 4 * digit;
            let tile = (pool >> shift) & 0xF;
            pool = (pool & ((1 << shift) - 1)) | ((pool >> (shift + 4)) << shift);
            seq |= tile << (4 * i);
            digits |= digit << (4 * i);
            u.pools[i] = pool;
            u.sums = (u.sums & !(1 << i)) | (sum << i);
        }
        u.head_seq = seq;
        u.head_digits = digits;
        u.head_parity = sum as u8;
        u.pool = pool;
        let block_first = block * self.tails.len() as u64 * self.cells as u64;
        for (total, w) in u.head_sums.iter_mut().zip(&self.windows) {
            let sum = (w.lo..head.min(w.lo + self.cols)).fold(0u64, |t, i| {
                t.wrapping_add(at(digits, i).wrapping_mul(w.coefficient[i - w.lo]))
            });
            *total = sum.wrapping_mul(self.cells as u64).wrapping_add(block_first);
        }
        u.sums_base = usize::from(u.head_parity) * self.tails.len() * self.windows.len();
        if let Some(table) = &self.tail_table {
            u.set_start = tile_set(pool, self.tail) * table.block;
        }
        u.block = block;
        // The old pair is gone: only the head is known until the caller adds the tail.
        u.k = k;
    }

    /// How many of the first `head` Lehmer digits pairs `a` and `b` share: the first
    /// `i + 1` digits agree exactly when both have the same quotient by the place value
    /// of digit `i`.
    fn common_digits(&self, a: u64, b: u64, head: usize) -> usize {
        (0..head)
            .rev()
            .find(|&i| self.by_weight[i].div(a) == self.by_weight[i].div(b))
            .map_or(0, |i| i + 1)
    }

    /// Pair index and parity of a tile sequence, from scratch.
    fn rank_tiles(&self, seq: Packed) -> (u64, u8) {
        let mut later: u32 = 0;
        let mut k = 0;
        let mut parity = 0;
        for i in (0..self.tiles()).rev() {
            let tile = at(seq, i);
            let digit = (later & ((1 << tile) - 1)).count_ones();
            later |= 1 << tile;
            k += u64::from(digit) * self.weight[i];
            parity ^= digit as u8 & 1;
        }
        (k, parity)
    }

    /// Rank after the vertical move `slide` from a pair of the block `memo` holds, `row` its
    /// row of [`Sliding::window_sums`], the sequence `seq` in the parity of the move's blank
    /// cell: the gain for which passed tiles exceed the moved one, and the window's digit
    /// sum from its two parts, all three tabulated as rank offsets (the gain with the
    /// blank's new cell added, the sums with the pair's first rank), so that no
    /// multiplication is left.
    #[inline(always)]
    fn slide(&self, memo: &Unranked, row: usize, seq: Packed, slide: &Slide) -> u64 {
        let passed = (seq >> (4 * slide.passed)) & self.passed_mask;
        let mask = greater(passed, at(seq, slide.from), self.odd_shift);
        self.gains[slide.gain + mask]
            .wrapping_add(memo.head_sums[slide.id])
            .wrapping_add(self.window_sums[row + slide.id])
    }

    fn split(&self, rank: u64) -> (u64, usize) {
        let k = self.by_cells.div_exact(rank);
        (k, (rank - k * self.cells as u64) as usize)
    }

    /// The tile sequence and blank cell of `rank`.
    fn decode(&self, rank: u64) -> (Unranked, usize) {
        let (k, blank) = self.split(rank);
        (self.unrank(k, self.parity[blank]), blank)
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

    /// The board of `rank` packed 4 bits a cell (cell `i` in bits `4i..4i+4`, 0 = blank),
    /// reusing `memo` like the engine does: consecutive ranks share their tile sequence or
    /// most of it, so scanning a level in rank order unranks each state in a few steps.
    #[inline]
    pub fn packed_board(&self, memo: &mut Unranked, rank: u64) -> u64 {
        let (k, blank) = self.split(rank);
        let seq = self.unrank_cached(memo, k, self.parity[blank]).seq;
        // Cells before the blank hold positions 0..blank of the sequence, those after it
        // the rest shifted by one cell.
        let low = (1u64 << (4 * blank)) - 1;
        (seq & low) | ((seq & !low) << 4)
    }

    /// The pair index and the blank's cell of `rank` (rank = pair * cells + blank).
    #[inline]
    pub fn pair_and_blank(&self, rank: u64) -> (u64, usize) {
        self.split(rank)
    }

    /// Pairs per block of [`Sliding::block_head`]: pairs `block * block_pairs()` on share
    /// every tile but the last [`TAIL`].
    pub fn block_pairs(&self) -> u64 {
        self.tails.len() as u64
    }

    /// The tail of every pair for every set of tiles a head can leave it, as
    /// [`Sliding::block_head`] reads them: a block's pairs are then one slice, found
    /// without decoding them.
    fn tail_sequences(&self) -> TailSequences {
        let (n, tail, head) = (self.tiles(), self.tail, 4 * (self.tiles() - self.tail));
        let mut sets = vec![Vec::new(); pascal(n, tail) as usize];
        for mask in (0u32..1 << n).filter(|m| m.count_ones() as usize == tail) {
            // The set's tiles, smallest first, packed like the pool the head leaves.
            let pool = (0..n as u64)
                .filter(|&t| mask >> t & 1 == 1)
                .enumerate()
                .fold(0, |p, (m, t)| p | (t + 1) << (4 * m));
            sets[tile_set(pool, tail)] = self
                .tails
                .iter()
                .map(|t| {
                    let seq = t.gather(pool) << head;
                    let flip = swap_mask(seq, n);
                    [seq ^ (u64::from(t.parity).wrapping_neg() & flip), flip]
                })
                .collect();
        }
        TailSequences {
            entries: sets.concat(),
            block: self.tails.len(),
        }
    }

    /// [`Sliding::tail_sequences`], borrowed from the puzzle where its unranking keeps them
    /// (boards of at most [`TABLE_CELLS`] cells, every board a search can hold), so that
    /// a reader does not build a second copy.
    pub fn tails(&self) -> Cow<'_, TailSequences> {
        match &self.tail_table {
            Some(table) => Cow::Borrowed(table),
            None => Cow::Owned(self.tail_sequences()),
        }
    }

    /// What the pairs of block `block` share, decoded into `memo`: the head's tiles (packed
    /// 4 bits a position), all ones if the head's digit sum is odd (else 0), and the tails
    /// of the block's pairs in order, each `[tail tiles in place for parity 0 were the head
    /// even, the bits that swap the last two tiles]`. So the sequence of pair `i` of the
    /// block with parity `p` is `head | tail ^ (swap & (odd ^ p))` (with `p` all ones or 0).
    /// `tails` is this board's [`Sliding::tails`].
    pub fn block_head<'t>(
        &self,
        memo: &mut Unranked,
        block: u64,
        tails: &'t TailSequences,
    ) -> (u64, u64, &'t [[u64; 2]]) {
        self.unrank_cached(memo, block * self.tails.len() as u64, 0);
        let set = tile_set(memo.pool, self.tail);
        let tails = &tails.entries[set * tails.block..(set + 1) * tails.block];
        (memo.head_seq, u64::from(memo.head_parity).wrapping_neg(), tails)
    }

    /// The parity of the tile sequence of the configurations with the blank on `cell`.
    pub fn sequence_parity(&self, cell: usize) -> usize {
        usize::from(self.parity[cell])
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

    /// Calls `f` with the rank after each legal move (the graph is undirected).
    fn for_each_neighbour(&self, memo: &mut Unranked, rank: u64, mut f: impl FnMut(u64)) {
        let (k, blank) = self.split(rank);
        let u = self.unrank_cached(memo, k, self.parity[blank]);
        let moves = self.moves[blank];
        if moves & LEFT != 0 {
            f(rank - 1);
        }
        if moves & RIGHT != 0 {
            f(rank + 1);
        }
        for slide in &self.slides[blank] {
            f(self.slide(u, u.sums_row, u.seq, slide));
        }
    }

    /// The vertical moves of the ranks `first + 64 * i + b` for the bits `b` of each
    /// `words[i]`, as `f(rank, neighbour)`: one division a word, then each rank's pair and
    /// blank cell by table from its offset in the word. A run of words a call, so that what
    /// the loop keeps of the puzzle is loaded once a run, not once a word.
    fn words_neighbours(&self, memo: &mut Unranked, first: u64, words: &[u64], f: impl FnMut(u64, u64)) {
        // Which way tails are read is settled here, once a run.
        match &self.tail_table {
            Some(table) => self.runs_neighbours(memo, first, words, |m, i| table.under(m, i), f),
            None => self.runs_neighbours(memo, first, words, |m, i| self.gather_tail(m, i), f),
        }
    }

    /// [`Sliding::words_neighbours`] with the tails read by `tail`.
    #[inline(always)]
    fn runs_neighbours(
        &self,
        memo: &mut Unranked,
        first: u64,
        words: &[u64],
        tail: impl Fn(&Unranked, usize) -> (Packed, Packed, u8) + Copy,
        mut f: impl FnMut(u64, u64),
    ) {
        let mut last = None;
        for (first, &bits) in (first..).step_by(WORD_BITS as usize).zip(words) {
            if bits != 0 {
                last = Some(self.word_neighbours(memo, first, bits, tail, &mut f));
            }
        }
        // The loop keeps each pair's sequence in registers only: the memo is left holding
        // the last one, as every other reader of a memo expects.
        if let Some(k) = last {
            self.unrank_new_pair(memo, k);
        }
    }

    /// [`Sliding::words_neighbours`] for one word, the tails read by `tail`; returns the
    /// last pair it unranked.
    #[inline(always)]
    fn word_neighbours(
        &self,
        memo: &mut Unranked,
        first: u64,
        mut bits: u64,
        tail: impl Fn(&Unranked, usize) -> (Packed, Packed, u8),
        mut f: impl FnMut(u64, u64),
    ) -> u64 {
        let (k0, blank0) = self.split(first);
        let mut k = k0;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let rank = first + b as u64;
            // `blank0 + b` < cells + 64 <= `OFFSETS`, so the mask only spares a bounds check.
            let (pair, blank, blank_parity) = self.offsets[(blank0 + b) % OFFSETS];
            let blank = usize::from(blank);
            k = k0 + u64::from(pair);
            let (row, seq, swap, parity) = self.locate(memo, k, &tail);
            let seq = in_parity(seq, swap, parity, blank_parity);
            for slide in &self.slides[blank] {
                f(rank, self.slide(memo, row, seq, slide));
            }
        }
        k
    }

    /// The goal board with tiles 1 and 2 swapped: the standard unsolvable example.
    fn swapped_goal(&self) -> String {
        let mut board = self.board(self.goals()[0]);
        let tiles: Vec<usize> = (0..self.cells).filter(|&c| board[c] != 0).take(2).collect();
        board.swap(tiles[0], tiles[1]);
        join_tiles(&board)
    }
}

/// The arrangements of the last `tail` tiles, in the order of the pair index: entry `r`
/// has the Lehmer digits of `r` in the tail's mixed radix (place values `(tail-1-j)!/2`)
/// and the even one of the two orders of the last two tiles.
fn tail_table(tail: usize) -> Vec<Tail> {
    let entries = factorial(tail) / 2;
    (0..entries)
        .map(|mut rest| {
            let mut left: Vec<u8> = (0..tail as u8).collect();
            let (mut shift, mut digits, mut parity) = ([60; TAIL], 0, 0);
            for (j, shift) in shift.iter_mut().enumerate().take(tail) {
                let place = if j + 2 < tail { factorial(tail - 1 - j) / 2 } else { 1 };
                let digit = if j + 2 < tail { rest / place } else { 0 };
                rest -= digit * place;
                *shift = 4 * left.remove(digit as usize);
                digits |= (digit as u32) << (4 * j);
                parity ^= (digit & 1) as u8;
            }
            Tail { shift, digits, parity }
        })
        .collect()
}

/// [`Sliding::window_sums`]: the tail's part of each window's digit sum (times `cells`,
/// plus the tail's pair's first rank within the block), for every tail of the block and
/// both parities of the head. The digits of the tail's last two positions depend on the
/// parity: the sequence of parity `w.parity` has the last but one digit of the tail's own
/// arrangement flipped when the head's and the tail's parities differ from it.
fn window_sums(windows: &[Window], tails: &[Tail], cells: usize, tail: usize, cols: usize) -> Vec<u64> {
    let tiles = cells - 1;
    let head = tiles - tail;
    let mut sums = Vec::with_capacity(2 * tails.len() * windows.len());
    for head_parity in 0..2u8 {
        for (i, t) in tails.iter().enumerate() {
            for w in windows {
                let flip = u64::from(head_parity ^ t.parity ^ w.parity);
                let digits = (u64::from(t.digits) << (4 * head)) ^ (flip << (4 * (tiles - 2)));
                let sum = (head.max(w.lo)..w.lo + cols).fold(0u64, |s, i| {
                    s.wrapping_add(at(digits, i).wrapping_mul(w.coefficient[i - w.lo]))
                });
                sums.push(sum.wrapping_add(i as u64).wrapping_mul(cells as u64));
            }
        }
    }
    sums
}

/// The colexicographic number of a set of `size` tiles, packed 4 bits a tile in increasing
/// order (as [`Unranked`] keeps the pool), among the sets of that size.
fn tile_set(pool: Packed, size: usize) -> usize {
    (0..size).map(|m| pascal(at(pool, m) as usize - 1, m + 1)).sum::<u64>() as usize
}

/// `n` choose `k` (0 where `k > n`), for `n`, `k` below [`MAX_CELLS`]: a table, since
/// [`tile_set`] runs once a block of pairs, which on a sparse level is every few states,
/// and the division the product needs would be most of its cost.
fn pascal(n: usize, k: usize) -> u64 {
    BINOMIALS[n][k]
}

/// Pascal's triangle, `BINOMIALS[n][k]` = `n` choose `k`.
static BINOMIALS: [[u64; MAX_CELLS]; MAX_CELLS] = {
    let mut table = [[0; MAX_CELLS]; MAX_CELLS];
    let mut n = 0;
    while n < MAX_CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// Closed form of moving the tile at sequence position `lo` later, to `hi = lo + cols - 1`
/// (the tile above the blank drops into it), over the tiles `x` at `lo + 1 ..= hi`.
/// Each `x` moves one place left and gains the moved tile `t` among its later tiles if
/// `t < x`; `t`'s new digit is its old one less the `x` below it.
fn tile_drops(weight: &[u64; MAX_CELLS], tiles: usize, cols: usize) -> Vertical {
    let windows = tiles + 1 - cols;
    let mut coefficient = vec![[0; MAX_COLS]; windows];
    let mut gain = Vec::with_capacity(windows << (cols - 1));
    for lo in 0..windows {
        let hi = lo + cols - 1;
        coefficient[lo][0] = weight[hi].wrapping_sub(weight[lo]);
        for i in lo + 1..=hi {
            coefficient[lo][i - lo] = weight[i - 1].wrapping_sub(weight[i]);
        }
        gain.extend((0..1usize << (cols - 1)).map(|mask| {
            let above = (0..cols - 1).filter(|&j| mask >> lane(j, cols) & 1 == 1);
            let sum = above.fold(0u64, |s, j| s.wrapping_add(weight[lo + j] + weight[hi]));
            sum.wrapping_sub((cols as u64 - 1) * weight[hi])
        }));
    }
    Vertical { coefficient, gain }
}

/// Closed form of moving the tile at sequence position `hi` earlier, to `lo` (the tile
/// below the blank rises into it), over the tiles `x` at `lo ..= hi - 1`: each moves one place
/// right and loses `t` from its later tiles if `t < x`; `t`'s new digit is its old one
/// plus the `x` below it.
fn tile_rises(weight: &[u64; MAX_CELLS], tiles: usize, cols: usize) -> Vertical {
    let windows = tiles + 1 - cols;
    let mut coefficient = vec![[0; MAX_COLS]; windows];
    let mut gain = Vec::with_capacity(windows << (cols - 1));
    for lo in 0..windows {
        let hi = lo + cols - 1;
        for i in lo..hi {
            coefficient[lo][i - lo] = weight[i + 1].wrapping_sub(weight[i]);
        }
        coefficient[lo][cols - 1] = weight[lo].wrapping_sub(weight[hi]);
        gain.extend((0..1usize << (cols - 1)).map(|mask| {
            let above = (0..cols - 1).filter(|&j| mask >> lane(j, cols) & 1 == 1);
            let sum = above.fold(0u64, |s, j| s.wrapping_add(weight[lo + j + 1] + weight[lo]));
            ((cols as u64 - 1) * weight[lo]).wrapping_sub(sum)
        }));
    }
    Vertical { coefficient, gain }
}

/// [`Sliding::gains`]: the gains of both directions' windows ([`Vertical::gain`]) as rank
/// offsets, times `cells`, plus the cell where the blank of the window's one slide ends.
fn rank_gains(vertical: &[Vertical; 2], slides: &[Vec<Slide>; MAX_CELLS], cells: usize, cols: usize) -> Vec<u64> {
    let mut gains = [&vertical[0].gain[..], &vertical[1].gain[..]].concat();
    for slide in slides.iter().flatten() {
        for gain in &mut gains[slide.gain..slide.gain + (1 << (cols - 1))] {
            *gain = gain.wrapping_mul(cells as u64).wrapping_add(slide.to as u64);
        }
    }
    gains
}

/// Bit [`lane`]`(j, cols)` set where tile `j` of the packed tiles `x` (the `cols - 1` a
/// vertical move passes, at most 7) exceeds `t`, all at once: the even tiles' nibbles are
/// already one to a byte and the odd ones' are moved up by `odd` (`odd_shift(cols)`) into
/// the bytes after them; subtract `t` from each byte with its top bit set (no byte
/// borrows), and gather the top bits that survive.
#[inline]
fn greater(x: Packed, t: u64, odd: u32) -> usize {
    let v = (x & 0x0F0F_0F0F) | ((x & 0xF0F0_F0F0) << odd);
    // Empty bytes lose their top bit too: every tile is at least 1.
    let top = ((v | 0x8080_8080_8080_8080) - t * 0x0101_0101_0101_0101) & 0x8080_8080_8080_8080;
    ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// The bit of [`greater`]'s mask for passed tile `j` of `cols - 1`: the even tiles take
/// bits `0..cols / 2` in order, the odd ones the bits after them.
fn lane(j: usize, cols: usize) -> usize {
    if j % 2 == 0 { j / 2 } else { cols / 2 + j / 2 }
}

/// How far [`greater`] moves the odd tiles' nibbles: from bits `4..8` of byte `i` to the
/// low nibble of byte `cols / 2 + i`.
fn odd_shift(cols: usize) -> u32 {
    (8 * (cols / 2) - 4) as u32
}

/// Division by a constant through a precomputed reciprocal: one multiply instead of a
/// hardware divide, which is most of the cost of unranking otherwise.
#[derive(Debug, Clone, Copy)]
struct Divisor {
    d: u64,
    /// `ceil(2^64 / d)`, or 0 where the shortcut is not exact for the numerators used.
    m: u64,
}

impl Divisor {
    /// Division by `d >= 1` of numerators below `max`.
    fn new(d: u64, max: u64) -> Self {
        // floor(x * m / 2^64) equals floor(x / d) while x * (m * d - 2^64) < 2^64;
        // m * d - 2^64 < d, so x * d < 2^64 is enough.
        let exact = d > 1 && u128::from(max) * u128::from(d) < 1 << 64;
        Self {
            d,
            m: if exact { u64::MAX / d + 1 } else { 0 },
        }
    }

    /// [`Divisor::div`] for a divisor whose shortcut is exact (pairs by block and ranks by
    /// cells, on every board): one multiply and no branch, for the engine's loop.
    #[inline(always)]
    fn div_exact(self, x: u64) -> u64 {
        debug_assert!(self.m != 0, "the shortcut is exact for this divisor");
        ((u128::from(x) * u128::from(self.m)) >> 64) as u64
    }

    #[inline]
    fn div(self, x: u64) -> u64 {
        if self.m != 0 {
            ((u128::from(x) * u128::from(self.m)) >> 64) as u64
        } else if self.d == 1 {
            // The last digit's place value: 2^64 / 1 does not fit, and it needs no divide.
            x
        } else {
            x / self.d
        }
    }
}

/// Checks that `tiles` holds each of `0..rows*cols` (0 the blank) exactly once, with a
/// message naming what is wrong. Boards up to 64 cells.
pub fn check_tiles(rows: usize, cols: usize, tiles: &[u8]) -> Result<(), ParseError> {
    let n = rows * cols;
    if tiles.len() != n {
        return Err(ParseError::Malformed(format!(
            "expected {n} tiles for a {rows}x{cols} board, found {}",
            tiles.len()
        )));
    }
    let mut seen = 0u64;
    for &tile in tiles {
        if usize::from(tile) >= n {
            return Err(ParseError::Malformed(format!(
                "tile {tile} is out of range: tiles are 0 (blank) to {}",
                n - 1
            )));
        }
        if seen & (1 << tile) != 0 {
            return Err(ParseError::Malformed(format!("tile {tile} appears twice")));
        }
        seen |= 1 << tile;
    }
    Ok(())
}

/// A board (cell by cell, 0 = blank) as a grid: one line per row, tiles right-aligned,
/// `.` for the blank.
pub fn draw_tiles(board: &[u8], cols: usize) -> String {
    let width = (board.len() - 1).to_string().len();
    board
        .chunks(cols)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&t| {
                    if t == 0 {
                        format!("{:>width$}", ".")
                    } else {
                        format!("{t:>width$}")
                    }
                })
                .collect();
            cells.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Tiles on one line, e.g. `1 2 3 4 5 6 7 8 0`.
pub fn join_tiles(tiles: &[u8]) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// Reads tile numbers separated by spaces or commas (no check of the board: see
/// [`check_tiles`]); `cells` is only for the message.
pub fn read_tiles(text: &str, cells: usize) -> Result<Vec<u8>, ParseError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u8>()
                .map_err(|_| ParseError::Malformed(format!("{} is not a tile number (0 to {})", quote(s), cells - 1)))
        })
        .collect()
}

/// The textbook solvability rule, checked on the board itself (any size up to 64 cells),
/// with a message saying why a board is unsolvable.
///
/// A move swaps the blank with a neighbour. A horizontal move keeps the order of the
/// tiles read row by row; a vertical move carries a tile past `cols - 1` others,
/// changing the number of inversions by `cols - 1` plus or minus an even number. So with
/// an odd width the parity of the inversions never changes; with an even width the
/// parity of inversions + blank row never changes. The goal has no inversions and the
/// blank on the last row, and every configuration of the right parity is reachable.
pub fn check_solvable(rows: usize, cols: usize, tiles: &[u8]) -> Result<(), ParseError> {
    check_tiles(rows, cols, tiles)?;
    let seq: Vec<u8> = tiles.iter().copied().filter(|&t| t != 0).collect();
    let inversions: usize = (0..seq.len())
        .map(|i| seq[i + 1..].iter().filter(|&&t| t < seq[i]).count())
        .sum();
    let plural = |n: usize| if n == 1 { "inversion" } else { "inversions" };
    if cols % 2 == 1 {
        if inversions % 2 == 1 {
            return Err(ParseError::Unsolvable(format!(
                "the tiles read row by row have {inversions} {} (an odd number); with an odd width every move keeps that parity, and the goal has none",
                plural(inversions)
            )));
        }
    } else {
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let above = rows - 1 - blank / cols;
        if (inversions + above) % 2 == 1 {
            return Err(ParseError::Unsolvable(format!(
                "the tiles read row by row have {inversions} {} and the blank is {above} {} above the bottom row: with an even width every move keeps the parity of their sum, which is odd here ({}) but even at the goal (0)",
                plural(inversions),
                if above == 1 { "row" } else { "rows" },
                inversions + above
            )));
        }
    }
    Ok(())
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

    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour(&mut Unranked::default(), rank, f);
    }
}

impl Invariant for Sliding {
    fn configurations(&self) -> (u64, String) {
        (factorial(self.cells), format!("{}!", self.cells))
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
