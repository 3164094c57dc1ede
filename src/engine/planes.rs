//! The bit planes a search keeps (two bits a rank), the occupancy summaries that let a
//! sparse level be read without a pass over all of them, and [`Frontier`], the view of a
//! level that observers read.

use super::bitset::{BitSet, TooLarge, WORD_BITS, prefetch};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Words of the frontier one rayon task scans (64 Ki ranks): enough work to amortise
/// scheduling, small enough to balance two cores on the sparse first and last levels and
/// on spaces of a few hundred thousand ranks (lo33: 0.039 s against 0.049 s at 256 Ki;
/// 3x4 and pancakes of 12 the same).
pub(super) const CHUNK_WORDS: usize = 1024;

/// Words of ranks (256 ranks, one 64-byte line of the interleaved planes) that one bit of
/// the occupancy summary stands for (see [`Planes`]).
pub(super) const BLOCK_WORDS: usize = 4;

/// This process's ranks in the next level, as the observer sees them.
#[derive(Clone, Copy)]
pub struct Frontier<'a> {
    /// The storage words, taken once: readers go word by word over whole levels.
    marks: &'a [AtomicU64],
    /// `Some(this)`: the words are two interleaved planes and the level's ranks are those
    /// with only plane `this` set; `None`: a plain bit set.
    plane: Option<usize>,
    /// The first rank this process holds.
    start: u64,
    /// Words of this process's ranks.
    words: usize,
    /// Which words may hold ranks of the level, at the finest grain the search knows.
    occupancy: Occupancy<'a>,
}

/// What the search knows of where a level's ranks are.
#[derive(Clone, Copy)]
enum Occupancy<'a> {
    /// Nothing: any word may hold some.
    Unknown,
    /// `flags[c]`: whether chunk `c` ([`CHUNK_WORDS`] words) received one.
    Chunks(&'a [bool]),
    /// The level's occupancy summary (see [`Planes`]): one bit per [`BLOCK_WORDS`] words,
    /// recorded when the level was expected to be sparse.
    Blocks(&'a [AtomicU64]),
}

impl<'a> Frontier<'a> {
    /// The level held as a plain bit set over all ranks (a weighted search's bucket).
    pub fn of_bits(bits: &'a BitSet) -> Self {
        let marks = bits.words();
        Frontier {
            marks,
            plane: None,
            start: 0,
            words: marks.len(),
            occupancy: Occupancy::Unknown,
        }
    }

    /// No ranks: what the observer is given of a level on disk.
    pub(super) fn empty() -> Self {
        Frontier {
            marks: &[],
            plane: None,
            start: 0,
            words: 0,
            occupancy: Occupancy::Unknown,
        }
    }

    /// The level of depth `depth` in `planes`, whose ranks lie in the chunks `chunks` flags
    /// (and in the blocks of its summary, if recorded).
    pub(super) fn of_planes(planes: &'a Planes, depth: usize, chunks: &'a [bool]) -> Self {
        Frontier {
            marks: planes.marks.words(),
            plane: Some(roles(depth).0),
            start: planes.slice.start,
            words: planes.words,
            occupancy: match planes.summary_of(depth) {
                Some(blocks) => Occupancy::Blocks(blocks),
                None => Occupancy::Chunks(chunks),
            },
        }
    }

    /// Whether `rank` is in the level (false for ranks another process owns).
    pub fn contains(&self, rank: u64) -> bool {
        let w = rank.wrapping_sub(self.start()) / WORD_BITS;
        (w as usize) < self.word_count() && self.word(w as usize) >> (rank % WORD_BITS) & 1 == 1
    }

    /// The first rank this process holds (a multiple of 64).
    pub fn start(&self) -> u64 {
        self.start
    }

    /// Words of this process's slice.
    pub fn word_count(&self) -> usize {
        self.words
    }

    /// Word `w` of the level: bit `b` is set when rank `start() + 64 * w + b` is in it.
    /// Readers that scan a whole level in parallel (the heuristic atlas) go word by word.
    #[inline]
    pub fn word(&self, w: usize) -> u64 {
        match self.plane {
            Some(this) => level_word(self.marks, w, this),
            None => self.marks[w].load(Relaxed),
        }
    }

    /// The runs of the words `words` that may hold ranks of the level, ascending: a reader
    /// of a sparse level (the first and last few dozen of a big board) skips the rest
    /// instead of reading every word of the planes.
    pub fn occupied(&self, words: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
        let (units, unit): (Box<dyn Iterator<Item = usize>>, usize) = match self.occupancy {
            Occupancy::Unknown => (Box::new(0..1), self.words.max(1)),
            Occupancy::Chunks(flags) => (
                Box::new((words.start / CHUNK_WORDS..words.end.div_ceil(CHUNK_WORDS)).filter(move |&c| flags[c])),
                CHUNK_WORDS,
            ),
            Occupancy::Blocks(summary) => (
                Box::new(set_blocks(
                    summary,
                    words.start / BLOCK_WORDS..words.end.div_ceil(BLOCK_WORDS),
                    false,
                )),
                BLOCK_WORDS,
            ),
        };
        runs(units, unit, words)
    }

    /// The ranks of the level this process holds, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let start = self.start();
        self.occupied(0..self.word_count()).flatten().flat_map(move |w| {
            let mut word = self.word(w);
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = u64::from(word.trailing_zeros());
                    word &= word - 1;
                    start + w as u64 * WORD_BITS + bit
                })
            })
        })
    }
}

