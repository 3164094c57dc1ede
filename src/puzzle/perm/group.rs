//! The order of the group the moves generate, by the Schreier–Sims algorithm: known
//! before any search, so the search can be checked against it (where the pieces are all
//! distinct, every element is one position) and a definition refused by what its moves
//! reach rather than by its rank space.
//!
//! The group acts on points, one per (position, orientation): a move takes the piece at
//! position `from[i]` with orientation `t` to position `i` with `t + twist[i]`. The chain
//! is the deterministic one (Sims' algorithm with every Schreier generator sifted), its
//! transversals kept as whole permutations: fast for the few hundred points of the
//! puzzles ranked here, and exact.
//!
//! Where the definition leaves some orientations open (a `?`, an `orientationMod`), a set
//! has a copy of its points for each modulus its pieces are told apart by, and the
//! positions are the goal's orbit: the chain's base starts at the goal's pieces, each in
//! the copy of its own modulus, and the product of those first orbits is the group's order
//! over the order of what only turns the pieces the way nobody tells apart.

use super::structure::{Flat, Layout, Move, Structure};

/// What the group is read from: the moves on the flattened positions, and the goal.
/// A [`Structure`] gives it, and so does the packed form of a definition too large to rank.
#[derive(Clone, Copy)]
pub struct Generators<'a> {
    /// Where each set's positions are, and the orientations told apart.
    pub layout: &'a Layout,
    /// Every move, flattened.
    pub moves: &'a [Move],
    /// The goal's pieces, flattened.
    pub solved_pieces: &'a [u8],
    /// The goal's twists, flattened.
    pub solved_twists: &'a [u8],
}

impl Structure {
    /// The moves and goal the group is read from.
    pub fn generators(&self) -> Generators<'_> {
        Generators {
            layout: &self.layout,
            moves: &self.moves,
            solved_pieces: &self.solved_pieces,
            solved_twists: &self.solved_twists,
        }
    }
}

impl Flat {
    /// The moves and goal the group is read from.
    pub fn generators(&self) -> Generators<'_> {
        Generators {
            layout: &self.layout,
            moves: &self.moves,
            solved_pieces: &self.solved_pieces,
            solved_twists: &self.solved_twists,
        }
    }
}

/// Most points the chain is built for: its transversals hold up to `points^2`
/// permutations of `points` entries in the worst case (the symmetric group), 64 MiB at 256
/// points and 512 MiB at 512.
pub const MAX_POINTS: usize = 384;

/// A permutation of points, `p[x]` the image of `x`.
pub type Perm = Vec<u16>;

const NONE: u32 = u32::MAX;

/// `a` then `b`.
fn then(a: &[u16], b: &[u16]) -> Perm {
    a.iter().map(|&x| b[usize::from(x)]).collect()
}

fn inverse(a: &[u16]) -> Perm {
    let mut inv = vec![0u16; a.len()];
    for (x, &y) in a.iter().enumerate() {
        inv[usize::from(y)] = x as u16;
    }
    inv
}

fn is_identity(a: &[u16]) -> bool {
    a.iter().enumerate().all(|(x, &y)| usize::from(y) == x)
}

/// One level of the stabiliser chain: the elements fixing the earlier base points.
struct Level {
    base: u16,
    /// Strong generators fixing the earlier base points.
    gens: Vec<Perm>,
    /// The base point's orbit under `gens`, in the order found.
    orbit: Vec<u16>,
    /// `index[x]`: where `x` is in `orbit` (`NONE`: not in it).
    index: Vec<u32>,
    /// `up[i]` takes the base point to `orbit[i]`; `down[i]` is its inverse.
    up: Vec<Perm>,
    down: Vec<Perm>,
    /// `tested[i]`: how many of `gens` the Schreier generators at `orbit[i]` were sifted for.
    tested: Vec<usize>,
}

