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

pub use super::chain::{Order, Perm};

use super::chain::Chain;
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

    /// The flattened position and orientation of point `q`.
    fn place(&self, s: &Generators, q: u16) -> (usize, u8) {
        let q = usize::from(q);
        let &(set, m, first) = self
            .copies
            .iter()
            .rev()
            .find(|c| c.2 <= q)
            .expect("point 0 is the first copy's");
        let within = q - first;
        (
            s.layout.offset[set] + within / usize::from(m),
            (within % usize::from(m)) as u8,
        )
    }

    /// The goal's pieces, each as the point of its position and orientation in the copy
    /// of its modulus.
    fn goal(&self, s: &Generators) -> Vec<u16> {
        (0..s.layout.positions())
            .map(|i| {
                let m = s.layout.piece_mod(i, s.solved_pieces[i]);
                self.point(s, i, s.solved_twists[i], m)
            })
            .collect()
    }
}

/// Positions drawn uniformly at random among those the moves of `s` reach, as flattened
/// pieces and twists: the goal moved by uniformly random elements of the group (each
/// position is reached by as many elements as any other: those of a coset of its
/// stabiliser). `pick(n)` draws an index below `n`. `None` past [`MAX_POINTS`] points.
pub fn random_positions(
    s: &Generators,
    count: usize,
    mut pick: impl FnMut(usize) -> usize,
) -> Option<Vec<(Vec<u8>, Vec<u8>)>> {
    let points = Points::new(s);
    if points.total > MAX_POINTS {
        return None;
    }
    let chain = Chain::new(points.total, &points.generators(s));
    let goal = points.goal(s);
    let draw = |g: Perm| {
        let (mut pieces, mut twists) = (s.solved_pieces.to_vec(), s.solved_twists.to_vec());
        for (f, &x) in goal.iter().enumerate() {
            let (i, t) = points.place(s, g[usize::from(x)]);
            pieces[i] = s.solved_pieces[f];
            twists[i] = t;
        }
        (pieces, twists)
    };
    Some((0..count).map(|_| draw(chain.random(&mut pick))).collect())
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
    let base: Vec<u16> = (points.goal(s).into_iter())
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
