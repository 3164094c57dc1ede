//! Symmetry probes: one pattern database looked up on a position's conjugates as well
//! (nxopt's probes), so that one table tells about other pieces too.
//!
//! A symmetry σ of the definition carries every move onto a move and keeps the goal, so a
//! position P and its conjugate σ(P) are equally far from the goal, and a projection's
//! distance of σ(P) is as admissible an estimate as that of P. σ relabels the pieces: the
//! pattern that tells edges 1-6 apart, read on σ(P), tells apart the edges of P that σ
//! carries onto 1-6, whose table we never built. On the 3x3x3 the 48 symmetries carry
//! edges 1-6 and 7-12 onto 46 other sets of six, so two edge tables give many probes.
//!
//! The 2-bit tables still give exact values: σ(P m) = σ(P) φ(m) with φ(m) a move, so a
//! child's conjugate is one move from its parent's, and each probe keeps its own parent's
//! distance as each pattern does ([`super::projection::Pattern::child`]).
//!
//! The inverse position (also as far) is not probed: P⁻¹ changes by a move on the *left*,
//! which relabels pieces, so its projection can jump more than one move and 2 bits do not
//! recover its distance.
//!
//! Two probes that read the same pieces of P are the same estimate (a symmetry carries
//! one's projection onto the other's), so a probe is kept only if the pieces of P it tells
//! apart differ from every earlier probe's: the corners, kept whole, give one probe.

use super::projection::{Pattern, Projection, View};
use crate::puzzle::perm::Definition;
use crate::puzzle::perm::structure::Structure;
use crate::puzzle::perm::symmetry::{self, Action};

/// One look-up: a pattern (an index into the search's patterns) read on the position
/// itself or on its conjugate by a symmetry, through a [`Reader`] that does both at once.
#[derive(Debug, Clone)]
pub struct Probe {
    /// Which pattern.
    pub pattern: usize,
    /// Whether it reads a conjugate (not the position itself).
    pub conjugate: bool,
    /// Where the pattern's positions are read and how their pieces are relabelled.
    pub reader: Reader,
}

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

    /// The pieces (set, label) whose images `projection` tells apart, sorted: what a
    /// probe through this image reads.
    fn read(&self, s: &Structure, def: &Definition, projection: &Projection) -> Read {
        let told = |set: usize, l: u8| {
            projection.sets.iter().any(|(x, view)| {
                *x == set
                    && match view {
                        View::Whole => def.solved.pieces[set].contains(&l),
                        View::Pieces(kept) => kept.contains(&l),
                    }
            })
        };
        let mut read: Read = (0..self.from.len())
            .filter(|&q| s.layout.offset[s.layout.set_of[q]] == q)
            .flat_map(|q| {
                let set = s.layout.set_of[self.from[q]];
                let labels: Vec<u8> = labels(s)
                    .into_iter()
                    .filter(|&(x, _)| x == set)
                    .map(|(_, l)| l)
                    .collect();
                let image = s.layout.set_of[q];
                labels
                    .into_iter()
                    .filter(move |&l| told(image, self.entry(q, usize::from(l), 0).0))
                    .map(move |l| (set, l))
            })
            .collect();
        read.sort_unstable();
        read
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

/// The pieces a probe tells apart, as (set, label), sorted.
type Read = Vec<(usize, u8)>;

/// Labels (one more than the largest) and orientations (the most of any set) a table of
/// [`Image`] covers.
fn bounds(s: &Structure) -> (usize, usize) {
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

/// The probes of `patterns` (made by `projections` of `def`, whose flattened positions
/// are `s`): each pattern on the position itself, first and in order, then on its
/// conjugates by the definition's symmetries, each only if it tells apart other pieces
/// than every earlier probe, at most `most` probes in all (but each pattern once).
pub fn probes(
    def: &Definition,
    s: &Structure,
    projections: &[Projection],
    patterns: &[Pattern],
    most: usize,
) -> Vec<Probe> {
    let identity = Image::identity(s);
    let mut kept: Vec<Read> = Vec::new();
    let mut probes: Vec<Probe> = Vec::new();
    for (pattern, projection) in projections.iter().enumerate() {
        kept.push(identity.read(s, def, projection));
        let reader = patterns[pattern].reader(&identity);
        probes.push(Probe {
            pattern,
            conjugate: false,
            reader,
        });
    }
    if probes.len() >= most {
        return probes;
    }
    let group = symmetry::find(def, s);
    let images: Vec<Image> = group
        .syms
        .iter()
        .skip(1)
        .filter(|a| keeps_goal(s, a))
        .filter_map(|a| Image::of(s, a))
        .collect();
    let mut candidates: Vec<(usize, &Image, Read)> = Vec::new();
    for (pattern, projection) in projections.iter().enumerate() {
        for image in &images {
            let read = image.read(s, def, projection);
            if !kept.contains(&read) && !candidates.iter().any(|(_, _, r)| *r == read) {
                candidates.push((pattern, image, read));
            }
        }
    }
    // The next probe reads the pieces the earlier probes read least: the first few
    // conjugates then cover the puzzle evenly, not six ways round the same corner.
    while probes.len() < most && !candidates.is_empty() {
        let times = |piece: &(usize, u8)| kept.iter().filter(|r| r.contains(piece)).count();
        let score = |read: &[(usize, u8)]| read.iter().map(|p| times(p) * times(p)).sum::<usize>();
        let best = (0..candidates.len())
            .min_by_key(|&i| score(&candidates[i].2))
            .unwrap_or(0);
        let (pattern, image, read) = candidates.swap_remove(best);
        kept.push(read);
        let reader = patterns[pattern].reader(image);
        probes.push(Probe {
            pattern,
            conjugate: true,
            reader,
        });
    }
    probes
}

/// Whether `a` carries the goal onto itself (the search's goal is the definition's own).
fn keeps_goal(s: &Structure, a: &Action) -> bool {
    a.image(s, &s.solved_pieces, &s.solved_twists) == (s.solved_pieces.clone(), s.solved_twists.clone())
}

/// Every (set, label) of the goal, each once.
fn labels(s: &Structure) -> Read {
    let mut all: Read = s
        .solved_pieces
        .iter()
        .enumerate()
        .map(|(i, &l)| (s.layout.set_of[i], l))
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}
