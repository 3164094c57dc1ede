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

/// One search node: the board packed 4 bits a cell (cell `i` in bits `4i..4i+4`), its
/// blank cell, moves made, estimate and previous node.
#[derive(Clone, Copy)]
struct Node {
    board: u64,
    previous: u32,
    moves: u32,
    h: u32,
    blank: u8,
}

/// No previous node (the start).
const NONE: u32 = u32::MAX;

/// The A* of one thread: its buffers are kept from one search to the next.
struct Search<'a> {
    estimates: &'a Estimates,
    /// The estimates' line terms by table, where the board's sides allow.
    lines: Option<&'a LineTables>,
    /// Every node ever enqueued.
    nodes: Vec<Node>,
    queue: Queue,
}

impl<'a> Search<'a> {
    fn new(estimates: &'a Estimates, lines: Option<&'a LineTables>) -> Self {
        Search {
            estimates,
            lines,
            nodes: Vec::new(),
            queue: Queue::default(),
        }
    }

    /// [`dequeued`].
    fn run(&mut self, kind: Kind, tiles: &[u8], budget: u64) -> Option<u64> {
        let (rows, cols) = (self.estimates.rows(), self.estimates.cols());
        let cells = rows * cols;
        let start = tiles[..cells]
            .iter()
            .enumerate()
            .fold(0u64, |b, (cell, &t)| b | (u64::from(t) << (4 * cell)));
        let blank = tiles[..cells].iter().position(|&t| t == 0).unwrap_or(0);
        let h = self.estimates.value(kind, tiles);
        self.nodes.clear();
        self.queue.clear();
        self.nodes.push(Node {
            board: start,
            previous: NONE,
            moves: 0,
            h,
            blank: blank as u8,
        });
        self.queue.push(h, h, 0);
        let mut count = 0;
        while let Some(index) = self.queue.pop() {
            count += 1;
            let node = self.nodes[index];
            // Each estimate is 0 exactly at the goal.
            if node.h == 0 {
                return Some(count);
            }
            if count >= budget {
                return None;
            }
            let before = (node.previous != NONE).then(|| self.nodes[node.previous as usize].board);
            let blank = usize::from(node.blank);
            for cell in crate::solve::board::neighbours(rows, cols, blank) {
                let tile = (node.board >> (4 * cell)) & 0xF;
                let next = (node.board & !(0xF << (4 * cell))) | (tile << (4 * blank));
                if before == Some(next) {
                    continue;
                }
                let h = node.h + self.part(kind, next, blank, cell) - self.part(kind, node.board, cell, blank);
                self.nodes.push(Node {
                    board: next,
                    previous: index as u32,
                    moves: node.moves + 1,
                    h,
                    blank: cell as u8,
                });
                self.queue.push(node.moves + 1 + h, h, self.nodes.len() - 1);
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
                let horizontal = at / cols == other / cols;
                let lines = match self.lines {
                    Some(lines) if horizontal => lines.col_conflicts(board),
                    Some(lines) => lines.row_conflicts(board, at / cols) + lines.row_conflicts(board, other / cols),
                    None => {
                        let tiles = super::unpack(board);
                        if horizontal {
                            estimates.col_conflicts(&tiles, at % cols) + estimates.col_conflicts(&tiles, other % cols)
                        } else {
                            estimates.row_conflicts(&tiles, at / cols) + estimates.row_conflicts(&tiles, other / cols)
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

    /// Empties the queue, keeping its buckets' memory.
    fn clear(&mut self) {
        for row in &mut self.buckets {
            row.iter_mut().for_each(VecDeque::clear);
        }
        self.first = (0, 0);
        self.len = 0;
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
