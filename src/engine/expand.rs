//! The expansion of one chunk of a level: count its ranks, retire them, and mark their
//! unseen predecessors as the next level (or keep them for the processes that own them).
//!
//! Where the time goes, and the tricks against it: a run of words is read in three passes
//! ([`Worker`]), so that the copy of the level is a loop without branches and the puzzle's
//! word loop is set up once a run; predecessors one rank away are marked with word shifts
//! ([`Shifts`]), in the same locked instruction that retires the word; far predecessors are
//! gathered and prefetched before they are looked up, and the look-ups are issued before
//! any locked write ([`Batch`]), so that their cache misses overlap.

use super::bins::{BinSet, Gather};
use super::bitset::{BATCH, WORD_BITS, prefetch};
use super::counts::LevelCounts;
use super::exchange::Partition;
use super::planes::{BLOCK_WORDS, CHUNK_WORDS, Planes, level_word, note, roles, runs, set_blocks, touch};
use crate::puzzle::{Adjacent, Bins, SearchGraph};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// [`Adjacent`] predecessors as word masks: bit `b` of `below[w % period]` is set when rank
/// `64 * w + b` has the predecessor one below, so a whole word of the frontier yields its
/// adjacent predecessors in a few shifts instead of 64 calls into the puzzle.
pub(super) struct Shifts {
    below: Vec<u64>,
    above: Vec<u64>,
    /// `below.len()`, and `2^64 / below.len()` rounded up: [`Shifts::phase`] divides by it
    /// once a word of the frontier, with a multiply rather than a hardware divide.
    period: u64,
    reciprocal: u64,
}

impl Shifts {
    pub(super) fn new(adjacent: &Adjacent) -> Self {
        let period = adjacent.below.len() as u64;
        // The pattern of `period` ranks lines up with word boundaries again after
        // lcm(period, 64) ranks.
        let words = period / gcd(period, WORD_BITS);
        let mask = |moves: &[bool], w: u64| {
            (0..WORD_BITS).fold(0, |m, b| {
                m | (u64::from(moves[((w * WORD_BITS + b) % period) as usize]) << b)
            })
        };
        Self {
            below: (0..words).map(|w| mask(&adjacent.below, w)).collect(),
            above: (0..words).map(|w| mask(&adjacent.above, w)).collect(),
            period: words,
            reciprocal: (u64::MAX / words).wrapping_add(1),
        }
    }

    /// Which of the masks word `w` takes: `w % below.len()`. The multiply gives the exact
    /// quotient while `w * period < 2^64` (the error of the rounded reciprocal is below
    /// `period`); a period of 1 wraps the reciprocal to 0, and the quotient to 0 with it, so
    /// that case is handled apart.
    #[inline(always)]
    fn phase(&self, w: usize) -> usize {
        if self.period == 1 {
            return 0;
        }
        let q = ((u128::from(w as u64) * u128::from(self.reciprocal)) >> 64) as u64;
        (w as u64 - q * self.period) as usize
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// What every worker of a level shares.
pub(super) struct Expansion<'a> {
    pub(super) planes: &'a Planes,
    /// Chunks that received a rank of the next level.
    pub(super) touched: &'a [AtomicBool],
    pub(super) adjacent: Option<&'a Shifts>,
    pub(super) partition: Partition,
    pub(super) me: usize,
    pub(super) classes: usize,
    /// Whether the level's predecessors are marked; without, the level is only counted
    /// and retired (its successor was found bottom-up).
    pub(super) predecessors: bool,
    /// Where a search on disk keeps the [`crate::puzzle::Bins`] its part `me` sends.
    pub(super) bins: Option<&'a BinSet>,
}

impl Expansion<'_> {
    /// Counts the frontier ranks in chunk `c` of the slice and marks their unseen
    /// predecessors as next, or keeps them for their owners. Reads the chunk's words in
    /// full, or only the blocks `summary` names (and clears them there); records the blocks
    /// of new ranks in `record`.
    ///
    /// The planes are tested with a plain load before the `fetch_or`, so a locked
    /// instruction (a full barrier on x86) is issued only once per newly found far rank,
    /// and once per word of the level, which retires its ranks and marks their new
    /// neighbours within the word together.
    pub(super) fn expand<P: SearchGraph>(
        &self,
        puzzle: &P,
        c: usize,
        depth: usize,
        summary: Option<&[AtomicU64]>,
        record: Option<&[AtomicU64]>,
    ) -> LevelCounts {
        let worker = Worker::new(self, puzzle, depth, record);
        let mut tally = LevelCounts::new(self.classes);
        let mut scratch = Scratch {
            batch: Batch {
                pairs: worker.marks.as_chunks().0,
                next: worker.next,
                touched: self.touched,
                record,
                len: 0,
                preds: [0; BATCH],
                generated: 0,
            },
            gather: self.bins.map(|set| Gather::new(set, self.me)),
            memo: P::Memo::default(),
            level: Vec::with_capacity(CHUNK_WORDS),
            occupied: [0u64; CHUNK_WORDS / WORD_BITS as usize],
        };
        let first = c * CHUNK_WORDS;
        let end = worker.words.min(first + CHUNK_WORDS);
        match summary {
            None => worker.expand_run(first..end, &mut scratch, &mut tally),
            Some(summary) => {
                // The chunk's blocks that hold ranks of the level, consecutive ones as one
                // run; the summary is cleared for its next use two levels on.
                let blocks = first / BLOCK_WORDS..end.div_ceil(BLOCK_WORDS);
                for run in runs(set_blocks(summary, blocks, true), BLOCK_WORDS, first..end) {
                    worker.expand_run(run, &mut scratch, &mut tally);
                }
            }
        }
        scratch.batch.flush();
        if let Some(gather) = scratch.gather.as_mut() {
            gather.flush();
        }
        tally.generated += scratch.batch.generated;
        tally
    }
}

