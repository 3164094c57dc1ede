//! Level-synchronous breadth-first search from the goals over every rank of a puzzle.
//!
//! Three bits per rank (visited, this level, next level) are all the memory it needs: 3 bits
//! per rank. Each level is expanded in parallel over fixed chunks of the frontier; the
//! result depends only on the set of states at each level, never on the thread schedule.

use super::bitset::{BitSet, TooLarge, WORD_BITS};
use crate::puzzle::{Adjacent, Puzzle};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use thiserror::Error;

/// Words of the frontier one rayon task scans (256 Ki ranks): enough work to amortise
/// scheduling, small enough to balance two cores on the sparse first and last levels.
const CHUNK_WORDS: usize = 4096;

/// How many ranks of the last level are kept as examples.
pub const EXAMPLES: usize = 20;

/// What a finished search found. Counts are configurations (ranks weighted by
/// [`Puzzle::multiplicity`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// `levels[d]` configurations lie exactly `d` moves from the nearest goal.
    pub levels: Vec<u64>,
    /// Configurations reached in each class of [`Puzzle::classes`].
    pub reached_by_class: Vec<u64>,
    /// The smallest ranks (up to [`EXAMPLES`]) at the maximum distance.
    pub antipodes: Vec<u64>,
}

impl Search {
    /// Configurations reached in all.
    pub fn reachable(&self) -> u64 {
        self.levels.iter().sum()
    }
}

/// Progress reported after each level.
#[derive(Clone, Copy)]
pub struct Level<'a> {
    /// Distance of the level just counted.
    pub depth: usize,
    /// Configurations at that distance.
    pub states: u64,
    /// Configurations reached so far, this level included.
    pub reached: u64,
    /// The ranks at distance `depth + 1`, complete (empty after the last level).
    pub next: &'a BitSet,
}

/// Why a search could not produce a result.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EngineError {
    /// A move led outside the ranked class: the puzzle's invariant does not hold.
    #[error("invariant violated: a move from {from} leaves the class the invariant predicts ({count} such moves)")]
    InvariantViolated {
        /// Example configuration the escaping move starts from.
        from: String,
        /// How many escaping moves were seen in that level.
        count: u64,
    },
    /// A goal rank is not a valid rank (a bug in the puzzle).
    #[error("goal rank {0} is outside the rank space")]
    BadGoal(u64),
    /// The observer asked to stop.
    #[error("interrupted")]
    Interrupted,
    /// The bit sets do not fit in memory.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
}

/// Per-chunk tallies, merged in chunk order so that examples come out sorted.
#[derive(Default)]
struct Tally {
    states: u64,
    by_class: Vec<u64>,
    examples: Vec<u64>,
    escapes: u64,
    escape_from: Option<u64>,
}

impl Tally {
    fn new(classes: usize) -> Self {
        Tally {
            by_class: vec![0; classes],
            ..Tally::default()
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.states += other.states;
        for (a, b) in self.by_class.iter_mut().zip(&other.by_class) {
            *a += b;
        }
        let room = EXAMPLES - self.examples.len();
        self.examples.extend(other.examples.into_iter().take(room));
        self.escapes += other.escapes;
        self.escape_from = self.escape_from.or(other.escape_from);
        self
    }
}

/// Enumerates every configuration reachable from the goals and counts them by distance.
///
/// Runs on the current rayon pool; `observe` is called on the calling thread after each
/// level and may stop the search by returning `ControlFlow::Break`. The caller is
/// responsible for checking that `3 * states / 8` bytes fit.
pub fn bfs<P: Puzzle>(puzzle: &P, mut observe: impl FnMut(&Level) -> ControlFlow<()>) -> Result<Search, EngineError> {
    let states = puzzle.states();
    let classes = puzzle.classes().len();
    // `marks` interleaves each word of the visited set with the same word of the next
    // level (even index: visited, odd: next): the look-up of a neighbour, usually a cache
    // miss, then brings both into one cache line.
    let marks = BitSet::try_new(2 * states.div_ceil(WORD_BITS) * WORD_BITS)?;
    let current = BitSet::try_new(states)?;
    let words = current.word_count();
    let chunks = words.div_ceil(CHUNK_WORDS);
    // Which chunks hold part of the frontier, and which received a rank of the next
    // level: the first and last levels are a few ranks, and scanning every word for them
    // would cost as much as a busy level.
    let mut frontier = vec![false; chunks];
    let touched: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(false)).collect();
    for goal in puzzle.goals() {
        if goal >= states {
            return Err(EngineError::BadGoal(goal));
        }
        let (w, bit) = ((goal / WORD_BITS) as usize, 1 << (goal % WORD_BITS));
        marks.words()[2 * w].fetch_or(bit, Relaxed);
        current.insert(goal);
        frontier[w / CHUNK_WORDS] = true;
    }

