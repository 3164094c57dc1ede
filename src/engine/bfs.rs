//! Level-synchronous breadth-first search from the goals over every rank of a puzzle.
//!
//! Two bits per rank are all the memory it needs: each rank is unseen, in this level, in
//! the next level, or done (see [`Planes`]). Each level is expanded in parallel over fixed chunks of the
//! frontier; the result depends only on the set of states at each level, never on the
//! thread schedule.
//!
//! A search may be shared by several processes ([`search`] with an [`Exchange`]): each
//! keeps the two bits of its own slice of the rank space only, marks the predecessors it
//! owns, and sends the others to their owners; the per-level counts are summed through
//! the exchange, so every process returns the same [`Search`].

use super::bitset::{BitSet, TooLarge, WORD_BITS, prefetch};
use super::checkpoint::{CheckpointError, Config, Note, Saver, Snapshot};
use super::exchange::{Exchange, ExchangeError, Partition};
use crate::puzzle::{Adjacent, SearchGraph};
use rayon::prelude::*;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use thiserror::Error;

/// Words of the frontier one rayon task scans (256 Ki ranks): enough work to amortise
/// scheduling, small enough to balance two cores on the sparse first and last levels.
const CHUNK_WORDS: usize = 4096;

/// Words of ranks (256 ranks, one 64-byte line of the interleaved planes) that one bit of
/// the occupancy summary stands for (see [`Planes`]).
const BLOCK_WORDS: usize = 4;

/// How many ranks of the last level are kept as examples.
pub const EXAMPLES: usize = 20;

/// Chunks expanded per worker thread before the ranks they found for other processes
/// are sent: this bounds what the engine holds for sending to `GROUP_PER_THREAD x
/// threads x 2^18` frontier ranks times their predecessors, 8 bytes each (16 MiB per
/// thread for a sliding board, whose ranks have at most two far predecessors).
const GROUP_PER_THREAD: usize = 2;

/// What a finished search found. Counts are configurations (ranks weighted by
/// [`SearchGraph::multiplicity`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// `levels[d]` configurations lie exactly `d` moves from the nearest goal.
    pub levels: Vec<u64>,
    /// Configurations reached in each class of [`crate::puzzle::Invariant::classes`].
    pub reached_by_class: Vec<u64>,
    /// The smallest ranks (up to [`EXAMPLES`]) at the maximum distance.
    pub antipodes: Vec<u64>,
    /// The distance of each of [`Options::watch`] (`None`: not reached).
    pub watched: Vec<Option<usize>>,
}

/// A callback told what the checkpoints did.
pub type Notify = Box<dyn FnMut(&Note)>;

/// What a search may do beyond counting.
#[derive(Default)]
pub struct Options<'a> {
    /// The processes sharing the search (`None`: this process alone).
    pub exchange: Option<&'a mut dyn Exchange>,
    /// Ranks whose distances [`Search::watched`] reports, wherever they are owned.
    pub watch: Vec<u64>,
    /// Where and how often to save the search, and resume it from.
    pub checkpoint: Option<Config>,
    /// Told about checkpoints resumed, skipped or written (the library does not print).
    pub notify: Option<Notify>,
    /// The puzzle's id, which names the search in checkpoints.
    pub id: String,
}

/// Progress reported after each level.
#[derive(Clone, Copy)]
pub struct Level<'a> {
    /// Distance of the level just counted.
    pub depth: usize,
    /// Configurations at that distance (all processes).
    pub states: u64,
    /// Configurations reached so far, this level included.
    pub reached: u64,
    /// Ranks sent between processes while expanding this level (all processes).
    pub sent: u64,
    /// Predecessors generated while expanding this level, sent or not (all processes).
    pub generated: u64,
    /// This process's ranks at distance `depth + 1`, complete (empty after the last level).
    pub next: Frontier<'a>,
}

