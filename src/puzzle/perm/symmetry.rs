//! The symmetries of a definition, found from its moves alone: relabellings of the
//! positions (with orientation offsets) that carry every move onto a move and keep the
//! goal. Conjugating a position by one keeps its distance to the goal, so positions fall
//! into classes of alike positions, counted once each.
//!
//! Every orientation of every position is a *point*; a move is a permutation of points,
//! and so is a candidate symmetry π. π must conjugate each move onto a move (φ, a
//! bijection of the moves) and the orientation step ρ (every point one orientation on)
//! onto ρ or ρ⁻¹ (a mirror reverses orientations). The search fixes π on one point, then
//! follows the moves: `π(M x) = φ(M) π(x)`, branching only where φ(M) is still open
//! among the moves of M's cycle type. No geometry is needed.

use super::parse::Definition;
use super::structure::{Move, Structure};
use std::collections::HashMap;
use std::iter::zip;

/// Most symmetries kept: beyond, the definition is taken to have none (said on stderr).
const MAX_SYMMETRIES: usize = 1 << 12;
/// Most search steps before giving up (a pathological definition must not hang a run).
const MAX_STEPS: usize = 1 << 24;

/// One symmetry as it acts on a flattened position.
#[derive(Debug, Clone)]
pub struct Action {
    /// `to[point(i, t)]`: where orientation `t` of position `i` goes, as (position,
    /// orientation).
    to: Vec<(u16, u8)>,
    /// `label[set * 256 + l]`: a piece labelled `l` becomes the piece labelled `.0`, whose
    /// home orientation maps to `.1`.
    label: Vec<(u8, u8)>,
    /// Whether it keeps orientation (every defined move onto a defined move).
    pub rotation: bool,
    /// `from[q]`: the position whose piece goes to `q`, and that position's first point:
    /// an image is read position by position, in order, to compare it lazily.
    from: Vec<(u16, u32)>,
}

/// The symmetries found, the identity first, and whether a position's inverse is as far.
#[derive(Debug, Clone)]
pub struct Group {
    /// Every symmetry, the identity first.
    pub syms: Vec<Action>,
    /// Whether inversion keeps distances (all pieces distinct, the goal the identity,
    /// orientations tracked whole, moves closed under inverses, no `Illegal`).
    pub inverse: bool,
    /// Why the search found only the identity when it did not finish, if so.
    pub note: Option<String>,
}

/// Points: each orientation of each flattened position.
struct Points {
    /// `first[i]`: the point of orientation 0 of position `i`.
    first: Vec<usize>,
    modulus: Vec<u8>,
    /// Each point's (position, orientation).
    of: Vec<(u16, u8)>,
}

impl Points {
    fn new(s: &Structure) -> Self {
        let modulus = s.layout.modulus.clone();
        let mut first = Vec::new();
        let mut of = Vec::new();
        for (i, &o) in modulus.iter().enumerate() {
            first.push(of.len());
            of.extend((0..o.max(1)).map(|a| (i as u16, a)));
        }
        Points { first, modulus, of }
    }

    /// A move as a permutation of points: the piece at `from[i]` oriented `a` comes to `i`
    /// oriented `a + twist[i]`.
    fn of_move(&self, m: &Move) -> Vec<u32> {
        let mut perm = vec![0u32; self.of.len()];
        for (i, &f) in m.from.iter().enumerate() {
            let o = self.modulus[i].max(1);
            for a in 0..o {
                perm[self.first[usize::from(f)] + usize::from(a)] =
                    (self.first[i] + usize::from((a + m.twist[i]) % o)) as u32;
            }
        }
        perm
    }

    /// The orientation step, forwards or backwards.
    fn step(&self, back: bool) -> Vec<u32> {
        (0..self.of.len())
            .map(|p| {
                let (i, a) = self.of[p];
                let o = self.modulus[usize::from(i)].max(1);
                let a = if back { (a + o - 1) % o } else { (a + 1) % o };
                (self.first[usize::from(i)] + usize::from(a)) as u32
            })
            .collect()
    }
}

/// The sorted cycle lengths of a permutation: a conjugate has the same.
fn cycle_type(perm: &[u32]) -> Vec<usize> {
    let mut seen = vec![false; perm.len()];
    let mut lengths = Vec::new();
    for start in 0..perm.len() {
        let mut length = 0;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = perm[p] as usize;
            length += 1;
        }
        if length > 1 {
            lengths.push(length);
        }
    }
    lengths.sort_unstable();
    lengths
}

