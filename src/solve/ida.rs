//! Iterative-deepening A* (Korf 1985) for sliding-tile boards too big to enumerate.
//!
//! Each iteration is a depth-first search that prunes a branch once `moves so far +
//! estimate` exceeds a bound; the next bound is the smallest value that was pruned. With
//! an admissible estimate (never more than the true distance) the first solution found is
//! a shortest one. Memory is only the current path, so any board size works.
//!
//! An iteration is split into the subtrees below a shallow frontier, searched in parallel
//! on the current rayon pool. The solution reported is the one in the first subtree (in
//! frontier order) that has one, so the output does not depend on the thread count.

use super::board::{Board, MAX_CELLS};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// A board as the search mutates it: where each tile is and what each cell holds.
#[derive(Clone)]
pub struct Node {
    /// `tiles[cell]`: the tile on `cell`, 0 for the blank.
    pub tiles: [u8; MAX_CELLS],
    /// `cells[tile]`: the cell holding `tile`; `cells[0]` is the blank's cell.
    pub cells: [u8; MAX_CELLS],
}

impl Node {
    /// The search's view of `board`.
    pub fn new(board: &Board) -> Self {
        let mut node = Node {
            tiles: [0; MAX_CELLS],
            cells: [0; MAX_CELLS],
        };
        for (cell, &tile) in board.tiles().iter().enumerate() {
            node.tiles[cell] = tile;
            node.cells[usize::from(tile)] = cell as u8;
        }
        node
    }

    /// Slides the tile on `cell` into the blank; returns the tile.
    #[inline(always)]
    pub fn slide(&mut self, cell: u8) -> u8 {
        let blank = self.cells[0];
        let tile = self.tiles[usize::from(cell)];
        self.tiles[usize::from(blank)] = tile;
        self.tiles[usize::from(cell)] = 0;
        self.cells[usize::from(tile)] = blank;
        self.cells[0] = cell;
        tile
    }
}

/// A lower bound on the moves from a position to the goal, updated move by move.
///
/// It must be admissible (never above the true distance) and zero only at the goal.
pub trait Heuristic: Sync {
    /// What the estimate keeps between moves (e.g. per-line terms), copied on each move so
    /// that undoing a move is just dropping the copy.
    type Memo: Copy + Send + Sync;
    /// The estimate of `node`, from scratch.
    fn evaluate(&self, node: &Node) -> (Self::Memo, u32);
    /// The estimate after the tile on `cell` slides into the blank of `node`; `memo`
    /// holds the estimate of `node` and is updated to the position after the move.
    fn update(&self, memo: &mut Self::Memo, node: &Node, cell: u8) -> u32;
}

/// A shortest solution found by [`solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The cell of the tile slid into the blank at each move, in order.
    pub slides: Vec<u8>,
    /// Positions expanded over all iterations.
    pub nodes: u64,
}

/// Subtrees an iteration is split into, at least (when the tree has that many nodes):
/// plenty to balance a few cores, since subtree sizes vary by orders of magnitude.
const SUBTREES: usize = 512;

/// How often (in expanded positions) a subtree checks whether an earlier one has already
/// found a solution, which makes its own search pointless.
const CHECK_EVERY: u64 = 1 << 14;

/// Finds a shortest solution of `board` with IDA* and `heuristic`; `None` if the board is
/// unsolvable (checked first: the search would never end).
pub fn solve<H: Heuristic>(board: &Board, heuristic: &H) -> Option<Found> {
    solve_with_progress(board, heuristic, &mut |_, _| {})
}

/// [`solve`], calling `progress(bound, nodes)` after each iteration that found nothing:
/// no solution is shorter than `bound`, and `nodes` positions were expanded so far.
pub fn solve_with_progress<H: Heuristic>(
    board: &Board,
    heuristic: &H,
    progress: &mut dyn FnMut(u32, u64),
) -> Option<Found> {
    board.check_solvable().ok()?;
    search_with_progress(board, heuristic, progress)
}

/// [`solve_with_progress`] towards the goal `heuristic` knows (where it is 0), for a board
/// the caller has checked can reach that goal: otherwise the search never ends.
pub fn search_with_progress<H: Heuristic>(
    board: &Board,
    heuristic: &H,
    progress: &mut dyn FnMut(u32, u64),
) -> Option<Found> {
    let geometry = Geometry::new(board.rows(), board.cols());
    let root = Node::new(board);
    let (memo, h) = heuristic.evaluate(&root);
    let mut bound = h;
    let mut nodes = 0;
    loop {
        match iteration(&geometry, heuristic, &root, memo, h, bound, &mut nodes) {
            Ok(slides) => return Some(Found { slides, nodes }),
            Err(next) => {
                bound = next;
                progress(bound, nodes);
            }
        }
    }
}

/// The moves of a board: the cells next to each cell.
struct Geometry {
    /// `neighbours[cell]`, padded with [`NONE`].
    neighbours: Vec<[u8; 4]>,
}

const NONE: u8 = u8::MAX;

impl Geometry {
    fn new(rows: usize, cols: usize) -> Self {
        let neighbours = (0..rows * cols)
            .map(|cell| {
                let mut list = [NONE; 4];
                for (slot, n) in list.iter_mut().zip(super::board::neighbours(rows, cols, cell)) {
                    *slot = n as u8;
                }
                list
            })
            .collect();
        Self { neighbours }
    }
}

/// A node of the shallow frontier an iteration is split at.
struct Subtree<M> {
    node: Node,
    memo: M,
    h: u32,
    /// Moves from the root to here.
    path: Vec<u8>,
    /// The blank's previous cell (moving back there would undo the last move).
    previous: u8,
}

