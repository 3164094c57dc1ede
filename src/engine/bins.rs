//! The bins a part of a search on disk sends ([`Bins`]): a bit for each image of the move
//! that takes every rank to another part, held while the part is expanded, then written
//! for each part that receives some, as records of one bin each:
//!
//! `bin`, `kind`, `count` (little-endian `u64`s), then `count` words: the bin's bit
//! words when `kind` is [`DENSE`], its indices when [`SPARSE`] (a bin with fewer bits set
//! than it has words).

use super::bitset::{BATCH, BitSet, TooLarge, WORD_BITS, prefetch};
use super::counts::LevelCounts;
use super::planes::{CHUNK_WORDS, Planes, level_word, roles};
use crate::puzzle::{Bins, SearchGraph};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// A record of every word of a bin.
pub(super) const DENSE: u64 = 0;
/// A record of the indices of a bin's set bits.
pub(super) const SPARSE: u64 = 1;

/// The bins the part being expanded sends into: for each of the `per_part` groups a part
/// holds, a bin to every group, a bit an index.
pub(super) struct BinSet {
    pub(super) bins: Bins,
    per_part: u64,
    /// Words of one bin.
    bin_words: usize,
    words: BitSet,
    /// Whether each bin received a bit since it was last taken.
    touched: Vec<AtomicBool>,
}

impl BinSet {
    /// Bytes the bins of a part of `per_part` groups take.
    pub(super) fn bytes(bins: Bins, per_part: u64) -> u64 {
        per_part * bins.groups * bins.len.div_ceil(WORD_BITS) * 8
    }

    pub(super) fn new(bins: Bins, per_part: u64) -> Result<Self, TooLarge> {
        let bin_words = bins.len.div_ceil(WORD_BITS);
        let count = per_part * bins.groups;
        Ok(Self {
            bins,
            per_part,
            bin_words: bin_words as usize,
            words: BitSet::try_new(count * bin_words * WORD_BITS)?,
            touched: (0..count).map(|_| AtomicBool::new(false)).collect(),
        })
    }

    /// The groups of part `p`.
    pub(super) fn groups_of(&self, p: usize) -> Range<u64> {
        p as u64 * self.per_part..(p as u64 + 1) * self.per_part
    }

    /// Where the bit of an encoded `value` found while part `p` is expanded is: its bin
    /// (of the set), word and bit; `None` if it is not the bin of one of the part's
    /// groups (a puzzle's bug, counted as an escape).
    #[inline]
    fn locate(&self, p: usize, value: u64) -> Option<(u32, usize, u64)> {
        let (bin, index) = Bins::decode(value);
        let (t, b) = (bin / self.bins.groups, bin % self.bins.groups);
        let from = b.checked_sub(p as u64 * self.per_part).filter(|&f| f < self.per_part)?;
        if t >= self.bins.groups || index >= self.bins.len {
            return None;
        }
        let local = (from * self.bins.groups + t) as usize;
        Some((
            local as u32,
            local * self.bin_words + (index / WORD_BITS) as usize,
            1 << (index % WORD_BITS),
        ))
    }

    /// The records of part `p`'s bins into the groups `targets`, which are cleared: the
    /// bytes of a bin file, empty if none received a bit.
    pub(super) fn take(&self, p: usize, targets: Range<u64>) -> Vec<u8> {
        let mut out = Vec::new();
        let groups = self.bins.groups;
        for from in 0..self.per_part {
            for t in targets.clone() {
                let local = (from * groups + t) as usize;
                if !self.touched[local].swap(false, Relaxed) {
                    continue;
                }
                let words = &self.words.words()[local * self.bin_words..][..self.bin_words];
                let bin = t * groups + p as u64 * self.per_part + from;
                let set: u64 = words.par_iter().map(|w| u64::from(w.load(Relaxed).count_ones())).sum();
                let (kind, count) = if set < self.bin_words as u64 {
                    (SPARSE, set)
                } else {
                    (DENSE, self.bin_words as u64)
                };
                out.reserve(24 + count as usize * 8);
                for field in [bin, kind, count] {
                    out.extend_from_slice(&field.to_le_bytes());
                }
                for (i, w) in words.iter().enumerate() {
                    let word = w.swap(0, Relaxed);
                    if kind == DENSE {
                        out.extend_from_slice(&word.to_le_bytes());
                        continue;
                    }
                    let mut bits = word;
                    while bits != 0 {
                        let index = i as u64 * WORD_BITS + u64::from(bits.trailing_zeros());
                        bits &= bits - 1;
                        out.extend_from_slice(&index.to_le_bytes());
                    }
                }
            }
        }
        out
    }
}

/// Bits gathered before they are set, as the expansion gathers its predecessors: each
/// word is prefetched as it is gathered, since a move that leaves every part sends
/// neighbouring ranks far apart in the bins.
pub(super) struct Gather<'a> {
    set: &'a BinSet,
    p: usize,
    len: usize,
    bins: [u32; BATCH],
    words: [usize; BATCH],
    bits: [u64; BATCH],
}