/// The search for the point permutations π: generators (the moves, then ρ) and what each
/// may map onto.
struct Search {
    gens: Vec<Vec<u32>>,
    /// `targets[j]`: the permutations generator `j` may be conjugated onto.
    targets: Vec<Vec<Vec<u32>>>,
    found: Vec<(Vec<u32>, Vec<usize>)>,
    steps: usize,
    /// Each point's orientation, and its position's number of orientations.
    orientation: Vec<u8>,
    modulus: Vec<u8>,
}

/// A partial symmetry: π so far, its inverse, and φ (each generator's target).
#[derive(Clone)]
struct Partial {
    pi: Vec<u32>,
    used: Vec<bool>,
    phi: Vec<usize>,
}

const OPEN: usize = usize::MAX;

impl Search {
    /// Extends `p` from the points in `queue`; collects every completion.
    fn run(&mut self, mut p: Partial, mut queue: Vec<usize>) {
        self.steps += 1;
        if self.steps > MAX_STEPS || self.found.len() > MAX_SYMMETRIES {
            return;
        }
        while let Some(x) = queue.pop() {
            let y = p.pi[x] as usize;
            let mut open = None;
            for j in 0..self.gens.len() {
                let gx = self.gens[j][x] as usize;
                match p.phi[j] {
                    OPEN if gx != x && open.is_none() => open = Some(j),
                    OPEN => {}
                    t => {
                        if !Self::assign(&mut p, gx, self.targets[j][t][y] as usize, &mut queue) {
                            return;
                        }
                    }
                }
            }
            if let Some(j) = open {
                return self.branch_target(p, j);
            }
        }
        match p.pi.iter().position(|&y| y == u32::MAX) {
            Some(x) => self.branch_point(p, x),
            None => self.found.push((p.pi, p.phi)),
        }
    }

    /// Sets π(x) = y, unless it contradicts what is set; a new point is queued.
    fn assign(p: &mut Partial, x: usize, y: usize, queue: &mut Vec<usize>) -> bool {
        match p.pi[x] {
            u32::MAX if !p.used[y] => {
                p.pi[x] = y as u32;
                p.used[y] = true;
                queue.push(x);
                true
            }
            set => set as usize == y,
        }
    }

    /// Tries every target of generator `j` that no other generator has, and follows it
    /// from every point mapped so far.
    fn branch_target(&mut self, p: Partial, j: usize) {
        let mapped: Vec<usize> = (0..p.pi.len()).filter(|&x| p.pi[x] != u32::MAX).collect();
        for t in 0..self.targets[j].len() {
            let target = &self.targets[j][t];
            let taken =
                (0..self.gens.len()).any(|k| k != j && p.phi[k] != OPEN && &self.targets[k][p.phi[k]] == target);
            if taken {
                continue;
            }
            let mut next = p.clone();
            next.phi[j] = t;
            self.run(next, mapped.clone());
        }
    }

    /// Tries every free point as the image of `x`, the first of a position no move
    /// links to those mapped: orientation 0 only of a position of as many orientations,
    /// moved by the targets of the moves known that move `x`. (Turning every orientation of
    /// an orbit of positions on by one commutes with every move: the images' other
    /// orientations give the same action on positions.)
    fn branch_point(&mut self, p: Partial, x: usize) {
        let alike = |y: usize| {
            (0..self.gens.len()).all(|j| match p.phi[j] {
                OPEN => true,
                t => (self.gens[j][x] as usize == x) == (self.targets[j][t][y] as usize == y),
            })
        };
        let free: Vec<usize> = (0..p.used.len())
            .filter(|&y| !p.used[y] && self.orientation[y] == 0 && self.modulus[y] == self.modulus[x] && alike(y))
            .collect();
        for y in free {
            let mut next = p.clone();
            next.pi[x] = y as u32;
            next.used[y] = true;
            self.run(next, vec![x]);
        }
    }
}

