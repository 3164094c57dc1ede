//! Projections of a definition, and their distance tables: the pattern databases of the
//! heuristic search.
//!
//! A projection keeps some sets of pieces, and of a set either every piece or some pieces
//! told apart with the others made identical (the 3x3x3's corners; 6 of its edges, with
//! every edge's orientation). Identical pieces keep their orientations: ignoring them
//! would leave the twists no coordinate of their own, and the engine would search the
//! projection without its move tables, tens of times slower. It is itself a definition, with the same moves on fewer
//! positions, so every sequence of moves that solves the puzzle solves its projection: the
//! projection's distance never exceeds the puzzle's, an admissible estimate. Its full
//! distance table is what `analyze` computes anyway: the projection is built as a
//! [`PermPuzzle`] and enumerated by the engine's breadth-first search, through the
//! solver's own [`DistanceTable`] (a byte a rank) or [`DistanceMod3`] (2 bits a rank), kept
//! in the solver's cache under the definition's identity and the projection's name.
//!
//! A table of distances modulo 3 still gives each node its exact distance: every move can
//! be undone, so a child's projection lies one move from its parent's or is the same, and
//! of the parent's distance `d` minus one, `d` and plus one only one has the child's code.

use super::fused::{Fused, Tables};
use super::image::{Image, Reader};
use crate::puzzle::Notation;
use crate::puzzle::perm::parse::{MoveDef, State};
use crate::puzzle::perm::{Definition, Metric, PermPuzzle};
use crate::solve::mod3::{DistanceMod3, MAX_MOD3_RANKS};
use crate::solve::table::{DistanceTable, MAX_TABLE_RANKS};
use crate::util::{human_bytes, thousands};

/// Which pieces of one set a projection keeps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum View {
    /// Every piece, with its orientation.
    Whole,
    /// These pieces (labels from 0) told apart; the others of the set made identical.
    /// Every piece keeps its orientation.
    Pieces(Vec<u8>),
}

/// A projection: the sets it keeps (indices in the definition, ascending), each with what
/// of it is kept.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Projection {
    /// `(set, view)`, sets ascending.
    pub sets: Vec<(usize, View)>,
}

impl Projection {
    /// The projection keeping one set whole.
    pub fn whole(set: usize) -> Self {
        Self {
            sets: vec![(set, View::Whole)],
        }
    }

    /// The projection keeping `pieces` (labels from 0) of `set` told apart.
    pub fn pieces(set: usize, pieces: Vec<u8>) -> Self {
        Self {
            sets: vec![(set, View::Pieces(pieces))],
        }
    }

    /// Its name, for notes and the cache: `CORNER`, `EDGE 1-7`, `EDGE 1 3 5` (pieces as the
    /// definition numbers them, from `first`), `EDGE orientations` (no piece told apart),
    /// sets joined by `+`.
    pub fn describe(&self, def: &Definition, first: u32) -> String {
        let parts: Vec<String> = self
            .sets
            .iter()
            .map(|(set, view)| {
                let name = &def.sets[*set].name;
                match view {
                    View::Whole => name.clone(),
                    View::Pieces(pieces) if pieces.is_empty() => format!("{name} orientations"),
                    View::Pieces(pieces) => format!("{name} {}", ranges(pieces, first)),
                }
            })
            .collect();
        parts.join(" + ")
    }

    /// The projected definition: the kept sets only, the pieces not told apart given one
    /// label and an open orientation, the same moves restricted to those sets (no
    /// `Illegal` lines: a projection may only allow more, which keeps it admissible).
    pub fn definition(&self, def: &Definition) -> Definition {
        let mut sets = Vec::new();
        let (mut pieces, mut twists, mut modulus) = (Vec::new(), Vec::new(), Vec::new());
        for (set, view) in &self.sets {
            sets.push(def.sets[*set].clone());
            let relabel = relabelling(view);
            let solved = &def.solved.pieces[*set];
            pieces.push(solved.iter().map(|&l| relabel[usize::from(l)]).collect());
            twists.push(def.solved.twists[*set].clone());
            // Pieces made alike keep the orientations they all tell apart: their divisors'
            // greatest common one (all of them on the 3x3x3), so their twists stay a
            // coordinate of their own and the engine keeps its move tables.
            let alike = |l: u8| matches!(view, View::Pieces(kept) if !kept.contains(&l));
            let mods = || solved.iter().zip(&def.orientation_mod[*set]);
            let common = mods().filter(|&(&l, _)| alike(l)).fold(0, |g, (_, &m)| gcd(g, m));
            modulus.push(mods().map(|(&l, &m)| if alike(l) { common } else { m }).collect());
        }
        let restrict = |m: &MoveDef| MoveDef {
            name: m.name.clone(),
            line: m.line,
            from: self.sets.iter().map(|(s, _)| m.from[*s].clone()).collect(),
            twist: self.sets.iter().map(|(s, _)| m.twist[*s].clone()).collect(),
        };
        Definition {
            name: format!("{} projected", def.name),
            sets,
            solved: State { pieces, twists },
            moves: def.moves.iter().map(restrict).collect(),
            aliases: Vec::new(),
            illegal: Vec::new(),
            rotations: Vec::new(),
            orientation_mod: modulus,
        }
    }