/// Why a search could not produce a result.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EngineError {
    /// A move led outside the ranked class: the puzzle's invariant does not hold.
    #[error("invariant violated: a move from rank {} leaves the class the invariant predicts ({count} such moves)", from.map_or_else(String::new, |r| r.to_string()))]
    InvariantViolated {
        /// Example rank the escaping move starts from.
        from: Option<u64>,
        /// How many escaping moves were seen in that level.
        count: u64,
    },
    /// A goal rank is not a valid rank (a bug in the puzzle).
    #[error("goal rank {0} is outside the rank space")]
    BadGoal(u64),
    /// The observer asked to stop.
    #[error("interrupted")]
    Interrupted,
    /// The bit planes do not fit in memory.
    #[error(transparent)]
    Memory(#[from] TooLarge),
    /// The processes could not go on together.
    #[error(transparent)]
    Exchange(#[from] ExchangeError),
    /// A checkpoint could not be written, or the one asked for cannot be used.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// Moves of several costs are searched by Dial's buckets, in one process, unsaved.
    #[error("moves of different costs are searched in one process without checkpoints")]
    Weighted,
}

/// The breadth-first search over this process's slice of the rank space, the other
/// slices reached through `exchange`; every process of the search returns the same
/// [`Search`]. See [`super::search`].
///
/// Memory: the slice at 2 bits a rank, plus the ranks kept for sending (at most 2 chunks per
/// worker thread: 2^19 frontier ranks' predecessors, 8 bytes each), plus what the exchange
/// buffers.
pub(super) fn bfs<P: SearchGraph>(
    puzzle: &P,
    exchange: &mut dyn Exchange,
    mut options: Options,
    mut observe: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Search, EngineError> {
    let states = puzzle.states();
    let partition = exchange.partition();
    if partition.states() != states {
        return Err(ExchangeError::Transport(format!(
            "the exchange partitions {} ranks, the puzzle has {states}",
            partition.states()
        ))
        .into());
    }
    let me = exchange.index();
    let planes = Planes::try_new(partition.slice(me))?;
    let share = (planes.slice.end - planes.slice.start) as f64 / states.max(1) as f64;
    let classes = puzzle.class_count();
    let chunks = planes.words.div_ceil(CHUNK_WORDS);
    // Which chunks hold part of the frontier, and which received a rank of the next
    // level: the first and last levels are a few ranks, and scanning every word for them
    // would cost as much as a busy level.
    let mut frontier = vec![false; chunks];
    let touched: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(false)).collect();
    let watch = std::mem::take(&mut options.watch);
    let mut run = Run {
        levels: Vec::new(),
        reached_by_class: vec![0; classes],
        antipodes: Vec::new(),
        watched: vec![None; watch.len()],
    };
    for goal in puzzle.goals() {
        if goal >= states {
            return Err(EngineError::BadGoal(goal));
        }
        for (slot, &rank) in run.watched.iter_mut().zip(&watch) {
            if rank == goal {
                *slot = Some(0);
            }
        }
        if let Some(i) = planes.local(goal) {
            planes.set_current(i, 0);
            frontier[i as usize / WORD_BITS as usize / CHUNK_WORDS] = true;
        }
    }
    let mut notify = |note: &Note| {
        if let Some(f) = options.notify.as_mut() {
            f(note);
        }
    };
    let mut saver = match options.checkpoint.take() {
        Some(config) => {
            let shape = (classes, watch.len());
            let mut saver = Saver::new(config, std::mem::take(&mut options.id), partition, me, shape);
            if let Some(resumed) = saver.resume(exchange, planes.marks.words(), &mut notify)? {
                run = resumed;
                let depth = run.levels.len();
                for (c, flag) in frontier.iter_mut().enumerate() {
                    *flag = planes.chunk_has_current(c, depth);
                }
            }
            Some(saver)
        }
        None => None,
    };
    let adjacent = puzzle.adjacent_predecessors().map(|a| Shifts::new(&a));
    let expansion = Expansion {
        planes: &planes,
        touched: &touched,
        adjacent: adjacent.as_ref(),
        partition,
        me,
        classes,
    };
    let group = if partition.processes() == 1 {
        usize::MAX
    } else {
        GROUP_PER_THREAD * rayon::current_num_threads()
    };
    loop {
        let depth = run.levels.len();
        let level = u32::try_from(depth).unwrap_or(u32::MAX);
        let mut misdelivered = 0u64;
        let summary = planes.summary_of(depth);
        let record = planes.summary_for_next(depth, expected_share(&run.levels, share));
        let mut deliver = |ranks: &[u64]| misdelivered += planes.deliver(ranks, depth, record, &touched);
        let active: Vec<usize> = (0..chunks).filter(|&c| frontier[c]).collect();
        let mut tally = Tally::new(classes);
        for group in active.chunks(group.max(1)) {
            let tallies: Vec<Tally> = group
                .par_iter()
                .map(|&c| expansion.expand(puzzle, c, depth, summary, record))
                .collect();
            for mut t in tallies {
                for (owner, ranks) in std::mem::take(&mut t.remote).into_iter().enumerate() {
                    if !ranks.is_empty() {
                        tally.sent += ranks.len() as u64;
                        exchange.send(level, owner, ranks, &mut deliver)?;
                    }
                }
                tally = tally.merge(t);
            }
        }
        tally.save = saver.as_ref().is_some_and(Saver::due);
        let all = exchange.end_level(level, tally.encode(), &mut deliver)?;
        if misdelivered > 0 {
            return Err(ExchangeError::Transport(format!(
                "{misdelivered} ranks of other processes were delivered to process {me}"
            ))
            .into());
        }
        let total = Tally::decode_sum(&all, classes)
            .ok_or_else(|| ExchangeError::Transport("a process sent malformed level counts".into()))?;
        if total.escapes > 0 {
            return Err(EngineError::InvariantViolated {
                from: total.escape_from,
                count: total.escapes,
            });
        }
        if total.states == 0 && !run.levels.is_empty() {
            // The previous level was the last; every process agrees on the distances of
            // the watched ranks, each known only to its owner.
            return run.finish(exchange);
        }
        // The next level is complete: it is where the new marks went.
        for (flag, touched) in frontier.iter_mut().zip(&touched) {
            *flag = touched.swap(false, Relaxed);
        }
        for (distance, &rank) in run.watched.iter_mut().zip(&watch) {
            if distance.is_none() && planes.local(rank).is_some_and(|i| planes.is_current(i, depth + 1)) {
                *distance = Some(depth + 1);
            }
        }
        for (sum, add) in run.reached_by_class.iter_mut().zip(&total.by_class) {
            *sum += add;
        }
        run.levels.push(total.states);
        run.antipodes = total.examples;
        // Every process saves the same levels, when any of them finds a save due.
        if let Some(saver) = saver.as_mut().filter(|_| total.save) {
            let snapshot = Snapshot {
                words: planes.marks.words(),
                run: &run,
            };
            saver.save(&snapshot, &mut notify)?;
        }
        let flow = observe(&Level {
            depth,
            states: total.states,
            reached: run.levels.iter().sum(),
            sent: total.sent,
            generated: total.generated,
            next: Frontier::of_planes(&planes, depth + 1, &frontier),
        });
        if flow.is_break() {
            return Err(EngineError::Interrupted);
        }
    }
}

/// The result so far: what a checkpoint keeps besides the planes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) levels: Vec<u64>,
    pub(crate) reached_by_class: Vec<u64>,
    pub(crate) antipodes: Vec<u64>,
    /// This process's view: the distances of the watched ranks it owns.
    pub(crate) watched: Vec<Option<usize>>,
}