/// The symmetries of the definition `def` as structured by `s` (see the module's doc).
pub fn find(def: &Definition, s: &Structure) -> Group {
    let trivial = |note: Option<String>| Group {
        syms: Vec::new(),
        inverse: false,
        note,
    };
    if !def.illegal.is_empty() || s.layout.open || s.moves.is_empty() || s.solved_twists.iter().any(|&t| t != 0) {
        // `Illegal` lines, orientations left open and a twisted goal would each need their
        // own test of what a symmetry keeps: such definitions are counted without one.
        return trivial(None);
    }
    let points = Points::new(s);
    let moves: Vec<Vec<u32>> = s.moves.iter().map(|m| points.of_move(m)).collect();
    let mut search = search_of(&points, &moves);
    let n = points.of.len();
    let start = Partial {
        pi: vec![u32::MAX; n],
        used: vec![false; n],
        phi: vec![OPEN; search.gens.len()],
    };
    search.branch_point(start, 0);
    if search.steps > MAX_STEPS || search.found.len() > MAX_SYMMETRIES {
        return trivial(Some(
            "the search for its symmetries did not finish: counted without symmetry".into(),
        ));
    }
    let syms = actions(def, s, &points, &moves, &search);
    Group {
        inverse: inverse_holds(s, &moves),
        syms,
        note: None,
    }
}

/// The generators (the moves, then ρ) and their possible targets.
fn search_of(points: &Points, moves: &[Vec<u32>]) -> Search {
    let (step, back) = (points.step(false), points.step(true));
    let mut gens = moves.to_vec();
    gens.push(step.clone());
    let mut targets: Vec<Vec<Vec<u32>>> = moves
        .iter()
        .map(|m| {
            let kind = cycle_type(m);
            moves.iter().filter(|t| cycle_type(t) == kind).cloned().collect()
        })
        .collect();
    targets.push(if step == back { vec![step] } else { vec![step, back] });
    Search {
        gens,
        targets,
        found: Vec::new(),
        steps: 0,
        orientation: points.of.iter().map(|&(_, a)| a).collect(),
        modulus: points.of.iter().map(|&(i, _)| points.modulus[usize::from(i)]).collect(),
    }
}

/// Each π found as it acts on flattened positions, kept if it keeps the goal's labels,
/// the identity first.
fn actions(def: &Definition, s: &Structure, points: &Points, moves: &[Vec<u32>], search: &Search) -> Vec<Action> {
    let samples = samples(s);
    let signature = |a: &Action| samples.iter().map(|(p, t)| a.image(s, p, t)).collect::<Vec<_>>();
    let named = named_rotations(def, s, points).map(|named| {
        let actions = named.iter().filter_map(|pi| action(s, points, pi, true));
        actions.map(|a| signature(&a)).collect::<std::collections::HashSet<_>>()
    });
    let base_moves: Vec<usize> = (0..s.moves.len())
        .filter(|&m| s.moves[m].name == def.moves[s.moves[m].base].name)
        .collect();
    let mut syms: Vec<(bool, Action)> = search
        .found
        .iter()
        .filter_map(|(pi, phi)| {
            let target = |m: usize| &search.targets[m][phi[m]];
            // A mirror turns orientations backwards (ρ onto ρ⁻¹) even where it carries every
            // move onto a move, as it does moves that are their own inverses.
            // (Left open where nothing turns: no orientation to reverse.)
            let keeps_orientation = matches!(phi[moves.len()], 0 | OPEN);
            let rotation = keeps_orientation
                && base_moves
                    .iter()
                    .all(|&m| base_moves.iter().any(|&b| &moves[b] == target(m)));
            let identity = pi.iter().enumerate().all(|(x, &y)| x == y as usize);
            let mut a = action(s, points, pi, rotation)?;
            if let Some(named) = &named {
                a.rotation = named.contains(&signature(&a));
            }
            Some((!identity, a))
        })
        .collect();
    syms.sort_by_key(|(not_identity, _)| *not_identity);
    // Point permutations that differ only in orientation conventions (turning every
    // orientation of a set on by one commutes with every move) act alike on positions:
    // one of each action is kept, told apart by its images of positions off the goal.
    let mut seen = std::collections::HashSet::new();
    syms.into_iter()
        .map(|(_, a)| a)
        .filter(|a| seen.insert(signature(a)))
        .collect()
}

