//! Permutation puzzles read from a ksolve / twsearch definition: the pocket cube, pancakes,
//! Top Spin, the pyraminx ...
//!
//! [`parse`] reads the file's subset of the format into a [`Definition`]; [`PermPuzzle`]
//! finds from the moves what they keep ([`structure`]: orbits, sets moving in step, twist
//! sums, tied parities) and ranks the goal's class of those invariants densely as a mixed
//! radix of coordinates ([`coords`]), so the engine's bit planes hold little beyond what
//! is reachable and a predecessor costs a table look-up or two.

pub mod blocks;
mod chain;
mod classes;
mod conjugate;
pub mod coords;
pub mod digits;
pub mod family;
pub mod group;
pub mod kpuzzle;
pub mod packed;
pub mod parse;
pub mod rank;
pub mod scramble;
pub mod sequence;
pub mod structure;
pub mod symmetry;
#[cfg(test)]
mod tests;
pub mod text;
pub use classes::LARGEST_GROUP;

use super::{Bins, ClassInfo, Geometric, Invariant, Notation, ParseError, SearchGraph, Symmetry, SymmetryChoice};
use coords::{Coords, Plan};
pub use parse::{Definition, DefinitionError, parse_definition};
use sequence::Transform;
use std::sync::Arc;
use structure::Structure;
pub use structure::{Metric, Move};
use text::join;

/// Most invariant classes listed one by one; beyond, the unsolvable ones are one row.
const MAX_CLASSES: u64 = 256;

/// A permutation puzzle from a definition, ranked over the goal's class of its invariants.
#[derive(Debug, Clone)]
pub struct PermPuzzle {
    id: String,
    def: Definition,
    metric: Metric,
    s: Structure,
    coords: Coords,
    goal: u64,
    classes: Vec<ClassInfo>,
    /// All assemblies of the pieces (`None`: past 128 bits).
    assemblies: Option<u128>,
    /// The reach of the moves, known before the search.
    reach: Reach,
    /// The `Illegal` lines, flattened: a state with `label` at position `at` is never
    /// entered.
    illegal: Vec<Forbidden>,
    /// The number of the first piece in positions read and written: 1 as in a `.tws`
    /// file, 0 as in a KPuzzle's.
    first: u32,
    /// The one move that changes the rank's highest digit, if it is one ([`Swap`]).
    swap: Option<Swap>,
    /// Whether that move's predecessors are passed as [`Bins`] (a search on disk).
    binned: bool,
    /// The symmetries positions are counted up to (`--symmetry`).
    symmetry: Arc<Counted>,
    /// Ranks of classes rather than positions, where the group has a ranking of them
    /// ([`classes`]): the search's ranks, and what [`Notation::parse`] and
    /// [`Notation::render`] read and write.
    by_class: Option<Arc<classes::ClassRanks>>,
    /// Whether a class is counted at its least rank (where the puzzle ranks classes, kept
    /// by [`PermPuzzle::by_position`] so that every route shows the same representatives)
    /// rather than at its least position as pieces, then twists.
    least_by_rank: bool,
}

/// The symmetries a definition's positions are counted up to.
#[derive(Debug, Default, Clone)]
struct Counted {
    group: Option<Symmetry>,
    /// Every symmetry but the identity.
    syms: Vec<symmetry::Action>,
    /// Whether a position's inverse counts with it.
    inverse: bool,
}

/// Under [`Plan::Big`] with no other coordinate, the one move that changes the big
/// permutation's last position (the rank's highest digit), when it swaps the first and
/// last positions' pieces: pancakes' flip of the whole stack. From the group of ranks whose
/// last piece is `b`, it reaches the group of each other piece `t` through the positions
/// whose last piece is `t` and first is `b`: bin `t * k + b` of [`Bins`], numbered by the
/// order of the pieces between (their Lehmer code).
///
/// A bin's index is turned back into a rank a table look-up at a time: the index's low
/// digits (the order of the first `head` pieces between) are a pattern of the table, whose
/// entry is their part of the rank, for each count of those pieces below the first one;
/// the high digits are decoded once for a run of `head!` indices.
#[derive(Debug, Clone)]
struct Swap {
    /// The move's index.
    m: usize,
    /// Pieces of the big permutation.
    k: usize,
    /// `from[j]`: which position's piece the move brings to position `j`.
    from: [u8; rank::MAX_DISTINCT],
    /// Positions between the first and last that the table covers.
    head: usize,
    /// `table[pattern * (head + 1) + c]`: the rank's digits of positions `1..=head`
    /// holding the pieces in the order `pattern`, when `c` of them are below the first one.
    table: Vec<u16>,
}

/// Most positions [`Swap`]'s table covers: `7! x 8` entries of 2 bytes, 80 KiB, in cache.
const SWAP_HEAD: usize = 7;

impl Swap {
    /// The one such move of `plan`, if there is one.
    fn of(plan: &Plan) -> Option<Self> {
        let Plan::Big(big) = plan else { return None };
        let k = big.k;
        let mut last = big.mixed.iter().filter(|x| x.reach == k);
        let (Some(x), None) = (last.next(), last.next()) else {
            return None;
        };
        let swaps = usize::from(x.from[0]) == k - 1 && usize::from(x.from[k - 1]) == 0;
        if !(swaps && big.small == 1 && k >= 3) || Bins::new(k as u64, rank::FACT[k - 1], rank::FACT[k - 2]).is_none() {
            return None;
        }
        let head = (k - 2).min(SWAP_HEAD);
        let mut table = vec![0u16; rank::FACT[head] as usize * (head + 1)];
        let mut order = [0u8; SWAP_HEAD];
        for (pattern, row) in table.chunks_mut(head + 1).enumerate() {
            rank::unrank_distinct(pattern as u64, &mut order[..head]);
            for (c, entry) in row.iter_mut().enumerate() {
                // Position `j + 1` holds the piece of order `order[j]` among those `head`:
                // its digit counts those before it that are below it, and the first piece
                // if it is above `c` of them.
                let mut digits = 0;
                for j in 0..head {
                    let below = order[..j].iter().filter(|&&o| o < order[j]).count();
                    let first = usize::from(usize::from(order[j]) >= c);
                    digits += (below + first) as u64 * rank::FACT[j + 1];
                }
                *entry = digits as u16;
            }
        }
        Some(Swap {
            m: x.m,
            k,
            from: x.from,
            head,
            table,
        })
    }

    /// Its bins.
    fn bins(&self) -> Option<Bins> {
        Bins::new(self.k as u64, rank::FACT[self.k - 1], rank::FACT[self.k - 2])
    }

    /// The encoded bin and index of the image of the position whose pieces are `code`.
    #[inline(always)]
    fn encode(&self, code: &[u8]) -> u64 {
        let k = self.k;
        let (t, b) = (code[usize::from(self.from[k - 1])], code[k - 1]);
        let (mut seen, mut index) = (0u32, 0);
        for j in 1..k - 1 {
            let c = code[usize::from(self.from[j])];
            index += u64::from((seen & ((1u32 << c) - 1)).count_ones()) * rank::FACT[j - 1];
            seen |= 1 << c;
        }
        Bins::encode(u64::from(t) * k as u64 + u64::from(b), index)
    }

    /// Calls `f` with the rank of each of `indices` in bin `bin`; returns how many have
    /// none.
    fn unbin(&self, bin: u64, indices: impl Iterator<Item = u64>, mut f: impl FnMut(u64)) -> u64 {
        let (k, head) = (self.k, self.head);
        let (t, b) = ((bin / k as u64) as usize, (bin % k as u64) as usize);
        if t == b || t >= k {
            return indices.count() as u64;
        }
        let run = rank::FACT[head];
        // The run decoded: its high digits, the rank's part they and the last piece make,
        // and how many of the pieces left for the head are below the first piece.
        let (mut high, mut base, mut c) = (u64::MAX, 0, 0);
        let mut bad = 0;
        for index in indices {
            if index >= rank::FACT[k - 2] {
                bad += 1;
                continue;
            }
            if index / run != high {
                high = index / run;
                let mut free: u32 = ((1u32 << k) - 1) & !(1 << t) & !(1 << b);
                let mut h = high;
                base = t as u64 * rank::FACT[k - 1];
                // Positions from the last between down to past the head: digit `j - 1` of
                // the index (radix `j`) picks the piece among those not placed after it.
                let mut digits = [0u64; rank::MAX_DISTINCT];
                for (j, d) in digits.iter_mut().enumerate().take(k - 1).skip(head + 1) {
                    *d = h % j as u64;
                    h /= j as u64;
                }
                for j in (head + 1..k - 1).rev() {
                    let mut bits = free;
                    for _ in 0..digits[j] {
                        bits &= bits - 1;
                    }
                    let piece = bits.trailing_zeros();
                    free &= !(1 << piece);
                    let first = u64::from(piece > b as u32);
                    base += (digits[j] + first) * rank::FACT[j];
                }
                c = (free & ((1u32 << b) - 1)).count_ones() as usize;
            }
            let pattern = (index % run) as usize;
            f(base + u64::from(self.table[pattern * (head + 1) + c]));
        }
        bad
    }
}

