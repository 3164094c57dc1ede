//! A fixed-size bit vector shared between threads.
//!
//! The engine keeps two bits per rank (two planes, interleaved word by word), so a
//! 239-million state board needs 60 MB instead of gigabytes of hash map. Bits live in
//! `AtomicU64` words (a `bitvec` vector over atomic storage) so rayon workers can mark
//! neighbours concurrently: during a level a bit only goes from 0 to 1, and `fetch_or`
//! makes concurrent marks of one word safe.

use crate::util::human_bytes;
use bitvec::prelude::{BitVec, Lsb0};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use thiserror::Error;

/// Predecessors gathered before they are looked up (by the expansion, and into bins): each
/// is prefetched as it is gathered ([`prefetch`]), so its cache miss overlaps the ranking
/// arithmetic of the states after it, and by the flush most look-ups hit the cache.
pub(super) const BATCH: usize = 512;

pub use crate::util::WORD_BITS;

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
        if count * 8 >= HUGE_FROM {
            advise_huge_pages(storage.spare_capacity_mut());
        }
        // The first write to each page is what maps it: written in parallel, a set of
        // gigabytes is ready in a fraction of the time one thread takes.
        storage.par_extend((0..count).into_par_iter().map(|_| AtomicU64::new(0)));
        let mut bits = BitVec::from_vec(storage);
        bits.truncate(len);
        Ok(BitSet { bits })
    }

    /// The storage words: word `w` holds bits `64 * w .. 64 * w + 63`, lowest bit first.
    /// Hot loops take this slice once rather than decoding a bit position per access.
    pub fn words(&self) -> &[AtomicU64] {
        self.bits.as_raw_slice()
    }

    /// The storage words, for a caller that holds the set alone: their values read and
    /// written as plain integers (`AtomicU64::get_mut`), which the compiler copies in bulk,
    /// as the search on disk does between its files and the planes.
    pub fn words_mut(&mut self) -> &mut [AtomicU64] {
        self.bits.as_raw_mut_slice()
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

/// Sets of at least this many bytes ask for huge pages (smaller ones gain nothing).
const HUGE_FROM: usize = 16 << 20;

/// Asks Linux to back `spare` (memory just reserved, not yet touched) with 2 MiB pages.
///
/// Why: the search looks up ranks all over sets of up to 11 GB. With 4 KiB pages nearly
/// every look-up also misses the TLB, and the page-table walk is itself a cache miss; with
/// 2 MiB pages the walk stays in cache. Measured on this project's 2-core machine: random
/// reads of a 3 GB array 1.7 times faster, and a set written 2.5 times faster. Linux
/// kernels whose transparent huge pages are in `madvise` mode (the common default) use
/// them only where asked, hence the call; elsewhere, and where the call fails, nothing
/// changes but speed.
///
/// One of the two `unsafe` calls of the crate (with [`prefetch`]): `madvise` takes a raw
/// range. It is sound because the range lies inside `spare`, an allocation this function
/// borrows exclusively, and `MADV_HUGEPAGE` changes how the kernel backs memory, never its
/// contents.
/// Generic over the element: the solver's pattern databases, bytes read from the cache into
/// a vector of known size, ask for the same pages (their look-ups are as random).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn advise_huge_pages<T>(spare: &mut [MaybeUninit<T>]) {
    const PAGE: usize = 4096;
    let start = spare.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(spare);
    // madvise wants a page-aligned range: the whole pages inside the allocation.
    let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
    if first < last {
        let advice = rustix::mm::Advice::LinuxHugepage;
        // SAFETY: [first, last) lies within `spare` (see above) and the advice leaves the
        // memory's contents and validity unchanged.
        let _ = unsafe { rustix::mm::madvise(first as *mut std::ffi::c_void, last - first, advice) };
    }
}

/// See the Linux version: elsewhere nothing is asked.
#[cfg(not(target_os = "linux"))]
pub fn advise_huge_pages<T>(_: &mut [MaybeUninit<T>]) {}

/// Asks the processor to bring the cache line holding `word` closer, without waiting for it.
///
/// Why: a vertical move's predecessor lies anywhere in the bit planes, up to 11 GB, and its
/// look-up is a cache miss. The engine gathers a batch of predecessors before it looks them
/// up; prefetching each as it is gathered lets the misses run while the next states are
/// unranked, instead of the look-ups waiting for them. Measured on this project's 2-core
/// machine (`cargo run --release --example levels -- 2 7 58`, the same build with and
/// without): the busy levels of 2x7 went from 36-40 to 51-56 million states a second, the
/// run to level 58 from 306 s to 215 s. A plain load cannot do this: the processor retires
/// instructions in order, so a missing load stalls everything after it.
///
/// The second and last `unsafe` call of the crate: the intrinsic is `unsafe` only because of
/// its `target_feature` (SSE, which every x86-64 processor has). It reads nothing and cannot
/// fault; the address comes from a reference, so it is valid anyway. Elsewhere it does nothing.
/// Generic over what it fetches: the solver's pattern databases are bytes.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: SSE is part of the x86-64 baseline, and a prefetch has no effect on memory.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>()) };
}

/// See the x86-64 version: elsewhere the look-ups simply wait.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn prefetch<T>(_: &T) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefetch_leaves_the_set_as_it_was() {
        let set = BitSet::try_new(1000).expect("a small set");
        set.insert(999);
        for word in set.words() {
            prefetch(word);
        }
        assert_eq!((0..1000).filter(|&r| set.contains(r)).collect::<Vec<_>>(), [999]);
    }

    #[test]
    fn a_set_has_whole_words_for_its_bits() {
        for (len, words) in [(0, 0), (1, 1), (64, 1), (65, 2), (1000, 16)] {
            assert_eq!(BitSet::try_new(len).map(|s| s.word_count()), Ok(words));
        }
    }

    #[test]
    fn a_large_set_starts_clear_and_takes_marks_everywhere() {
        let len = 8 * HUGE_FROM as u64 + 3;
        let set = BitSet::try_new(len).expect("64 MiB");
        assert!(set.words().iter().all(|w| w.load(Relaxed) == 0));
        for rank in [0, 1, 4095 * 64, len / 2, len - 1] {
            assert!(set.insert(rank) && set.contains(rank) && !set.insert(rank));
        }
        let marked: u32 = set.words().iter().map(|w| w.load(Relaxed).count_ones()).sum();
        assert_eq!(marked, 5);
    }

    /// Where the kernel's transparent huge pages are on (`always` or `madvise`), a large set
    /// is backed by them: the advice took effect.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_set_gets_huge_pages_where_the_kernel_offers_them() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
        if !(mode.contains("[always]") || mode.contains("[madvise]")) {
            return;
        }
        let huge = || {
            let smaps = std::fs::read_to_string("/proc/self/smaps_rollup").unwrap_or_default();
            smaps
                .lines()
                .find_map(|l| l.strip_prefix("AnonHugePages:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        let before = huge();
        let set = BitSet::try_new(8 * 8 * HUGE_FROM as u64).expect("64 MiB");
        let after = huge();
        // Other tests allocate meanwhile; a few of the 32 huge pages are enough to tell.
        assert!(after >= before + 8 * 2048, "{before} kB -> {after} kB of huge pages");
        drop(set);
    }

    #[test]
    fn an_impossible_size_is_refused_with_its_figure() {
        let e = BitSet::try_new(u64::MAX).err();
        assert_eq!(e.map(|e| e.bytes), Some(u128::from(u64::MAX.div_ceil(64)) * 8));
    }
}