/// One iteration with `bound`: the solution's slides, or the next bound.
fn iteration<H: Heuristic>(
    geometry: &Geometry,
    heuristic: &H,
    root: &Node,
    memo: H::Memo,
    h: u32,
    bound: u32,
    nodes: &mut u64,
) -> Result<Vec<u8>, u32> {
    let mut frontier = vec![Subtree {
        node: root.clone(),
        memo,
        h,
        path: Vec::new(),
        previous: NONE,
    }];
    let mut next_bound = u32::MAX;
    // Deepen the frontier until it is wide enough to share out.
    while frontier.len() < SUBTREES && frontier.iter().any(|s| s.path.len() < bound as usize && s.h > 0) {
        let mut deeper = Vec::new();
        for sub in frontier {
            if sub.h == 0 || sub.path.len() >= bound as usize {
                deeper.push(sub);
                continue;
            }
            *nodes += 1;
            let blank = sub.node.cells[0];
            for &cell in &geometry.neighbours[usize::from(blank)] {
                if cell == NONE || cell == sub.previous {
                    continue;
                }
                let mut memo = sub.memo;
                let h = heuristic.update(&mut memo, &sub.node, cell);
                let g = sub.path.len() as u32 + 1;
                let f = g + h;
                if f > bound {
                    next_bound = next_bound.min(f);
                    continue;
                }
                let mut node = sub.node.clone();
                node.slide(cell);
                let mut path = sub.path.clone();
                path.push(cell);
                deeper.push(Subtree {
                    node,
                    memo,
                    h,
                    path,
                    previous: blank,
                });
            }
        }
        frontier = deeper;
    }

    // Each thread takes the next subtree in frontier order until none is left, so both
    // stay busy to the end of the iteration, and they search near each other: once one
    // finds a solution, the others have little to cancel past it. All subtrees before
    // the first one holding a solution are searched in full, so the solution reported
    // is the first in frontier order whatever the threads do.
    let first_found = AtomicUsize::new(usize::MAX);
    let taken = AtomicUsize::new(0);
    let searched: Vec<Searched> = rayon::broadcast(|_| {
        let mut searched = Vec::new();
        loop {
            let index = taken.fetch_add(1, Relaxed);
            let Some(sub) = frontier.get(index) else { break };
            if first_found.load(Relaxed) < index {
                break;
            }
            let mut worker = Worker {
                geometry,
                heuristic,
                node: sub.node.clone(),
                path: Vec::new(),
                bound,
                next_bound: u32::MAX,
                nodes: 0,
                index,
                first_found: &first_found,
                cancelled: false,
            };
            let found = worker.dfs(sub.path.len() as u32, sub.h, &sub.memo, sub.previous);
            if found {
                first_found.fetch_min(index, Relaxed);
            }
            searched.push(Searched {
                index,
                found: found.then_some(worker.path),
                next_bound: worker.next_bound,
                nodes: worker.nodes,
            });
        }
        searched
    })
    .into_iter()
    .flatten()
    .collect();

    *nodes += searched.iter().map(|s| s.nodes).sum::<u64>();
    if let Some(first) = searched.iter().filter(|s| s.found.is_some()).min_by_key(|s| s.index) {
        let mut slides = frontier[first.index].path.clone();
        slides.extend(first.found.iter().flatten());
        return Ok(slides);
    }
    Err(searched.iter().fold(next_bound, |bound, s| bound.min(s.next_bound)))
}

/// What searching one subtree gave.
struct Searched {
    /// The subtree's position in the frontier.
    index: usize,
    /// The rest of a solution, if the subtree holds one within the bound.
    found: Option<Vec<u8>>,
    /// Smallest `f` above the bound met.
    next_bound: u32,
    /// Positions expanded.
    nodes: u64,
}

/// The depth-first search below one frontier node.
struct Worker<'a, H: Heuristic> {
    geometry: &'a Geometry,
    heuristic: &'a H,
    node: Node,
    /// Slides from the subtree's root to the current node.
    path: Vec<u8>,
    bound: u32,
    /// Smallest `f` above the bound seen so far.
    next_bound: u32,
    nodes: u64,
    /// This subtree's position in the frontier.
    index: usize,
    first_found: &'a AtomicUsize,
    cancelled: bool,
}

impl<H: Heuristic> Worker<'_, H> {
    /// Searches below the current node, `g` moves from the root with estimate `h`; true
    /// when a solution within the bound is found (then `path` holds its moves).
    fn dfs(&mut self, g: u32, h: u32, memo: &H::Memo, previous: u8) -> bool {
        if h == 0 {
            return true;
        }
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 && self.first_found.load(Relaxed) < self.index {
            self.cancelled = true;
        }
        if self.cancelled {
            return false;
        }
        // Estimate every child before searching any: the estimates' table reads do not
        // depend on each other, so the processor overlaps them instead of waiting for
        // each in turn.
        let blank = self.node.cells[0];
        let mut children = [(NONE, *memo, 0); 4];
        for (child, &cell) in children.iter_mut().zip(&self.geometry.neighbours[usize::from(blank)]) {
            if cell == NONE || cell == previous {
                continue;
            }
            child.0 = cell;
            child.2 = self.heuristic.update(&mut child.1, &self.node, cell);
        }
        for (cell, memo, h) in &children {
            if *cell == NONE {
                continue;
            }
            let f = g + 1 + h;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            self.node.slide(*cell);
            self.path.push(*cell);
            if self.dfs(g + 1, *h, memo, blank) {
                return true;
            }
            self.path.pop();
            self.node.slide(blank);
        }
        false
    }
}