/// One piece an `Illegal` line keeps from one position (flattened).
#[derive(Debug, Clone, Copy)]
struct Forbidden {
    at: usize,
    label: u8,
    line: usize,
}

impl Forbidden {
    /// The `Illegal` lines of `def`, flattened.
    fn of(def: &Definition, s: &Structure) -> Vec<Forbidden> {
        def.illegal
            .iter()
            .flat_map(|i| {
                let at = s.layout.offset[i.set] + i.position;
                i.pieces.iter().map(move |&label| Forbidden {
                    at,
                    label,
                    line: i.line,
                })
            })
            .collect()
    }
}

/// What the moves reach, from the order of the group they generate ([`group`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Every piece is distinct, so every element of the group is one position.
    Positions(group::Order),
    /// Every piece is distinct, but some orientations do not matter (`?`,
    /// `orientationMod`): the positions are the elements of the group as far as the
    /// orientations told apart see them, the goal's orbit.
    Open {
        /// The group's order on the points told apart.
        group: group::Order,
        /// The positions.
        positions: group::Order,
    },
    /// Some pieces are identical: the group permutes labelled pieces, and the positions
    /// are its order divided by the goal's stabiliser's, not computed.
    Labelled(group::Order),
    /// `Illegal` lines keep the search out of part of the group: fewer are reached.
    Restricted(group::Order),
    /// Too many (slot, orientation) points for the chain.
    Unknown {
        /// The points.
        points: usize,
    },
}

impl Reach {
    /// What the moves of `s` reach from the goal of `def`.
    pub fn of(def: &Definition, s: &group::Generators) -> Self {
        let distinct = def.solved.pieces.iter().all(|labels| {
            let mut sorted = labels.clone();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[0] != w[1])
        });
        match group::order(s) {
            Some((order, _)) if !def.illegal.is_empty() => Reach::Restricted(order),
            Some((group, positions)) if distinct && s.layout.open => Reach::Open { group, positions },
            Some((order, _)) if distinct => Reach::Positions(order),
            Some((order, _)) => Reach::Labelled(order),
            None => Reach::Unknown {
                points: group::points(s),
            },
        }
    }

    /// What the moves of `def` reach, read from the moves alone, without the structure that
    /// a definition too large to rank does not have.
    pub fn of_moves(def: &Definition, metric: Metric) -> Result<Self, DefinitionError> {
        Ok(Reach::of(def, &structure::Flat::new(def, metric)?.generators()))
    }

    /// The positions reached, when known and below 2^128.
    pub fn positions(&self) -> Option<u128> {
        match self {
            Reach::Positions(order) | Reach::Open { positions: order, .. } => order.exact(),
            _ => None,
        }
    }

    /// A sentence on it for reports, when the group does not count the positions (when it
    /// does, the analysis states it beside what the search reached).
    fn sentence(&self) -> Option<String> {
        match self {
            Reach::Positions(_) => None,
            Reach::Open { group, positions } => Some(format!(
                "By Schreier–Sims the moves generate a group of {} on the pieces' slots and the orientations told apart; the orientations the definition leaves open do not matter, so its elements make {} states (the goal's orbit).",
                group.text(),
                positions.text()
            )),
            Reach::Labelled(order) => Some(format!(
                "By Schreier–Sims the moves generate a group of {} permutations of the labelled pieces; some pieces are identical, so the states are that order divided by the order of the goal's stabiliser, which is not computed.",
                order.text()
            )),
            Reach::Restricted(order) => Some(format!(
                "By Schreier–Sims the moves generate a group of {}; the `Illegal` lines keep the search out of part of it.",
                order.text()
            )),
            Reach::Unknown { points } => Some(format!(
                "The order of the group the moves generate is not computed: its {points} (slot, orientation) points are more than the {} the Schreier–Sims chain is built for.",
                group::MAX_POINTS
            )),
        }
    }
}

/// What one worker keeps between ranks: the high part's moves for the run being expanded.
#[derive(Default, Clone)]
pub struct Memo {
    /// The ranks `first..end` share the high part `parts` was computed for.
    first: u64,
    end: u64,
    /// The high part after each move, as a rank offset.
    parts: Vec<u64>,
    /// [`Plan::Big`]: the pieces left for the big permutation's head, ascending.
    rest: Vec<u8>,
    /// [`Plan::Big`]: `above[k]`, the big permutation's rank less its first `k` digits'
    /// part, for `k` from the head on.
    above: [u64; rank::MAX_DISTINCT + 1],
    code: Vec<u8>,
    pieces: Vec<u8>,
    twists: Vec<u8>,
    moved_pieces: Vec<u8>,
    moved_twists: Vec<u8>,
    buf: Vec<u8>,
    /// Searching by class: the neighbours of a representative, and the scratch that
    /// indexes their classes.
    found: Vec<u64>,
    class: classes::Scratch,
}

impl PermPuzzle {
    /// Reads a definition's text and builds the puzzle under `metric`; `id` names it in
    /// reports (e.g. the file's stem).
    pub fn from_text(text: &str, id: &str, metric: Metric) -> Result<Self, DefinitionError> {
        Self::new(parse_definition(text)?, id, metric)
    }

    /// The ranks a search of `def` under `metric` covers (`None`: past 128 bits), or why it
    /// cannot be built: what [`PermPuzzle::new`] checks, without laying out the coordinates
    /// or building their tables, so a rank space past 64 bits (the whole 3x3x3 cube) is
    /// counted, for the caller to refuse with its figures.
    pub fn rank_space(def: &Definition, metric: Metric) -> Result<(Option<u128>, Reach), DefinitionError> {
        let s = Structure::new(def, metric)?;
        Ok((Coords::space(&s), Reach::of(def, &s.generators())))
    }

    /// The ranks of [`PermPuzzle::rank_space`] alone, without counting what the moves
    /// reach (a Schreier–Sims run): what the solver's choice of projections asks of each
    /// of its candidates.
    pub fn ranks_only(def: &Definition, metric: Metric) -> Result<Option<u128>, DefinitionError> {
        Ok(Coords::space(&Structure::new(def, metric)?))
    }

    /// Whether `def` may be searched one rank per class ([`classes`]): no `Illegal` line,
    /// and its highest coordinate small enough for the class table. Read from the laid out
    /// coordinates alone: building the puzzle to find out may take gigabytes of tables
    /// (the 3x3x3's edges alone).
    pub fn may_rank_by_class(def: &Definition, metric: Metric) -> bool {
        let Ok(s) = Structure::new(def, metric) else {
            return false;
        };
        let top = Coords::layout(&s).ok().and_then(|c| c.list.last().map(|top| top.size));
        def.illegal.is_empty() && top.is_some_and(classes::tabulated)
    }

    /// Whether the quarter metric would search `def` as the face metric does: every move has
    /// order 2 or 3, so its powers are itself and its inverse and both metrics keep them all.
    /// Read from the moves alone, so a definition too large to rank is answered too.
    pub fn quarter_is_face(def: &Definition) -> Result<bool, DefinitionError> {
        let quarter = structure::Flat::new(def, Metric::Quarter)?.moves.len();
        Ok(quarter == structure::Flat::new(def, Metric::Face)?.moves.len())
    }