    let mut levels = Vec::new();
    let mut reached_by_class = vec![0; classes];
    let adjacent = puzzle.adjacent_predecessors().map(|a| Shifts::new(&a));
    let expansion = Expansion {
        marks: &marks,
        touched: &touched,
        adjacent: adjacent.as_ref(),
        last_word: u64::MAX >> ((WORD_BITS - states % WORD_BITS) % WORD_BITS),
        classes,
    };
    loop {
        let tally = (0..chunks)
            .into_par_iter()
            .filter(|&chunk| frontier[chunk])
            .map(|chunk| {
                let range = chunk * CHUNK_WORDS..words.min((chunk + 1) * CHUNK_WORDS);
                let first = range.start;
                expansion.expand(puzzle, &current.words()[range], first)
            })
            .reduce(|| Tally::new(classes), Tally::merge);
        if tally.escapes > 0 {
            let from = tally.escape_from.map_or_else(String::new, |r| puzzle.render(r));
            return Err(EngineError::InvariantViolated {
                from,
                count: tally.escapes,
            });
        }
        let discovered = merge(&marks, &current, &touched, &mut frontier);
        for (total, add) in reached_by_class.iter_mut().zip(&tally.by_class) {
            *total += add;
        }
        levels.push(tally.states);
        let flow = observe(&Level {
            depth: levels.len() - 1,
            states: tally.states,
            reached: levels.iter().sum(),
            next: &current,
        });
        if flow.is_break() {
            return Err(EngineError::Interrupted);
        }
        if discovered == 0 {
            return Ok(Search {
                levels,
                reached_by_class,
                antipodes: tally.examples,
            });
        }
    }
}

/// Moves the new level from `marks` into `current` (emptied by the expansion), adds it
/// to the visited words, and counts it: a sequential pass over the touched chunks, each
/// owned by one worker, so plain loads and stores suffice. Sets `frontier` to the chunks
/// the new level occupies.
fn merge(marks: &BitSet, current: &BitSet, touched: &[AtomicBool], frontier: &mut [bool]) -> u64 {
    marks
        .words()
        .par_chunks(2 * CHUNK_WORDS)
        .zip(current.words().par_chunks(CHUNK_WORDS))
        .zip(touched)
        .zip(frontier)
        .map(|(((pairs, level), touched), frontier)| {
            let mut count = 0;
            if !touched.swap(false, Relaxed) {
                *frontier = false;
                return 0;
            }
            for (pair, word) in pairs.chunks_exact(2).zip(level) {
                let bits = pair[1].load(Relaxed);
                if bits != 0 {
                    pair[0].store(pair[0].load(Relaxed) | bits, Relaxed);
                    pair[1].store(0, Relaxed);
                    word.store(bits, Relaxed);
                    count += u64::from(bits.count_ones());
                }
            }
            *frontier = count > 0;
            count
        })
        .sum()
}

/// [`Adjacent`] predecessors as word masks: bit `b` of `below[w % period]` is set when rank
/// `64 * w + b` has the predecessor one below, so a whole word of the frontier yields its
/// adjacent predecessors in a few shifts instead of 64 calls into the puzzle.
struct Shifts {
    below: Vec<u64>,
    above: Vec<u64>,
}

