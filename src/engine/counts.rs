//! What a level's expansion counts, per chunk, per process and summed over processes,
//! and the wire format in which processes exchange those counts.

use super::bitset::WORD_BITS;
use crate::puzzle::SearchGraph;

/// How many ranks of the last level are kept as examples.
pub const EXAMPLES: usize = 20;

/// The counts of a level, per chunk, merged in chunk order so that examples come out sorted (also Dial's,
/// which leaves the exchange's fields at zero).
#[derive(Default)]
pub(super) struct LevelCounts {
    pub(super) states: u64,
    /// Classes up to the puzzle's symmetry group ([`SearchGraph::classes_at`]).
    pub(super) classes: u64,
    pub(super) by_class: Vec<u64>,
    pub(super) examples: Vec<u64>,
    pub(super) escapes: u64,
    pub(super) escape_from: Option<u64>,
    pub(super) sent: u64,
    pub(super) generated: u64,
    /// Whether this process wants a checkpoint at the end of the level.
    pub(super) save: bool,
    /// Some process was told to stop during the level: the level is cut short everywhere.
    pub(super) stop: bool,
    /// Predecessors owned by other processes, by owner (empty for a single process).
    pub(super) remote: Vec<Vec<u64>>,
}

impl LevelCounts {
    pub(super) fn new(classes: usize) -> Self {
        LevelCounts {
            by_class: vec![0; classes],
            ..LevelCounts::default()
        }
    }

    pub(super) fn merge(mut self, other: LevelCounts) -> LevelCounts {
        self.states += other.states;
        self.classes += other.classes;
        for (a, b) in self.by_class.iter_mut().zip(&other.by_class) {
            *a += b;
        }
        let room = EXAMPLES - self.examples.len();
        self.examples.extend(other.examples.into_iter().take(room));
        self.escapes += other.escapes;
        self.escape_from = self.escape_from.or(other.escape_from);
        self.sent += other.sent;
        self.generated += other.generated;
        self.save |= other.save;
        self.stop |= other.stop;
        self
    }

    /// Counts the ranks `first + b` for the bits `b` of `word` (a level's), keeping the first
    /// as examples (of a puzzle counted up to symmetry, the first classes'
    /// representatives); a word at a time for a `uniform` puzzle.
    #[inline(always)]
    pub(super) fn count<P: SearchGraph>(&mut self, puzzle: &P, uniform: bool, first: u64, word: u64) {
        let mut bits = word;
        let symmetric = puzzle.counts_classes();
        if uniform && !symmetric {
            debug_assert!(
                (0..WORD_BITS)
                    .filter(|b| word >> b & 1 == 1)
                    .all(|b| puzzle.multiplicity(first + b) == 1 && puzzle.class_of(first + b) == 0),
                "a uniform puzzle's ranks each stand for one configuration of the first class"
            );
            let n = u64::from(word.count_ones());
            self.states += n;
            self.classes += n;
            self.by_class[0] += n;
            while bits != 0 && self.examples.len() < EXAMPLES {
                self.examples.push(first + u64::from(bits.trailing_zeros()));
                bits &= bits - 1;
            }
            return;
        }
        while bits != 0 {
            let rank = first + u64::from(bits.trailing_zeros());
            bits &= bits - 1;
            let weight = puzzle.multiplicity(rank);
            self.states += weight;
            // One class needs no look-up.
            let class = if self.by_class.len() > 1 {
                puzzle.class_of(rank)
            } else {
                0
            };
            self.by_class[class] += weight;
            // Up to symmetry, a rank that counts no class is no example either.
            let classes = if symmetric { puzzle.classes_at(rank) } else { weight };
            self.classes += classes;
            if classes > 0 && self.examples.len() < EXAMPLES {
                self.examples.push(rank);
            }
        }
    }

    /// The counts as the vector [`Exchange::end_level`](super::exchange::Exchange::end_level) gathers.
    pub(super) fn encode(&self) -> Vec<u64> {
        let mut v = vec![
            self.states,
            self.classes,
            self.escapes,
            self.escape_from.unwrap_or(u64::MAX),
            self.sent,
            self.generated,
            u64::from(self.save) | u64::from(self.stop) << 1,
        ];
        v.extend(&self.by_class);
        v.extend(&self.examples);
        v
    }

    /// The sum of every process's counts, examples in process (that is, rank) order.
    pub(super) fn decode_sum(all: &[Vec<u64>], classes: usize) -> Option<LevelCounts> {
        let mut total = LevelCounts::new(classes);
        for v in all {
            let (head, rest) = v.split_at_checked(7)?;
            let (by_class, examples) = rest.split_at_checked(classes)?;
            let one = LevelCounts {
                states: head[0],
                classes: head[1],
                escapes: head[2],
                escape_from: (head[3] != u64::MAX).then_some(head[3]),
                sent: head[4],
                generated: head[5],
                save: head[6] & 1 != 0,
                stop: head[6] & 2 != 0,
                by_class: by_class.to_vec(),
                examples: examples.to_vec(),
                remote: Vec::new(),
            };
            total = total.merge(one);
        }
        Some(total)
    }
}