    /// Builds the puzzle of a definition under `metric`.
    pub fn new(def: Definition, id: &str, metric: Metric) -> Result<Self, DefinitionError> {
        let s = Structure::new(&def, metric)?;
        let assemblies = s.assemblies;
        let reach = Reach::of(&def, &s.generators());
        let mut coords = Coords::layout(&s).map_err(|message| DefinitionError { line: 0, message })?;
        coords.plan(&s);
        let illegal = Forbidden::of(&def, &s);
        if !illegal.is_empty() {
            // The tables of the other plans move ranks without the pieces in hand; the
            // generic plan has them, to skip the states an `Illegal` line forbids.
            coords.plan = Plan::Generic;
        }
        let mut buf = Vec::new();
        let goal = coords.rank(&s, &s.solved_pieces, &s.solved_twists, &mut buf);
        let mut puzzle = PermPuzzle {
            id: id.to_string(),
            def,
            metric,
            s,
            coords,
            goal,
            classes: Vec::new(),
            assemblies,
            reach,
            illegal,
            first: 1,
            swap: None,
            binned: false,
            symmetry: Arc::default(),
            by_class: None,
            least_by_rank: false,
        };
        puzzle.classes = puzzle.build_classes();
        puzzle.swap = Swap::of(&puzzle.coords.plan);
        Ok(puzzle)
    }

    /// A definition too large to rank (the whole 3x3x3) built only to read, check and
    /// write its positions: its coordinates are laid out over no orbit, so it has one rank
    /// and must not be searched. The solver's heuristic search works on its flattened
    /// states ([`PermPuzzle::structure`]). Pieces are numbered from `first` in positions
    /// (see [`PermPuzzle::numbered_from`]).
    pub fn reader(def: Definition, id: &str, metric: Metric, first: u32) -> Result<Self, DefinitionError> {
        let s = Structure::for_reading(&def, metric)?;
        let mut bare = s.clone();
        bare.components.clear();
        let coords = Coords::layout(&bare).map_err(|message| DefinitionError { line: 0, message })?;
        let (reach, illegal) = (Reach::of(&def, &s.generators()), Forbidden::of(&def, &s));
        Ok(PermPuzzle {
            id: id.to_string(),
            reach,
            illegal,
            assemblies: s.assemblies,
            def,
            metric,
            s,
            coords,
            goal: 0,
            classes: Vec::new(),
            first,
            swap: None,
            binned: false,
            symmetry: Arc::default(),
            by_class: None,
            least_by_rank: false,
        })
    }

    /// What the moves keep, found from them, on the flattened positions: the layout, the
    /// moves with their powers, the goal.
    pub fn structure(&self) -> &Structure {
        &self.s
    }

    /// The rank of flattened pieces and twists known to be of the goal's class (the
    /// neighbours of a position that is): [`PermPuzzle::rank_of`] without its checks, for a
    /// heuristic search that ranks every node. `buf` is the caller's scratch space.
    pub fn rank_unchecked(&self, pieces: &[u8], twists: &[u8], buf: &mut Vec<u8>) -> u64 {
        self.coords.rank(&self.s, pieces, twists, buf)
    }

    /// The coordinates its ranks are made of ([`PermPuzzle::rank_unchecked`] sums them).
    pub fn coords(&self) -> &Coords {
        &self.coords
    }

    /// The `Illegal` line that forbids flattened `pieces`, if any.
    fn forbidden(&self, pieces: &[u8]) -> Option<&Forbidden> {
        self.illegal.iter().find(|f| pieces[f.at] == f.label)
    }

    /// The same puzzle with positions read and written with pieces numbered from `first`
    /// (0 for a KPuzzle definition, whose pieces count from 0).
    pub fn numbered_from(mut self, first: u32) -> Self {
        self.first = first;
        self.classes = self.build_classes();
        self
    }

    /// The definition read.
    pub fn definition(&self) -> &Definition {
        &self.def
    }

    /// The moves of the metric, powers expanded.
    pub fn moves(&self) -> &[Move] {
        &self.s.moves
    }

    /// Which metric distances count.
    pub fn metric_kind(&self) -> Metric {
        self.metric
    }