/// One chunk's expansion: where the level is and where its marks go, fixed for the chunk
/// and read by every pass over its runs.
struct Worker<'a, P> {
    puzzle: &'a P,
    uniform: bool,
    /// The interleaved planes, the plane whose bit alone marks the level, and the other.
    marks: &'a [AtomicU64],
    this: usize,
    next: usize,
    /// Ranks of the puzzle, and words of them (all processes).
    states: u64,
    all_words: usize,
    /// The slice: its first rank, its ranks, its words, the bits of its last word that are
    /// ranks, and the global index of its first word (slices start on a word).
    start: u64,
    len: u64,
    words: usize,
    last_word: u64,
    base: usize,
    adjacent: Option<&'a Shifts>,
    /// Chunks that received a rank of the next level, and the next level's summary.
    touched: &'a [AtomicBool],
    record: Option<&'a [AtomicU64]>,
    partition: Partition,
    me: usize,
    predecessors: bool,
}

/// What a worker changes as it goes: the predecessors gathered, the puzzle's memo, and
/// the level's words of the run being expanded, kept as they were before retiring, and
/// which of them are not empty (bit `j % 64` of `occupied[j / 64]`).
struct Scratch<'a, M> {
    batch: Batch<'a>,
    /// A search on disk's bits of bins, gathered likewise.
    gather: Option<Gather<'a>>,
    memo: M,
    level: Vec<u64>,
    occupied: [u64; CHUNK_WORDS / WORD_BITS as usize],
}

impl<'a, P: SearchGraph> Worker<'a, P> {
    fn new(shared: &Expansion<'a>, puzzle: &'a P, depth: usize, record: Option<&'a [AtomicU64]>) -> Self {
        let (this, next) = roles(depth);
        let planes = shared.planes;
        let states = puzzle.states();
        Worker {
            puzzle,
            uniform: puzzle.uniform(),
            marks: planes.marks.words(),
            this,
            next,
            states,
            all_words: states.div_ceil(WORD_BITS) as usize,
            start: planes.slice.start,
            len: planes.slice.end - planes.slice.start,
            words: planes.words,
            last_word: planes.last_word,
            base: (planes.slice.start / WORD_BITS) as usize,
            adjacent: shared.adjacent,
            touched: shared.touched,
            record,
            partition: shared.partition,
            me: shared.me,
            predecessors: shared.predecessors,
        }
    }

    /// Keeps `rank` for the process that owns it.
    fn remote(&self, tally: &mut LevelCounts, rank: u64) {
        if tally.remote.is_empty() {
            tally.remote.resize_with(self.partition.processes(), Vec::new);
        }
        let owner = self.partition.owner(rank);
        debug_assert_ne!(owner, self.me);
        tally.remote[owner].push(rank);
    }