impl Level {
    fn new(base: u16, n: usize) -> Self {
        let identity: Perm = (0..n as u16).collect();
        let mut index = vec![NONE; n];
        index[usize::from(base)] = 0;
        Level {
            base,
            gens: Vec::new(),
            orbit: vec![base],
            index,
            up: vec![identity.clone()],
            down: vec![identity],
            tested: vec![0],
        }
    }

    /// Adds a strong generator and grows the orbit (earlier transversal elements stay, so
    /// the Schreier generators already sifted stay sifted).
    fn add(&mut self, g: Perm) {
        self.gens.push(g);
        let mut i = 0;
        while i < self.orbit.len() {
            for g in &self.gens {
                let y = g[usize::from(self.orbit[i])];
                if self.index[usize::from(y)] == NONE {
                    self.index[usize::from(y)] = self.orbit.len() as u32;
                    self.orbit.push(y);
                    let up = then(&self.up[i], g);
                    self.down.push(inverse(&up));
                    self.up.push(up);
                    self.tested.push(0);
                }
            }
            i += 1;
        }
    }
}

/// The order of a group as the product of its chain's orbit lengths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The basic orbits' lengths.
    pub orbits: Vec<u64>,
}

impl Order {
    /// The order, if below 2^128.
    pub fn exact(&self) -> Option<u128> {
        self.orbits.iter().try_fold(1u128, |a, &o| a.checked_mul(u128::from(o)))
    }

    /// The order written out, or as a power of ten past 128 bits: `about 7.4 x 10^45`.
    pub fn text(&self) -> String {
        match self.exact() {
            Some(n) => crate::util::thousands(n),
            None => {
                let log: f64 = self.orbits.iter().map(|&o| (o as f64).log10()).sum();
                let exponent = log.floor();
                format!("about {:.1} x 10^{exponent}", 10f64.powf(log - exponent))
            }
        }
    }
}

/// A base and strong generating set of the group `gens` generate on `0..n`.
pub struct Chain {
    n: usize,
    levels: Vec<Level>,
}

impl Chain {
    /// The chain of the group `gens` (permutations of `0..n`) generate.
    pub fn new(n: usize, gens: &[Perm]) -> Self {
        Self::with_base(n, gens, &[])
    }

    /// The chain of the group `gens` generate, its base starting with `base` (points some
    /// generator moves, distinct): the product of its first `base.len()` orbits is the
    /// size of the orbit of those points together, the group's order over their
    /// stabiliser's.
    pub fn with_base(n: usize, gens: &[Perm], base: &[u16]) -> Self {
        let levels = base.iter().map(|&b| Level::new(b, n)).collect();
        let mut chain = Chain { n, levels };
        for g in gens.iter().filter(|g| !is_identity(g)) {
            let (residue, stop) = chain.sift(g.clone(), 0);
            if !is_identity(&residue) {
                chain.extend(residue, 0, stop);
            }
        }
        chain.complete();
        chain
    }

    /// Sifts `h` through the levels from `from` on: the residue and the level it stopped at
    /// (the number of levels if it went through them all).
    fn sift(&self, mut h: Perm, from: usize) -> (Perm, usize) {
        for (l, level) in self.levels.iter().enumerate().skip(from) {
            let i = level.index[usize::from(h[usize::from(level.base)])];
            if i == NONE {
                return (h, l);
            }
            // `down[0]` is the identity (a given base point `h` fixes, mostly).
            if i != 0 {
                h = then(&h, &level.down[i as usize]);
            }
        }
        (h, self.levels.len())
    }

    /// Adds the non-identity residue `r` to the levels `from..=to`, a new level (based at a
    /// point `r` moves) when it went through them all.
    fn extend(&mut self, r: Perm, from: usize, to: usize) {
        if to == self.levels.len() {
            let moved = r
                .iter()
                .enumerate()
                .position(|(x, &y)| usize::from(y) != x)
                .unwrap_or(0);
            self.levels.push(Level::new(moved as u16, self.n));
        }
        for level in &mut self.levels[from..=to] {
            level.add(r.clone());
        }
    }