/// Two bits for each rank of this process's slice, in two planes: unseen (both clear), in
/// the level of depth `d` (only plane `d % 2` set), in the next level (only the other
/// plane), or done (both).
///
/// The planes are interleaved word by word (even index: plane 0, odd: plane 1), so the
/// look-up of a neighbour, usually a cache miss, brings both bits into one cache line.
/// The two planes swap roles every level, so that no pass over the planes is needed between
/// levels: expanding level `d` marks a new rank by setting its bit of plane `(d + 1) % 2`,
/// and retires each rank it expanded by setting that same bit (done); what is left with
/// that plane's bit alone is level `d + 1`. During a level bits only go from 0 to 1, so
/// concurrent marks need nothing stronger than `fetch_or`.
///
/// A level much smaller than the slice (the first and last few dozen of a big board) would
/// still cost a pass over all of the planes, gigabytes for 2x7, to find its ranks. So while
/// a level is expanded and the next one is expected to be sparse, each new mark also sets
/// a bit of an occupancy summary, one bit per [`BLOCK_WORDS`] words: the next level then
/// reads only the blocks the summary names. Two summaries alternate like the planes.
pub(crate) struct Planes {
    pub(super) marks: BitSet,
    /// `occupied[d % 2]`: blocks holding ranks of level `d`, if it was recorded.
    occupied: [BitSet; 2],
    /// `recorded[d % 2]`: whether `occupied[d % 2]` was recorded for level `d`.
    recorded: [AtomicBool; 2],
    pub(super) slice: Range<u64>,
    /// Words of the slice.
    pub(super) words: usize,
    /// The bits of the slice's last word that are ranks.
    pub(super) last_word: u64,
}

/// The plane whose bit alone marks the level of depth `depth`, and the other one (which
/// marks the next level, and with the first, done): word offsets within a pair.
#[inline]
pub(super) fn roles(depth: usize) -> (usize, usize) {
    (depth % 2, 1 - depth % 2)
}

/// Word `w` of the level whose ranks have only plane `this` of the interleaved `marks` set.
#[inline(always)]
pub(super) fn level_word(marks: &[AtomicU64], w: usize, this: usize) -> u64 {
    marks[2 * w + this].load(Relaxed) & !marks[2 * w + (1 - this)].load(Relaxed)
}

/// The blocks among `blocks` whose bit is set in the occupancy summary `summary`, ascending.
/// With `take` the summary's words are cleared as they are read (so `blocks` must then cover
/// them whole).
pub(super) fn set_blocks(summary: &[AtomicU64], blocks: Range<usize>, take: bool) -> impl Iterator<Item = usize> + '_ {
    let bits = WORD_BITS as usize;
    (blocks.start / bits..blocks.end.div_ceil(bits))
        .flat_map(move |s| {
            let mut word = if take {
                summary[s].swap(0, Relaxed)
            } else {
                summary[s].load(Relaxed)
            };
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let block = s * bits + word.trailing_zeros() as usize;
                    word &= word - 1;
                    block
                })
            })
        })
        .filter(move |b| blocks.contains(b))
}

/// The words of runs of consecutive units among `units` (ascending indices of units of
/// `unit` words each), clipped to `words`: one range a run.
pub(super) fn runs(
    units: impl Iterator<Item = usize>,
    unit: usize,
    words: Range<usize>,
) -> impl Iterator<Item = Range<usize>> {
    let mut units = units.peekable();
    std::iter::from_fn(move || {
        let first = units.next()?;
        let mut last = first;
        while units.next_if_eq(&(last + 1)).is_some() {
            last += 1;
        }
        Some(words.start.max(first * unit)..words.end.min((last + 1) * unit))
    })
}