    /// The ranks of `found` in word `local` of the slice that are not yet seen (those past
    /// the slice's last rank counted as escapes), with the word's chunk and block flagged
    /// for the next level if there are any: the caller marks them.
    fn unseen(&self, local: usize, found: u64, tally: &mut LevelCounts) -> u64 {
        let marks = self.marks;
        let valid = if local == self.words - 1 {
            self.last_word
        } else {
            u64::MAX
        };
        if found & !valid != 0 {
            tally.escapes += u64::from((found & !valid).count_ones());
        }
        let new = found & valid & !(marks[2 * local].load(Relaxed) | marks[2 * local + 1].load(Relaxed));
        if new != 0 {
            touch(self.touched, local / CHUNK_WORDS);
            note(self.record, local);
        }
        new
    }

    /// Marks the ranks of `found` in global word `w` that are not yet seen, or keeps
    /// them for their owner.
    fn mark_word(&self, w: usize, found: u64, tally: &mut LevelCounts) {
        if found == 0 {
            return;
        }
        tally.generated += u64::from(found.count_ones());
        let local = w.wrapping_sub(self.base);
        if local < self.words {
            let new = self.unseen(local, found, tally);
            if new != 0 {
                self.marks[2 * local + self.next].fetch_or(new, Relaxed);
            }
        } else if w < self.all_words {
            let mut bits = found;
            while bits != 0 {
                let rank = w as u64 * WORD_BITS + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                if rank < self.states {
                    self.remote(tally, rank);
                } else {
                    tally.escapes += 1;
                }
            }
        } else {
            tally.escapes += u64::from(found.count_ones());
        }
    }

    /// Expands the words `run` of the slice, consecutive; the words around it hold no
    /// rank of the level. Three passes: the first copies the level's words, a tight loop
    /// without branches; the second visits the words that are not empty, to count and
    /// retire their ranks and mark their adjacent predecessors; the third hands the
    /// words to the puzzle for the far predecessors, all at once, so that its loop is set
    /// up once a run.
    fn expand_run(&self, run: Range<usize>, scratch: &mut Scratch<'a, P::Memo>, tally: &mut LevelCounts) {
        self.copy_level(run.clone(), scratch);
        self.retire(run.clone(), scratch, tally);
        if self.predecessors {
            self.far_predecessors(run.start, scratch, tally);
        }
    }

    /// The first pass of [`Worker::expand_run`]: the level's words of `run` and which are
    /// not empty, into `scratch`.
    fn copy_level(&self, run: Range<usize>, scratch: &mut Scratch<'a, P::Memo>) {
        let (level, occupied) = (&mut scratch.level, &mut scratch.occupied);
        level.clear();
        level.extend(run.map(|local| level_word(self.marks, local, self.this)));
        for (occupied, words) in occupied.iter_mut().zip(level.chunks(WORD_BITS as usize)) {
            *occupied = (words.iter().enumerate()).fold(0, |mask, (b, &word)| mask | u64::from(word != 0) << b);
        }
    }

    /// The second pass of [`Worker::expand_run`]: counts and retires the ranks of each word
    /// that is not empty, and marks their adjacent predecessors.
    fn retire(&self, run: Range<usize>, scratch: &Scratch<'a, P::Memo>, tally: &mut LevelCounts) {
        let adjacent = self.adjacent.filter(|_| self.predecessors);
        let (base, marks) = (self.base, self.marks);
        let phase = adjacent.map_or(0, |a| a.phase(base + run.start));
        for (group, &mask) in scratch.occupied[..run.len().div_ceil(WORD_BITS as usize)]
            .iter()
            .enumerate()
        {
            let mut mask = mask;
            while mask != 0 {
                let j = group * WORD_BITS as usize + mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let (word, local) = (scratch.level[j], run.start + j);
                let w = base + local;
                tally.count(self.puzzle, self.uniform, w as u64 * WORD_BITS, word);
                // Retired: done from now on, so no mark of this level takes them again;
                // and the adjacent predecessors within the word marked in the same
                // locked instruction.
                let mut retire = word;
                if let Some(a) = adjacent {
                    let p = a.phase(phase + j);
                    let (down, up) = (word & a.below[p], word & a.above[p]);
                    let inner = (up << 1) | (down >> 1);
                    tally.generated += u64::from(inner.count_ones());
                    retire |= self.unseen(local, inner, tally);
                    // Those one word down or up: rarely any.
                    if down & 1 != 0 {
                        self.mark_word(w.wrapping_sub(1), 1 << 63, tally);
                    }
                    if up >> 63 != 0 {
                        self.mark_word(w + 1, 1, tally);
                    }
                }
                marks[2 * local + self.next].fetch_or(retire, Relaxed);
            }
        }
    }

