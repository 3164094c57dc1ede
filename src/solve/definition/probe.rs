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

use super::image::{Image, Reader};
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

/// The pieces (set, label) whose images `projection` tells apart, sorted: what a
/// probe through `image` reads.
fn read(image: &Image, s: &Structure, def: &Definition, projection: &Projection) -> Read {
    let told = |set: usize, l: u8| {
        projection.sets.iter().any(|(x, view)| {
            *x == set
                && match view {
                    View::Whole => def.solved.pieces[set].contains(&l),
                    View::Pieces(kept) => kept.contains(&l),
                }
        })
    };
    let mut read: Read = (0..image.from.len())
        .filter(|&q| s.layout.offset[s.layout.set_of[q]] == q)
        .flat_map(|q| {
            let set = s.layout.set_of[image.from[q]];
            let labels: Vec<u8> = labels(s)
                .into_iter()
                .filter(|&(x, _)| x == set)
                .map(|(_, l)| l)
                .collect();
            let onto = s.layout.set_of[q];
            labels
                .into_iter()
                .filter(move |&l| told(onto, image.entry(q, usize::from(l), 0).0))
                .map(move |l| (set, l))
        })
        .collect();
    read.sort_unstable();
    read
}

/// The pieces a probe tells apart, as (set, label), sorted.
type Read = Vec<(usize, u8)>;

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
        kept.push(read(&identity, s, def, projection));
        let reader = patterns[pattern].reader(&identity);
        probes.push(Probe {
            pattern,
            conjugate: false,
            reader,
        });
    }
    // Patterns that tell no piece apart (a set's orientations alone, or none at all) read
    // the same on every conjugate: the symmetries (a minute to find on the megaminx) would
    // add no probe.
    if probes.len() >= most || kept.iter().all(Vec::is_empty) {
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
            let read = self::read(image, s, def, projection);
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
