//! The Schreier–Sims algorithm on permutations of points: a base and strong generating set
//! of the group some permutations generate, and its order. It knows nothing of puzzles:
//! [`super::group`] turns a definition's moves into points, and [`super::structure`] asks
//! for the orders of its components' groups.

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

    /// A uniformly random element of the group: each element is one product of one
    /// transversal element per level (the deepest first, as [`Chain::sift`] takes them
    /// off), so drawing each with `pick(orbit length)`, an index below it, draws the
    /// element uniformly whatever the group's size.
    pub fn random(&self, mut pick: impl FnMut(usize) -> usize) -> Perm {
        let identity: Perm = (0..self.n as u16).collect();
        self.levels.iter().rev().fold(identity, |g, level| {
            let i = pick(level.orbit.len()).min(level.orbit.len() - 1);
            then(&g, &level.up[i])
        })
    }

    /// The group's order.
    pub fn order(&self) -> Order {
        Order {
            orbits: self.levels.iter().map(|l| l.orbit.len() as u64).collect(),
        }
    }
}
