//! The 8-puzzle assignment's A*, to measure how much work each estimate saves.
//!
//! A search node is a board, the moves made to reach it and its previous search node. The
//! priority queue is ordered by moves + estimate; the search dequeues the smallest node,
//! stops when it is the goal, and otherwise enqueues its neighbours, except (the
//! assignment's "critical optimization") a neighbour equal to the board of the dequeued
//! node's previous search node. There is no closed set, so a board can be enqueued many
//! times, exactly as in the assignment.
//!
//! Counts depend on how ties are broken, so the rule is fixed: among equal priorities the
//! node with the smaller estimate (more moves made) comes first, and among those the one
//! enqueued first; neighbours are enqueued in the order blank up, down, left, right.

use super::LineTables;
use crate::heuristics::{Estimates, Kind};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// A search gives up after dequeuing this many nodes: the assignment's Hamming priority
/// needs hundreds of millions of nodes (and as many queued boards) on the farthest
/// 8-puzzle positions. Where a sampled position needs more, the table leaves that
/// estimate's cells empty from that distance on.
pub const BUDGET: u64 = 50_000;

/// One row of `astar.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct EffortRow {
    /// True distance of the sampled positions.
    pub distance: usize,
    /// How many positions were sampled at that distance.
    pub positions: usize,
    /// Which priority function.
    pub kind: Kind,
    /// Mean and largest dequeued nodes; `None` once a sampled search exceeded [`BUDGET`].
    pub nodes: Option<(f64, u64)>,
}

/// The A* effort table, by distance then estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct Effort {
    /// Rows sorted by distance, then estimate in the order of [`Kind::ALL`].
    pub rows: Vec<EffortRow>,
}

/// Nodes the assignment's A* dequeues to solve `tiles` (goal included) with `kind` as its
/// priority, or `None` beyond `budget` nodes.
pub fn dequeued(estimates: &Estimates, kind: Kind, tiles: &[u8], budget: u64) -> Option<u64> {
    Search::new(estimates, LineTables::new(estimates).as_ref()).run(kind, tiles, budget)
}

/// One search node: the board packed 4 bits a cell (cell `i` in bits `4i..4i+4`), the
/// board of its previous search node, its blank cell, moves made and estimate. Queued by
/// value: a dequeued node carries all its expansion reads, no look-up into the nodes
/// before it.
#[derive(Clone, Copy)]
struct Queued {
    board: u64,
    previous: u64,
    moves: u32,
    h: u32,
    blank: u8,
}

/// The previous board of the start, which has none: no board packs to it (its cells
/// would all hold tile 15).
const NO_BOARD: u64 = u64::MAX;

/// The A* of one thread: its buffers are kept from one search to the next.
struct Search<'a> {
    estimates: &'a Estimates,
    /// The estimates' line terms by table, where the board's sides allow.
    lines: Option<&'a LineTables>,
    /// `neighbours[cell]`: the cells next to `cell`, in the order blank up, down, left, right.
    neighbours: Vec<Vec<usize>>,
    /// `row[cell]`: the row of `cell` (no division on the hot path).
    row: Vec<usize>,
    queue: Queue,
}

impl<'a> Search<'a> {
    fn new(estimates: &'a Estimates, lines: Option<&'a LineTables>) -> Self {
        let (rows, cols) = (estimates.rows(), estimates.cols());
        Search {
            estimates,
            lines,
            neighbours: (0..rows * cols)
                .map(|cell| crate::puzzle::sliding::neighbours(rows, cols, cell).collect())
                .collect(),
            row: (0..rows * cols).map(|cell| cell / cols).collect(),
            queue: Queue::default(),
        }
    }

    /// [`dequeued`].
    fn run(&mut self, kind: Kind, tiles: &[u8], budget: u64) -> Option<u64> {
        let cells = self.row.len();
        let start = tiles[..cells]
            .iter()
            .enumerate()
            .fold(0u64, |b, (cell, &t)| b | (u64::from(t) << (4 * cell)));
        let blank = tiles[..cells].iter().position(|&t| t == 0).unwrap_or(0);
        let h = self.estimates.value(kind, tiles);
        self.queue.clear();
        self.queue.push(Queued {
            board: start,
            previous: NO_BOARD,
            moves: 0,
            h,
            blank: blank as u8,
        });
        let mut count = 0;
        while let Some(node) = self.queue.pop() {
            count += 1;
            // Each estimate is 0 exactly at the goal.
            if node.h == 0 {
                return Some(count);
            }
            if count >= budget {
                return None;
            }
            let blank = usize::from(node.blank);
            for &cell in &self.neighbours[blank] {
                let tile = (node.board >> (4 * cell)) & 0xF;
                let next = (node.board & !(0xF << (4 * cell))) | (tile << (4 * blank));
                if next == node.previous {
                    continue;
                }
                let h = node.h + self.part(kind, next, blank, cell) - self.part(kind, node.board, cell, blank);
                self.queue.push(Queued {
                    board: next,
                    previous: node.board,
                    moves: node.moves + 1,
                    h,
                    blank: cell as u8,
                });
            }
        }
        None
    }

