//! IDA* (Korf 1985) over a definition's flattened states: depth-first iterations bounded
//! by moves so far plus the largest of the patterns' distances, the next bound the smallest
//! value pruned, moves tried in canonical sequences only ([`Canonical`]).
//!
//! An iteration is split into the subtrees below a shallow frontier, searched in parallel
//! on the current rayon pool. The solution reported is the one in the first subtree (in
//! frontier order) that has one, so the output does not depend on the thread count; a
//! subtree stops as soon as an earlier one has found a solution (a shared atomic index).

use super::canonical::{Canonical, FORBIDDEN};
use super::projection::{Pattern, Scratch};
use crate::puzzle::perm::Move;
use crate::puzzle::perm::structure::Layout;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Subtrees an iteration is split into, at least (when the tree has that many nodes).
const SUBTREES: usize = 256;

/// How often (in nodes) a subtree checks whether an earlier one has found a solution.
const CHECK_EVERY: u64 = 1 << 12;

/// Deepest solution searched for: distances are kept in bytes.
pub const MAX_DEPTH: u32 = 250;

/// What a search reads: the moves, the layout their twists are taken in, the goal, the
/// canonical automaton and the patterns.
pub struct Space<'a> {
    /// The moves, powers expanded.
    pub moves: &'a [Move],
    /// Where each set's positions lie and the orientations told apart.
    pub layout: &'a Layout,
    /// The goal: pieces, then twists.
    pub goal: Vec<u8>,
    /// Which moves may follow which.
    pub canonical: &'a Canonical,
    /// The estimates, combined by maximum.
    pub patterns: &'a [Pattern],
}

/// A shortest solution: the moves (indices into [`Space::moves`]) and the nodes generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Each move's index.
    pub moves: Vec<usize>,
    /// Nodes generated over all iterations.
    pub nodes: u64,
}

/// A node of the frontier an iteration is split at.
#[derive(Clone)]
struct Node {
    state: Vec<u8>,
    hs: Vec<u8>,
    canon: u32,
    path: Vec<usize>,
}

impl Space<'_> {
    /// Positions of a state (it holds twice as many bytes: pieces, then twists).
    fn n(&self) -> usize {
        self.layout.positions()
    }

    /// `to` is `from` after move `m`.
    #[inline]
    fn apply(&self, m: usize, from: &[u8], to: &mut [u8]) {
        let n = self.n();
        let mv = &self.moves[m];
        let (fp, ft) = from.split_at(n);
        let (tp, tt) = to.split_at_mut(n);
        for i in 0..n {
            let f = usize::from(mv.from[i]);
            let piece = fp[f];
            tp[i] = piece;
            let t = ft[f] + mv.twist[i];
            tt[i] = match self.layout.open {
                true => t % self.layout.piece_mod(i, piece),
                false => t.checked_sub(self.layout.modulus[i]).unwrap_or(t),
            };
        }
    }

    /// The patterns' distances of `child`, a move from a node whose distances are `parent`,
    /// into `out`; their maximum, or `None` if a pattern says it cannot be solved.
    ///
    /// Past `limit` the rest are not looked up (`out` is then incomplete, and the child is
    /// pruned): most nodes are pruned, and a look-up in a large table is a cache miss,
    /// which is where the search spends its time. The patterns come smallest table first.
    #[inline]
    fn estimate(&self, parent: &[u8], child: &[u8], out: &mut [u8], limit: u32, x: &mut Scratch) -> Option<u8> {
        let (pieces, twists) = child.split_at(self.n());
        let mut h = 0;
        for ((p, &before), after) in self.patterns.iter().zip(parent).zip(out.iter_mut()) {
            *after = p.child(before, p.rank(pieces, twists, x))?;
            h = h.max(*after);
            if u32::from(h) > limit {
                break;
            }
        }
        Some(h)
    }

    /// Finds a shortest solution from `start` (pieces then twists, of the goal's class),
    /// whose patterns' distances are `hs`; `progress(bound, nodes)` hears each iteration
    /// that found nothing. `None` if none is within [`MAX_DEPTH`].
    pub fn solve(&self, start: Vec<u8>, hs: Vec<u8>, progress: &mut dyn FnMut(u32, u64)) -> Option<Found> {
        let h = hs.iter().copied().max().unwrap_or(0);
        let root = Node {
            state: start,
            hs,
            canon: 0,
            path: Vec::new(),
        };
        if root.state == self.goal {
            return Some(Found {
                moves: Vec::new(),
                nodes: 0,
            });
        }
        let mut bound = u32::from(h).max(1);
        let mut nodes = 0;
        while bound <= MAX_DEPTH {
            match self.iteration(&root, bound, &mut nodes) {
                Ok(moves) => return Some(Found { moves, nodes }),
                Err(next) => {
                    bound = next;
                    progress(bound, nodes);
                }
            }
        }
        None
    }

    /// One iteration with `bound`: the solution's moves, or the next bound.
    fn iteration(&self, root: &Node, bound: u32, nodes: &mut u64) -> Result<Vec<usize>, u32> {
        let (frontier, mut next_bound) = match self.frontier(root, bound, nodes) {
            Ok(found) => return Ok(found),
            Err(split) => split,
        };
        let first = AtomicUsize::new(usize::MAX);
        let results: Vec<(Option<Vec<usize>>, u64, u32)> = frontier
            .par_iter()
            .enumerate()
            .map(|(index, node)| {
                if first.load(Relaxed) < index {
                    return (None, 0, u32::MAX);
                }
                let mut worker = Worker::new(self, node, bound, index, &first);
                let found = worker.dfs(node.path.len(), node.canon, bound);
                if found {
                    first.fetch_min(index, Relaxed);
                    let mut path = node.path.clone();
                    path.extend(&worker.path);
                    return (Some(path), worker.nodes, worker.next_bound);
                }
                (None, worker.nodes, worker.next_bound)
            })
            .collect();
        *nodes += results.iter().map(|r| r.1).sum::<u64>();
        if let Some(path) = results.iter().find_map(|r| r.0.clone()) {
            return Ok(path);
        }
        next_bound = results.iter().fold(next_bound, |b, r| b.min(r.2));
        Err(next_bound)
    }

    /// The root expanded breadth first, a whole level at a time, until there are at least
    /// [`SUBTREES`] nodes (or none can go deeper within `bound`), and the smallest bound
    /// pruned on the way; or the solution, if one is met on the way.
    fn frontier(&self, root: &Node, bound: u32, nodes: &mut u64) -> Result<Vec<usize>, (Vec<Node>, u32)> {
        let mut frontier = vec![root.clone()];
        let mut next_bound = u32::MAX;
        let mut x = Scratch::default();
        let mut depth = 0;
        while frontier.len() < SUBTREES && depth < bound {
            let mut deeper = Vec::new();
            for node in &frontier {
                for m in 0..self.moves.len() {
                    let canon = self.canonical.next(node.canon, m);
                    if canon == FORBIDDEN {
                        continue;
                    }
                    let mut child = Node {
                        state: vec![0; node.state.len()],
                        hs: vec![0; node.hs.len()],
                        canon,
                        path: node.path.clone(),
                    };
                    child.path.push(m);
                    self.apply(m, &node.state, &mut child.state);
                    *nodes += 1;
                    let limit = bound - depth - 1;
                    let Some(h) = self.estimate(&node.hs, &child.state, &mut child.hs, limit, &mut x) else {
                        continue;
                    };
                    let f = depth + 1 + u32::from(h);
                    if f > bound {
                        next_bound = next_bound.min(f);
                    } else if h == 0 && child.state == self.goal {
                        return Ok(child.path);
                    } else {
                        deeper.push(child);
                    }
                }
            }
            frontier = deeper;
            depth += 1;
        }
        if depth >= bound {
            // Every node left lies at the bound and is not the goal.
            return Err((Vec::new(), next_bound.min(bound + 1)));
        }
        Err((frontier, next_bound))
    }
}