/// Records in `summary`, if any, that word `w` of the slice holds a rank of the next level.
#[inline]
pub(super) fn note(summary: Option<&[AtomicU64]>, w: usize) {
    if let Some(summary) = summary {
        let block = w / BLOCK_WORDS;
        let (word, bit) = (&summary[block / WORD_BITS as usize], 1 << (block % WORD_BITS as usize));
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }
}

impl Planes {
    pub(super) fn try_new(slice: Range<u64>) -> Result<Self, TooLarge> {
        let len = slice.end - slice.start;
        let words = usize::try_from(len.div_ceil(WORD_BITS)).map_err(|_| TooLarge {
            bytes: u128::from(len) / 4,
        })?;
        let blocks = words.div_ceil(BLOCK_WORDS) as u64;
        Ok(Self {
            marks: BitSet::try_new(2 * words as u64 * WORD_BITS)?,
            occupied: [BitSet::try_new(blocks)?, BitSet::try_new(blocks)?],
            recorded: [AtomicBool::new(false), AtomicBool::new(false)],
            slice,
            words,
            last_word: u64::MAX >> ((WORD_BITS - len % WORD_BITS) % WORD_BITS),
        })
    }

    /// Ranks in the slice.
    pub(super) fn len(&self) -> u64 {
        self.slice.end - self.slice.start
    }

    /// These planes for `slice`, of the same length, their marks as they were: for a caller
    /// that then writes or clears every word.
    pub(super) fn reuse(&mut self, slice: Range<u64>) {
        debug_assert_eq!(
            slice.end - slice.start,
            self.len(),
            "planes reused for a slice of another length"
        );
        for summary in &self.occupied {
            summary.words().iter().for_each(|w| w.store(0, Relaxed));
        }
        self.recorded = [AtomicBool::new(false), AtomicBool::new(false)];
        self.slice = slice;
    }

    /// `rank`'s index within the slice, if this process owns it.
    #[inline]
    pub(super) fn local(&self, rank: u64) -> Option<u64> {
        let i = rank.wrapping_sub(self.slice.start);
        (i < self.slice.end - self.slice.start).then_some(i)
    }

    /// Word `w` of the level of depth `depth`: its ranks in this slice.
    #[inline]
    fn level_word(&self, w: usize, depth: usize) -> u64 {
        level_word(self.marks.words(), w, roles(depth).0)
    }

    pub(super) fn is_current(&self, i: u64, depth: usize) -> bool {
        self.level_word((i / WORD_BITS) as usize, depth) >> (i % WORD_BITS) & 1 == 1
    }

    /// Puts index `i` in the level of depth `depth` (a goal, before the search).
    pub(super) fn set_current(&self, i: u64, depth: usize) {
        let w = 2 * (i / WORD_BITS) as usize + roles(depth).0;
        self.marks.words()[w].fetch_or(1 << (i % WORD_BITS), Relaxed);
    }

    /// Blocks of the slice.
    fn blocks(&self) -> u64 {
        self.words.div_ceil(BLOCK_WORDS) as u64
    }

    /// The summary to record the next level in while level `depth` is expanded, if that
    /// level is expected to be sparse in this slice: `expected` ranks, fewer than a quarter
    /// of the blocks. Below that, the summary's upkeep (a look-up per new rank) costs less
    /// than a pass over the planes. The expectation is a guess that only decides speed: an
    /// unrecorded level is read in full.
    pub(super) fn summary_for_next(&self, depth: usize, expected: f64) -> Option<&[AtomicU64]> {
        let record = expected < (self.blocks() / 4) as f64;
        let next = (depth + 1) % 2;
        self.recorded[next].store(record, Relaxed);
        record.then(|| self.occupied[next].words())
    }

    /// The summary of level `depth`, if it was recorded.
    pub(super) fn summary_of(&self, depth: usize) -> Option<&[AtomicU64]> {
        self.recorded[depth % 2]
            .load(Relaxed)
            .then(|| self.occupied[depth % 2].words())
    }

    /// Marks as next (while level `depth` is expanded) the ranks other processes found for
    /// this one that are still unseen; returns how many of them this process does not own
    /// (a transport bug). Many ranks are marked by all the threads (the marks are atomic):
    /// a dense level of a search on disk delivers hundreds of millions between its parts.
    pub(super) fn deliver(
        &self,
        ranks: &[u64],
        depth: usize,
        record: Option<&[AtomicU64]>,
        touched: &[AtomicBool],
    ) -> u64 {
        use rayon::prelude::*;
        const SHARE: usize = 1 << 14;
        if ranks.len() > SHARE {
            return (ranks.par_chunks(SHARE))
                .map(|share| self.deliver_here(share, depth, record, touched))
                .sum();
        }
        self.deliver_here(ranks, depth, record, touched)
    }

