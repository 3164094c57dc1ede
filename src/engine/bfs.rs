//! Level-synchronous breadth-first search from the goals over every rank of a puzzle.
//!
//! Three bit sets (visited, this level, next level) are all the memory it needs: 3 bits
//! per rank. Each level is expanded in parallel over fixed chunks of the frontier; the
//! result depends only on the set of states at each level, never on the thread schedule.

use super::bitset::{BitSet, WORD_BITS};
use crate::puzzle::Puzzle;
use rayon::prelude::*;
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
    #[error(
        "invariant violated: a move from {from} leaves the class the invariant predicts ({count} such moves)"
    )]
    InvariantViolated {
        /// Example configuration the escaping move starts from.
        from: String,
        /// How many escaping moves were seen in that level.
        count: u64,
    },
    /// A goal rank is not a valid rank (a bug in the puzzle).
    #[error("goal rank {0} is outside the rank space")]
    BadGoal(u64),
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
/// level. The caller is responsible for checking that `3 * states / 8` bytes fit.
pub fn bfs<P: Puzzle>(puzzle: &P, mut observe: impl FnMut(&Level)) -> Result<Search, EngineError> {
    let states = puzzle.states();
    let classes = puzzle.classes().len();
    let visited = BitSet::new(states);
    let mut current = BitSet::new(states);
    let mut next = BitSet::new(states);
    for goal in puzzle.goals() {
        if goal >= states {
            return Err(EngineError::BadGoal(goal));
        }
        if visited.insert(goal) {
            current.insert(goal);
        }
    }

    let mut levels = Vec::new();
    let mut reached_by_class = vec![0; classes];
    let words = current.word_count();
    loop {
        let tally = (0..words.div_ceil(CHUNK_WORDS))
            .into_par_iter()
            .map(|chunk| {
                let range = chunk * CHUNK_WORDS..words.min((chunk + 1) * CHUNK_WORDS);
                let tally = expand_words(puzzle, classes, &current, &visited, &next, range.clone());
                // This level's bits are not needed again: clear them now, while they are
                // in cache, so the set can serve as the next level's target.
                current.clear_words(range);
                tally
            })
            .reduce_with(Tally::merge)
            .unwrap_or_default();
        if tally.escapes > 0 {
            let from = tally.escape_from.map_or_else(String::new, |r| puzzle.render(r));
            return Err(EngineError::InvariantViolated { from, count: tally.escapes });
        }
        for (total, add) in reached_by_class.iter_mut().zip(&tally.by_class) {
            *total += add;
        }
        levels.push(tally.states);
        observe(&Level {
            depth: levels.len() - 1,
            states: tally.states,
            reached: levels.iter().sum(),
            next: &next,
        });
        std::mem::swap(&mut current, &mut next);
        if (0..words).into_par_iter().all(|w| current.word(w) == 0) {
            return Ok(Search { levels, reached_by_class, antipodes: tally.examples });
        }
    }
}

/// Counts the frontier ranks in `range` and marks their unvisited predecessors in `next`.
fn expand_words<P: Puzzle>(
    puzzle: &P,
    classes: usize,
    current: &BitSet,
    visited: &BitSet,
    next: &BitSet,
    range: std::ops::Range<usize>,
) -> Tally {
    let states = puzzle.states();
    let mut tally = Tally { by_class: vec![0; classes], ..Tally::default() };
    for w in range {
        let mut word = current.word(w);
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
            puzzle.for_each_predecessor(rank, |pred| {
                if pred >= states {
                    tally.escapes += 1;
                    tally.escape_from.get_or_insert(rank);
                } else if visited.insert(pred) {
                    next.insert(pred);
                }
            });
        }
    }
    tally
}