/// One subtree's depth-first search, with its own stacks.
struct Worker<'a> {
    space: &'a Space<'a>,
    /// The state at each depth, pieces then twists, `2n` bytes a depth.
    states: Vec<u8>,
    /// The patterns' distances at each depth.
    hs: Vec<u8>,
    /// The moves from the subtree's root.
    path: Vec<usize>,
    x: Scratch,
    nodes: u64,
    next_bound: u32,
    index: usize,
    first: &'a AtomicUsize,
    /// An earlier subtree found a solution: this one stops.
    aborted: bool,
}

impl<'a> Worker<'a> {
    fn new(space: &'a Space<'a>, node: &Node, bound: u32, index: usize, first: &'a AtomicUsize) -> Self {
        let depth = bound as usize + 1;
        let (width, hw) = (node.state.len(), node.hs.len());
        let mut states = vec![0; width * (depth + 1)];
        let mut hs = vec![0; hw.max(1) * (depth + 1)];
        let at = node.path.len();
        states[at * width..][..width].copy_from_slice(&node.state);
        hs[at * hw..][..hw].copy_from_slice(&node.hs);
        Self {
            space,
            states,
            hs,
            path: Vec::new(),
            x: Scratch::default(),
            nodes: 0,
            next_bound: u32::MAX,
            index,
            first,
            aborted: false,
        }
    }

    /// Searches below the node at `depth` (in the stacks) whose automaton state is
    /// `canon`; true if it found the goal (the moves are then in `path`).
    fn dfs(&mut self, depth: usize, canon: u32, bound: u32) -> bool {
        let space = self.space;
        let (width, hw) = (space.n() * 2, space.patterns.len());
        for m in 0..space.moves.len() {
            let next = space.canonical.next(canon, m);
            if next == FORBIDDEN || self.aborted {
                continue;
            }
            let (parent, child) = self.states.split_at_mut((depth + 1) * width);
            let (parent, child) = (&parent[depth * width..], &mut child[..width]);
            space.apply(m, parent, child);
            let (hp, hc) = self.hs.split_at_mut((depth + 1) * hw);
            let limit = bound - depth as u32 - 1;
            let h = space.estimate(&hp[depth * hw..], child, &mut hc[..hw], limit, &mut self.x);
            self.nodes += 1;
            if self.nodes % CHECK_EVERY == 0 && self.first.load(Relaxed) < self.index {
                self.aborted = true;
                return false;
            }
            let Some(h) = h else { continue };
            let f = depth as u32 + 1 + u32::from(h);
            if f > bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            if h == 0 && *child == space.goal[..] {
                self.path.push(m);
                return true;
            }
            if depth as u32 + 1 >= bound {
                self.next_bound = self.next_bound.min(bound + 1);
                continue;
            }
            self.path.push(m);
            if self.dfs(depth + 1, next, bound) {
                return true;
            }
            self.path.pop();
        }
        false
    }
}