    /// How predecessors are generated, for benchmarks: `split`, `big` or `generic`.
    pub fn plan(&self) -> &'static str {
        match self.coords.plan {
            Plan::Split { .. } => "split",
            Plan::Big(_) => "big",
            Plan::Generic => "generic",
        }
    }

    /// The position's rank of a search's rank: its class's representative's, searching by
    /// class.
    fn full(&self, rank: u64) -> u64 {
        self.by_class.as_ref().map_or(rank, |c| c.full(rank))
    }

    /// The search's rank of a position's rank: its class's index, searching by class.
    fn searched(&self, full: u64, x: &mut classes::Scratch) -> u64 {
        self.by_class.as_ref().map_or(full, |c| self.class_index(c, full, x))
    }

    /// This puzzle with its components' rankings changed by `change`: its coordinates laid
    /// out and planned again, the goal ranked again (`None` if they no longer fit).
    fn relaid(mut self, change: impl FnOnce(&mut Structure)) -> Option<Self> {
        let (p, t) = self.state(self.goal);
        change(&mut self.s);
        self.coords = Coords::layout(&self.s).ok()?;
        self.coords.plan(&self.s);
        if !self.illegal.is_empty() {
            self.coords.plan = Plan::Generic;
        }
        self.goal = self.coords.rank(&self.s, &p, &t, &mut Vec::new());
        self.swap = Swap::of(&self.coords.plan);
        Some(self)
    }

    /// The same puzzle searched by positions (the solver's table, the packed states'
    /// ranked form), still counting classes.
    pub fn by_position(mut self) -> Self {
        self.by_class = None;
        self
    }

    /// The flattened pieces and twists of `rank`.
    pub fn state(&self, rank: u64) -> (Vec<u8>, Vec<u8>) {
        let (mut p, mut t) = (Vec::new(), Vec::new());
        self.coords.unrank(&self.s, rank, &mut p, &mut t, &mut Vec::new());
        (p, t)
    }

    /// The rank of flattened pieces and twists, if they are in the goal's class.
    pub fn rank_of(&self, pieces: &[u8], twists: &[u8]) -> Result<u64, ParseError> {
        self.check(pieces, twists)?;
        Ok(self.coords.rank(&self.s, pieces, twists, &mut Vec::new()))
    }

    /// Why flattened pieces and twists are no position of the goal's class (an `Illegal`
    /// line forbids them, or they break an invariant the moves keep), if they are not.
    pub fn check(&self, pieces: &[u8], twists: &[u8]) -> Result<(), ParseError> {
        let refused = |why: String| Err(ParseError::Refused(format!("it is no position of the puzzle: {why}")));
        if let Some(f) = self.forbidden(pieces) {
            return refused(format!(
                "line {} of the definition forbids its piece in slot {} of set {}",
                f.line,
                f.at - self.s.layout.offset[self.s.layout.set_of[f.at]] + 1,
                self.s.layout.names[self.s.layout.set_of[f.at]]
            ));
        }
        match self.s.class_of(pieces, twists) {
            Ok(0) => Ok(()),
            Ok(c) => refused(format!(
                "{}, where the goal has {} and every move keeps {} so (accepted: the positions of class {})",
                self.class_parts(c, true).join(", "),
                self.class_parts(c, false).join(", "),
                if self.class_parts(c, true).len() == 1 {
                    "it"
                } else {
                    "them"
                },
                self.class_label(0)
            )),
            Err(why) => refused(why),
        }
    }

    /// The invariants of class `c` that differ from the goal's class, as `CORNERS twist 1`,
    /// `EDGES odd`: those of class `c` (`own`) or the goal's.
    fn class_parts(&self, c: u64, own: bool) -> Vec<String> {
        let (mut parts, mut rest) = (Vec::new(), c);
        for comp in &self.s.components {
            let name = comp.name(&self.def);
            if comp.sum_class() {
                let o = u64::from(comp.orientations);
                if rest % o != 0 {
                    parts.push(format!("{name} twist {}", if own { rest % o } else { 0 }));
                }
                rest /= o;
            }
            if comp.parity_class() {
                if rest % 2 == 1 {
                    parts.push(format!("{name} {}", if own { "odd" } else { "even" }));
                }
                rest /= 2;
            }
        }
        parts
    }

    /// Applies move `m` (of `moves`) to flattened pieces and twists.
    pub fn apply(&self, m: &Move, pieces: &[u8], twists: &[u8], out_pieces: &mut Vec<u8>, out_twists: &mut Vec<u8>) {
        out_pieces.resize(pieces.len(), 0);
        out_twists.resize(twists.len(), 0);
        let layout = &self.s.layout;
        for i in 0..pieces.len() {
            let f = usize::from(m.from[i]);
            out_pieces[i] = pieces[f];
            // Modulo what the piece is told apart by: its set's orientations, or fewer
            // where the definition leaves them open.
            let o = if layout.open {
                layout.piece_mod(i, pieces[f])
            } else {
                layout.modulus[i]
            };
            out_twists[i] = (twists[f] + m.twist[i]) % o;
        }
    }

    /// Flattened pieces and twists written set by set, `/` between sets, a set's twists
    /// after a comma: `2 1 3 4, 0 0 1 2 / 1 2 3`.
    pub fn render_state(&self, pieces: &[u8], twists: &[u8]) -> String {
        text::render_state(&self.def, &self.s.layout, pieces, twists, self.first)
    }

    /// `count` positions drawn uniformly at random among those the moves reach, in the
    /// definition's lines, the same for the same `seed`: the goal moved by random elements
    /// of the moves' group ([`group::random_positions`]), however large the group, with no
    /// table. Refused, with why, where the group's chain is not built (past
    /// [`group::MAX_POINTS`] points) or the file's `Illegal` lines forbid some of what the
    /// group reaches.
    pub fn random_positions(&self, count: usize, seed: u64) -> Result<Vec<String>, String> {
        use rand_core::{RngCore, SeedableRng};
        if !self.def.illegal.is_empty() {
            return Err("its Illegal lines forbid some positions the moves' group reaches, so no position can be drawn from the group".into());
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        // Multiply-shift: an index below `n` with a bias under n / 2^64.
        let pick = |n: usize| ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize;
        let drawn = group::random_positions(&self.s.generators(), count, pick).ok_or_else(|| {
            format!(
                "its {} points are more than the {} its group's chain is built for",
                group::points(&self.s.generators()),
                group::MAX_POINTS
            )
        })?;
        Ok(drawn.iter().map(|(p, t)| self.render_state(p, t)).collect())
    }

    /// Reads a position in the definition's own lines or as moves from the goal; the
    /// orientations the definition leaves open are forgotten.
    pub fn parse_state(&self, text: &str) -> Result<(Vec<u8>, Vec<u8>), ParseError> {
        let (pieces, mut twists) = self.parse_unreduced(text)?;
        self.s.layout.reduce(&pieces, &mut twists);
        Ok((pieces, twists))
    }

    fn parse_unreduced(&self, text: &str) -> Result<(Vec<u8>, Vec<u8>), ParseError> {
        let first = text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
            .find(|t| !t.is_empty());
        let Some(first) = first else {
            return Err(ParseError::Malformed("an empty state".into()));
        };
        let is_set = self.def.sets.iter().any(|s| s.name == first);
        let names: Vec<&str> = self.named().map(|m| m.name.as_str()).collect();
        let is_move = sequence::parse(first, &names).is_ok();
        if !is_move && (first.bytes().next().is_some_and(|b| b.is_ascii_digit()) || is_set) {
            self.parse_lines(text)
        } else if !is_move && text.split_whitespace().any(is_number) {
            // A word, then numbers: a position whose first set is misspelt (a sequence has
            // no bare numbers), as in a scramble file's `Scramble` block.
            Err(self.unknown_set(first))
        } else {
            self.parse_moves(text)
        }
    }

    /// Why `word` starting a group of numbers is refused: it names no set (nor move).
    fn unknown_set(&self, word: &str) -> ParseError {
        ParseError::Malformed(format!(
            "{} is not a set of the puzzle, nor a move (the sets are {})",
            super::quote(word),
            join(self.def.sets.iter().map(|s| s.name.clone()))
        ))
    }

    /// What a position given as moves may name: the moves, the `MoveAlias` names and the
    /// rotations not searched (a scramble may turn the whole puzzle).
    fn named(&self) -> impl Iterator<Item = &parse::MoveDef> {
        let left_out = self.def.rotations_left_out();
        let rotations = self
            .def
            .rotations
            .iter()
            .filter(move |r| left_out.contains(&r.name.as_str()));
        self.def.moves.iter().chain(&self.def.aliases).chain(rotations)
    }

    /// A move sequence ([`sequence`]) applied to the definition's solved state.
    fn parse_moves(&self, text: &str) -> Result<(Vec<u8>, Vec<u8>), ParseError> {
        let names: Vec<&str> = self.named().map(|m| m.name.as_str()).collect();
        let seq = sequence::parse(text, &names).map_err(|e| ParseError::Malformed(e.0))?;
        let moves: Vec<Transform> = self.named().map(Transform::of).collect();
        let sets = &self.def.sets;
        let state = sequence::evaluate(&seq, &moves, sets).apply(&self.def.solved, sets);
        Ok(self.s.layout.flatten(&state))
    }

    /// A state written as numbers: each set's pieces, then its twists, the sets named or in
    /// order with `/` between them.
    fn parse_lines(&self, text: &str) -> Result<(Vec<u8>, Vec<u8>), ParseError> {
        let (mut pieces, mut twists) = (self.s.solved_pieces.clone(), self.s.solved_twists.clone());
        // Groups: by set names where given, else by `/` (or lines) in set order.
        let tokens: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .flat_map(|t| split_slash(t))
            .filter(|t| !t.is_empty())
            .collect();
        let named = tokens.iter().any(|t| self.def.sets.iter().any(|s| s.name == *t));
        let groups = match named {
            true => self.named_groups(tokens)?,
            false => self.ordered_groups(tokens)?,
        };
        for (s, numbers) in groups {
            self.read_set(s, &numbers, &mut pieces, &mut twists)?;
        }
        Ok((pieces, twists))
    }

    /// The numbers of each set, `tokens` holding each set's name before its numbers.
    fn named_groups<'t>(&self, tokens: Vec<&'t str>) -> Result<Vec<(usize, Vec<&'t str>)>, ParseError> {
        let bad = |m: String| Err(ParseError::Malformed(m));
        let mut groups: Vec<(usize, Vec<&str>)> = Vec::new();
        for t in tokens {
            if let Some(s) = self.def.sets.iter().position(|s| s.name == t) {
                if groups.iter().any(|g| g.0 == s) {
                    return bad(format!("set {t} given twice"));
                }
                groups.push((s, Vec::new()));
            } else if t == "/" {
                continue;
            } else if t.starts_with(|c: char| c.is_ascii_alphabetic()) {
                return Err(self.unknown_set(t));
            } else if let Some(g) = groups.last_mut() {
                g.1.push(t);
            } else {
                return bad("numbers before the first set name".into());
            }
        }
        Ok(groups)
    }

    /// The numbers of each set, `tokens` giving every set in order with `/` between them.
    fn ordered_groups<'t>(&self, tokens: Vec<&'t str>) -> Result<Vec<(usize, Vec<&'t str>)>, ParseError> {
        let mut groups: Vec<(usize, Vec<&str>)> = Vec::new();
        let mut current = vec![];
        for t in tokens {
            if t == "/" {
                groups.push((groups.len(), std::mem::take(&mut current)));
            } else {
                current.push(t);
            }
        }
        groups.push((groups.len(), current));
        if groups.len() != self.def.sets.len() {
            return Err(ParseError::Malformed(format!(
                "{} sets given, the puzzle has {} ({}), written with `/` between them; a set's pieces and its twists are one group, the twists after a comma: `2 1 3 4, 0 0 1 2 / 1 2 3`",
                groups.len(),
                self.def.sets.len(),
                join(self.def.sets.iter().map(|s| s.name.clone()))
            )));
        }
        Ok(groups)
    }

    /// Puts set `s`'s `numbers` (its pieces, then its twists if given) into `pieces` and
    /// `twists`, checked: in range, and the solved state's pieces.
    fn read_set(&self, s: usize, numbers: &[&str], pieces: &mut [u8], twists: &mut [u8]) -> Result<(), ParseError> {
        let bad = |m: String| Err(ParseError::Malformed(m));
        let set = &self.def.sets[s];
        let n = set.size;
        let wanted = if set.orientations > 1 {
            format!("{n} or {}", 2 * n)
        } else {
            n.to_string()
        };
        if numbers.len() != n && !(set.orientations > 1 && numbers.len() == 2 * n) {
            return bad(format!(
                "set {} takes {wanted} numbers (pieces, then twists), got {}",
                set.name,
                numbers.len()
            ));
        }
        let off = self.s.layout.offset[s];
        for (i, t) in numbers.iter().enumerate() {
            // `?`: the orientation of a piece whose orientation the definition leaves open.
            if *t == "?" && i >= n && self.s.layout.piece_mod(off + i - n, pieces[off + i - n]) == 1 {
                twists[off + i - n] = 0;
                continue;
            }
            let Ok(v) = t.parse::<u32>() else {
                return bad(format!("{} is not a number", super::quote(t)));
            };
            if i < n {
                let Some(p) = v.checked_sub(self.first).filter(|&p| p < 256) else {
                    return bad(format!("piece {v} out of range in set {}", set.name));
                };
                pieces[off + i] = p as u8;
            } else {
                if v >= u32::from(set.orientations) {
                    return bad(format!(
                        "twist {v} out of range in set {} (0 to {})",
                        set.name,
                        set.orientations - 1
                    ));
                }
                twists[off + i - n] = v as u8;
            }
        }
        if numbers.len() == n {
            twists[off..off + n].fill(0);
        }
        let mut want: Vec<u8> = self.s.solved_pieces[off..off + n].to_vec();
        let mut got: Vec<u8> = pieces[off..off + n].to_vec();
        want.sort_unstable();
        got.sort_unstable();
        if want != got {
            return bad(format!("set {}'s pieces are not those of the solved state", set.name));
        }
        Ok(())
    }

    /// Label of invariant class `c` (0: the goal's).
    fn class_label(&self, c: u64) -> String {
        let mut parts = Vec::new();
        let mut rest = c;
        for comp in &self.s.components {
            if comp.sum_class() {
                let o = u64::from(comp.orientations);
                parts.push(format!("{} twist {}", comp.name(&self.def), rest % o));
                rest /= o;
            }
            if comp.parity_class() {
                let what = if rest % 2 == 0 { "even" } else { "odd" };
                parts.push(format!("{} {what}", comp.name(&self.def)));
                rest /= 2;
            }
        }
        if parts.is_empty() {
            "all".into()
        } else {
            parts.join(", ")
        }
    }

    /// A position of invariant class `c`: the goal with twists added and pieces swapped.
    fn class_example(&self, c: u64) -> String {
        let (mut p, mut t) = (self.s.solved_pieces.clone(), self.s.solved_twists.clone());
        let mut rest = c;
        for comp in &self.s.components {
            if comp.sum_class() {
                let o = u64::from(comp.orientations);
                let first = comp.positions[0];
                t[first] = ((u64::from(t[first]) + rest % o) % o) as u8;
                rest /= o;
            }
            if comp.parity_class() {
                if rest % 2 == 1 {
                    p.swap(comp.positions[0], comp.positions[1]);
                }
                rest /= 2;
            }
        }
        self.render_state(&p, &t)
    }

    /// A position outside every class, if there are such.
    fn misplaced_example(&self) -> String {
        let (p, t) = (&self.s.solved_pieces, &self.s.solved_twists);
        let n = p.len();
        for &i in &self.s.still {
            let m = self.s.layout.piece_mod(i, p[i]);
            if m > 1 {
                let mut t2 = t.clone();
                t2[i] = (t2[i] + 1) % m;
                return self.render_state(p, &t2);
            }
        }
        for comp in &self.s.components {
            if comp.carried.is_some() {
                let mut t2 = t.clone();
                let first = comp.positions[0];
                t2[first] = (t2[first] + 1) % comp.orientations;
                return self.render_state(p, &t2);
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                if self.s.layout.set_of[i] == self.s.layout.set_of[j] && p[i] != p[j] {
                    let mut p2 = p.clone();
                    p2.swap(i, j);
                    if self.s.class_of(&p2, t).is_err() {
                        return self.render_state(&p2, t);
                    }
                }
            }
        }
        "-".into()
    }

    /// The assemblies the invariants sort into classes: the rank space once per class.
    fn structured(&self) -> u128 {
        u128::from(self.coords.states) * u128::from(self.s.invariant_classes())
    }

    /// All assemblies, if they fit in 64 bits: then they are the configurations, and
    /// those outside every class one more class, `misplaced`. Past 64 bits (the whole
    /// 3x3x3 cube's pieces), the configurations are the classes' and the rest is only
    /// named in [`Invariant::invariant`]'s sentence, so the reports keep 64-bit counts.
    fn assemblies_u64(&self) -> Option<u64> {
        self.assemblies.and_then(|a| u64::try_from(a).ok())
    }

    /// The ranks of the goal's class no `Illegal` line forbids: a pass over them all, as
    /// the forbidden ones follow no formula.
    fn legal_ranks(&self) -> u64 {
        if self.illegal.is_empty() {
            return self.coords.states;
        }
        use rayon::prelude::*;
        const CHUNK: u64 = 1 << 16;
        let states = self.coords.states;
        (0..states.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (mut p, mut t, mut buf) = (Vec::new(), Vec::new(), Vec::new());
                let ranks = c * CHUNK..states.min((c + 1) * CHUNK);
                ranks
                    .filter(|&rank| {
                        self.coords.unrank(&self.s, rank, &mut p, &mut t, &mut buf);
                        self.forbidden(&p).is_none()
                    })
                    .count() as u64
            })
            .sum()
    }

    /// The smallest rank an `Illegal` line forbids, written out.
    fn illegal_example(&self) -> String {
        let (mut p, mut t, mut buf) = (Vec::new(), Vec::new(), Vec::new());
        for rank in 0..self.coords.states {
            self.coords.unrank(&self.s, rank, &mut p, &mut t, &mut buf);
            if self.forbidden(&p).is_some() {
                return self.render_state(&p, &t);
            }
        }
        "-".into()
    }

    fn build_classes(&self) -> Vec<ClassInfo> {
        let r = self.coords.states;
        let k = self.s.invariant_classes();
        let legal = self.legal_ranks();
        let mut classes = vec![ClassInfo {
            label: self.class_label(0),
            configurations: legal,
            solvable: true,
            example: self.render_state(&self.s.solved_pieces, &self.s.solved_twists),
        }];
        if legal < r {
            classes.push(ClassInfo {
                label: format!("{}, illegal", self.class_label(0)),
                configurations: r - legal,
                solvable: false,
                example: self.illegal_example(),
            });
        }
        if k <= MAX_CLASSES {
            classes.extend((1..k).map(|c| ClassInfo {
                label: self.class_label(c),
                configurations: r,
                solvable: false,
                example: self.class_example(c),
            }));
        } else {
            classes.push(ClassInfo {
                label: "other twists and parities".into(),
                configurations: r.saturating_mul(k - 1),
                solvable: false,
                example: self.class_example(1),
            });
        }
        let structured = self.structured();
        if let Some(all) = self.assemblies_u64()
            && u128::from(all) > structured
        {
            classes.push(ClassInfo {
                label: "misplaced".into(),
                configurations: all - structured as u64,
                solvable: false,
                example: self.misplaced_example(),
            });
        }
        classes
    }

    /// The classes' assemblies as a product, component by component: `6! x 3^6 x 7!` (an
    /// arrangement count the moves make where they make few: `120 x 3^6 x 7!`).
    fn structured_formula(&self) -> String {
        let mut parts = Vec::new();
        for c in &self.s.components {
            if let Some(joint) = &c.joint {
                parts.push(joint.len().to_string());
                continue;
            }
            if let Some(reached) = &c.reached {
                parts.push(reached.len().to_string());
            } else if c.ranks_pieces() {
                let mut f = format!("{}!", c.len());
                let repeats: Vec<String> = c.counts.iter().filter(|&&n| n > 1).map(|n| format!("{n}!")).collect();
                if !repeats.is_empty() {
                    f = format!("{f}/({})", repeats.join(" x "));
                }
                parts.push(f);
            }
            if let Some(moduli) = c.moduli.as_ref().filter(|_| c.ranks_twists()) {
                let mut powers: Vec<(u8, usize)> = Vec::new();
                for (&m, &n) in moduli.iter().zip(&c.counts).filter(|(m, _)| **m > 1) {
                    match powers.iter_mut().find(|(base, _)| *base == m) {
                        Some((_, exponent)) => *exponent += n,
                        None => powers.push((m, n)),
                    }
                }
                parts.extend(powers.iter().map(|(m, e)| format!("{m}^{e}")));
            } else if c.ranks_twists() || c.fixed_sum {
                parts.push(format!("{}^{}", c.orientations, c.len()));
            }
        }
        if parts.is_empty() {
            "1".into()
        } else {
            parts.join(" x ")
        }
    }

    /// Calls `f` with each predecessor of `rank` (the moves are closed under inverses, so
    /// they are also its successors).
    #[inline(always)]
    fn neighbours(&self, memo: &mut Memo, rank: u64, mut f: impl FnMut(u64)) {
        self.any_neighbour(memo, rank, |n| {
            f(n);
            false
        });
    }

    /// Whether `test` holds for a neighbour of `rank`, generating them only until the first
    /// that passes.
    #[inline(always)]
    fn any_neighbour(&self, memo: &mut Memo, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let Some(ranks) = &self.by_class else {
            return self.any_position_neighbour(memo, rank, test);
        };
        // A rank no class is indexed by (its representative's other coordinates not the
        // least its stabiliser makes of them) is never entered, nor left.
        if !self.enter_class(ranks, rank, &mut memo.class) {
            return false;
        }
        // Unranked and re-ranked whole (the generic plan), a neighbour costs less made
        // straight from the entered position; the tables index it by look-ups instead.
        if matches!(self.coords.plan, Plan::Generic)
            && ranks.conj.is_none()
            && let Some(hit) = self.any_moved_neighbour(ranks, rank, &mut memo.class, &mut test)
        {
            return hit;
        }
        let mut found = std::mem::take(&mut memo.found);
        found.clear();
        self.any_position_neighbour(memo, ranks.full(rank), |n| {
            found.push(n);
            false
        });
        // The big plan gives its neighbours out of the moves' order: each is unranked.
        let hit = match self.coords.plan {
            Plan::Big(_) => found.iter().any(|&n| test(self.class_index(ranks, n, &mut memo.class))),
            _ => found
                .iter()
                .enumerate()
                .any(|(m, &n)| test(self.neighbour_index(ranks, m, n, &mut memo.class))),
        };
        memo.found = found;
        hit
    }

    /// [`PermPuzzle::any_neighbour`] of a position's rank.
    #[inline(always)]
    fn any_position_neighbour(&self, memo: &mut Memo, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let moves = self.s.moves.len();
        match &self.coords.plan {
            Plan::Split { low_coords, low, table } => {
                if !(memo.first <= rank && rank < memo.end) {
                    self.enter_split(memo, rank, *low_coords, *low);
                }
                let row = &table[(rank - memo.first) as usize * moves..][..moves];
                memo.parts.iter().zip(row).any(|(&part, &r)| test(part + u64::from(r)))
            }
            Plan::Big(big) => {
                if !(memo.first <= rank && rank < memo.end) {
                    self.enter_big(memo, rank, big);
                }
                let lo = rank - memo.first;
                let row = &big.table[lo as usize * moves..][..moves];
                if big.within.iter().any(|&m| test(memo.first + u64::from(row[m]))) {
                    return true;
                }
                if big.mixed.is_empty() {
                    return false;
                }
                let (pattern, small) = if big.small == 1 {
                    (lo, 0)
                } else {
                    (lo / big.small, lo % big.small)
                };
                let pattern = &big.patterns[pattern as usize * big.head..][..big.head];
                let code = &mut memo.code;
                for (c, &p) in code.iter_mut().zip(pattern) {
                    *c = memo.rest[usize::from(p)];
                }
                let small_row = &big.small_table[small as usize * moves..][..moves];
                let found = big.mixed.iter().any(|mixed| {
                    // The digits from `reach` on stay; those below are re-ranked.
                    let mut seen = 0u32;
                    let mut low = 0;
                    for (i, &from) in mixed.from[..mixed.reach].iter().enumerate() {
                        let c = code[usize::from(from)];
                        low += u64::from((seen & ((1u32 << c) - 1)).count_ones()) * rank::FACT[i];
                        seen |= 1 << c;
                    }
                    let big_rank = memo.above[mixed.reach] + low;
                    test(big_rank * big.small + u64::from(small_row[mixed.m]))
                });
                // A binned puzzle's plan has the swap out of its mixed moves.
                found || (self.binned && self.test_swap(code, test))
            }
            Plan::Generic => {
                let (mut p, mut t) = (std::mem::take(&mut memo.pieces), std::mem::take(&mut memo.twists));
                let (mut p2, mut t2) = (
                    std::mem::take(&mut memo.moved_pieces),
                    std::mem::take(&mut memo.moved_twists),
                );
                self.coords.unrank(&self.s, rank, &mut p, &mut t, &mut memo.buf);
                // An illegal state has no neighbours: it is never entered, nor left.
                let found = self.forbidden(&p).is_none()
                    && self.s.moves.iter().any(|m| {
                        self.apply(m, &p, &t, &mut p2, &mut t2);
                        self.forbidden(&p2).is_none() && test(self.coords.rank(&self.s, &p2, &t2, &mut memo.buf))
                    });
                (memo.pieces, memo.twists, memo.moved_pieces, memo.moved_twists) = (p, t, p2, t2);
                found
            }
        }
    }

    /// Tests the swap's image of `code` (a binned puzzle's): out of line, so that the loop
    /// of the search in memory, which never takes it, stays as it was.
    #[cold]
    #[inline(never)]
    fn test_swap(&self, code: &[u8], mut test: impl FnMut(u64) -> bool) -> bool {
        self.swap.as_ref().is_some_and(|swap| test(swap.encode(code)))
    }

    /// Computes the high part's moves for the run of ranks holding `rank`.
    #[inline(never)]
    fn enter_split(&self, memo: &mut Memo, rank: u64, low_coords: usize, low: u64) {
        let moves = self.s.moves.len();
        let hi = rank / low;
        memo.first = hi * low;
        memo.end = memo.first + low;
        memo.parts.clear();
        memo.parts.resize(moves, 0);
        for c in &self.coords.list[low_coords..] {
            let v = (rank / c.stride % c.size) as usize;
            let wanted = if c.cross {
                self.coords.wanted(&self.s, rank, c.comp)
            } else {
                0
            };
            c.add_moved(&self.s, v, wanted, &mut memo.parts);
        }
    }

    /// Decodes the big permutation's positions from `head` on for the run holding `rank`.
    #[inline(never)]
    fn enter_big(&self, memo: &mut Memo, rank: u64, big: &coords::Big) {
        let hi = rank / big.low;
        memo.first = hi * big.low;
        memo.end = memo.first + big.low;
        let k = big.k;
        memo.code.resize(k, 0);
        let mut digits = [0u8; rank::MAX_DISTINCT];
        let mut h = hi;
        for (i, d) in digits.iter_mut().enumerate().take(k).skip(big.head) {
            *d = (h % (i as u64 + 1)) as u8;
            h /= i as u64 + 1;
        }
        memo.above[k] = 0;
        for i in (big.head..k).rev() {
            memo.above[i] = memo.above[i + 1] + u64::from(digits[i]) * rank::FACT[i];
        }
        let mut free: u64 = (1u64 << k) - 1;
        for i in (big.head..k).rev() {
            let mut bits = free;
            for _ in 0..digits[i] {
                bits &= bits - 1;
            }
            let c = bits.trailing_zeros() as u8;
            memo.code[i] = c;
            free &= !(1u64 << c);
        }
        memo.rest.clear();
        while free != 0 {
            memo.rest.push(free.trailing_zeros() as u8);
            free &= free - 1;
        }
    }
}

