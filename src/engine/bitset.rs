//! A fixed-size bit vector shared between threads.
//!
//! The engine keeps two bits per rank (two planes, interleaved word by word), so a
//! 239-million state board needs 60 MB instead of gigabytes of hash map. Bits live in
//! `AtomicU64` words (a `bitvec` vector over atomic storage) so rayon workers can mark
//! neighbours concurrently: during a level a bit only goes from 0 to 1, and `fetch_or`
//! makes concurrent marks of one word safe.

use crate::job::human_bytes;
use bitvec::prelude::{BitVec, Lsb0};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use thiserror::Error;

/// Bits per storage word.
pub const WORD_BITS: u64 = 64;

/// `len` bits, all clear, in atomically updatable words.
pub struct BitSet {
    bits: BitVec<AtomicU64, Lsb0>,
}

/// The machine refused the memory a bit vector needs.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("cannot allocate {} for the bit sets: not enough memory", human_bytes(*bytes))]
pub struct TooLarge {
    /// The bytes asked for.
    pub bytes: u128,
}

impl BitSet {
    /// `len` clear bits, or the figure the allocator refused: the allocation is fallible, so
    /// a job beyond the machine is refused with its figure rather than aborting the process,
    /// whatever the platform reports as free.
    pub fn try_new(len: u64) -> Result<BitSet, TooLarge> {
        let words = len.div_ceil(WORD_BITS);
        let too_large = TooLarge {
            bytes: u128::from(words) * 8,
        };
        let (Ok(count), Ok(len)) = (usize::try_from(words), usize::try_from(len)) else {
            return Err(too_large);
        };
        let mut storage: Vec<AtomicU64> = Vec::new();
        storage.try_reserve_exact(count).map_err(|_| too_large)?;
        storage.resize_with(count, || AtomicU64::new(0));
        let mut bits = BitVec::from_vec(storage);
        bits.truncate(len);
        Ok(BitSet { bits })
    }

    /// The storage words: word `w` holds bits `64 * w .. 64 * w + 63`, lowest bit first.
    /// Hot loops take this slice once rather than decoding a bit position per access.
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
        self.words()[(rank / WORD_BITS) as usize].load(Relaxed) >> (rank % WORD_BITS) & 1 == 1
    }

    /// Adds `rank`; true if this call added it (exactly one concurrent caller wins).
    #[inline]
    pub fn insert(&self, rank: u64) -> bool {
        let word = &self.words()[(rank / WORD_BITS) as usize];
        let bit = 1 << (rank % WORD_BITS);
        // The plain load skips the read-modify-write for ranks already in the set.
        word.load(Relaxed) & bit == 0 && word.fetch_or(bit, Relaxed) & bit == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_has_whole_words_for_its_bits() {
        for (len, words) in [(0, 0), (1, 1), (64, 1), (65, 2), (1000, 16)] {
            assert_eq!(BitSet::try_new(len).map(|s| s.word_count()), Ok(words));
        }
    }

    #[test]
    fn an_impossible_size_is_refused_with_its_figure() {
        let e = BitSet::try_new(u64::MAX).err();
        assert_eq!(e.map(|e| e.bytes), Some(u128::from(u64::MAX.div_ceil(64)) * 8));
    }
}