/// The point permutations of every turn of the whole puzzle that the file's rotations
/// (twsearch's `v` moves) generate, if it names any. Where a file names its rotations, they
/// are its rotations: a symmetry acting as one of them is a rotation, every other a
/// mirror. No rule read from the moves alone can tell: the pyramorphix's reflections carry
/// each of its half turns onto a half turn and keep the orientations its positions reach,
/// as its rotations do.
fn named_rotations(def: &Definition, s: &Structure, points: &Points) -> Option<Vec<Vec<u32>>> {
    if def.rotations.is_empty() {
        return None;
    }
    let turns = Definition {
        moves: def.rotations.clone(),
        ..def.clone()
    };
    let gens: Vec<Vec<u32>> = super::structure::expand(&turns, &s.layout, super::Metric::Face)
        .ok()?
        .iter()
        .map(|m| points.of_move(m))
        .collect();
    let mut group = vec![(0..points.of.len() as u32).collect::<Vec<u32>>()];
    let mut known: std::collections::HashSet<Vec<u32>> = group.iter().cloned().collect();
    let mut next = 0;
    while next < group.len() && group.len() <= MAX_SYMMETRIES {
        for g in &gens {
            let product: Vec<u32> = group[next].iter().map(|&y| g[y as usize]).collect();
            if known.insert(product.clone()) {
                group.push(product);
            }
        }
        next += 1;
    }
    (group.len() <= MAX_SYMMETRIES).then_some(group)
}

/// A few positions some way from the goal, reached by fixed walks over the moves.
fn samples(s: &Structure) -> Vec<(Vec<u8>, Vec<u8>)> {
    let (mut p, mut t) = (s.solved_pieces.clone(), s.solved_twists.clone());
    let mut out = Vec::new();
    for step in 0..64usize {
        let m = &s.moves[(step * 7 + step / 5) % s.moves.len()];
        let (q, u): (Vec<u8>, Vec<u8>) = (0..p.len())
            .map(|i| {
                let f = usize::from(m.from[i]);
                (p[f], (t[f] + m.twist[i]) % s.layout.modulus[i].max(1))
            })
            .unzip();
        (p, t) = (q, u);
        if step % 8 == 7 {
            out.push((p.clone(), t.clone()));
        }
    }
    out
}

/// π as it acts on flattened positions, or `None` if it does not keep the goal's labels
/// (identical pieces must go to identical pieces, alike oriented).
fn action(s: &Structure, points: &Points, pi: &[u32], rotation: bool) -> Option<Action> {
    let to: Vec<(u16, u8)> = pi.iter().map(|&y| points.of[y as usize]).collect();
    let mut from = vec![(0u16, 0u32); s.layout.modulus.len()];
    for (i, &first) in points.first.iter().enumerate() {
        from[usize::from(to[first].0)] = (i as u16, first as u32);
    }
    let mut label = vec![(0u8, 0u8); s.layout.names.len() * 256];
    let mut seen: HashMap<(usize, u8), (u8, u8)> = HashMap::new();
    for (p, &l) in s.solved_pieces.iter().enumerate() {
        let (q, a0) = to[points.first[p]];
        let image = (s.solved_pieces[usize::from(q)], a0);
        let set = s.layout.set_of[p];
        if *seen.entry((set, l)).or_insert(image) != image {
            return None;
        }
        label[set * 256 + usize::from(l)] = image;
    }
    Some(Action {
        to,
        label,
        rotation,
        from,
    })
}

/// Whether a position's inverse is as far as the position: the goal the identity (every
/// piece distinct, at home, untwisted) and every move's inverse a move.
fn inverse_holds(s: &Structure, moves: &[Vec<u32>]) -> bool {
    let identity = (0..s.solved_pieces.len())
        .all(|i| usize::from(s.solved_pieces[i]) + s.layout.offset[s.layout.set_of[i]] == i && s.solved_twists[i] == 0);
    let closed = moves.iter().all(|m| {
        let mut inverse = vec![0u32; m.len()];
        for (x, &y) in m.iter().enumerate() {
            inverse[y as usize] = x as u32;
        }
        moves.contains(&inverse)
    });
    identity && closed
}

impl Action {
    /// How the image of (`pieces`, `twists`) compares with (`p`, `t`), pieces first, then
    /// twists, each position in order: computed only as far as the first difference, which
    /// is most often the first position.
    #[inline]
    pub fn compare(&self, s: &Structure, (pieces, twists): (&[u8], &[u8]), p: &[u8], t: &[u8]) -> std::cmp::Ordering {
        let piece_at = |q: usize| {
            let (i, _) = self.from[q];
            let i = usize::from(i);
            self.label[s.layout.set_of[i] * 256 + usize::from(pieces[i])]
        };
        for (q, &want) in p.iter().enumerate() {
            match piece_at(q).0.cmp(&want) {
                std::cmp::Ordering::Equal => {}
                other => return other,
            }
        }
        for (q, &want) in t.iter().enumerate() {
            let (i, first) = self.from[q];
            let i = usize::from(i);
            let o = s.layout.modulus[i].max(1);
            let (_, b) = self.to[first as usize + usize::from(twists[i])];
            match ((b + o - piece_at(q).1) % o).cmp(&want) {
                std::cmp::Ordering::Equal => {}
                other => return other,
            }
        }
        std::cmp::Ordering::Equal
    }