    /// The part of the estimate of `board` that sliding the tile on cell `at` to the
    /// neighbouring cell `other` can change: that tile's term, plus for linear conflicts
    /// the lines the slide crosses (every column for a horizontal slide: those it does not
    /// cross cancel out). A child's estimate is its parent's, plus this part of the child,
    /// minus this part of the parent.
    #[inline]
    fn part(&self, kind: Kind, board: u64, at: usize, other: usize) -> u32 {
        let tile = ((board >> (4 * at)) & 0xF) as usize;
        let estimates = self.estimates;
        match kind {
            Kind::Hamming => u32::from(tile != at + 1),
            Kind::Manhattan => estimates.tile_distance(tile, at),
            Kind::LinearConflict => {
                let cols = estimates.cols();
                let (row_at, row_other) = (self.row[at], self.row[other]);
                let horizontal = row_at == row_other;
                let lines = match self.lines {
                    Some(lines) if horizontal => lines.col_conflicts(board),
                    Some(lines) => lines.row_conflicts(board, row_at) + lines.row_conflicts(board, row_other),
                    None => {
                        let tiles = super::unpack(board);
                        if horizontal {
                            estimates.col_conflicts(&tiles, at % cols) + estimates.col_conflicts(&tiles, other % cols)
                        } else {
                            estimates.row_conflicts(&tiles, row_at) + estimates.row_conflicts(&tiles, row_other)
                        }
                    }
                };
                estimates.tile_distance(tile, at) + lines
            }
        }
    }
}

/// The priority queue: a first-in first-out bucket per (priority, estimate), so that the
/// order is priority, then estimate, then enqueue order, each step in constant time
/// (priorities and estimates are small integers).
#[derive(Default)]
struct Queue {
    /// `buckets[priority][estimate]`: nodes in enqueue order.
    buckets: Vec<Vec<VecDeque<Queued>>>,
    /// No bucket before `(priority, estimate)` holds a node.
    first: (usize, usize),
    len: usize,
}

impl Queue {
    fn push(&mut self, node: Queued) {
        let (p, h) = ((node.moves + node.h) as usize, node.h as usize);
        if self.buckets.len() <= p {
            self.buckets.resize_with(p + 1, Vec::new);
        }
        if self.buckets[p].len() <= h {
            self.buckets[p].resize_with(h + 1, VecDeque::new);
        }
        self.buckets[p][h].push_back(node);
        self.first = self.first.min((p, h));
        self.len += 1;
    }

    /// Empties the queue, keeping its buckets' memory.
    fn clear(&mut self) {
        for row in &mut self.buckets {
            row.iter_mut().for_each(VecDeque::clear);
        }
        self.first = (0, 0);
        self.len = 0;
    }

    fn pop(&mut self) -> Option<Queued> {
        if self.len == 0 {
            return None;
        }
        loop {
            let (p, h) = self.first;
            if let Some(node) = self.buckets[p].get_mut(h).and_then(VecDeque::pop_front) {
                self.len -= 1;
                return Some(node);
            }
            self.first = if h + 1 < self.buckets[p].len() {
                (p, h + 1)
            } else {
                (p + 1, 0)
            };
        }
    }
}

/// Runs A* with every estimate on each sampled position (`samples[distance]`), in parallel;
/// the result does not depend on the thread count.
pub fn effort(estimates: &Estimates, samples: &[Vec<Vec<u8>>]) -> Effort {
    let lines = LineTables::new(estimates);
    // The estimates run side by side: each waits at its own distances' ends only, while
    // the others keep the threads busy.
    let mut rows: Vec<EffortRow> = Kind::ALL
        .into_par_iter()
        .flat_map_iter(|kind| kind_effort(estimates, lines.as_ref(), kind, samples))
        .collect();
    rows.sort_by_key(|r| (r.distance, Kind::ALL.iter().position(|&k| k == r.kind)));
    Effort { rows }
}

/// The rows of one estimate, by distance: the searches of a distance in parallel, and none
/// beyond the first distance where one exceeded [`BUDGET`].
fn kind_effort(
    estimates: &Estimates,
    lines: Option<&LineTables>,
    kind: Kind,
    samples: &[Vec<Vec<u8>>],
) -> Vec<EffortRow> {
    let mut exceeded = false;
    let mut rows = Vec::new();
    for (distance, positions) in samples.iter().enumerate() {
        let nodes = if exceeded {
            None
        } else {
            // Once one search gives up, the others of this distance stop at once.
            let given_up = AtomicBool::new(false);
            let counts: Vec<Option<u64>> = positions
                .par_iter()
                .map_init(
                    || Search::new(estimates, lines),
                    |search, tiles| {
                        if given_up.load(Relaxed) {
                            return None;
                        }
                        let nodes = search.run(kind, tiles, BUDGET);
                        if nodes.is_none() {
                            given_up.store(true, Relaxed);
                        }
                        nodes
                    },
                )
                .collect();
            counts.iter().copied().collect::<Option<Vec<u64>>>().map(|c| {
                (
                    c.iter().sum::<u64>() as f64 / c.len() as f64,
                    c.iter().copied().max().unwrap_or(0),
                )
            })
        };
        exceeded = nodes.is_none();
        rows.push(EffortRow {
            distance,
            positions: positions.len(),
            kind,
            nodes,
        });
    }
    rows
}
