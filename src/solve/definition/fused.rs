//! A pattern's rank read straight from the whole puzzle's position, for the probes the
//! heuristic search makes at every node.
//!
//! The general way projects the position through a [`Reader`] (a label and twist a
//! position), then ranks the projection coordinate by coordinate: each set's labels turned
//! into codes in a second pass, its twists copied out in a third and folded into a number,
//! each step chosen by the coordinate's kind. Ranking was a third of the search's time.
//! Where every coordinate is a set's arrangement or its twists (the 3x3x3's, the
//! pyraminx's, the megaminx's orientations), one table a set does the three passes at
//! once: for each position, label and twist, the piece's code and its twist's place value
//! in the rank, so the twist coordinate is a sum of look-ups and only the arrangement
//! is ranked apart. The rank is the same number ([`PermPuzzle::rank_unchecked`]'s).

use crate::puzzle::perm::PermPuzzle;
use crate::puzzle::perm::coords::Kind;
use crate::puzzle::perm::parse::MAX_PIECES;

/// What [`Fused::new`] reads of a reader: the whole puzzle's position each of the
/// projection's positions reads, and `table[j * stride + l * twists + t]`, the label and
/// twist in the projection of a piece labelled `l` twisted `t` read at its position `j`.
pub struct Tables<'a> {
    /// Sources, one a projection's position.
    pub from: &'a [usize],
    /// Labels and twists in the projection.
    pub table: &'a [(u8, u8)],
    /// Entries a position.
    pub stride: usize,
    /// Entries a label.
    pub twists: usize,
}

/// One set of the projection: where its positions are read and what each reading adds.
#[derive(Debug, Clone)]
struct Part {
    /// The set's index among the projection's components.
    comp: usize,
    /// The whole puzzle's position each of its positions reads.
    from: Vec<usize>,
    /// `entry[(j * labels + l) * twists + t]`: the code of a piece labelled `l` twisted
    /// `t` read at its position `j`, and that twist's place value in the rank.
    entry: Vec<(u8, u64)>,
    /// Place value of its arrangement (0: the arrangement is no coordinate).
    piece_stride: u64,
}

/// A pattern's rank through one reader, in one pass a set ([`Fused::new`] says when).
#[derive(Debug, Clone)]
pub struct Fused {
    parts: Vec<Part>,
    /// Labels times twists: the entries a position.
    stride: usize,
    /// Twists an entry row.
    twists: usize,
}

impl Fused {
    /// The fused ranker of `puzzle` (a projection) read through `reader` (a
    /// [`super::image::Reader`]'s tables); `None` if a coordinate is anything but a set's
    /// arrangement or plain twists (joint states, blocks, twists whose radix follows the
    /// pieces): those keep the general way.
    pub fn new(reader: &Tables, puzzle: &PermPuzzle) -> Option<Self> {
        let s = puzzle.structure();
        let mut parts: Vec<Part> = Vec::new();
        let mut twist_strides: Vec<(usize, u64)> = Vec::new();
        for c in &puzzle.coords().list {
            let comp = &s.components[c.comp];
            if comp.moduli.is_some() || comp.blocks.is_some() || comp.joint.is_some() || comp.len() > MAX_PIECES {
                return None;
            }
            let at = match parts.iter().position(|p| p.comp == c.comp) {
                Some(at) => at,
                None => {
                    let from = comp.positions.iter().map(|&p| reader.from[p]).collect();
                    parts.push(Part {
                        comp: c.comp,
                        from,
                        entry: Vec::new(),
                        piece_stride: 0,
                    });
                    parts.len() - 1
                }
            };
            match c.kind {
                Kind::Pieces => parts[at].piece_stride = c.stride,
                Kind::Twists => twist_strides.push((c.comp, c.stride)),
                Kind::Joint | Kind::Pattern => return None,
            }
        }
        for part in &mut parts {
            let stride = twist_strides.iter().find(|&&(c, _)| c == part.comp).map(|&(_, x)| x);
            part.entry = entries(reader, puzzle, part.comp, stride);
        }
        Some(Self {
            parts,
            stride: reader.stride,
            twists: reader.twists,
        })
    }

    /// The rank in `puzzle` (the one it was made for) of the projection of the whole
    /// puzzle's flattened `pieces` and `twists`.
    #[inline]
    pub fn rank(&self, puzzle: &PermPuzzle, pieces: &[u8], twists: &[u8]) -> u64 {
        let components = &puzzle.structure().components;
        let mut codes = [0u8; MAX_PIECES];
        let mut rank = 0;
        for part in &self.parts {
            for (j, &q) in part.from.iter().enumerate() {
                let at = j * self.stride + usize::from(pieces[q]) * self.twists + usize::from(twists[q]);
                let (code, twist) = part.entry[at];
                codes[j] = code;
                rank += twist;
            }
            if part.piece_stride != 0 {
                rank += components[part.comp].piece_rank(&codes[..part.from.len()]) * part.piece_stride;
            }
        }
        rank
    }
}