/// Whether a word of a position is a number (a piece or a twist).
fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

fn split_slash(t: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(i) = rest.find('/') {
        out.push(&rest[..i]);
        out.push("/");
        rest = &rest[i + 1..];
    }
    out.push(rest);
    out
}

impl Notation for PermPuzzle {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn title(&self) -> String {
        text::title(&self.id, self.metric, &self.def)
    }

    fn rules(&self) -> String {
        text::rules(&self.def, self.metric, self.s.moves.len())
    }

    fn shape(&self) -> (usize, usize) {
        text::shape(&self.def)
    }

    fn on_board(&self) -> bool {
        false
    }

    fn metric(&self) -> String {
        self.metric.unit().into()
    }

    fn render(&self, rank: u64) -> String {
        let (p, t) = self.state(self.full(rank));
        self.render_state(&p, &t)
    }

    /// Searching by class, the `index`-th position of the class ([`PermPuzzle::member`]).
    fn render_member(&self, rank: u64, index: u64) -> String {
        let full = match &self.by_class {
            Some(ranks) => classes::with_scratch(|x| self.member(ranks, rank, index, x)),
            None => rank,
        };
        let (p, t) = self.state(full);
        self.render_state(&p, &t)
    }

    fn draw(&self, rank: u64) -> String {
        let (p, t) = self.state(self.full(rank));
        text::draw_state(&self.def, &self.s.layout, &p, &t, self.first)
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        let (p, t) = self.parse_state(text)?;
        let full = self.rank_of(&p, &t)?;
        Ok(self.searched(full, &mut classes::Scratch::default()))
    }