impl<'a> Gather<'a> {
    pub(super) fn new(set: &'a BinSet, p: usize) -> Self {
        Self {
            set,
            p,
            len: 0,
            bins: [0; BATCH],
            words: [0; BATCH],
            bits: [0; BATCH],
        }
    }

    /// Gathers the bit of an encoded `value`; `false` if it is no bin of the part's.
    #[inline]
    pub(super) fn push(&mut self, value: u64) -> bool {
        let Some((bin, w, bit)) = self.set.locate(self.p, value) else {
            return false;
        };
        prefetch(&self.set.words.words()[w]);
        (self.bins[self.len], self.words[self.len], self.bits[self.len]) = (bin, w, bit);
        self.len += 1;
        if self.len == BATCH {
            self.flush();
        }
        true
    }

    /// Sets the bits gathered: the look-ups first, then the locked writes of those not
    /// yet set (see the expansion's `Batch::flush`).
    #[inline(never)]
    pub(super) fn flush(&mut self) {
        let words = self.set.words.words();
        let mut kept = 0;
        for i in 0..self.len.min(BATCH) {
            let (bin, w, bit) = (self.bins[i], self.words[i], self.bits[i]);
            (self.bins[kept], self.words[kept], self.bits[kept]) = (bin, w, bit);
            kept += usize::from(words[w].load(Relaxed) & bit == 0);
        }
        for i in 0..kept.min(BATCH) {
            words[self.words[i]].fetch_or(self.bits[i], Relaxed);
            let touched = &self.set.touched[self.bins[i] as usize];
            if !touched.load(Relaxed) {
                touched.store(true, Relaxed);
            }
        }
        self.len = 0;
    }
}

/// Where the ranks of bins received are marked: in `planes`, as the level after `depth`,
/// their chunks flagged in `touched`; once `stopped`, the rest is skipped (the level is not
/// committed).
pub(super) struct Marking<'a> {
    pub(super) planes: &'a Planes,
    pub(super) depth: usize,
    pub(super) touched: &'a [AtomicBool],
    pub(super) stopped: &'a (dyn Fn() -> bool + Sync),
}

/// Marks the unseen ranks of bin `bin` of `puzzle` given by a record's words (its bits, or
/// its indices if `sparse`) as `to` says; returns how many are not ranks of the part (a
/// damaged file).
pub(super) fn deliver<P: SearchGraph>(puzzle: &P, to: &Marking, bin: u64, sparse: bool, words: &[u64]) -> u64 {
    const GRAIN: usize = 1 << 10;
    words
        .par_chunks(GRAIN)
        .enumerate()
        .filter(|_| !(to.stopped)())
        .map(|(c, chunk)| {
            let mut ranks = Vec::with_capacity(GRAIN);
            let first = (c * GRAIN) as u64 * WORD_BITS;
            let bad = if sparse {
                puzzle.unbin(bin, chunk.iter().copied(), |r| ranks.push(r))
            } else {
                let indices = chunk.iter().enumerate().flat_map(|(i, &word)| {
                    let mut bits = word;
                    std::iter::from_fn(move || {
                        (bits != 0).then(|| {
                            let index = first + i as u64 * WORD_BITS + u64::from(bits.trailing_zeros());
                            bits &= bits - 1;
                            index
                        })
                    })
                });
                puzzle.unbin(bin, indices, |r| ranks.push(r))
            };
            bad + to.planes.deliver(&ranks, to.depth, None, to.touched)
        })
        .sum()
}

/// Sends the images by the bins' move of the ranks of the level of depth `depth` in chunk
/// `c` of part `p` (`planes`): the level's side of a dense level found bottom-up. Returns
/// how many were sent, and those of no bin of the part's as escapes.
pub(super) fn send_images<P: SearchGraph>(
    puzzle: &P,
    planes: &Planes,
    set: &BinSet,
    p: usize,
    c: usize,
    depth: usize,
    classes: usize,
) -> LevelCounts {
    let mut tally = LevelCounts::new(classes);
    let mut gather = Gather::new(set, p);
    let mut memo = P::Memo::default();
    let marks = planes.marks.words();
    for w in c * CHUNK_WORDS..planes.words.min((c + 1) * CHUNK_WORDS) {
        let mut word = level_word(marks, w, roles(depth).0);
        while word != 0 {
            let rank = planes.slice.start + w as u64 * WORD_BITS + u64::from(word.trailing_zeros());
            word &= word - 1;
            match puzzle.binned_image(&mut memo, rank) {
                Some(image) if gather.push(image) => tally.generated += 1,
                _ => {
                    tally.escapes += 1;
                    tally.escape_from.get_or_insert(rank);
                }
            }
        }
    }
    gather.flush();
    tally
}