/// [`Part::entry`] of component `comp` of `puzzle` read through `reader`; its twists'
/// coordinate has place value `stride` (`None`: they are no coordinate). A twist counts
/// `o^j` at the set's position `j`, the last one not at all when the moves fix their
/// sum, as [`crate::puzzle::perm::rank::rank_twists`] ranks them.
fn entries(reader: &Tables, puzzle: &PermPuzzle, comp: usize, stride: Option<u64>) -> Vec<(u8, u64)> {
    let comp = &puzzle.structure().components[comp];
    let counted = comp.len() - usize::from(comp.fixed_sum);
    let mut entry = Vec::with_capacity(comp.len() * reader.stride);
    let mut place = stride.unwrap_or(0);
    for (j, &p) in comp.positions.iter().enumerate() {
        let weight = if j < counted { place } else { 0 };
        for e in &reader.table[p * reader.stride..][..reader.stride] {
            let (label, twist) = *e;
            let code = comp.code.get(usize::from(label)).copied().unwrap_or(0);
            entry.push((code, u64::from(twist) * weight));
        }
        place = place.wrapping_mul(u64::from(comp.orientations));
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::super::probe::probes;
    use super::super::projection::{Pattern, Projection, Scratch, Table, View};
    use crate::puzzle::perm::structure::Structure;
    use crate::puzzle::perm::{Metric, PermPuzzle, parse_definition};
    use crate::solve::table::DistanceTable;

    /// The pattern of `projection` of `def`, with a table it is not read through (ranking
    /// needs none, and the real ones take minutes to build).
    fn pattern(def: &crate::puzzle::perm::Definition, s: &Structure, projection: &Projection) -> Pattern {
        let puzzle = PermPuzzle::new(projection.definition(def), "under-test", Metric::Face).expect("it builds");
        let tiny = Projection::pieces(0, vec![0]).definition(def);
        let tiny = PermPuzzle::new(tiny, "tiny", Metric::Face).expect("it builds");
        let table = Table::Bytes(DistanceTable::build(&tiny).expect("its table builds"));
        Pattern::new("under test".into(), projection, def, &s.layout.offset, puzzle, table)
    }

    /// For every probe of `projections` of `text` (at most `most`, conjugates included):
    /// the fused rank equals the projection's rank on positions `count` random moves from
    /// the goal. Returns how many probes were fused.
    fn agree(text: &str, projections: &[Projection], most: usize) -> (usize, usize) {
        let def = parse_definition(text).expect("the example parses");
        let reader = PermPuzzle::reader(def.clone(), "whole", Metric::Face, 1).expect("it reads");
        let s = reader.structure();
        let patterns: Vec<Pattern> = projections.iter().map(|p| pattern(&def, s, p)).collect();
        let probes = probes(&def, s, projections, &patterns, most);
        let (mut p, mut t) = (s.solved_pieces.clone(), s.solved_twists.clone());
        let (mut p2, mut t2) = (Vec::new(), Vec::new());
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut scratch = Scratch::default();
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = (x >> 33) as usize % s.moves.len();
            reader.apply(&s.moves[m], &p, &t, &mut p2, &mut t2);
            std::mem::swap(&mut p, &mut p2);
            std::mem::swap(&mut t, &mut t2);
            for probe in &probes {
                let pattern = &patterns[probe.pattern];
                let general = pattern.rank_projected(&probe.reader, &p, &t, &mut scratch);
                assert_eq!(
                    pattern.rank(&probe.reader, &p, &t, &mut scratch),
                    general,
                    "{p:?} {t:?}"
                );
            }
        }
        let fused = probes.iter().filter(|probe| probe.reader.fused.is_some()).count();
        (fused, probes.len())
    }

    const CUBE: &str = include_str!("../../../examples/3x3x3.tws");

    /// The 3x3x3's tables at 1 and 4 GiB, on the position and on 20 conjugates: every probe
    /// fused, every rank the general one.
    #[test]
    fn fused_ranks_are_the_projections_ranks_on_the_3x3x3() {
        let edges = |labels: &[u8]| Projection::pieces(1, labels.to_vec());
        let sets = [
            Projection::whole(0),
            edges(&[0, 1, 2, 3, 4, 5]),
            edges(&[0, 7, 8, 9, 10, 11]),
            edges(&[0, 1, 2, 3, 4, 5, 6]),
            Projection::whole(1),
        ];
        let (fused, probes) = agree(CUBE, &sets, 24);
        assert!(probes > sets.len(), "conjugates probed: {probes}");
        assert_eq!(fused, probes);
    }

    /// Several sets in one projection, whole and in part, orientations of order 3 and 4,
    /// and identical pieces: the pyraminx and the octahedron's corners and edges.
    #[test]
    fn fused_ranks_are_the_projections_ranks_on_other_definitions() {
        let pyraminx = include_str!("../../../examples/pyraminx.tws");
        let both = Projection {
            sets: vec![(0, View::Whole), (2, View::Pieces(vec![1, 4]))],
        };
        let (fused, _) = agree(pyraminx, &[both, Projection::whole(1), Projection::whole(2)], 12);
        assert!(fused > 0);
        let fto = include_str!("../../../examples/fto-corners-edges.tws");
        let (fused, _) = agree(fto, &[Projection::whole(0), Projection::pieces(1, vec![0, 3, 5])], 12);
        assert!(fused > 0);
    }
}