impl Run {
    /// The search's result, the watched distances gathered from their owners.
    fn finish(mut self, exchange: &mut dyn Exchange) -> Result<Search, EngineError> {
        let mine = self.watched.iter().map(|d| d.map_or(u64::MAX, |d| d as u64)).collect();
        for theirs in exchange.agree(mine)? {
            for (slot, &d) in self.watched.iter_mut().zip(&theirs) {
                if slot.is_none() && d != u64::MAX {
                    *slot = usize::try_from(d).ok();
                }
            }
        }
        Ok(Search {
            levels: self.levels,
            reached_by_class: self.reached_by_class,
            antipodes: self.antipodes,
            watched: self.watched,
        })
    }
}

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

    /// The level of depth `depth` in `planes`, whose ranks lie in the chunks `chunks` flags
    /// (and in the blocks of its summary, if recorded).
    fn of_planes(planes: &'a Planes, depth: usize, chunks: &'a [bool]) -> Self {
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

/// The next level's expected size in a slice holding `share` of the ranks, extrapolated from
/// the sizes so far (configurations, all processes: an overestimate of ranks for puzzles
/// whose ranks stand for several configurations, which only costs speed).
fn expected_share(levels: &[u64], share: f64) -> f64 {
    let next = match *levels {
        [.., a, b] if a > 0 => b as f64 * (b as f64 / a as f64).powi(2),
        [.., b] => b as f64,
        [] => 1.0,
    };
    next * share
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
    marks: BitSet,
    /// `occupied[d % 2]`: blocks holding ranks of level `d`, if it was recorded.
    occupied: [BitSet; 2],
    /// `recorded[d % 2]`: whether `occupied[d % 2]` was recorded for level `d`.
    recorded: [AtomicBool; 2],
    slice: Range<u64>,
    /// Words of the slice.
    words: usize,
    /// The bits of the slice's last word that are ranks.
    last_word: u64,
}

/// The plane whose bit alone marks the level of depth `depth`, and the other one (which
/// marks the next level, and with the first, done): word offsets within a pair.
#[inline]
fn roles(depth: usize) -> (usize, usize) {
    (depth % 2, 1 - depth % 2)
}

/// Word `w` of the level whose ranks have only plane `this` of the interleaved `marks` set.
#[inline(always)]
fn level_word(marks: &[AtomicU64], w: usize, this: usize) -> u64 {
    marks[2 * w + this].load(Relaxed) & !marks[2 * w + (1 - this)].load(Relaxed)
}

/// The blocks among `blocks` whose bit is set in the occupancy summary `summary`, ascending.
/// With `take` the summary's words are cleared as they are read (so `blocks` must then cover
/// them whole).
fn set_blocks(summary: &[AtomicU64], blocks: Range<usize>, take: bool) -> impl Iterator<Item = usize> + '_ {
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
fn runs(units: impl Iterator<Item = usize>, unit: usize, words: Range<usize>) -> impl Iterator<Item = Range<usize>> {
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
fn note(summary: Option<&[AtomicU64]>, w: usize) {
    if let Some(summary) = summary {
        let block = w / BLOCK_WORDS;
        let (word, bit) = (&summary[block / WORD_BITS as usize], 1 << (block % WORD_BITS as usize));
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }
}

impl Planes {
    fn try_new(slice: Range<u64>) -> Result<Self, TooLarge> {
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

    /// `rank`'s index within the slice, if this process owns it.
    #[inline]
    fn local(&self, rank: u64) -> Option<u64> {
        let i = rank.wrapping_sub(self.slice.start);
        (i < self.slice.end - self.slice.start).then_some(i)
    }

    /// Word `w` of the level of depth `depth`: its ranks in this slice.
    #[inline]
    fn level_word(&self, w: usize, depth: usize) -> u64 {
        level_word(self.marks.words(), w, roles(depth).0)
    }

    fn is_current(&self, i: u64, depth: usize) -> bool {
        self.level_word((i / WORD_BITS) as usize, depth) >> (i % WORD_BITS) & 1 == 1
    }

    /// Puts index `i` in the level of depth `depth` (a goal, before the search).
    fn set_current(&self, i: u64, depth: usize) {
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
    fn summary_for_next(&self, depth: usize, expected: f64) -> Option<&[AtomicU64]> {
        let record = expected < (self.blocks() / 4) as f64;
        let next = (depth + 1) % 2;
        self.recorded[next].store(record, Relaxed);
        record.then(|| self.occupied[next].words())
    }

    /// The summary of level `depth`, if it was recorded.
    fn summary_of(&self, depth: usize) -> Option<&[AtomicU64]> {
        self.recorded[depth % 2]
            .load(Relaxed)
            .then(|| self.occupied[depth % 2].words())
    }

    /// Marks as next (while level `depth` is expanded) the ranks other processes found for
    /// this one that are still unseen; returns how many of them this process does not own
    /// (a transport bug).
    fn deliver(&self, ranks: &[u64], depth: usize, record: Option<&[AtomicU64]>, touched: &[AtomicBool]) -> u64 {
        let next = roles(depth).1;
        let marks = self.marks.words();
        let mut foreign = 0;
        for &rank in ranks {
            let Some(i) = self.local(rank) else {
                foreign += 1;
                continue;
            };
            let (w, bit) = ((i / WORD_BITS) as usize, 1 << (i % WORD_BITS));
            if (marks[2 * w].load(Relaxed) | marks[2 * w + 1].load(Relaxed)) & bit == 0 {
                marks[2 * w + next].fetch_or(bit, Relaxed);
                touched[w / CHUNK_WORDS].store(true, Relaxed);
                note(record, w);
            }
        }
        foreign
    }

    /// Whether chunk `c` holds ranks of the level of depth `depth` (after a resume).
    fn chunk_has_current(&self, c: usize, depth: usize) -> bool {
        (c * CHUNK_WORDS..self.words.min((c + 1) * CHUNK_WORDS)).any(|w| self.level_word(w, depth) != 0)
    }
}

/// Per-chunk tallies, merged in chunk order so that examples come out sorted (also Dial's,
/// which leaves the exchange's fields at zero).
#[derive(Default)]
pub(super) struct Tally {
    pub(super) states: u64,
    pub(super) by_class: Vec<u64>,
    pub(super) examples: Vec<u64>,
    pub(super) escapes: u64,
    pub(super) escape_from: Option<u64>,
    sent: u64,
    generated: u64,
    /// Whether this process wants a checkpoint at the end of the level.
    save: bool,
    /// Predecessors owned by other processes, by owner (empty for a single process).
    remote: Vec<Vec<u64>>,
}

impl Tally {
    pub(super) fn new(classes: usize) -> Self {
        Tally {
            by_class: vec![0; classes],
            ..Tally::default()
        }
    }

    pub(super) fn merge(mut self, other: Tally) -> Tally {
        self.states += other.states;
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
        self
    }

    /// Counts the ranks `first + b` for the bits `b` of `word` (a level's), keeping the first
    /// as examples; a word at a time for a `uniform` puzzle.
    #[inline(always)]
    fn count<P: SearchGraph>(&mut self, puzzle: &P, uniform: bool, first: u64, word: u64) {
        let mut bits = word;
        if uniform {
            debug_assert!(
                (0..WORD_BITS)
                    .filter(|b| word >> b & 1 == 1)
                    .all(|b| puzzle.multiplicity(first + b) == 1 && puzzle.class_of(first + b) == 0),
                "a uniform puzzle's ranks each stand for one configuration of the first class"
            );
            let n = u64::from(word.count_ones());
            self.states += n;
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
            self.by_class[puzzle.class_of(rank)] += weight;
            if self.examples.len() < EXAMPLES {
                self.examples.push(rank);
            }
        }
    }

    /// The counts as the vector [`Exchange::end_level`] gathers.
    fn encode(&self) -> Vec<u64> {
        let mut v = vec![
            self.states,
            self.escapes,
            self.escape_from.unwrap_or(u64::MAX),
            self.sent,
            self.generated,
            u64::from(self.save),
        ];
        v.extend(&self.by_class);
        v.extend(&self.examples);
        v
    }

    /// The sum of every process's counts, examples in process (that is, rank) order.
    fn decode_sum(all: &[Vec<u64>], classes: usize) -> Option<Tally> {
        let mut total = Tally::new(classes);
        for v in all {
            let (head, rest) = v.split_at_checked(6)?;
            let (by_class, examples) = rest.split_at_checked(classes)?;
            let one = Tally {
                states: head[0],
                escapes: head[1],
                escape_from: (head[2] != u64::MAX).then_some(head[2]),
                sent: head[3],
                generated: head[4],
                save: head[5] != 0,
                by_class: by_class.to_vec(),
                examples: examples.to_vec(),
                remote: Vec::new(),
            };
            total = total.merge(one);
        }
        Some(total)
    }
}

/// [`Adjacent`] predecessors as word masks: bit `b` of `below[w % period]` is set when rank
/// `64 * w + b` has the predecessor one below, so a whole word of the frontier yields its
/// adjacent predecessors in a few shifts instead of 64 calls into the puzzle.
struct Shifts {
    below: Vec<u64>,
    above: Vec<u64>,
    /// `below.len()`, and `2^64 / below.len()` rounded up: [`Shifts::phase`] divides by it
    /// once a word of the frontier, with a multiply rather than a hardware divide.
    period: u64,
    reciprocal: u64,
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

/// Predecessors gathered before they are looked up: each is prefetched as it is gathered
/// ([`prefetch`]), so its cache miss overlaps the ranking arithmetic of the states after
/// it, and by the flush most look-ups hit the cache.
const BATCH: usize = 512;

/// What every worker of a level shares.
struct Expansion<'a> {
    planes: &'a Planes,
    /// Chunks that received a rank of the next level.
    touched: &'a [AtomicBool],
    adjacent: Option<&'a Shifts>,
    partition: Partition,
    me: usize,
    classes: usize,
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
    fn expand<P: SearchGraph>(
        &self,
        puzzle: &P,
        c: usize,
        depth: usize,
        summary: Option<&[AtomicU64]>,
        record: Option<&[AtomicU64]>,
    ) -> Tally {
        let (this, next) = roles(depth);
        let (classes, adjacent, touched) = (self.classes, self.adjacent, self.touched);
        let uniform = puzzle.uniform();
        let planes = self.planes;
        let states = puzzle.states();
        let (start, len) = (planes.slice.start, planes.slice.end - planes.slice.start);
        let mut tally = Tally::new(classes);
        let mut batch = Batch {
            pairs: planes.marks.words().as_chunks().0,
            next,
            touched,
            record,
            len: 0,
            preds: [0; BATCH],
            generated: 0,
        };
        let mut memo = P::Memo::default();
        let marks = planes.marks.words();
        let words = planes.words;
        // Global word index of the slice's first word (slices start on a word).
        let base = (start / WORD_BITS) as usize;
        let all_words = states.div_ceil(WORD_BITS) as usize;
        let touch = |chunk: usize| touch(touched, chunk);
        let partition = self.partition;
        let me = self.me;
        let remote = |tally: &mut Tally, rank: u64| {
            if tally.remote.is_empty() {
                tally.remote.resize_with(partition.processes(), Vec::new);
            }
            let owner = partition.owner(rank);
            debug_assert_ne!(owner, me);
            tally.remote[owner].push(rank);
        };
        // The ranks of `found` in word `local` of the slice that are not yet seen (those past
        // the slice's last rank counted as escapes), with the word's chunk and block flagged
        // for the next level if there are any: the caller marks them.
        let unseen = |local: usize, found: u64, tally: &mut Tally| {
            let valid = if local == words - 1 { planes.last_word } else { u64::MAX };
            if found & !valid != 0 {
                tally.escapes += u64::from((found & !valid).count_ones());
            }
            let new = found & valid & !(marks[2 * local].load(Relaxed) | marks[2 * local + 1].load(Relaxed));
            if new != 0 {
                touch(local / CHUNK_WORDS);
                note(record, local);
            }
            new
        };
        // Marks the ranks of `found` in global word `w` that are not yet seen, or keeps
        // them for their owner.
        let mark_word = |w: usize, found: u64, tally: &mut Tally| {
            if found == 0 {
                return;
            }
            tally.generated += u64::from(found.count_ones());
            let local = w.wrapping_sub(base);
            if local < words {
                let new = unseen(local, found, tally);
                if new != 0 {
                    marks[2 * local + next].fetch_or(new, Relaxed);
                }
            } else if w < all_words {
                let mut bits = found;
                while bits != 0 {
                    let rank = w as u64 * WORD_BITS + u64::from(bits.trailing_zeros());
                    bits &= bits - 1;
                    if rank < states {
                        remote(tally, rank);
                    } else {
                        tally.escapes += 1;
                    }
                }
            } else {
                tally.escapes += u64::from(found.count_ones());
            }
        };
        // The level's words of the run being expanded, kept as they were before retiring,
        // and which of them are not empty (bit `j % 64` of `occupied[j / 64]`).
        let mut level = Vec::with_capacity(CHUNK_WORDS);
        let mut occupied = [0u64; CHUNK_WORDS / WORD_BITS as usize];
        // Expands the words `run` of the slice, consecutive; the words around it hold no
        // rank of the level. Three passes: the first copies the level's words, a tight loop
        // without branches; the second visits the words that are not empty, to count and
        // retire their ranks and mark their adjacent predecessors; the third hands the
        // words to the puzzle for the far predecessors, all at once, so that its loop is set
        // up once a run.
        let mut expand_run = |run: Range<usize>, tally: &mut Tally| {
            level.clear();
            level.extend(run.clone().map(|local| level_word(marks, local, this)));
            for (occupied, words) in occupied.iter_mut().zip(level.chunks(WORD_BITS as usize)) {
                *occupied = (words.iter().enumerate()).fold(0, |mask, (b, &word)| mask | u64::from(word != 0) << b);
            }
            let phase = adjacent.map_or(0, |a| a.phase(base + run.start));
            for (group, &mask) in occupied[..run.len().div_ceil(WORD_BITS as usize)].iter().enumerate() {
                let mut mask = mask;
                while mask != 0 {
                    let j = group * WORD_BITS as usize + mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let (word, local) = (level[j], run.start + j);
                    let w = base + local;
                    tally.count(puzzle, uniform, w as u64 * WORD_BITS, word);
                    // Retired: done from now on, so no mark of this level takes them again;
                    // and the adjacent predecessors within the word marked in the same
                    // locked instruction.
                    let mut retire = word;
                    if let Some(a) = adjacent {
                        let p = a.phase(phase + j);
                        let (down, up) = (word & a.below[p], word & a.above[p]);
                        let inner = (up << 1) | (down >> 1);
                        tally.generated += u64::from(inner.count_ones());
                        retire |= unseen(local, inner, tally);
                        // Those one word down or up: rarely any.
                        if down & 1 != 0 {
                            mark_word(w.wrapping_sub(1), 1 << 63, tally);
                        }
                        if up >> 63 != 0 {
                            mark_word(w + 1, 1, tally);
                        }
                    }
                    marks[2 * local + next].fetch_or(retire, Relaxed);
                }
            }
            let first = (base + run.start) as u64 * WORD_BITS;
            puzzle.for_each_far_predecessor_in_words(&mut memo, first, &level, |rank, pred| {
                let i = pred.wrapping_sub(start);
                if i < len {
                    batch.push(i);
                } else if pred < states {
                    tally.generated += 1;
                    remote(tally, pred);
                } else {
                    tally.escapes += 1;
                    tally.escape_from.get_or_insert(rank);
                }
            });
        };
        let first = c * CHUNK_WORDS;
        let end = words.min(first + CHUNK_WORDS);
        match summary {
            None => expand_run(first..end, &mut tally),
            Some(summary) => {
                // The chunk's blocks that hold ranks of the level, consecutive ones as one
                // run; the summary is cleared for its next use two levels on.
                let blocks = first / BLOCK_WORDS..end.div_ceil(BLOCK_WORDS);
                for run in runs(set_blocks(summary, blocks, true), BLOCK_WORDS, first..end) {
                    expand_run(run, &mut tally);
                }
            }
        }
        batch.flush();
        tally.generated += batch.generated;
        tally
    }
}

/// Flags chunk `chunk` as holding part of the next level. The flags share cache lines
/// between workers, so each is written once a level, not once a rank.
#[inline]
fn touch(touched: &[AtomicBool], chunk: usize) {
    if !touched[chunk].load(Relaxed) {
        touched[chunk].store(true, Relaxed);
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
