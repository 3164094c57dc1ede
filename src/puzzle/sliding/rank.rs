//! Ranking and unranking of tile sequences, with the memo ([`Unranked`]) that makes
//! nearby ranks cheap.
//!
//! A pair index `k` is read digit by digit in the factorial number system (place values
//! `(tiles-1-i)!/2`, the last two digits deciding only the parity). Unranking a pair near
//! the last one decodes only the digits that differ: the pairs of a block (`k / block`,
//! `block` the number of tails) share every digit but the last [`TAIL`](super::tables::TAIL), which are read by
//! table; and a new block resumes from the longest prefix of digits it shares with the
//! memo's, whose pools of unused tiles the memo keeps.

use super::tables::{Packed, TailSequences, at, swap_mask, tile_set};
use super::{MAX_CELLS, MAX_SLIDES, Sliding};
use std::borrow::Cow;

/// An unranked configuration with what unranking a nearby pair reuses.
#[derive(Clone)]
pub struct Unranked {
    /// Pair index ([`NO_PAIR`] for a fresh memo).
    pub(super) k: u64,
    /// The tile sequence.
    pub(super) seq: Packed,
    /// Parity of the sequence.
    pub(super) parity: u8,
    /// What `seq` is XORed with to swap its last two tiles (and so flip its parity).
    pub(super) swap: Packed,
    /// The row of [`Sliding::window_sums`] for `k`'s tail and head parity.
    pub(super) sums_row: usize,
    /// The head, every position before the tail: `k / block` of the pair it was decoded
    /// for ([`NO_PAIR`] for a fresh memo), its tiles, digits and digit-sum parity, and the
    /// tiles left for the tail.
    pub(super) block: u64,
    pub(super) head_seq: Packed,
    /// Lehmer digits, packed like `head_seq`: digit `i` counts later tiles smaller than tile `i`.
    pub(super) head_digits: Packed,
    pub(super) head_parity: u8,
    /// `head_sums[s]`: the head's part of window `s`'s digit sum ([`Window`](super::tables::Window)), times `cells`,
    /// plus the block's first rank.
    pub(super) head_sums: [u64; MAX_SLIDES],
    /// Where the rows of [`Sliding::window_sums`] for the head's parity start.
    pub(super) sums_base: usize,
    pub(super) pool: Packed,
    /// Where the tails of the head's tile set start in [`Sliding::tail_table`], if any.
    pub(super) set_start: usize,
    /// `pools[i]`: the unused tiles (packed, increasing) after position `i` was filled,
    /// from which a later `k` sharing the first `i + 1` digits resumes decoding the head;
    /// bit `i` of `sums`: the digit-sum parity so far.
    pub(super) pools: [Packed; MAX_CELLS],
    pub(super) sums: u16,
}

/// The pair and block of a fresh memo: no pair's (pairs number at most 15!/2).
pub(super) const NO_PAIR: u64 = u64::MAX;

impl Unranked {
    /// The sequence of tail `i` of `tails` under this head, what swaps its last two tiles,
    /// and its parity: the tail in place, swapped to the head's parity where its own is odd.
    #[inline(always)]
    pub(super) fn with_tail(&self, tails: &TailSequences, i: usize) -> (Packed, Packed, u8) {
        let [seq, swap] = tails.entries[self.set_start + i];
        (self.head_seq | seq, swap, self.head_parity)
    }
}

impl Default for Unranked {
    fn default() -> Self {
        Unranked {
            k: NO_PAIR,
            seq: 0,
            parity: 0,
            swap: 0,
            sums_row: 0,
            block: NO_PAIR,
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
pub(super) fn in_parity(seq: Packed, swap: Packed, parity: u8, want: u8) -> Packed {
    let flip = u64::from(parity ^ want);
    seq ^ (flip.wrapping_neg() & swap)
}

impl Sliding {
    /// The tile sequence of pair `k` with the given parity.
    pub(super) fn unrank(&self, k: u64, parity: u8) -> Unranked {
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
    pub(super) fn unrank_cached<'m>(&self, memo: &'m mut Unranked, k: u64, parity: u8) -> &'m Unranked {
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
    pub(super) fn unrank_new_pair<'m>(&self, memo: &'m mut Unranked, k: u64) -> &'m Unranked {
        let (row, seq, swap, parity) = self.locate(memo, k, |m, i| self.tail_of(m, i));
        (memo.sums_row, memo.seq, memo.swap, memo.parity, memo.k) = (row, seq, swap, parity, k);
        memo
    }

    /// Pair `k`'s row of [`Sliding::window_sums`], sequence, swap mask and parity, its
    /// block's head decoded into `memo` if the memo holds another block's, the tail read by
    /// `tail`; the memo's own pair is left as it was.
    #[inline(always)]
    pub(super) fn locate(
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
            Some(table) => memo.with_tail(table, i),
            None => self.gather_tail(memo, i),
        }
    }

    /// The tail `i` under the head in `memo`, on boards too big for [`Sliding::tail_table`]:
    /// kept out of line, so that the engine's loop, which never takes it, does not hold its
    /// constants.
    #[inline(never)]
    pub(super) fn gather_tail(&self, memo: &Unranked, i: usize) -> (Packed, Packed, u8) {
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
        let from = if u.block == NO_PAIR {
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
    pub(super) fn rank_tiles(&self, seq: Packed) -> (u64, u8) {
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

    pub(super) fn split(&self, rank: u64) -> (u64, usize) {
        let k = self.by_cells.div_exact(rank);
        (k, (rank - k * self.cells as u64) as usize)
    }

    /// The tile sequence and blank cell of `rank`.
    pub(super) fn decode(&self, rank: u64) -> (Unranked, usize) {
        let (k, blank) = self.split(rank);
        (self.unrank(k, self.parity[blank]), blank)
    }

    /// The board of `rank` packed 4 bits a cell (cell `i` in bits `4i..4i+4`, 0 = blank),
    /// reusing `memo` like the engine does: consecutive ranks share their tile sequence or
    /// most of it, so scanning a level in rank order unranks each state in a few steps.
    #[inline]
    pub(super) fn packed_board(&self, memo: &mut Unranked, rank: u64) -> u64 {
        let (k, blank) = self.split(rank);
        let seq = self.unrank_cached(memo, k, self.parity[blank]).seq;
        // Cells before the blank hold positions 0..blank of the sequence, those after it
        // the rest shifted by one cell.
        let low = (1u64 << (4 * blank)) - 1;
        (seq & low) | ((seq & !low) << 4)
    }

    /// Pairs per block of [`Sliding::block_head`]: pairs `block * block_pairs()` on share
    /// every tile but the last [`TAIL`](super::tables::TAIL).
    pub(super) fn block_pairs(&self) -> u64 {
        self.tails.len() as u64
    }

    /// [`Sliding::tail_sequences`], borrowed from the puzzle where its unranking keeps them
    /// (boards of at most [`TABLE_CELLS`](super::tables::TABLE_CELLS) cells, every board a search can hold), so that
    /// a reader does not build a second copy.
    pub(super) fn tails(&self) -> Cow<'_, TailSequences> {
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
    pub(super) fn block_head<'t>(
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
}