    /// Whether it tells apart everything `other` does (every set of `other`, whole or with
    /// at least its pieces told apart), so its distance is never below `other`'s.
    pub fn contains(&self, other: &Projection) -> bool {
        other.sets.iter().all(|(set, theirs)| {
            self.sets.iter().any(|(s, ours)| {
                s == set
                    && match (ours, theirs) {
                        (View::Whole, _) => true,
                        (View::Pieces(_), View::Whole) => false,
                        (View::Pieces(ours), View::Pieces(theirs)) => theirs.iter().all(|l| ours.contains(l)),
                    }
            })
        })
    }

    /// The projection's rank space under `metric` (`None`: it cannot be ranked in 64 bits).
    pub fn ranks(&self, def: &Definition, metric: Metric) -> Option<u64> {
        let space = PermPuzzle::ranks_only(&self.definition(def), metric).ok()?;
        u64::try_from(space?).ok()
    }
}

/// The greatest common divisor (`gcd(0, m)` is `m`).
fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// How the projection of `view` relabels the pieces of a set: `relabel[label]`. Pieces
/// told apart keep their order; the others all become one label after them.
fn relabelling(view: &View) -> [u8; 256] {
    let mut relabel = [0u8; 256];
    match view {
        View::Whole => relabel.iter_mut().enumerate().for_each(|(l, r)| *r = l as u8),
        View::Pieces(kept) => {
            let mut sorted = kept.clone();
            sorted.sort_unstable();
            let rest = sorted.len() as u8;
            relabel.fill(rest);
            for (i, &l) in sorted.iter().enumerate() {
                relabel[usize::from(l)] = i as u8;
            }
        }
    }
    relabel
}

/// Labels from 0 written from `first` with runs joined: `1-7`, `1 3 5`, `8-12 1`.
fn ranges(labels: &[u8], first: u32) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < labels.len() {
        let mut j = i;
        while j + 1 < labels.len() && labels[j + 1] == labels[j] + 1 {
            j += 1;
        }
        let (a, b) = (u32::from(labels[i]) + first, u32::from(labels[j]) + first);
        out.push(if j > i + 1 {
            format!("{a}-{b}")
        } else if j == i + 1 {
            format!("{a} {b}")
        } else {
            a.to_string()
        });
        i = j + 1;
    }
    out.join(" ")
}

/// How a projection's table is stored.
pub enum Table {
    /// A byte a rank: each distance (up to [`MAX_TABLE_RANKS`] ranks).
    Bytes(DistanceTable),
    /// 2 bits a rank: each distance modulo 3 (up to [`MAX_MOD3_RANKS`] ranks).
    Mod3(DistanceMod3),
}

/// The bytes a table of `ranks` ranks takes, and whether modulo 3; `None` past
/// [`MAX_MOD3_RANKS`].
pub fn table_bytes(ranks: u64) -> Option<(u64, bool)> {
    match ranks {
        r if r <= MAX_TABLE_RANKS => Some((r, false)),
        r if r <= MAX_MOD3_RANKS => Some((r.div_ceil(4), true)),
        _ => None,
    }
}

/// `CORNER: 88,179,840 ranks, 22 MiB (mod 3)`.
pub fn describe_table(name: &str, ranks: u64) -> String {
    match table_bytes(ranks) {
        Some((bytes, mod3)) => format!(
            "{name}: {} ranks, {}{}",
            thousands(u128::from(ranks)),
            human_bytes(u128::from(bytes)),
            if mod3 { " (mod 3)" } else { "" }
        ),
        None => format!("{name}: {} ranks, too many for a table", thousands(u128::from(ranks))),
    }
}

/// A projection built: its puzzle, where its positions come from in the whole puzzle's
/// flattened state, and its distance table.
pub struct Pattern {
    /// Its name ([`Projection::describe`]).
    pub name: String,
    puzzle: PermPuzzle,
    /// `source[j]`: the whole puzzle's flattened position the projection's position `j`
    /// reads.
    source: Vec<usize>,
    /// `relabel[j]`: the relabelling of the set position `j` belongs to (an index into
    /// `relabellings`).
    set_of: Vec<usize>,
    relabellings: Vec<[u8; 256]>,
    table: Table,
}

/// What a thread keeps to rank projections without allocating.
#[derive(Default, Clone)]
pub struct Scratch {
    pieces: Vec<u8>,
    twists: Vec<u8>,
    buf: Vec<u8>,
}