    /// [`Action::apply`] into new vectors.
    pub fn image(&self, s: &Structure, pieces: &[u8], twists: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let (mut p, mut t) = (vec![0; pieces.len()], vec![0; twists.len()]);
        self.apply(s, pieces, twists, &mut p, &mut t);
        (p, t)
    }

    /// The label a piece labelled `l` of set `set` becomes.
    pub fn relabelled(&self, set: usize, l: u8) -> u8 {
        self.label[set * 256 + usize::from(l)].0
    }

    /// The image of a flattened position (`pieces`, `twists`) into `out_pieces`, `out_twists`
    /// (of the same lengths).
    #[inline]
    pub fn apply(&self, s: &Structure, pieces: &[u8], twists: &[u8], out_pieces: &mut [u8], out_twists: &mut [u8]) {
        self.apply_after(&self.to, s, pieces, twists, out_pieces, out_twists);
    }

    /// Where each point goes under move `m` and then this symmetry (what [`Action::apply_after`]
    /// takes): a move and a symmetry in one pass over the position, not two. A move keeps
    /// each piece in its set, so the label a piece has is this symmetry's.
    pub fn after(&self, s: &Structure, m: &Move) -> Vec<(u16, u8)> {
        let mut to = vec![(0u16, 0u8); self.to.len()];
        let mut first = Vec::with_capacity(s.layout.modulus.len());
        let mut point = 0;
        for &o in &s.layout.modulus {
            first.push(point);
            point += usize::from(o.max(1));
        }
        for (i, &f) in m.from.iter().enumerate() {
            let o = s.layout.modulus[i].max(1);
            for t in 0..o {
                to[first[usize::from(f)] + usize::from(t)] = self.to[first[i] + usize::from((t + m.twist[i]) % o)];
            }
        }
        to
    }

    /// [`Action::apply`] with the points going to `to`: this symmetry's own, or after a move
    /// ([`Action::after`]).
    #[inline]
    pub fn apply_after(
        &self,
        to: &[(u16, u8)],
        s: &Structure,
        pieces: &[u8],
        twists: &[u8],
        out_pieces: &mut [u8],
        out_twists: &mut [u8],
    ) {
        let mut point = 0;
        let layout = zip(pieces, twists).zip(zip(&s.layout.modulus, &s.layout.set_of));
        for ((&l, &t), (&o, &set)) in layout {
            let o = o.max(1);
            let (q, b) = to[point + usize::from(t)];
            let (l2, a0) = self.label[set * 256 + usize::from(l)];
            out_pieces[usize::from(q)] = l2;
            // b and a0 are below o: a subtraction, not a division.
            let twist = b + o - a0;
            out_twists[usize::from(q)] = if twist >= o { twist - o } else { twist };
            point += usize::from(o);
        }
    }
}

