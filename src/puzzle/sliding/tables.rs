//! What [`Sliding`]'s constructor precomputes, so that ranking and moving cost table
//! look-ups instead of arithmetic over digits.
//!
//! - Packed sequences: 4 bits a tile, so moving a tile is a few shifts and masks.
//! - [`Divisor`]: division by the place values through reciprocals, one multiply each.
//! - Tails: the last [`TAIL`] positions of a pair's sequence, decoded by table ([`Tail`],
//!   and on boards of at most [`TABLE_CELLS`] cells every set's tails, [`TailSequences`]):
//!   nearby pairs, the engine's next ranks, differ only there.
//! - Vertical moves in closed form ([`Vertical`]): a vertical move never re-ranks; it
//!   changes only the Lehmer digits of the `cols` positions the moved tile passes, by
//!   amounts known in advance. The digits' part of each move's closed form ([`Window`]) is
//!   split in two sums looked up, one per block of pairs and one per tail ([`window_sums`]),
//!   and the rest is a gain per pattern of passed tiles ([`rank_gains`]), so a move costs
//!   no sum over digits.
//! - Pascal's triangle, to number the set of tiles a head leaves its tail ([`tile_set`]).

use super::{DOWN, MAX_CELLS, MAX_COLS, Sliding, UP};
use crate::util::factorial;

/// A vertical move of the blank, in terms of the tile sequence: the tile at position
/// `from` moves over the `cols - 1` tiles from position `passed` on, and the blank ends on
/// cell `to`. Its window's digit sum ([`Window`]) is looked up by `id`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slide {
    /// The move's index in [`Sliding::windows`], [`Unranked::head_sums`](super::rank::Unranked::head_sums) and each row of
    /// [`Sliding::window_sums`].
    pub(super) id: usize,
    /// Where the window's [`Vertical::gain`] entries start in [`Sliding::gains`].
    pub(super) gain: usize,
    pub(super) from: usize,
    pub(super) passed: usize,
    pub(super) to: usize,
}

/// The digits' part of a vertical move's closed form ([`Vertical`]): the sum of the digits
/// at positions `lo..lo + cols` times `coefficient`, taken in the sequence of parity
/// `parity` (that of the move's blank cell). The head's digits are fixed for a block of
/// pairs and the tail's for a tail, so the sum splits into two parts known in advance.
#[derive(Debug, Clone, Copy)]
pub(super) struct Window {
    /// The window's [`Vertical::coefficient`] row, for the direction the tile moves.
    pub(super) coefficient: [u64; MAX_COLS],
    pub(super) lo: usize,
    pub(super) parity: u8,
}

/// Largest board whose unranking reads tails from a table (9.9 MB on 2x7; 28.8 MB on 4x4,
/// which the search never enumerates, would be paid by every solve).
pub(super) const TABLE_CELLS: usize = 14;

/// Offsets of ranks from a pair's first rank that [`Sliding::offsets`] splits: a word's.
pub(super) const OFFSETS: usize = 128;

/// Positions at the end of the tile sequence decoded from a table of `TAIL!/2` entries
/// rather than digit by digit: nearby pairs (the engine's next rank) differ only there.
pub(super) const TAIL: usize = 6;

/// The tails of every block's pairs ([`Sliding::tails`]): a block's head leaves
/// one of a few sets of tiles for its tail (462 on 3x4), and with the set the tails of the
/// block's pairs are fixed, so a reader of every pair stores them once per set rather than
/// decoding them block after block.
#[derive(Debug, Clone)]
pub(super) struct TailSequences {
    /// The tails of the sets in the order of [`tile_set`], `block` per set.
    pub(super) entries: Vec<[u64; 2]>,
    pub(super) block: usize,
}

/// The last `tail` tiles of a pair as a pattern over the tiles left for them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tail {
    /// Position `j` holds the tile at bit `shift[j]` of the pool of those tiles (4 times its
    /// index among them, sorted); positions past the tail read bit 60, always empty.
    pub(super) shift: [u8; TAIL],
    /// The Lehmer digits of those positions, packed like a sequence.
    pub(super) digits: u32,
    /// Parity of their sum.
    pub(super) parity: u8,
}

impl Tail {
    /// The tail's tiles drawn from `pool` (the tiles left for it, packed in increasing
    /// order), position 0 lowest. A fixed count of steps, unrolled; boards with fewer tail
    /// tiles read empty bits for the rest.
    #[inline(always)]
    pub(super) fn gather(&self, pool: Packed) -> Packed {
        let mut seq = 0;
        for j in 0..TAIL {
            seq |= ((pool >> self.shift[j]) & 0xF) << (4 * j);
        }
        seq
    }
}

/// A tile sequence packed 4 bits a tile, position `i` in bits `4i..4i+4`: moving a tile
/// is a few shifts and masks on one register.
pub(super) type Packed = u64;

/// The tile at position `i` of a packed sequence.
#[inline]
pub(super) fn at(seq: Packed, i: usize) -> u64 {
    (seq >> (4 * i)) & 0xF
}