impl Pattern {
    /// The pattern of `projection` of `def` (whose sets start at the flattened positions
    /// `offsets`), its puzzle `puzzle` (the projected definition built) and its table.
    pub fn new(
        name: String,
        projection: &Projection,
        def: &Definition,
        offsets: &[usize],
        puzzle: PermPuzzle,
        table: Table,
    ) -> Self {
        let (mut source, mut set_of, mut relabellings) = (Vec::new(), Vec::new(), Vec::new());
        for (k, (set, view)) in projection.sets.iter().enumerate() {
            relabellings.push(relabelling(view));
            for i in 0..def.sets[*set].size {
                source.push(offsets[*set] + i);
                set_of.push(k);
            }
        }
        Self {
            name,
            puzzle,
            source,
            set_of,
            relabellings,
            table,
        }
    }

    /// How to read this pattern's projection through `image` (the identity, or a
    /// symmetry): its positions' sources, and each piece's label and twist in the
    /// projection, the symmetry's relabelling and the projection's composed.
    pub fn reader(&self, image: &Image) -> Reader {
        let layout = &self.puzzle.structure().layout;
        let (labels, twists) = (image.labels, image.twists);
        let mut table = Vec::with_capacity(self.source.len() * labels * twists);
        for (j, &q) in self.source.iter().enumerate() {
            for l in 0..labels {
                for t in 0..twists {
                    let (l2, t2) = image.entry(q, l, t);
                    let label = self.relabellings[self.set_of[j]][usize::from(l2)];
                    let twist = match layout.open {
                        true => t2 % layout.piece_mod(j, label).max(1),
                        false => t2,
                    };
                    table.push((label, twist));
                }
            }
        }
        let mut reader = Reader {
            from: self.source.iter().map(|&q| image.from[q]).collect(),
            table,
            stride: labels * twists,
            twists,
            fused: None,
        };
        let tables = Tables {
            from: &reader.from,
            table: &reader.table,
            stride: reader.stride,
            twists: reader.twists,
        };
        reader.fused = Fused::new(&tables, &self.puzzle);
        reader
    }

    /// The projection of the whole puzzle's flattened `pieces` and `twists` through
    /// `reader` into `x`.
    #[inline]
    fn project(reader: &Reader, pieces: &[u8], twists: &[u8], x: &mut Scratch) {
        x.pieces.resize(reader.from.len(), 0);
        x.twists.resize(reader.from.len(), 0);
        for (j, &i) in reader.from.iter().enumerate() {
            let at = j * reader.stride + usize::from(pieces[i]) * reader.twists + usize::from(twists[i]);
            (x.pieces[j], x.twists[j]) = reader.table[at];
        }
    }

    /// The rank of the projection, read through `reader`, of a position reached by moves
    /// from one whose projection was checked ([`Pattern::distance`]).
    #[inline]
    pub fn rank(&self, reader: &Reader, pieces: &[u8], twists: &[u8], x: &mut Scratch) -> u64 {
        match &reader.fused {
            Some(fused) => fused.rank(&self.puzzle, pieces, twists),
            None => self.rank_projected(reader, pieces, twists, x),
        }
    }

    /// [`Pattern::rank`] the general way: the projection made, then ranked.
    pub fn rank_projected(&self, reader: &Reader, pieces: &[u8], twists: &[u8], x: &mut Scratch) -> u64 {
        Self::project(reader, pieces, twists, x);
        self.puzzle.rank_unchecked(&x.pieces, &x.twists, &mut x.buf)
    }

    /// The exact distance of the projection, read through `reader`, of `pieces` and
    /// `twists` (checked to be of the projection's class); `None` if no moves solve it, so
    /// neither the position.
    pub fn distance(&self, reader: &Reader, pieces: &[u8], twists: &[u8]) -> Option<u8> {
        let mut x = Scratch::default();
        Self::project(reader, pieces, twists, &mut x);
        let rank = self.puzzle.rank_of(&x.pieces, &x.twists).ok()?;
        let d = match &self.table {
            Table::Bytes(table) => table.distance(rank)?,
            Table::Mod3(table) => table.path(&self.puzzle, rank)?.len() - 1,
        };
        u8::try_from(d).ok()
    }

    /// The distance at `rank`, a child of a node whose projection lies at `parent`; `None`
    /// if the table never reached it (which a child of a solvable node cannot be).
    #[inline]
    pub fn child(&self, parent: u8, rank: u64) -> Option<u8> {
        match &self.table {
            Table::Bytes(table) => table.distance(rank).map(|d| d as u8),
            Table::Mod3(table) => {
                let code = table.code(rank)?;
                // Of parent - 1, parent, parent + 1, the one with this code.
                let d = parent + 1;
                let shift = (u32::from(d) + 3 - u32::from(code)) % 3;
                Some(d - shift as u8)
            }
        }
    }

    /// Starts fetching the table's entry for `rank` into the cache.
    #[inline]
    pub fn prefetch(&self, rank: u64) {
        match &self.table {
            Table::Bytes(table) => table.prefetch(rank),
            Table::Mod3(table) => table.prefetch(rank),
        }
    }

    /// Ranks of the projection.
    pub fn ranks(&self) -> u64 {
        crate::puzzle::SearchGraph::states(&self.puzzle)
    }

    /// The projection's id (its cache files' name).
    pub fn id(&self) -> String {
        self.puzzle.id()
    }
}