    /// The third pass of [`Worker::expand_run`]: the far predecessors of the run starting
    /// at word `run_start`, gathered for marking, kept for their owners, or counted as
    /// escapes.
    fn far_predecessors(&self, run_start: usize, scratch: &mut Scratch<'a, P::Memo>, tally: &mut LevelCounts) {
        let (start, len) = (self.start, self.len);
        let batch = &mut scratch.batch;
        let gather = &mut scratch.gather;
        let first = (self.base + run_start) as u64 * WORD_BITS;
        self.puzzle
            .for_each_far_predecessor_in_words(&mut scratch.memo, first, &scratch.level, |rank, pred| {
                let i = pred.wrapping_sub(start);
                if i < len {
                    batch.push(i);
                } else {
                    self.far_elsewhere(tally, gather, rank, pred);
                }
            });
    }

    /// A far predecessor `pred` of `rank` outside the slice: kept for its owner, or an
    /// escape. Out of line, so that the puzzle's word loop, where the closure above is
    /// inlined, holds only the common case (one process: never taken).
    #[cold]
    #[inline(never)]
    fn far_elsewhere(&self, tally: &mut LevelCounts, gather: &mut Option<Gather<'_>>, rank: u64, pred: u64) {
        if pred < self.states {
            tally.generated += 1;
            self.remote(tally, pred);
        } else if pred & Bins::FLAG != 0 && gather.as_mut().is_some_and(|g| g.push(pred)) {
            tally.generated += 1;
        } else {
            tally.escapes += 1;
            tally.escape_from.get_or_insert(rank);
        }
    }
}

/// The word (of ranks, so the pair of plane words) and bit of index `i` of the slice.
#[inline(always)]
fn place(i: u64) -> (usize, u64) {
    ((i / WORD_BITS) as usize, 1 << (i % WORD_BITS))
}

/// Predecessors in this process's slice, gathered before they are looked up and marked.
struct Batch<'a> {
    /// The interleaved planes, a pair of words for each word of ranks, and the plane new
    /// marks go to.
    pairs: &'a [[AtomicU64; 2]],
    next: usize,
    touched: &'a [AtomicBool],
    record: Option<&'a [AtomicU64]>,
    len: usize,
    /// The predecessors gathered, by index within the slice.
    preds: [u64; BATCH],
    /// Predecessors pushed so far.
    generated: u64,
}

impl Batch<'_> {
    /// Gathers the predecessor of index `i` in the slice for the next flush, its cache
    /// line asked for meanwhile.
    #[inline(always)]
    fn push(&mut self, i: u64) {
        prefetch(&self.pairs[place(i).0][0]);
        self.preds[self.len] = i;
        self.len += 1;
        if self.len == BATCH {
            self.flush();
        }
    }

    /// Marks the unseen predecessors gathered as next. Every look-up first, then the
    /// writes: a locked instruction is a full barrier on x86, so a `fetch_or` between two
    /// look-ups would make each miss wait for the last. The look-ups keep the new ranks
    /// without a branch: whether a rank is new is a coin toss, and each mispredicted branch
    /// would cancel the look-ups issued after it.
    #[inline(never)]
    fn flush(&mut self) {
        let pairs = self.pairs;
        self.generated += self.len as u64;
        let mut kept = 0;
        for i in 0..self.len.min(BATCH) {
            let index = self.preds[i];
            let (w, bit) = place(index);
            let [a, b] = &pairs[w];
            let seen = (a.load(Relaxed) | b.load(Relaxed)) & bit;
            self.preds[kept] = index;
            kept += usize::from(seen == 0);
        }
        for i in 0..kept.min(BATCH) {
            let (w, bit) = place(self.preds[i]);
            pairs[w][self.next & 1].fetch_or(bit, Relaxed);
            touch(self.touched, w / CHUNK_WORDS);
            note(self.record, w);
        }
        self.len = 0;
    }
}