/// What a sequence of `n` tiles is XORed with to swap its last two tiles (and so flip its
/// parity).
#[inline(always)]
pub(super) fn swap_mask(seq: Packed, n: usize) -> Packed {
    let swap = at(seq, n - 2) ^ at(seq, n - 1);
    (swap << (4 * (n - 2))) | (swap << (4 * (n - 1)))
}

/// A vertical move in closed form. Moving a tile `t` over the `cols - 1` tiles between
/// its cell and the blank's changes only the Lehmer digits of that window, by amounts
/// that depend on the old digits and on which of those tiles exceed `t`; so the new pair
/// index is `k + sum(digit * coefficient) + gain[which exceed t]`, with no re-ranking.
#[derive(Debug, Clone, Default)]
pub(super) struct Vertical {
    /// `coefficient[lo][j]`: multiplies the old digit at position `lo + j` of the
    /// window starting at sequence position `lo` (wrapping arithmetic: some are negative).
    /// Zero for `j >= cols`, so that the sum has a fixed length the compiler unrolls.
    pub(super) coefficient: Vec<[u64; MAX_COLS]>,
    /// `gain[lo << (cols - 1) | mask]`: the rest, for a mask of the passed tiles above `t`
    /// (tile `j`'s bit is [`lane`]`(j, cols)`, as [`greater`] sets it).
    pub(super) gain: Vec<u64>,
}