    /// Any position of the goal's class, written as [`Notation::parse`] reads it. Its
    /// symmetries are found anew ([`Invariant::with_symmetry`]): those of another goal are
    /// those that fix it.
    fn with_goal(mut self, goal: &str) -> Result<Self, ParseError> {
        let (p, t) = self.parse_state(goal)?;
        self.goal = self.rank_of(&p, &t)?;
        self.symmetry = Arc::default();
        self.by_class = None;
        self.least_by_rank = false;
        let (p, t) = self.state(self.goal);
        self.id.push_str(&crate::util::goal_suffix(&self.render_state(&p, &t)));
        Ok(self)
    }

    /// The move from `from`'s position (a class's representative, searching by class) to
    /// a position of rank `to`.
    fn describe_move(&self, from: u64, to: u64) -> String {
        let (p, t) = self.state(self.full(from));
        let (mut p2, mut t2) = (Vec::new(), Vec::new());
        let mut x = classes::Scratch::default();
        for m in &self.s.moves {
            self.apply(m, &p, &t, &mut p2, &mut t2);
            if self.searched(self.coords.rank(&self.s, &p2, &t2, &mut Vec::new()), &mut x) == to {
                return m.name.clone();
            }
        }
        "?".into()
    }
}

impl SearchGraph for PermPuzzle {
    fn class_count(&self) -> usize {
        self.classes.len()
    }