    /// Sims' algorithm: from the deepest level up, every Schreier generator of a level must
    /// sift through the levels below it; one that does not is added below, and the work
    /// resumes where it was added.
    fn complete(&mut self) {
        let mut i = self.levels.len();
        while i > 0 {
            let l = i - 1;
            match self.untested(l) {
                Some((residue, stop)) => {
                    self.extend(residue, l + 1, stop);
                    i = stop + 1;
                }
                None => i -= 1,
            }
        }
    }

    /// The first Schreier generator of level `l` not yet sifted that does not sift through
    /// the levels below it, as its residue and the level it stopped at.
    fn untested(&mut self, l: usize) -> Option<(Perm, usize)> {
        let mut a = 0;
        while a < self.levels[l].orbit.len() {
            while self.levels[l].tested[a] < self.levels[l].gens.len() {
                let level = &self.levels[l];
                let s = &level.gens[level.tested[a]];
                let c = level.index[usize::from(s[usize::from(level.orbit[a])])] as usize;
                let h = then(&then(&level.up[a], s), &level.down[c]);
                self.levels[l].tested[a] += 1;
                let (residue, stop) = self.sift(h, l + 1);
                if !is_identity(&residue) {
                    return Some((residue, stop));
                }
            }
            a += 1;
        }
        None
    }

    /// The group's order.
    pub fn order(&self) -> Order {
        Order {
            orbits: self.levels.iter().map(|l| l.orbit.len() as u64).collect(),
        }
    }
}

/// The points of `s`: per set, a copy of its (position, orientation) points for each
/// modulus its pieces are told apart by (just its orientations where none is open).
struct Points {
    /// `(set, modulus, first point)` of each copy.
    copies: Vec<(usize, u8, usize)>,
    total: usize,
}

impl Points {
    fn new(s: &Generators) -> Self {
        let layout = &s.layout;
        let mut copies = Vec::new();
        let mut total = 0;
        for (set, &off) in layout.offset.iter().enumerate() {
            let size = layout.set_of.iter().filter(|&&x| x == set).count();
            let mut moduli: Vec<u8> = (off..off + size)
                .map(|i| layout.piece_mod(i, s.solved_pieces[i]))
                .collect();
            moduli.sort_unstable();
            moduli.dedup();
            for m in moduli {
                copies.push((set, m, total));
                total += size * usize::from(m);
            }
        }
        Points { copies, total }
    }

    /// The point of flattened position `i` with orientation `t` in the copy of modulus `m`.
    fn point(&self, s: &Generators, i: usize, t: u8, m: u8) -> u16 {
        let set = s.layout.set_of[i];
        let &(_, _, first) = self
            .copies
            .iter()
            .find(|c| c.0 == set && c.1 == m)
            .expect("a copy for every modulus of the set's pieces");
        (first + (i - s.layout.offset[set]) * usize::from(m) + usize::from(t % m)) as u16
    }

    /// The moves as permutations of the points.
    fn generators(&self, s: &Generators) -> Vec<Perm> {
        s.moves
            .iter()
            .map(|mv| {
                let mut p = vec![0u16; self.total];
                for &(set, m, _) in &self.copies {
                    let off = s.layout.offset[set];
                    for i in (off..).take_while(|&i| s.layout.set_of.get(i) == Some(&set)) {
                        let f = usize::from(mv.from[i]);
                        for t in 0..m {
                            p[usize::from(self.point(s, f, t, m))] = self.point(s, i, t + mv.twist[i] % m, m);
                        }
                    }
                }
                p
            })
            .collect()
    }
}

/// How many points the chain of `s` acts on.
pub fn points(s: &Generators) -> usize {
    Points::new(s).total
}

