//! A fixed-size bit set shared between threads.
//!
//! The engine keeps one bit per rank (visited, this level, next level), so a 239-million
//! state board needs 3 x 30 MB instead of gigabytes of hash map. Bits live in `AtomicU64`
//! words so rayon workers can mark neighbours concurrently: a bit only ever goes from 0 to
//! 1 during a level, and `fetch_or` tells exactly one worker that it set it first.

use bitvec::prelude::{BitVec, Lsb0};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bits per storage word.
pub const WORD_BITS: u64 = 64;

/// A set of ranks `0..len` as a bit-packed, atomically updatable vector.
pub struct BitSet {
    bits: BitVec<AtomicU64, Lsb0>,
}

impl BitSet {
    /// An empty set over `len` ranks.
    pub fn new(len: u64) -> Self {
        let len = usize::try_from(len).expect("rank space was checked to fit in memory");
        Self {
            bits: BitVec::repeat(false, len),
        }
    }

    /// Bytes this set occupies for `len` ranks (for estimates before allocating).
    pub fn bytes_for(len: u64) -> u64 {
        len.div_ceil(WORD_BITS) * 8
    }

    /// The storage words: word `w` holds ranks `64 * w .. 64 * w + 63`, lowest bit first.
    /// Hot loops take this slice once rather than decoding the bit span per access.
    pub fn words(&self) -> &[AtomicU64] {
        self.bits.as_raw_slice()
    }

    /// Number of storage words.
    pub fn word_count(&self) -> usize {
        self.words().len()
    }

    /// Whether `rank` is in the set.
    #[inline]
    pub fn contains(&self, rank: u64) -> bool {
        let word = self.words()[(rank / WORD_BITS) as usize].load(Relaxed);
        word & (1 << (rank % WORD_BITS)) != 0
    }

    /// Adds `rank`; true if this call added it (exactly one concurrent caller wins).
    #[inline]
    pub fn insert(&self, rank: u64) -> bool {
        insert(self.words(), rank)
    }

    /// Number of ranks in the set.
    pub fn count(&self) -> u64 {
        self.bits.count_ones() as u64
    }

    /// The ranks in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.bits.iter_ones().map(|i| i as u64)
    }
}

/// Adds `rank` to the set stored in `words`; true if this call added it.
#[inline]
pub fn insert(words: &[AtomicU64], rank: u64) -> bool {
    let word = &words[(rank / WORD_BITS) as usize];
    let bit = 1 << (rank % WORD_BITS);
    // The plain load skips the read-modify-write for the many already-visited neighbours.
    word.load(Relaxed) & bit == 0 && word.fetch_or(bit, Relaxed) & bit == 0
}