/// The inverse of a position whose goal is the identity: the piece at `i` is at home at
/// `home`, so `home` gets the piece of home `i`, twisted back.
pub fn invert(s: &Structure, pieces: &[u8], twists: &[u8], out_pieces: &mut [u8], out_twists: &mut [u8]) {
    for (i, (&l, &t)) in pieces.iter().zip(twists).enumerate() {
        let offset = s.layout.offset[s.layout.set_of[i]];
        let home = offset + usize::from(l);
        let o = s.layout.modulus[i].max(1);
        out_pieces[home] = (i - offset) as u8;
        out_twists[home] = (o - t % o) % o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::{Metric, PermPuzzle, parse_definition};
    use crate::puzzle::{Invariant, SymmetryChoice};

    fn group(text: &str) -> (usize, usize, bool) {
        let def = parse_definition(text).expect("the example's definition");
        let s = Structure::new(&def, Metric::Face).expect("its structure");
        let g = find(&def, &s);
        let rotations = g.syms.iter().filter(|a| a.rotation).count();
        (rotations, g.syms.len() - rotations, g.inverse)
    }

    /// The examples' groups: a cube's 24 rotations and 24 mirrors, those that keep a held
    /// corner, the tetrahedron's 12 and 12, Top Spin's turn of the ring, and none.
    #[test]
    fn the_examples_have_their_shapes_symmetries() {
        assert_eq!(group(include_str!("../../../examples/pocket-cube.tws")), (24, 24, true));
        assert_eq!(
            group(include_str!("../../../examples/pocket-cube-held.tws")),
            (3, 3, true)
        );
        assert_eq!(group(include_str!("../../../examples/pyraminx.tws")), (12, 12, true));
        assert_eq!(group(include_str!("../../../examples/top-spin-9.tws")), (1, 1, true));
        assert_eq!(group(include_str!("../../../examples/pancakes-10.tws")), (1, 0, true));
        // Two faces: the half turn about the UR edge swaps them, so does the mirror through
        // it, and their product (the still corners move with neither).
        let mut def = parse_definition(include_str!("../../../examples/pocket-cube-held.tws")).expect("the example");
        def.choose_moves(&["U", "R"]).expect("its moves");
        let s = Structure::new(&def, Metric::Face).expect("its structure");
        let g = find(&def, &s);
        assert_eq!((g.syms.len(), g.syms.iter().filter(|a| a.rotation).count()), (4, 2));
    }

    /// Every position's distance, by a plain search over explicit positions.
    fn distances(puzzle: &PermPuzzle) -> HashMap<(Vec<u8>, Vec<u8>), usize> {
        let goal = (puzzle.s.solved_pieces.clone(), puzzle.s.solved_twists.clone());
        let mut distance = HashMap::from([(goal.clone(), 0)]);
        let mut queue = std::collections::VecDeque::from([goal]);
        while let Some((p, t)) = queue.pop_front() {
            let d = distance[&(p.clone(), t.clone())];
            for m in puzzle.moves() {
                let (mut q, mut u) = (Vec::new(), Vec::new());
                puzzle.apply(m, &p, &t, &mut q, &mut u);
                if let std::collections::hash_map::Entry::Vacant(e) = distance.entry((q.clone(), u.clone())) {
                    e.insert(d + 1);
                    queue.push_back((q, u));
                }
            }
        }
        distance
    }

    /// Each symmetry found (and the inverse) keeps every distance over a whole space, and
    /// the engine's classes per distance are those of a brute force: every position
    /// reduced to the least of its images.
    #[test]
    fn every_symmetry_keeps_every_distance_and_the_classes_are_a_brute_forces() {
        let cases: [(&str, &[&str]); 2] = [
            (include_str!("../../../examples/pocket-cube-held.tws"), &["U", "R"]),
            (include_str!("../../../examples/top-spin-9.tws"), &[]),
        ];
        for (text, moves) in cases {
            let mut def = parse_definition(text).expect("the example");
            if !moves.is_empty() {
                def.choose_moves(moves).expect("its moves");
            }
            let puzzle = PermPuzzle::new(def.clone(), "case", Metric::Face).expect("the example");
            let group = find(&def, &puzzle.s);
            let distance = distances(&puzzle);
            let images = |p: &[u8], t: &[u8]| -> Vec<(Vec<u8>, Vec<u8>)> {
                let mut sources = vec![(p.to_vec(), t.to_vec())];
                if group.inverse {
                    let (mut q, mut u) = (vec![0; p.len()], vec![0; t.len()]);
                    invert(&puzzle.s, p, t, &mut q, &mut u);
                    sources.push((q, u));
                }
                let all = sources
                    .iter()
                    .flat_map(|(p, t)| group.syms.iter().map(|a| a.image(&puzzle.s, p, t)));
                all.collect()
            };
            let mut classes = vec![0u64; distance.values().max().map_or(0, |m| m + 1)];
            for ((p, t), &d) in &distance {
                let all = images(p, t);
                assert!(
                    all.iter().all(|x| distance.get(x) == Some(&d)),
                    "{moves:?}: a symmetry moved a distance"
                );
                if all.iter().all(|x| x >= &(p.clone(), t.clone())) {
                    classes[d] += 1;
                }
            }
            let counted = puzzle
                .with_symmetry(SymmetryChoice::default())
                .expect("the largest group");
            let search = crate::engine::search(&counted, Default::default(), |_| std::ops::ControlFlow::Continue(()));
            assert_eq!(search.expect("searched").classes, classes, "{moves:?}");
        }
    }
}