    fn states(&self) -> u64 {
        self.by_class.as_ref().map_or(self.coords.states, |c| c.states)
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.searched(self.goal, &mut classes::Scratch::default())]
    }

    type Memo = Memo;

    fn for_each_predecessor(&self, memo: &mut Memo, rank: u64, f: impl FnMut(u64)) {
        self.neighbours(memo, rank, f);
    }

    fn uniform(&self) -> bool {
        self.by_class.is_none()
    }

    fn multiplicity(&self, rank: u64) -> u64 {
        match &self.by_class {
            Some(ranks) => classes::with_scratch(|x| self.class_size(ranks, rank, x)),
            None => 1,
        }
    }

    /// Every power of a move is a move (`--metric face`), or a move and its inverse
    /// (`--metric quarter`).
    fn counts_classes(&self) -> bool {
        self.symmetry.group.is_some()
    }

    /// Searching by class, each rank is a class of the symmetries, which the inverse may
    /// pair with another.
    fn classes_at(&self, rank: u64) -> u64 {
        match (&self.by_class, self.least_by_rank) {
            (Some(ranks), _) => classes::with_scratch(|x| self.classes_at_index(ranks, rank, x)),
            (None, true) => u64::from(self.least_of_class(rank)),
            (None, false) => u64::from(self.least(rank)),
        }
    }

    fn symmetric(&self) -> bool {
        true
    }

    fn any_predecessor(&self, memo: &mut Memo, rank: u64, test: impl FnMut(u64) -> bool) -> bool {
        self.any_neighbour(memo, rank, test)
    }

    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        self.neighbours(&mut Memo::default(), rank, f);
    }

    fn bins(&self) -> Option<Bins> {
        self.swap.as_ref().filter(|_| self.by_class.is_none())?.bins()
    }

    fn binned(&self) -> Option<Self> {
        let swap = self.swap.as_ref().filter(|_| self.by_class.is_none())?;
        let mut binned = self.clone();
        if let Plan::Big(big) = &mut binned.coords.plan {
            big.mixed.retain(|x| x.m != swap.m);
        }
        binned.binned = true;
        Some(binned)
    }

    fn binned_image(&self, memo: &mut Memo, rank: u64) -> Option<u64> {
        let (Plan::Big(big), Some(swap)) = (&self.coords.plan, self.swap.as_ref().filter(|_| self.binned)) else {
            return None;
        };
        if !(memo.first <= rank && rank < memo.end) {
            self.enter_big(memo, rank, big);
        }
        // No other coordinate: the low part is the head's pattern.
        let pattern = &big.patterns[(rank - memo.first) as usize * big.head..][..big.head];
        for (c, &p) in memo.code.iter_mut().zip(pattern) {
            *c = memo.rest[usize::from(p)];
        }
        Some(swap.encode(&memo.code))
    }

    fn unbin(&self, bin: u64, indices: impl Iterator<Item = u64>, f: impl FnMut(u64)) -> u64 {
        match &self.swap {
            Some(swap) => swap.unbin(bin, indices, f),
            None => indices.count() as u64,
        }
    }
}

impl PermPuzzle {
    /// Whether `rank` is the least of its images under the symmetries counted (as
    /// flattened pieces, then twists): the one rank its class is counted at, unless the
    /// puzzle ranks classes ([`PermPuzzle::least_of_class`]). Most images differ from the
    /// position at their first piece, so this is the cheaper test.
    fn least(&self, rank: u64) -> bool {
        thread_local! {
            static SCRATCH: std::cell::RefCell<[Vec<u8>; 5]> = Default::default();
        }
        SCRATCH.with_borrow_mut(|[p, t, buf, ip, it]| {
            self.coords.unrank(&self.s, rank, p, t, buf);
            let n = p.len();
            for v in [&mut *ip, &mut *it] {
                v.resize(n, 0);
            }
            let c = &self.symmetry;
            if c.inverse {
                symmetry::invert(&self.s, p, t, ip, it);
                if (&ip[..], &it[..]) < (&p[..], &t[..]) {
                    return false;
                }
            }
            let sources: &[(&[u8], &[u8])] = if c.inverse { &[(p, t), (ip, it)] } else { &[(p, t)] };
            c.syms
                .iter()
                .all(|s| sources.iter().all(|&source| s.compare(&self.s, source, p, t).is_ge()))
        })
    }

    /// The symmetries of `choice` among those found, checked on positions a few random
    /// moves from the goal: each maps the neighbours of a position onto the neighbours of
    /// its image (so distances are kept).
    fn choose_symmetry(&self, choice: SymmetryChoice) -> Result<Counted, String> {
        let mut group = symmetry::find(&self.def, &self.s);
        // Another goal (`--goal`) keeps only the symmetries that fix it, and the inverse
        // only if it is the definition's own (the identity).
        let (goal_pieces, goal_twists) = self.state(self.goal);
        group
            .syms
            .retain(|s| s.image(&self.s, &goal_pieces, &goal_twists) == (goal_pieces.clone(), goal_twists.clone()));
        group.inverse &= (goal_pieces == self.s.solved_pieces) && (goal_twists == self.s.solved_twists);
        let (rotations, all) = (group.syms.iter().filter(|s| s.rotation).count(), group.syms.len());
        let found = symmetry_text(rotations, all - rotations, group.inverse);
        let mut syms: Vec<symmetry::Action> = match choice.group {
            Some(Geometric::None) => Vec::new(),
            Some(Geometric::Rotations) => group.syms.into_iter().filter(|s| s.rotation).skip(1).collect(),
            _ => group.syms.into_iter().skip(1).collect(),
        };
        let inverse = match choice.inverse {
            Some(true) if !group.inverse => return Err(choice.missing(&found)),
            Some(asked) => asked,
            None => group.inverse,
        };
        if !self.keeps_neighbours(&syms) {
            syms.clear();
        }
        if choice.asks_for_more() && syms.is_empty() && !inverse {
            return Err(choice.missing(&found));
        }
        let rotations = syms.iter().filter(|s| s.rotation).count() + 1;
        let order = (syms.len() as u64 + 1) << u64::from(inverse);
        let made_of = symmetry_text(rotations, syms.len() + 1 - rotations, inverse);
        Ok(Counted {
            group: (order > 1).then_some(Symmetry { order, made_of }),
            syms,
            inverse,
        })
    }

