//! A fixed-size bit vector shared between threads.
//!
//! The engine keeps two bits per rank (two planes, interleaved word by word), so a
//! 239-million state board needs 60 MB instead of gigabytes of hash map. Bits live in
//! `AtomicU64` words so rayon workers can mark neighbours concurrently: during a level a
//! bit only goes from 0 to 1, and `fetch_or` makes concurrent marks of one word safe.

use std::sync::atomic::AtomicU64;
use thiserror::Error;

/// Bits per storage word.
pub const WORD_BITS: u64 = 64;

/// `len` bits, all clear, in atomically updatable words.
pub struct BitSet {
    words: Vec<AtomicU64>,
}

/// The machine refused the memory a bit vector needs.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("cannot allocate {bytes} bytes of bit sets: not enough memory")]
pub struct TooLarge {
    /// The bytes asked for.
    pub bytes: u128,
}

impl BitSet {
    /// `len` clear bits, or the figure the allocator refused (never an abort).
    pub fn try_new(len: u64) -> Result<BitSet, TooLarge> {
        let words = len.div_ceil(WORD_BITS);
        let too_large = TooLarge {
            bytes: u128::from(words) * 8,
        };
        let count = usize::try_from(words).map_err(|_| too_large)?;
        let mut bits = Vec::new();
        bits.try_reserve_exact(count).map_err(|_| too_large)?;
        bits.resize_with(count, || AtomicU64::new(0));
        Ok(BitSet { words: bits })
    }

    /// The storage words: word `w` holds bits `64 * w .. 64 * w + 63`, lowest bit first.
    /// Hot loops take this slice once rather than decoding a bit position per access.
    pub fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// Number of storage words.
    pub fn word_count(&self) -> usize {
        self.words.len()
    }
}
