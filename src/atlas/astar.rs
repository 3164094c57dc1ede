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

use crate::heuristics::{Estimates, Kind};
use crate::puzzle::sliding::MAX_CELLS;
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
    let (rows, cols) = (estimates.rows(), estimates.cols());
    let cells = rows * cols;
    let mut start = [0u8; MAX_CELLS];
    start[..cells].copy_from_slice(tiles);
    // Every node ever enqueued: board, moves, estimate, index of the previous node.
    let mut nodes: Vec<([u8; MAX_CELLS], u32, u32, usize)> = Vec::new();
    let mut queue = Queue::default();
    let h = estimates.value(kind, tiles);
    nodes.push((start, 0, h, usize::MAX));
    queue.push(h, h, 0);
    let mut count = 0;
    while let Some(index) = queue.pop() {
        count += 1;
        let (board, moves, h, previous) = nodes[index];
        // Each estimate is 0 exactly at the goal.
        if h == 0 {
            return Some(count);
        }
        if count >= budget {
            return None;
        }
        let blank = board.iter().position(|&t| t == 0).unwrap_or(0);
        for cell in crate::solve::board::neighbours(rows, cols, blank) {
            let mut next = board;
            next.swap(blank, cell);
            if previous != usize::MAX && nodes[previous].0 == next {
                continue;
            }
            let h = h + part(estimates, kind, &next, blank, cell) - part(estimates, kind, &board, cell, blank);
            nodes.push((next, moves + 1, h, index));
            queue.push(moves + 1 + h, h, nodes.len() - 1);
        }
    }
    None
}

/// The priority queue: a first-in first-out bucket per (priority, estimate), so that the
/// order is priority, then estimate, then enqueue order, each step in constant time
/// (priorities and estimates are small integers).
#[derive(Default)]
struct Queue {
    /// `buckets[priority][estimate]`: node indices in enqueue order.
    buckets: Vec<Vec<VecDeque<usize>>>,
    /// No bucket before `(priority, estimate)` holds a node.
    first: (usize, usize),
    len: usize,
}

impl Queue {
    fn push(&mut self, priority: u32, h: u32, index: usize) {
        let (p, h) = (priority as usize, h as usize);
        if self.buckets.len() <= p {
            self.buckets.resize_with(p + 1, Vec::new);
        }
        if self.buckets[p].len() <= h {
            self.buckets[p].resize_with(h + 1, VecDeque::new);
        }
        self.buckets[p][h].push_back(index);
        self.first = self.first.min((p, h));
        self.len += 1;
    }

    fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        loop {
            let (p, h) = self.first;
            if let Some(index) = self.buckets[p].get_mut(h).and_then(VecDeque::pop_front) {
                self.len -= 1;
                return Some(index);
            }
            self.first = if h + 1 < self.buckets[p].len() {
                (p, h + 1)
            } else {
                (p + 1, 0)
            };
        }
    }
}

/// The part of the estimate of `board` that sliding the tile on cell `at` to the
/// neighbouring cell `other` can change: that tile's term, plus for linear conflicts the
/// two lines the slide crosses. A child's estimate is its parent's, plus this part of the
/// child, minus this part of the parent.
#[inline]
fn part(estimates: &Estimates, kind: Kind, board: &[u8], at: usize, other: usize) -> u32 {
    let tile = usize::from(board[at]);
    match kind {
        Kind::Hamming => u32::from(tile != at + 1),
        Kind::Manhattan => estimates.tile_distance(tile, at),
        Kind::LinearConflict => {
            let cols = estimates.cols();
            let lines = if at / cols == other / cols {
                estimates.col_conflicts(board, at % cols) + estimates.col_conflicts(board, other % cols)
            } else {
                estimates.row_conflicts(board, at / cols) + estimates.row_conflicts(board, other / cols)
            };
            estimates.tile_distance(tile, at) + lines
        }
    }
}

/// Runs A* with every estimate on each sampled position (`samples[distance]`), in parallel;
/// the result does not depend on the thread count.
pub fn effort(estimates: &Estimates, samples: &[Vec<Vec<u8>>]) -> Effort {
    let mut rows = Vec::new();
    for kind in Kind::ALL {
        let mut exceeded = false;
        for (distance, positions) in samples.iter().enumerate() {
            let nodes = if exceeded {
                None
            } else {
                // Once one search gives up, the others of this distance stop at once.
                let given_up = AtomicBool::new(false);
                let counts: Vec<Option<u64>> = positions
                    .par_iter()
                    .map(|tiles| {
                        if given_up.load(Relaxed) {
                            return None;
                        }
                        let nodes = dequeued(estimates, kind, tiles, BUDGET);
                        if nodes.is_none() {
                            given_up.store(true, Relaxed);
                        }
                        nodes
                    })
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
    }
    rows.sort_by_key(|r| (r.distance, Kind::ALL.iter().position(|&k| k == r.kind)));
    Effort { rows }
}