    /// Whether every symmetry of `syms` maps each position's neighbours onto its image's,
    /// on positions up to 40 moves from the goal.
    fn keeps_neighbours(&self, syms: &[symmetry::Action]) -> bool {
        let (mut p, mut t) = (self.s.solved_pieces.clone(), self.s.solved_twists.clone());
        let (mut q, mut u) = (Vec::new(), Vec::new());
        let neighbours = |p: &[u8], t: &[u8]| {
            let mut all: Vec<(Vec<u8>, Vec<u8>)> = self
                .s
                .moves
                .iter()
                .map(|m| {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    self.apply(m, p, t, &mut a, &mut b);
                    (a, b)
                })
                .collect();
            all.sort_unstable();
            all
        };
        let image = |s: &symmetry::Action, p: &[u8], t: &[u8]| {
            let (mut a, mut b) = (vec![0; p.len()], vec![0; t.len()]);
            s.apply(&self.s, p, t, &mut a, &mut b);
            (a, b)
        };
        for step in 0..40usize {
            for s in syms {
                let (a, b) = image(s, &p, &t);
                let mut mapped: Vec<_> = neighbours(&p, &t).iter().map(|(x, y)| image(s, x, y)).collect();
                mapped.sort_unstable();
                if mapped != neighbours(&a, &b) {
                    return false;
                }
            }
            let m = &self.s.moves[(step * 7 + step / 3) % self.s.moves.len()];
            self.apply(m, &p, &t, &mut q, &mut u);
            std::mem::swap(&mut p, &mut q);
            std::mem::swap(&mut t, &mut u);
        }
        true
    }
}

/// A definition's group as reports name it.
fn symmetry_text(rotations: usize, mirrors: usize, inverse: bool) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let geometric = match (rotations, mirrors) {
        (1, 0) if inverse => return "the identity and the inverse of a state".into(),
        (1, 0) => "the identity".to_string(),
        (r, 0) => format!("{} of the whole puzzle", plural(r, "rotation")),
        (r, m) => format!(
            "{} and {} of the whole puzzle",
            plural(r, "rotation"),
            plural(m, "mirror")
        ),
    };
    match inverse {
        true => format!("{geometric}, each with the inverse of the state"),
        false => geometric,
    }
}

impl Invariant for PermPuzzle {
    fn symmetry(&self) -> Symmetry {
        self.symmetry.group.clone().unwrap_or_else(Symmetry::trivial)
    }

    fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Self, String> {
        self.symmetry = Arc::new(self.choose_symmetry(choice)?);
        self.by_class = self.class_ranks().map(Arc::new);
        if self.by_class.is_none()
            && let Some(blocked) = self.clone().blocked()
        {
            self = blocked;
        }
        self.least_by_rank = self.by_class.is_some();
        Ok(self)
    }

    /// Searched by class, the solver's table is of the same class indices: the group's
    /// order smaller than one of positions, and built as fast as the search. Otherwise
    /// (`--symmetry none`, or no class ranking) it is ranked as with no symmetry: a set
    /// ranked by blocks is ranked whole again.
    fn for_solving(mut self) -> Self {
        if self.by_class.is_some() {
            // The symmetries stay (a class index is found by them); only the count goes.
            self.symmetry = Arc::new(Counted {
                group: None,
                ..(*self.symmetry).clone()
            });
            return self;
        }
        self.symmetry = Arc::default();
        self.least_by_rank = false;
        if self.s.components.iter().any(|c| c.blocks.is_some()) {
            let plain = self
                .clone()
                .relaid(|s| s.components.iter_mut().for_each(|c| c.blocks = None));
            self = plain.unwrap_or(self);
        }
        self.by_position()
    }

    /// The positions of a puzzle searched by class: the same coordinates, so that a
    /// position's rank is the one [`PermPuzzle::class_index`] takes.
    fn positions(&self) -> Option<Self> {
        self.by_class.as_ref().map(|_| self.clone().by_position())
    }

    fn class_rank(&self, position: u64) -> u64 {
        classes::with_scratch(|x| self.searched(position, x))
    }

    /// When the moves generate less than a class, the search reaches fewer positions
    /// than the class holds: the invariant is necessary, not sufficient.
    fn exact(&self) -> bool {
        false
    }

    fn group_order(&self) -> Option<u64> {
        u64::try_from(self.reach.positions()?).ok()
    }

    /// Every assembly of the pieces, in 128 bits (the invariant's sentence says which are
    /// not counted in a class past 64); past 128 bits, the ranked classes' count instead.
    fn configurations(&self) -> (u128, String) {
        match self.assemblies {
            Some(all) => (all, text::assemblies_formula(&self.def)),
            None => (self.structured(), self.structured_formula()),
        }
    }

    fn classes(&self) -> Vec<ClassInfo> {
        self.classes.clone()
    }

    fn invariant(&self) -> String {
        let found = self.found_invariants();
        match self.classes.get(1).filter(|c| c.label.ends_with(", illegal")) {
            None => found,
            Some(illegal) => format!(
                "{found} Of the goal's class, {} configurations are illegal (the definition's `Illegal` lines): the search never enters them, and the class counts the {} others.",
                crate::util::thousands(illegal.configurations),
                crate::util::thousands(self.classes[0].configurations)
            ),
        }
    }
}

impl PermPuzzle {
    /// The sentence of [`Invariant::invariant`] on what the moves keep.
    fn found_invariants(&self) -> String {
        let mut facts = Vec::new();
        if !self.s.still.is_empty() {
            let still = self.s.still.len();
            facts.push(match still {
                1 => "1 slot no move touches keeps its piece".to_string(),
                n => format!("{n} slots no move touches keep their pieces"),
            });
        }
        for comp in &self.s.components {
            let name = comp.name(&self.def);
            if let Some(l) = comp.follows {
                facts.push(format!(
                    "{name} moves in step with {}",
                    self.s.components[l].name(&self.def)
                ));
            }
            if let Some(carried) = &comp.carried {
                facts.push(if carried.shift.iter().all(|&x| x == 0) {
                    format!("no move changes {name}'s orientations")
                } else {
                    format!("{name}'s orientations follow from where each piece stands")
                });
            }
            if comp.fixed_sum {
                facts.push(format!(
                    "every move keeps {name}'s twist sum modulo {}",
                    comp.orientations
                ));
            }
            match &comp.parity {
                structure::Parity::Tied(on) if on.is_empty() && comp.parity_class() => {
                    facts.push(format!("every move permutes {name} evenly"));
                }
                structure::Parity::Tied(on) if comp.parity_class() => {
                    let others: Vec<String> = on.iter().map(|&j| self.s.components[j].name(&self.def)).collect();
                    facts.push(format!("{name}'s permutation parity follows {}'s", others.join(" + ")));
                }
                _ => {}
            }
            if let Some(joint) = &comp.joint {
                facts.push(format!(
                    "the moves make {} states of {name}'s pieces and twists together (the order of the group they generate on its slots' orientations, by Schreier–Sims)",
                    crate::util::thousands(joint.len() as u64),
                ));
            }
            if let Some(reached) = &comp.reached {
                facts.push(format!(
                    "the moves make {} of {name}'s {} arrangements (the order of the group they generate on its slots, by Schreier–Sims)",
                    crate::util::thousands(reached.len() as u64),
                    crate::util::thousands(comp.arrangements)
                ));
            }
        }
        let group = self.reach.sentence().map_or_else(String::new, |s| format!(" {s}"));
        let (r, k) = (self.coords.states, self.s.invariant_classes());
        let assemblies = self
            .assemblies
            .map_or_else(|| "more than 10^38".into(), crate::util::thousands);
        let rest = self.uncounted_rest();
        if facts.is_empty() {
            if rest.is_empty() {
                return format!(
                    "No invariant found: the moves keep no twist sum or parity, so every assembly is one class.{group}"
                );
            }
            return format!(
                "No twist sum or parity found: the {assemblies} assemblies hold one class of {}{rest}.{group}",
                crate::util::thousands(r)
            );
        }
        format!(
            "Found from the moves: {}. So the {assemblies} configurations split into {k} classes of {} configurations each{rest}; the moves may generate less than a class, which the search then shows.{group}",
            facts.join("; "),
            crate::util::thousands(r),
        )
    }

    /// What [`Self::found_invariants`] says of the assemblies outside every class: none, a
    /// misplaced rest, or a rest too large to count.
    fn uncounted_rest(&self) -> String {
        match self.assemblies {
            Some(a) if a <= self.structured() => String::new(),
            Some(_) if self.assemblies_u64().is_some() => " and the misplaced rest".into(),
            Some(a) => format!(
                " and a rest of {} with a piece out of its orbit or a twist no move changes, not counted as a class (past 64 bits)",
                crate::util::thousands(a - self.structured())
            ),
            None => {
                " and a rest with a piece out of its orbit or a twist no move changes, not counted as a class".into()
            }
        }
    }
}