impl Shifts {
    fn new(adjacent: &Adjacent) -> Self {
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
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Predecessors gathered before they are looked up, so that the look-ups (mostly cache
/// misses) run back to back and overlap instead of waiting behind the ranking
/// arithmetic of each state.
const BATCH: usize = 512;

/// What every worker of a level shares.
struct Expansion<'a> {
    marks: &'a BitSet,
    /// Chunks that received a rank of the next level.
    touched: &'a [AtomicBool],
    adjacent: Option<&'a Shifts>,
    /// The bits of the last word that are ranks (below `states`).
    last_word: u64,
    classes: usize,
}

impl Expansion<'_> {
    /// Counts the frontier ranks in `chunk` (words of the current level starting at word
    /// `first`), marks their unvisited predecessors as next in `marks`, and clears the chunk:
    /// its bits are not needed again, and [`merge`] refills it with the next level.
    ///
    /// The visited words (this level and every one before) are only read during a level,
    /// and the next words are tested with a plain load before the `fetch_or`, so a locked
    /// instruction (a full barrier on x86) is issued only once per newly found rank.
    fn expand<P: Puzzle>(&self, puzzle: &P, chunk: &[AtomicU64], first: usize) -> Tally {
        let (classes, adjacent, touched) = (self.classes, self.adjacent, self.touched);
        let states = puzzle.states();
        let mut tally = Tally::new(classes);
        let mut batch = Vec::with_capacity(BATCH + 64);
        let mut memo = P::Memo::default();
        let marks = self.marks.words();
        let words = marks.len() / 2;
        let place = |pred: u64| (2 * (pred / WORD_BITS) as usize, 1 << (pred % WORD_BITS));
        // Flags a chunk as holding part of the next level. The flags share cache lines
        // between workers, so each is written once a level, not once a rank.
        let touch = |chunk: usize| {
            if !touched[chunk].load(Relaxed) {
                touched[chunk].store(true, Relaxed);
            }
        };
        // Marks the ranks of `found` in word `w` that are not yet visited or next.
        let mark_word = |w: usize, found: u64, tally: &mut Tally| {
            if found == 0 {
                return;
            }
            let valid = match w {
                _ if w >= words => 0,
                _ if w == words - 1 => self.last_word,
                _ => u64::MAX,
            };
            if found & !valid != 0 {
                tally.escapes += u64::from((found & !valid).count_ones());
                return;
            }
            let new = found & !(marks[2 * w].load(Relaxed) | marks[2 * w + 1].load(Relaxed));
            if new != 0 {
                marks[2 * w + 1].fetch_or(new, Relaxed);
                touch(w / CHUNK_WORDS);
            }
        };
        // Adjacent predecessors found for the previous word, waiting for the next word's
        // ranks that step down into it; and those the previous word's top rank steps up to.
        let (mut pending, mut carry) = (0, 0);
        let mut phase = adjacent.map_or(0, |a| first % a.below.len());
        let flush = |batch: &mut Vec<u64>| {
            // Every look-up first, then the writes: a locked instruction is a full barrier on
            // x86, so a `fetch_or` between two look-ups would make each miss wait for the last.
            // The look-ups keep the new ranks without a branch: whether a rank is new is a coin
            // toss, and each mispredicted branch would cancel the look-ups issued after it.
            let mut kept = 0;
            for i in 0..batch.len() {
                let pred = batch[i];
                let (w, bit) = place(pred);
                let seen = (marks[w].load(Relaxed) | marks[w + 1].load(Relaxed)) & bit;
                batch[kept] = pred;
                kept += usize::from(seen == 0);
            }
            batch.truncate(kept);
            for &pred in batch.iter() {
                let (w, bit) = place(pred);
                marks[w + 1].fetch_or(bit, Relaxed);
                touch(w / (2 * CHUNK_WORDS));
            }
            batch.clear();
        };
        for (w, cell) in (first..).zip(chunk) {
            let mut word = cell.load(Relaxed);
            if word != 0 {
                cell.store(0, Relaxed);
            }
            if let Some(a) = adjacent {
                let (down, up) = (word & a.below[phase], word & a.above[phase]);
                phase = if phase + 1 == a.below.len() { 0 } else { phase + 1 };
                mark_word(w.wrapping_sub(1), pending | (down << 63), &mut tally);
                pending = (up << 1) | (down >> 1) | carry;
                carry = up >> 63;
            }
            while word != 0 {
                let rank = w as u64 * WORD_BITS + u64::from(word.trailing_zeros());
                word &= word - 1;
                let weight = puzzle.multiplicity(rank);
                tally.states += weight;
                if classes > 1 {
                    tally.by_class[puzzle.class_of(rank)] += weight;
                } else {
                    tally.by_class[0] += weight;
                }
                if tally.examples.len() < EXAMPLES {
                    tally.examples.push(rank);
                }
                puzzle.for_each_far_predecessor(&mut memo, rank, |pred| {
                    if pred < states {
                        batch.push(pred);
                    } else {
                        tally.escapes += 1;
                        tally.escape_from.get_or_insert(rank);
                    }
                });
                if batch.len() >= BATCH {
                    flush(&mut batch);
                }
            }
        }
        flush(&mut batch);
        let last = first + chunk.len() - 1;
        mark_word(last, pending, &mut tally);
        mark_word(last + 1, carry, &mut tally);
        tally
    }
}