    /// [`Planes::deliver`] on this thread.
    fn deliver_here(&self, ranks: &[u64], depth: usize, record: Option<&[AtomicU64]>, touched: &[AtomicBool]) -> u64 {
        let next = roles(depth).1;
        let marks = self.marks.words();
        let mut foreign = 0;
        // A batch at a time, as the expansion marks its predecessors: every line asked
        // for first, then the look-ups, then the locked writes (a full barrier on x86),
        // so that the cache misses of a batch overlap.
        let mut unseen = [0u64; DELIVERY_BATCH];
        for batch in ranks.chunks(DELIVERY_BATCH) {
            for &rank in batch {
                if let Some(i) = self.local(rank) {
                    prefetch(&marks[2 * (i / WORD_BITS) as usize]);
                }
            }
            let mut kept = 0;
            for &rank in batch {
                let Some(i) = self.local(rank) else {
                    foreign += 1;
                    continue;
                };
                let (w, bit) = ((i / WORD_BITS) as usize, 1 << (i % WORD_BITS));
                unseen[kept] = i;
                kept += usize::from((marks[2 * w].load(Relaxed) | marks[2 * w + 1].load(Relaxed)) & bit == 0);
            }
            for &i in &unseen[..kept] {
                let w = (i / WORD_BITS) as usize;
                marks[2 * w + next].fetch_or(1 << (i % WORD_BITS), Relaxed);
                touch(touched, w / CHUNK_WORDS);
                note(record, w);
            }
        }
        foreign
    }

    /// How many ranks of the level of depth `depth` chunk `c` holds.
    pub(super) fn chunk_count(&self, c: usize, depth: usize) -> u64 {
        (c * CHUNK_WORDS..self.words.min((c + 1) * CHUNK_WORDS))
            .map(|w| u64::from(self.level_word(w, depth).count_ones()))
            .sum()
    }

    /// Ranks of the level of depth `depth` in the slice, and ranks not yet seen.
    pub(super) fn census(&self, depth: usize) -> (u64, u64) {
        use rayon::prelude::*;
        let marks = self.marks.words();
        (0..self.words)
            .into_par_iter()
            .map(|w| {
                let valid = if w == self.words - 1 { self.last_word } else { u64::MAX };
                let unseen = !(marks[2 * w].load(Relaxed) | marks[2 * w + 1].load(Relaxed)) & valid;
                (
                    u64::from(self.level_word(w, depth).count_ones()),
                    u64::from(unseen.count_ones()),
                )
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }

    /// Whether chunk `c` holds ranks of the level of depth `depth` (after a resume).
    pub(super) fn chunk_has_current(&self, c: usize, depth: usize) -> bool {
        (c * CHUNK_WORDS..self.words.min((c + 1) * CHUNK_WORDS)).any(|w| self.level_word(w, depth) != 0)
    }
}

/// Ranks [`Planes::deliver`] looks up at once.
const DELIVERY_BATCH: usize = 256;

/// Flags chunk `chunk` as holding part of the next level. The flags share cache lines
/// between workers, so each is written once a level, not once a rank.
#[inline]
pub(super) fn touch(touched: &[AtomicBool], chunk: usize) {
    if !touched[chunk].load(Relaxed) {
        touched[chunk].store(true, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Deliveries are marked a prefetched batch at a time, and by every thread past a share:
    /// whatever their order and repeats, the unseen ranks become the next level and the
    /// others are left as they were, those of other parts counted.
    #[test]
    fn delivered_ranks_mark_the_unseen_ones_however_many() {
        let slice = 1_000..201_000;
        let planes = Planes::try_new(slice.clone()).expect("a small part");
        for i in (0..200_000).step_by(7) {
            planes.set_current(i, 4);
        }
        let touched: Vec<AtomicBool> = (0..planes.words.div_ceil(CHUNK_WORDS))
            .map(|_| AtomicBool::new(false))
            .collect();
        // More than a share, in no order, with repeats and ranks of other parts.
        let ranks: Vec<u64> = (0..300_000u64).map(|k| k * 7_919 % 210_000).collect();
        let foreign = planes.deliver(&ranks, 4, None, &touched);
        assert_eq!(foreign, ranks.iter().filter(|r| !slice.contains(r)).count() as u64);
        let sent: HashSet<u64> = ranks.iter().copied().collect();
        for i in 0..200_000 {
            let found = sent.contains(&(slice.start + i)) && i % 7 != 0;
            assert_eq!(planes.is_current(i, 5), found, "index {i}");
            assert_eq!(planes.is_current(i, 4), i % 7 == 0, "index {i}");
        }
    }
}
