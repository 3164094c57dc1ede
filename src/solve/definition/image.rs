//! A symmetry of a definition as tables on its flattened positions ([`Image`]), and a
//! pattern's projection read through one ([`Reader`]): shared by the patterns, which read
//! through them, and the probes, which choose them.

use crate::puzzle::perm::structure::Structure;
use crate::puzzle::perm::symmetry::Action;

/// A pattern's projection, composed with a symmetry: its position `j` reads the whole
/// puzzle's position `from[j]`, and a piece labelled `l` twisted `t` there becomes
/// `table[j * stride + l * twists + t]` (label and twist in the projection). One look-up
/// a position, where carrying the whole position and then projecting it took two passes.
#[derive(Debug, Clone)]
pub struct Reader {
    pub(super) from: Vec<usize>,
    pub(super) table: Vec<(u8, u8)>,
    pub(super) stride: usize,
    pub(super) twists: usize,
    /// The same reading and the pattern's ranking in one pass, where the pattern's
    /// coordinates allow it ([`super::fused::Fused::new`]).
    pub(super) fused: Option<super::fused::Fused>,
}

/// A symmetry (or the identity) as tables on the flattened positions: the image's
/// position `q` holds what position `from[q]` held, and a piece labelled `l` twisted `t`
/// there becomes `entry[(q * labels + l) * twists + t]`.
pub struct Image {
    pub(super) from: Vec<usize>,
    entry: Vec<(u8, u8)>,
    pub(super) labels: usize,
    pub(super) twists: usize,
}

impl Image {
    /// Nothing moved.
    pub fn identity(s: &Structure) -> Self {
        let (labels, twists) = bounds(s);
        let n = s.layout.positions();
        let mut entry = Vec::with_capacity(n * labels * twists);
        for _ in 0..n {
            for l in 0..labels {
                entry.extend((0..twists).map(|t| (l as u8, t as u8)));
            }
        }
        Self {
            from: (0..n).collect(),
            entry,
            labels,
            twists,
        }
    }

    /// `a` as tables, found by carrying made-up positions: one whose pieces of a set all
    /// bear one label and twist, for each label and twist (`a` acts position by position),
    /// and one with a single piece twisted (or labelled) apart, for where each position
    /// goes. `None` if a set's pieces are all alike and unoriented (where they go is not
    /// seen, and they tell nothing apart anyway).
    pub fn of(s: &Structure, a: &Action) -> Option<Self> {
        let (labels, twists) = bounds(s);
        let layout = &s.layout;
        let n = layout.positions();
        let from = sources(s, a)?;
        let mut entry = vec![(0, 0); n * labels * twists];
        for set in 0..layout.offset.len() {
            let Some(&o) = layout.modulus.get(layout.offset[set]) else {
                continue;
            };
            let o = o.max(1);
            for l in 0..labels as u8 {
                for t in 0..o {
                    let (p, tw) = a.image(s, &made_up(s, set, (l, t), None), &made_up_twists(s, set, t, None));
                    for q in (0..n).filter(|&q| layout.set_of[from[q]] == set) {
                        entry[(q * labels + usize::from(l)) * twists + usize::from(t)] = (p[q], tw[q]);
                    }
                }
            }
        }
        Some(Self {
            from,
            entry,
            labels,
            twists,
        })
    }

    /// What a piece labelled `l` twisted `t` at `from[q]` becomes at `q`.
    pub fn entry(&self, q: usize, l: usize, t: usize) -> (u8, u8) {
        self.entry[(q * self.labels + l) * self.twists + t]
    }
}

/// The goal's pieces, but those of `set` all labelled `l`, and one at `odd` labelled apart.
fn made_up(s: &Structure, set: usize, (l, _): (u8, u8), odd: Option<(usize, u8)>) -> Vec<u8> {
    let mut p = s.solved_pieces.clone();
    for (i, x) in p.iter_mut().enumerate() {
        if s.layout.set_of[i] == set {
            *x = l;
        }
    }
    if let Some((i, l2)) = odd {
        p[i] = l2;
    }
    p
}

/// No twist but those of `set`, all `t`, and one at `odd` twisted apart.
fn made_up_twists(s: &Structure, set: usize, t: u8, odd: Option<(usize, u8)>) -> Vec<u8> {
    let mut tw: Vec<u8> = s.layout.set_of.iter().map(|&x| if x == set { t } else { 0 }).collect();
    if let Some((i, t2)) = odd {
        tw[i] = t2;
    }
    tw
}

/// `from[q]`: the position whose piece `a` carries to `q`, seen by carrying a position
/// whose set is all one label but for one piece twisted (or labelled) apart; `None` if a
/// set's pieces are all alike and unoriented.
fn sources(s: &Structure, a: &Action) -> Option<Vec<usize>> {
    let layout = &s.layout;
    let n = layout.positions();
    let mut from = vec![usize::MAX; n];
    for set in 0..layout.offset.len() {
        let positions: Vec<usize> = (0..n).filter(|&i| layout.set_of[i] == set).collect();
        let Some(&first) = positions.first() else { continue };
        let l0 = s.solved_pieces[first];
        let other = positions.iter().map(|&i| s.solved_pieces[i]).find(|&l| l != l0);
        let oriented = layout.modulus[first] > 1;
        let plain = a.image(s, &made_up(s, set, (l0, 0), None), &made_up_twists(s, set, 0, None));
        for &i in &positions {
            let (p, t) = match (oriented, other) {
                (true, _) => (made_up(s, set, (l0, 0), None), made_up_twists(s, set, 0, Some((i, 1)))),
                (false, Some(l1)) => (made_up(s, set, (l0, 0), Some((i, l1))), made_up_twists(s, set, 0, None)),
                (false, None) => return None,
            };
            let odd = a.image(s, &p, &t);
            let q = (0..n).find(|&q| (plain.0[q], plain.1[q]) != (odd.0[q], odd.1[q]))?;
            from[q] = i;
        }
    }
    from.iter().all(|&i| i < n).then_some(from)
}

/// Labels (one more than the largest) and orientations (the most of any set) a table of
/// [`Image`] covers.
pub(super) fn bounds(s: &Structure) -> (usize, usize) {
    let labels = s.solved_pieces.iter().map(|&l| usize::from(l) + 1).max().unwrap_or(1);
    let twists = s
        .layout
        .modulus
        .iter()
        .map(|&o| usize::from(o.max(1)))
        .max()
        .unwrap_or(1);
    (labels, twists)
}
