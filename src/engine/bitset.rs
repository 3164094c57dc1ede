//! A fixed-size bit set shared between threads.
//!
//! The engine keeps one bit per rank (visited, this level, next level), so a 239-million
//! state board needs 3 x 30 MB instead of gigabytes of hash map. Bits live in `AtomicU64`
//! words so rayon workers can mark neighbours concurrently: a bit only ever goes from 0 to
//! 1 during a level, and `fetch_or` tells exactly one worker that it set it first.

use crate::job::human_bytes;
use bitvec::prelude::{BitVec, Lsb0};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use thiserror::Error;

/// Bits per storage word.
pub const WORD_BITS: u64 = 64;

/// A set of ranks `0..len` as a bit-packed, atomically updatable vector.
pub struct BitSet {
    bits: BitVec<AtomicU64, Lsb0>,
}

/// The memory for a bit set could not be had.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("cannot allocate {} for the bit sets", human_bytes(*bytes))]
pub struct TooLarge {
    /// Bytes asked for.
    pub bytes: u128,
}

impl BitSet {
    /// An empty set over `len` ranks, or [`TooLarge`] if the memory cannot be allocated:
    /// the allocation is fallible, so a job beyond the machine is refused with its figure
    /// rather than aborting the process, whatever the platform reports as free.
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
        Ok(Self { bits })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_refuses_an_impossible_size_with_its_figure() {
        // 2^62 ranks: 512 PiB, more than any allocator grants.
        let err = BitSet::try_new(1 << 62).err().expect("refused");
        assert_eq!(err.bytes, 1 << 59);
        assert_eq!(err.to_string(), "cannot allocate 512.0 PiB for the bit sets");
    }

    #[test]
    fn try_new_gives_an_empty_set_of_the_right_length() {
        let set = BitSet::try_new(130).expect("small");
        assert_eq!(set.word_count(), 3);
        assert!(set.insert(129));
        assert!((0..129).all(|r| !set.contains(r)));
        assert_eq!(set.iter().collect::<Vec<_>>(), [129]);
    }
}
