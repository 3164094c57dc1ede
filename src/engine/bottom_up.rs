//! The bottom-up step of a dense level (the direction-optimising BFS of Beamer, Asanović
//! and Patterson, 2012).
//!
//! Expanding a level generates every predecessor of its ranks, most of them already seen
//! once the level holds a good part of the space: the pocket cube's two largest levels
//! generate 1.1 billion predecessors to find 15 million new ranks. When the ranks not yet
//! seen are fewer than the level's, it costs less to ask each of them whether one of its
//! neighbours is in the level, and to stop at the first that is. This holds when a
//! rank's predecessors are also its successors ([`SearchGraph::symmetric`]): one of them
//! in level `d` puts the rank at `d + 1`. A rank that stands for a class of configurations
//! (a search by class) is as good as one: a symmetry keeps distances, so the whole class
//! lies in one level, and a rank no class is indexed by has no neighbours, so no level
//! adopts it. All neighbours must be in this process's bit
//! planes, so a shared search never takes this step.
//!
//! The level's ranks stay as they are (one plane) until every unseen rank has looked: the
//! ranks it finds get the other plane alone, which no test reads as the level. The store
//! then counts and retires the level as a top-down expansion would, so the planes come out
//! exactly as they would have: checkpoints, observers and the next level see no difference.

use super::bitset::WORD_BITS;
use super::counts::LevelCounts;
use super::planes::{CHUNK_WORDS, Planes, note, roles, touch};
use crate::puzzle::{Bins, SearchGraph};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Whether a search of `puzzle` may find a dense level's successor bottom-up at all (each
/// store then decides per level whether it pays): a rank's predecessors must be its
/// successors. A rank may stand for a class (see the module's documentation); the store
/// then weighs the level and the unseen by their ranks, read from the planes.
pub(super) fn allowed<P: SearchGraph>(puzzle: &P) -> bool {
    puzzle.symmetric()
}

/// Whether the level after one of `frontier` configurations is cheaper to find bottom-up
/// when `unseen` configurations are left: each unseen rank tests its neighbours until one
/// is in the level, all of them only if none is, while each rank of the level generates all
/// of its own. The counts are ranks (a class searched by class is one rank, whatever its
/// size), which only decides speed.
pub(super) fn pays(frontier: u64, unseen: u64) -> bool {
    unseen < frontier
}

/// Marks as the next level the unseen ranks of chunk `c` that have a neighbour in the
/// level of depth `depth`. The planes hold every rank (one process), or a part of a search
/// on disk whose other parts are reached only by the move of its bins, whose images the
/// level sends. Returns how many neighbours were tested and how many were past the rank
/// space (escapes), in a tally without states: the level is counted when it is retired.
pub(super) fn adopt_chunk<P: SearchGraph>(
    puzzle: &P,
    planes: &Planes,
    c: usize,
    depth: usize,
    touched: &[AtomicBool],
    record: Option<&[AtomicU64]>,
    classes: usize,
) -> LevelCounts {
    let (this, next) = roles(depth);
    let (start, len) = (planes.slice.start, planes.len());
    let pairs = planes.marks.words().as_chunks::<2>().0;
    let mut tally = LevelCounts::new(classes);
    let mut memo = P::Memo::default();
    let first = c * CHUNK_WORDS;
    let end = planes.words.min(first + CHUNK_WORDS);
    for (w, pair) in pairs.iter().enumerate().take(end).skip(first) {
        let [a, b] = pair;
        let valid = if w == planes.words - 1 {
            planes.last_word
        } else {
            u64::MAX
        };
        let mut unseen = !(a.load(Relaxed) | b.load(Relaxed)) & valid;
        let mut found = 0;
        let base = planes.slice.start + w as u64 * WORD_BITS;
        while unseen != 0 {
            let bit = unseen.trailing_zeros();
            unseen &= unseen - 1;
            let in_level = puzzle.any_predecessor(&mut memo, base + u64::from(bit), |pred| {
                tally.generated += 1;
                let i = pred.wrapping_sub(start);
                if i >= len {
                    if pred & Bins::FLAG == 0 {
                        tally.escapes += 1;
                        tally.escape_from.get_or_insert(base + u64::from(bit));
                    }
                    return false;
                }
                // In the level: its plane alone. Found ranks get the other plane alone and
                // the level is retired only after this pass, so the test holds throughout.
                // (`Planes::is_current` spelled out to read the other plane only for ranks in
                // this one: most tests stop at the first load, 3% of the 2x2x2's CPU time.)
                let pair = &pairs[(i / WORD_BITS) as usize];
                let mask = 1 << (i % WORD_BITS);
                pair[this].load(Relaxed) & mask != 0 && pair[next].load(Relaxed) & mask == 0
            });
            found |= u64::from(in_level) << bit;
        }
        if found != 0 {
            pair[next].fetch_or(found, Relaxed);
            touch(touched, w / CHUNK_WORDS);
            note(record, w);
        }
    }
    tally
}
