//! One rank's moves, and the engine's loop over whole words of ranks
//! ([`crate::puzzle::SearchGraph::for_each_far_predecessor_in_words`]).
//!
//! A horizontal move is `rank +- 1` (the engine does those with word shifts). A vertical
//! move is a closed form ([`Sliding::slide`]): the gain for which passed tiles exceed the
//! moved one plus the window's digit sum from its two tabulated parts, all rank offsets,
//! so no multiplication is left. The word loop splits a word's first rank into pair and
//! blank with one division, and every other rank of the word by table from its offset
//! (`Sliding::offsets`); it keeps each pair's sequence in registers, and picks the way
//! tails are read once a run of words rather than once a rank.

use super::rank::{Unranked, in_parity};
use super::tables::{OFFSETS, Packed, Slide, at, greater};
use super::{LEFT, RIGHT, Sliding};
use crate::util::WORD_BITS;

impl Sliding {
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

    /// Calls `f` with the rank after each legal move (the graph is undirected).
    pub(super) fn for_each_neighbour(&self, memo: &mut Unranked, rank: u64, mut f: impl FnMut(u64)) {
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
    pub(super) fn words_neighbours(&self, memo: &mut Unranked, first: u64, words: &[u64], f: impl FnMut(u64, u64)) {
        // Which way tails are read is settled here, once a run.
        match &self.tail_table {
            Some(table) => self.runs_neighbours(memo, first, words, |m, i| m.with_tail(table, i), f),
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
}
