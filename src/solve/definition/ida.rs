//! IDA* (Korf 1985) over a definition's flattened states: depth-first iterations bounded
//! by moves so far plus the largest of the patterns' distances, the next bound the smallest
//! value pruned, moves tried in canonical sequences only ([`Canonical`]).
//!
//! An iteration is split into the subtrees below a shallow frontier, searched in parallel
//! on the current rayon pool. The solution reported is the one in the first subtree (in
//! frontier order) that has one, so the output does not depend on the thread count; a
//! subtree stops as soon as an earlier one has found a solution (a shared atomic index).

use super::canonical::{Canonical, FORBIDDEN};
use super::probe::Probe;
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
/// canonical automaton, the patterns and the probes that read them.
pub struct Space<'a> {
    /// The moves, powers expanded.
    pub moves: &'a [Move],
    /// Where each set's positions lie and the orientations told apart.
    pub layout: &'a Layout,
    /// The goal: pieces, then twists.
    pub goal: Vec<u8>,
    /// Which moves may follow which.
    pub canonical: &'a Canonical,
    /// The pattern databases.
    pub patterns: &'a [Pattern],
    /// The estimates, combined by maximum: patterns read on the position or a conjugate.
    pub probes: &'a [Probe],
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

    /// The probes' distances of `child`, a move from a node whose distances are `parent`,
    /// into `out`; their maximum, or `None` if a pattern says it cannot be solved.
    ///
    /// Past `limit` the rest are not looked up (`out` is then incomplete, and the child is
    /// pruned): most nodes are pruned, and a look-up in a large table is a cache miss,
    /// which is where the search spends its time. The probes come in [`probe_order`].
    #[inline]
    fn estimate(&self, parent: &[u8], child: &[u8], out: &mut [u8], limit: u32, b: &mut Scratch) -> Option<u8> {
        let mut h = 0;
        let mut order = Vec::new();
        probe_order(parent, &mut order);
        for &j in &order {
            let probe = &self.probes[j];
            let p = &self.patterns[probe.pattern];
            out[j] = p.child(parent[j], self.probe_rank(probe, child, b))?;
            h = h.max(out[j]);
            if u32::from(h) > limit {
                break;
            }
        }
        Some(h)
    }

    /// The rank in `probe`'s pattern of `state` (pieces then twists), or of its conjugate.
    #[inline]
    fn probe_rank(&self, probe: &Probe, state: &[u8], x: &mut Scratch) -> u64 {
        let (pieces, twists) = state.split_at(self.n());
        self.patterns[probe.pattern].rank(&probe.reader, pieces, twists, x)
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

/// The order in which a node's children are looked up: the probes whose parent's
/// distance is largest first (ties as they come: smallest table first, the position
/// before its conjugates), into `order`.
///
/// A child's distance is its parent's, one less or one more, so a probe whose parent's
/// distance is `limit` or less, plus one, cannot prune the child: it is read only for the
/// children the others leave within the bound (which need it, to read their own children
/// from 2 bits). Those that can prune, the likeliest first, spare the pruned children the
/// others' look-ups: in the last levels of an iteration, nearly every child.
fn probe_order(parent: &[u8], order: &mut Vec<usize>) {
    order.clear();
    order.extend(0..parent.len());
    order.sort_by_key(|&j| std::cmp::Reverse(parent[j]));
}

/// A child being estimated: its move, automaton state and estimate so far.
#[derive(Clone, Copy, Default)]
struct Kid {
    m: usize,
    canon: u32,
    /// The largest distance looked up so far; `None`: a pattern cannot solve it.
    h: Option<u8>,
    /// Its estimate is still within the bound: the next probe is looked up.
    open: bool,
}

/// One subtree's depth-first search, with its own stacks.
///
/// A node's children are made and estimated together, one probe at a time over all those
/// still within the bound: their ranks are computed and their table entries prefetched
/// first, then read, so that the cache misses of up to 18 look-ups overlap instead of
/// following one another. The children are then searched in move order, as one at a time
/// would be: the same solution, and the same nodes counted.
struct Worker<'a> {
    space: &'a Space<'a>,
    /// The state at each depth, pieces then twists, `2n` bytes a depth.
    states: Vec<u8>,
    /// The probes' distances at each depth.
    hs: Vec<u8>,
    /// The children of the node at each depth: states (`moves` slots of `2n` bytes).
    kid_states: Vec<u8>,
    /// Their probes' distances (`moves` slots of one byte a probe).
    kid_hs: Vec<u8>,
    /// Their moves and estimates (`moves` slots a depth).
    kids: Vec<Kid>,
    /// A rank for each child, for the probe being looked up.
    ranks: Vec<u64>,
    /// The probes in [`probe_order`] for the node being expanded.
    order: Vec<usize>,
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
        let moves = space.moves.len();
        let mut states = vec![0; width * (depth + 1)];
        let mut hs = vec![0; hw.max(1) * (depth + 1)];
        let at = node.path.len();
        states[at * width..][..width].copy_from_slice(&node.state);
        hs[at * hw..][..hw].copy_from_slice(&node.hs);
        Self {
            space,
            states,
            hs,
            kid_states: vec![0; width * moves * (depth + 1)],
            kid_hs: vec![0; hw.max(1) * moves * (depth + 1)],
            kids: vec![Kid::default(); moves * (depth + 1)],
            ranks: vec![0; moves],
            order: Vec::new(),
            path: Vec::new(),
            x: Scratch::default(),
            nodes: 0,
            next_bound: u32::MAX,
            index,
            first,
            aborted: false,
        }
    }

    /// Makes the children of the node at `depth` whose automaton state is `canon` into
    /// that depth's slots; how many.
    fn make(&mut self, depth: usize, canon: u32) -> usize {
        let space = self.space;
        let (width, moves) = (space.n() * 2, space.moves.len());
        let parent = &self.states[depth * width..][..width];
        let block = &mut self.kid_states[depth * moves * width..][..moves * width];
        let mut count = 0;
        for m in 0..moves {
            let next = space.canonical.next(canon, m);
            if next == FORBIDDEN {
                continue;
            }
            space.apply(m, parent, &mut block[count * width..][..width]);
            self.kids[depth * moves + count] = Kid {
                m,
                canon: next,
                h: Some(0),
                open: true,
            };
            count += 1;
        }
        count
    }

    /// Estimates the `count` children at `depth`, probe by probe over those still within
    /// `limit` (see the type's note); a child past it is not looked up further.
    fn estimate(&mut self, depth: usize, count: usize, limit: u32) {
        let space = self.space;
        let (width, moves, hw) = (space.n() * 2, space.moves.len(), space.probes.len());
        let states = &self.kid_states[depth * moves * width..][..moves * width];
        let kids = &mut self.kids[depth * moves..][..count];
        let kid_hs = &mut self.kid_hs[depth * moves * hw..][..moves * hw];
        let parent = &self.hs[depth * hw..][..hw];
        probe_order(parent, &mut self.order);
        for &j in &self.order {
            let probe = &space.probes[j];
            let pattern = &space.patterns[probe.pattern];
            let mut open = 0;
            for (k, _) in kids.iter().enumerate().filter(|(_, kid)| kid.open) {
                let rank = space.probe_rank(probe, &states[k * width..][..width], &mut self.x);
                pattern.prefetch(rank);
                self.ranks[k] = rank;
                open += 1;
            }
            if open == 0 {
                break;
            }
            for (k, kid) in kids.iter_mut().enumerate().filter(|(_, kid)| kid.open) {
                let Some(d) = pattern.child(parent[j], self.ranks[k]) else {
                    (kid.h, kid.open) = (None, false);
                    continue;
                };
                kid_hs[k * hw + j] = d;
                let h = kid.h.unwrap_or(0).max(d);
                (kid.h, kid.open) = (Some(h), u32::from(h) <= limit);
            }
        }
    }

    /// Searches below the node at `depth` (in the stacks) whose automaton state is
    /// `canon`; true if it found the goal (the moves are then in `path`).
    fn dfs(&mut self, depth: usize, canon: u32, bound: u32) -> bool {
        let space = self.space;
        let (width, moves, hw) = (space.n() * 2, space.moves.len(), space.probes.len());
        let count = self.make(depth, canon);
        self.estimate(depth, count, bound - depth as u32 - 1);
        let before = self.nodes;
        self.nodes += count as u64;
        if before / CHECK_EVERY != self.nodes / CHECK_EVERY && self.first.load(Relaxed) < self.index {
            self.aborted = true;
            return false;
        }
        for k in 0..count {
            let kid = self.kids[depth * moves + k];
            let Some(h) = kid.h else { continue };
            let f = depth as u32 + 1 + u32::from(h);
            if f > bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let state = &self.kid_states[(depth * moves + k) * width..][..width];
            if h == 0 && *state == space.goal[..] {
                self.path.push(kid.m);
                return true;
            }
            if depth as u32 + 1 >= bound {
                self.next_bound = self.next_bound.min(bound + 1);
                continue;
            }
            self.states[(depth + 1) * width..][..width].copy_from_slice(state);
            let hs = &self.kid_hs[(depth * moves + k) * hw..][..hw];
            self.hs[(depth + 1) * hw..][..hw].copy_from_slice(hs);
            self.path.push(kid.m);
            if self.dfs(depth + 1, kid.canon, bound) {
                return true;
            }
            self.path.pop();
            if self.aborted {
                return false;
            }
        }
        false
    }
}