/// The order of the group the moves of `s` generate on its points, and the size of the
/// goal's orbit, the positions where the pieces are distinct (the order itself, unless
/// some orientations are open); `None` past [`MAX_POINTS`] points.
pub fn order(s: &Generators) -> Option<(Order, Order)> {
    let points = Points::new(s);
    if points.total > MAX_POINTS {
        return None;
    }
    let gens = points.generators(s);
    if !s.layout.open {
        let order = Chain::new(points.total, &gens).order();
        return Some((order.clone(), order));
    }
    // The goal's pieces, each in the copy of its modulus, where some move moves them.
    let base: Vec<u16> = (0..s.layout.positions())
        .map(|i| {
            let m = s.layout.piece_mod(i, s.solved_pieces[i]);
            points.point(s, i, s.solved_twists[i], m)
        })
        .filter(|&x| gens.iter().any(|g| g[usize::from(x)] != x))
        .collect();
    let order = Chain::with_base(points.total, &gens, &base).order();
    let orbit = Order {
        orbits: order.orbits[..base.len()].to_vec(),
    };
    Some((order, orbit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::{Metric, parse_definition};

    fn order_of(text: &str) -> u128 {
        let def = parse_definition(text).expect("a valid definition");
        let s = Structure::new(&def, Metric::Face).expect("a structure");
        order(&s.generators())
            .and_then(|o| o.0.exact())
            .expect("an order below 2^128")
    }

    /// A permutation from its 1-based images.
    fn perm(images: &[u16]) -> Perm {
        images.iter().map(|&x| x - 1).collect()
    }

    #[test]
    fn cube_groups_have_their_known_orders() {
        let ex = |name: &str| std::fs::read_to_string(format!("examples/{name}.tws")).expect("an example");
        assert_eq!(order_of(&ex("3x3x3")), 43_252_003_274_489_856_000);
        assert_eq!(order_of(&ex("pocket-cube-held")), 3_674_160);
        assert_eq!(order_of(&ex("3x3x3-ur")), 73_483_200);
        assert_eq!(order_of(&ex("3x3x3-squares")), 663_552);
        // The pocket cube turning all six faces: 24 orientations times the held cube's.
        assert_eq!(order_of(&ex("pocket-cube")), 24 * 3_674_160);
    }

    #[test]
    fn m24_has_order_244823040() {
        // Conway's generators (twsearch's `samples/main/m24conway.tws`).
        let s = perm(&[
            24, 23, 4, 3, 22, 11, 8, 7, 10, 9, 6, 21, 14, 13, 20, 17, 16, 19, 18, 15, 12, 5, 2, 1,
        ]);
        let mut r: Vec<u16> = (2..=23).collect();
        r.extend([1, 24]);
        let order = Chain::new(24, &[s, perm(&r)]).order();
        assert_eq!(order.exact(), Some(244_823_040));
    }

    #[test]
    fn prefix_reversals_generate_every_permutation() {
        for n in 2..=10u16 {
            let flips: Vec<Perm> = (2..=n)
                .map(|k| (0..n).map(|i| if i < k { k - 1 - i } else { i }).collect())
                .collect();
            let order = Chain::new(usize::from(n), &flips).order();
            assert_eq!(order.exact(), Some((1..=u128::from(n)).product()));
        }
    }

    #[test]
    fn the_alternating_group_is_half() {
        // 3-cycles (1 2 3), (1 2 ... 9) on nine points generate A9.
        let c = perm(&[2, 3, 1, 4, 5, 6, 7, 8, 9]);
        let long = perm(&[2, 3, 4, 5, 6, 7, 8, 9, 1]);
        assert_eq!(Chain::new(9, &[c, long]).order().exact(), Some(362_880 / 2));
    }

    #[test]
    fn orders_past_128_bits_are_written_as_powers_of_ten() {
        let order = Order {
            orbits: vec![u64::MAX, u64::MAX, 1000],
        };
        assert_eq!(order.exact(), None);
        assert_eq!(order.text(), "about 3.4 x 10^41");
    }
}