impl Sliding {
    /// The tail of every pair for every set of tiles a head can leave it, as
    /// [`Sliding::block_head`] reads them: a block's pairs are then one slice, found
    /// without decoding them.
    pub(super) fn tail_sequences(&self) -> TailSequences {
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
}

/// The arrangements of the last `tail` tiles, in the order of the pair index: entry `r`
/// has the Lehmer digits of `r` in the tail's mixed radix (place values `(tail-1-j)!/2`)
/// and the even one of the two orders of the last two tiles.
pub(super) fn tail_table(tail: usize) -> Vec<Tail> {
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
pub(super) fn window_sums(windows: &[Window], tails: &[Tail], cells: usize, tail: usize, cols: usize) -> Vec<u64> {
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
/// order (as [`Unranked`](super::rank::Unranked) keeps the pool), among the sets of that size.
pub(super) fn tile_set(pool: Packed, size: usize) -> usize {
    (0..size).map(|m| pascal(at(pool, m) as usize - 1, m + 1)).sum::<u64>() as usize
}

/// `n` choose `k` (0 where `k > n`), for `n`, `k` below [`MAX_CELLS`]: a table, since
/// [`tile_set`] runs once a block of pairs, which on a sparse level is every few states,
/// and the division the product needs would be most of its cost.
pub(super) fn pascal(n: usize, k: usize) -> u64 {
    BINOMIALS[n][k]
}

/// Pascal's triangle, `BINOMIALS[n][k]` = `n` choose `k`.
pub(super) static BINOMIALS: [[u64; MAX_CELLS]; MAX_CELLS] = {
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
pub(super) fn tile_drops(weight: &[u64; MAX_CELLS], tiles: usize, cols: usize) -> Vertical {
    closed_form(
        tiles,
        cols,
        |lo, hi, row| {
            row[0] = weight[hi].wrapping_sub(weight[lo]);
            for i in lo + 1..=hi {
                row[i - lo] = weight[i - 1].wrapping_sub(weight[i]);
            }
        },
        |lo, hi, j| weight[lo + j] + weight[hi],
        |_, hi, sum| sum.wrapping_sub((cols as u64 - 1) * weight[hi]),
    )
}

/// Closed form of moving the tile at sequence position `hi` earlier, to `lo` (the tile
/// below the blank rises into it), over the tiles `x` at `lo ..= hi - 1`: each moves one place
/// right and loses `t` from its later tiles if `t < x`; `t`'s new digit is its old one
/// plus the `x` below it.
pub(super) fn tile_rises(weight: &[u64; MAX_CELLS], tiles: usize, cols: usize) -> Vertical {
    closed_form(
        tiles,
        cols,
        |lo, hi, row| {
            for i in lo..hi {
                row[i - lo] = weight[i + 1].wrapping_sub(weight[i]);
            }
            row[cols - 1] = weight[lo].wrapping_sub(weight[hi]);
        },
        |lo, _, j| weight[lo + j + 1] + weight[lo],
        |lo, _, sum| ((cols as u64 - 1) * weight[lo]).wrapping_sub(sum),
    )
}

/// What both directions' closed forms share: for each window `lo..=hi` (`hi = lo + cols -
/// 1`), its [`Vertical::coefficient`] row as `coefficients(lo, hi, row)` writes it, and its
/// gain for each mask of passed tiles above `t`: `gain(lo, hi, sum)` of the `sum` of
/// `term(lo, hi, j)` over those tiles `j`.
fn closed_form(
    tiles: usize,
    cols: usize,
    coefficients: impl Fn(usize, usize, &mut [u64; MAX_COLS]),
    term: impl Fn(usize, usize, usize) -> u64,
    gain: impl Fn(usize, usize, u64) -> u64,
) -> Vertical {
    let windows = tiles + 1 - cols;
    let mut coefficient = vec![[0; MAX_COLS]; windows];
    let mut gains = Vec::with_capacity(windows << (cols - 1));
    for (lo, row) in coefficient.iter_mut().enumerate() {
        let hi = lo + cols - 1;
        coefficients(lo, hi, row);
        gains.extend((0..1usize << (cols - 1)).map(|mask| {
            let above = (0..cols - 1).filter(|&j| mask >> lane(j, cols) & 1 == 1);
            gain(lo, hi, above.fold(0u64, |s, j| s.wrapping_add(term(lo, hi, j))))
        }));
    }
    Vertical {
        coefficient,
        gain: gains,
    }
}

/// [`Sliding::gains`]: the gains of both directions' windows ([`Vertical::gain`]) as rank
/// offsets, times `cells`, plus the cell where the blank of the window's one slide ends.
pub(super) fn rank_gains(
    vertical: &[Vertical; 2],
    slides: &[Vec<Slide>; MAX_CELLS],
    cells: usize,
    cols: usize,
) -> Vec<u64> {
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
pub(super) fn greater(x: Packed, t: u64, odd: u32) -> usize {
    let v = (x & 0x0F0F_0F0F) | ((x & 0xF0F0_F0F0) << odd);
    // Empty bytes lose their top bit too: every tile is at least 1.
    let top = ((v | 0x8080_8080_8080_8080) - t * 0x0101_0101_0101_0101) & 0x8080_8080_8080_8080;
    ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// The bit of [`greater`]'s mask for passed tile `j` of `cols - 1`: the even tiles take
/// bits `0..cols / 2` in order, the odd ones the bits after them.
pub(super) fn lane(j: usize, cols: usize) -> usize {
    if j % 2 == 0 { j / 2 } else { cols / 2 + j / 2 }
}

/// How far [`greater`] moves the odd tiles' nibbles: from bits `4..8` of byte `i` to the
/// low nibble of byte `cols / 2 + i`.
pub(super) fn odd_shift(cols: usize) -> u32 {
    (8 * (cols / 2) - 4) as u32
}

/// Division by a constant through a precomputed reciprocal: one multiply instead of a
/// hardware divide, which is most of the cost of unranking otherwise.
#[derive(Debug, Clone, Copy)]
pub(super) struct Divisor {
    pub(super) d: u64,
    /// `ceil(2^64 / d)`, or 0 where the shortcut is not exact for the numerators used.
    pub(super) m: u64,
}

impl Divisor {
    /// Division by `d >= 1` of numerators below `max`.
    pub(super) fn new(d: u64, max: u64) -> Self {
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
    pub(super) fn div_exact(self, x: u64) -> u64 {
        debug_assert!(self.m != 0, "the shortcut is exact for this divisor");
        ((u128::from(x) * u128::from(self.m)) >> 64) as u64
    }

    #[inline]
    pub(super) fn div(self, x: u64) -> u64 {
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

/// The vertical moves of every blank cell: both directions' closed forms (`[0]`: the tile
/// drops into the blank, so it moves later in the sequence; `[1]`: it rises), each cell's
/// [`Slide`]s, and their [`Window`]s in the order of the slides' ids.
pub(super) fn vertical_moves(
    weight: &[u64; MAX_CELLS],
    parity: &[u8; MAX_CELLS],
    moves: &[u8; MAX_CELLS],
    tiles: usize,
    cols: usize,
) -> ([Vertical; 2], [Vec<Slide>; MAX_CELLS], Vec<Window>) {
    // A vertical move passes `cols - 1` tiles, changing the digit sum by `cols - 1` plus
    // an even number: the parity table (`parity_table`) is built so that this lands on the parity
    // the ranking expects on the new blank cell (a consistency check of the table, true
    // by construction; it is not a check of the rule, which the tests do).
    let passing = ((cols - 1) & 1) as u8;
    let keeps_class = |blank: usize, to: usize| parity[blank] ^ passing == parity[to];
    // `[0]`: the tile drops into the blank (it moves later in the sequence), `[1]`: it rises.
    let vertical = [tile_drops(weight, tiles, cols), tile_rises(weight, tiles, cols)];
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
        let mut add = |dir: usize, lo: usize, from: usize, passed: usize, to: usize| {
            debug_assert!(keeps_class(blank, to));
            let (id, gain) = window(dir, lo, blank);
            list.push(Slide {
                id,
                gain,
                from,
                passed,
                to,
            });
        };
        if moves[blank] & UP != 0 {
            // The tile above drops into the blank: in the sequence it moves from
            // position blank-cols to blank-1, past the cols-1 tiles between.
            let lo = blank - cols;
            add(0, lo, lo, lo + 1, lo);
        }
        if moves[blank] & DOWN != 0 {
            // The tile below rises: from position blank+cols-1 to blank.
            add(1, blank, blank + cols - 1, blank, blank + cols);
        }
        list
    });
    (vertical, slides, windows)
}
