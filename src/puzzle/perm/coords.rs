//! The rank as a mixed-radix number of coordinates, and the move tables that make a
//! predecessor a few look-ups.
//!
//! Each ranked component contributes a piece coordinate and a twist coordinate; the
//! smallest vary fastest. The fastest coordinates together form the *low* part of a rank,
//! whose moves are one combined table (`low x moves -> low`, at most [`LOW_MAX`] rows, so
//! it stays in cache); the rest, the *high* part, changes once every `low` ranks, and the
//! engine hands ranks in ascending order, so the high part's moves are looked up, or in a
//! long run worked out (a coordinate too big for a table), once a run of ranks
//! ([`Plan::Split`]). A permutation too big for a table (pancakes of 10 and
//! more) is split by its own digits instead: the moves that touch only its first `K`
//! positions change only its rank modulo `K!`, a table; the others are re-ranked from the
//! unranked pieces ([`Plan::Big`]). What fits neither is unranked and re-ranked per rank
//! ([`Plan::Generic`]).

use super::digits::TwistMoves;
use super::parse::MAX_PIECES;
use super::rank::{
    FACT, MAX_DISTINCT, rank_distinct, rank_twists, unrank_distinct, unrank_half, unrank_multiset, unrank_twists,
};
use super::structure::{Component, Parity, Structure};

/// Most rows of the combined table of the low part.
pub const LOW_MAX: u64 = 1 << 15;

/// Most rows of [`Plan::Big`]'s low table. Its rows are read in rank order, a stream, so
/// it may be larger than a cache; a longer head keeps more moves within it, and the
/// moves past it land anywhere in the bit planes. Its entries are below its rows, so in
/// 16 bits: twelve pancakes take 0.9 MB of table at a head of 8, where a head of 9 took
/// 16 MB (beside 114 MiB of planes) and saved one re-ranked flip in eleven. It also
/// stays within a 64th of the bit planes' bytes (but may always have [`LOW_MAX`] rows), so
/// the tables add little to the memory a search takes: eleven pancakes take 0.1 MB of
/// table at a head of 7 beside 10 MB of planes, where a head of 8 took 0.8 MB (as much as
/// everything else beside the planes) for 4% of the time.
pub const BIG_LOW_MAX: u64 = 1 << 16;

/// Largest rank space the tables are built for: 2^40 ranks take 256 GiB of bit planes, so
/// a bigger one is only ever refused or read, and building its tables would waste seconds.
const PLANNED_MAX: u64 = 1 << 40;

/// Fewest ranks in a run of [`Plan::Split`]'s low part for the high part's moves to be
/// worked out once a run (about a hundred operations a move) rather than read from tables.
const RUN_MIN: u64 = 1 << 10;

/// Most entries (rows times moves) of one coordinate's move table: 64 MiB of `u32`.
const TABLE_MAX: u64 = 1 << 24;

/// Which of a component's two coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The arrangement of its pieces.
    Pieces,
    /// The twists of its pieces.
    Twists,
    /// Both, as the index among the states the moves make of them ([`Component::joint`]).
    Joint,
    /// Which block of its pieces stands at each place ([`Component::blocks`]); its
    /// [`Kind::Pieces`] coordinate is then the blocks' orders.
    Pattern,
}

/// One digit of the rank.
#[derive(Debug, Clone)]
pub struct Coord {
    /// The component it describes.
    pub comp: usize,
    /// Pieces or twists.
    pub kind: Kind,
    /// Its values: `0..size`.
    pub size: u64,
    /// Place value in the rank.
    pub stride: u64,
    /// The value after each move, read by [`Coord::add_moved`] (empty: worked out there,
    /// or not needed once the plan's own tables are built).
    pub table: Table,
    /// Its moves by chunks of digits: a twist coordinate too large for a table.
    pub digits: Option<Box<TwistMoves>>,
    /// [`local_moves`] of its component.
    local: Vec<Vec<u8>>,
    /// The piece coordinate of a component whose parity follows other components'
    /// (`<U,R>`'s edges follow the corners): the same value is a different arrangement
    /// for each parity, so its table has two rows a value, `2 v + parity`.
    pub cross: bool,
    /// It is `cross` or a coordinate a `cross` one's parity is read from: ranked above the
    /// others, so that the low part of a rank never changes a parity.
    late: bool,
}

/// A coordinate's move table, `table[v * moves + m]`: the value after move `m`, in 16 bits
/// when the values fit (the 8 corners' 40,320 arrangements with 18 moves: 1.4 MB, not 2.9).
#[derive(Debug, Clone)]
pub enum Table {
    /// Values below 2^16.
    Narrow(Vec<u16>),
    /// Any value.
    Wide(Vec<u32>),
}

impl Table {
    fn is_empty(&self) -> bool {
        match self {
            Table::Narrow(t) => t.is_empty(),
            Table::Wide(t) => t.is_empty(),
        }
    }

    /// Entry `i`.
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Table::Narrow(t) => u32::from(t[i]),
            Table::Wide(t) => t[i],
        }
    }
}

impl Coord {
    /// Its move table (`table[v * moves + m]`), if its values alone decide their moves (it
    /// is not `cross`) and the table is at most [`TABLE_MAX`] entries: a class ranking's
    /// highest coordinate, moved before its symmetry is chosen, whatever the plan.
    pub fn move_table(&self, s: &Structure) -> Option<Table> {
        let small = self.size.saturating_mul(s.moves.len() as u64) <= TABLE_MAX;
        (!self.cross && small && s.components[self.comp].moduli.is_none()).then(|| coord_table(s, self))
    }

    /// Adds to each `parts[m]` the place value of the coordinate's value after move `m`
    /// from value `v` (one entry per move), from its table or, without one, worked out.
    /// (`wanted`: the arrangement's parity, for a `cross` coordinate).
    pub fn add_moved(&self, s: &Structure, v: usize, wanted: u8, parts: &mut [u64]) {
        let moves = parts.len();
        if let Some(digits) = self.table.is_empty().then_some(()).and(self.digits.as_deref()) {
            digits.add_moved(v as u64, self.stride, parts);
        } else if self.table.is_empty() {
            let comp = &s.components[self.comp];
            let (mut cur, mut next) = ([0u8; MAX_PIECES], [0u8; MAX_PIECES]);
            let buf = (&mut cur[..comp.len()], &mut next[..comp.len()]);
            self.each_moved(s, v as u64, wanted, buf, |m, after| parts[m] += after * self.stride);
        } else {
            let row = if self.cross { 2 * v + usize::from(wanted) } else { v };
            for (m, part) in parts.iter_mut().enumerate() {
                *part += u64::from(self.table.get(row * moves + m)) * self.stride;
            }
        }
    }

    /// Table rows: two a value for a `cross` coordinate.
    fn rows(&self) -> u64 {
        if self.cross { 2 * self.size } else { self.size }
    }

    /// Whether its moves can be worked out by chunks of its digits ([`TwistMoves`]): plain
    /// twists, whose radix does not follow the pieces.
    fn by_digits(&self, s: &Structure) -> bool {
        self.kind == Kind::Twists && !self.cross && s.components[self.comp].moduli.is_none()
    }
}

/// How predecessors are generated.
#[derive(Debug, Clone)]
pub enum Plan {
    /// Every coordinate has a table: the first `low_coords` form the low part.
    Split {
        /// How many of the fastest coordinates form the low part.
        low_coords: usize,
        /// Ranks per value of the high part.
        low: u64,
        /// `table[lo * moves + m]`: the low part after move `m` (below [`LOW_MAX`], so in
        /// 16 bits: the hot loop's table, the smaller the better for the cache).
        table: Vec<u16>,
    },
    /// The last coordinate is a permutation too big for a table.
    Big(Box<Big>),
    /// Unrank, move, rank.
    Generic,
}

/// [`Plan::Big`]'s tables.
#[derive(Debug, Clone)]
pub struct Big {
    /// The big permutation's component.
    pub comp: usize,
    /// Its pieces.
    pub k: usize,
    /// How many of its first positions the low part covers.
    pub head: usize,
    /// Ranks of the small coordinates (all but the big one) together.
    pub small: u64,
    /// Ranks per value of the high part: `head! * small`.
    pub low: u64,
    /// `table[lo * moves + m]`: the low part after move `m`, for moves that keep the
    /// big permutation's positions from `head` on.
    pub table: Vec<u16>,
    /// `small_table[s * moves + m]`: the small coordinates after move `m`.
    pub small_table: Vec<u32>,
    /// Moves that touch its positions from `head` on.
    pub mixed: Vec<Mixed>,
    /// Moves that do not.
    pub within: Vec<usize>,
    /// `from[m][j]`: which of its positions move `m` brings to position `j`.
    pub from: Vec<Vec<u8>>,
    /// `patterns[low * head ..][..head]`: the order of the first `head` pieces.
    pub patterns: Vec<u8>,
}

/// A move of [`Plan::Big`] that reaches past the head: it keeps the positions from `reach`
/// on, so the permutation's digits from `reach` on, and only the first `reach` digits are
/// re-ranked.
#[derive(Debug, Clone)]
pub struct Mixed {
    /// The move's index.
    pub m: usize,
    /// One past the last position it changes.
    pub reach: usize,
    /// `from[j]`: which position's piece it brings to position `j < reach`.
    pub from: [u8; MAX_DISTINCT],
}

/// The rank space: coordinates and how moves act on them.
#[derive(Debug, Clone)]
pub struct Coords {
    /// Fastest first.
    pub list: Vec<Coord>,
    /// Ranks in all.
    pub states: u64,
    /// The predecessor generator.
    pub plan: Plan,
}

/// Per component, per move: `local[m][j]`, the index within the component of the position
/// whose piece comes to its position `j`.
fn local_moves(s: &Structure, c: &Component) -> Vec<Vec<u8>> {
    s.moves
        .iter()
        .map(|m| {
            c.positions
                .iter()
                .map(|&p| c.positions.binary_search(&usize::from(m.from[p])).unwrap_or(0) as u8)
                .collect()
        })
        .collect()
}

impl Coords {
    /// Chooses the plan of the laid out coordinates of `s` and builds the tables it needs.
    pub fn plan(&mut self, s: &Structure) {
        self.plan = self.choose_plan(s);
    }

    /// The ranks the coordinates of `s` cover, however many (`None`: past 128 bits): what
    /// [`Coords::layout`] lays out when it fits in 64 bits.
    pub fn space(s: &Structure) -> Option<u128> {
        s.components.iter().try_fold(1u128, |a, c| match &c.joint {
            Some(joint) => a.checked_mul(joint.len() as u128),
            None => a.checked_mul(u128::from(c.piece_size()))?.checked_mul(c.twist_size()?),
        })
    }

    /// Lays out the coordinates of `s` (their sizes and strides: the rank space), without
    /// tables, under [`Plan::Generic`].
    pub fn layout(s: &Structure) -> Result<Self, String> {
        let states = match Self::space(s) {
            Some(n) => u64::try_from(n).map_err(|_| {
                format!(
                    "the rank space of {} configurations does not fit in 64 bits",
                    crate::util::thousands(n)
                )
            })?,
            None => return Err("the rank space of more than 10^38 configurations does not fit in 64 bits".into()),
        };
        let mut list = Vec::new();
        for (i, c) in s.components.iter().enumerate() {
            let local = local_moves(s, c);
            let cross = matches!(&c.parity, Parity::Tied(on) if !on.is_empty());
            let read = s
                .components
                .iter()
                .any(|d| matches!(&d.parity, Parity::Tied(on) if on.contains(&i)));
            // Each size divides `states`, so fits.
            let twists = c.twist_size().map_or(1, |t| t as u64);
            let kinds = match (&c.joint, &c.blocks) {
                (Some(joint), _) => vec![(Kind::Joint, joint.len() as u64)],
                (None, Some(b)) => vec![
                    (Kind::Pattern, b.patterns),
                    (Kind::Pieces, b.orders()),
                    (Kind::Twists, twists),
                ],
                (None, None) => vec![(Kind::Pieces, c.piece_size()), (Kind::Twists, twists)],
            };
            for (kind, size) in kinds {
                if size > 1 {
                    list.push(Coord {
                        comp: i,
                        kind,
                        size,
                        stride: 0,
                        table: Table::Wide(Vec::new()),
                        digits: None,
                        local: local.clone(),
                        cross: cross && kind == Kind::Pieces,
                        late: (cross || read) && kind == Kind::Pieces,
                    });
                }
            }
        }
        // A set ranked by what the moves make of it, or a pattern of blocks, highest: the
        // coordinate a class ranking tabulates, far below the others' sizes (the
        // octahedron's corners, under its edges; the dino's pattern, over its orders).
        list.sort_by_key(|c| (c.late, matches!(c.kind, Kind::Joint | Kind::Pattern), c.size));
        let mut stride: u64 = 1;
        for c in &mut list {
            c.stride = stride;
            stride *= c.size;
        }
        debug_assert_eq!(stride, states);
        Ok(Coords {
            list,
            states,
            plan: Plan::Generic,
        })
    }

    /// The plan of the laid out coordinates, with the tables it needs built.
    fn choose_plan(&mut self, s: &Structure) -> Plan {
        let states = self.states;
        let moves = s.moves.len() as u64;
        let cross = s
            .components
            .iter()
            .any(|c| matches!(&c.parity, Parity::Tied(on) if !on.is_empty()));
        // Twists whose radix follows the pieces (some orientations open, others not) have
        // no table of their own: only the generic plan has the pieces in hand.
        // Blocks' orders move with the pattern: no table of their own.
        if states > PLANNED_MAX || s.components.iter().any(|c| c.moduli.is_some() || c.blocks.is_some()) {
            return Plan::Generic;
        }
        let n = self.list.len();
        // A table no bigger than the bit planes (a u32 entry for every 16 ranks), so that a
        // small space's tables never dominate its memory (nine pancakes: 11 MB of table
        // for 89 KiB of planes); a small one always.
        let most = TABLE_MAX.min((states / 16).max(LOW_MAX * moves));
        let untabled: Vec<usize> = (0..n)
            .filter(|&i| self.list[i].rows().saturating_mul(moves) > most)
            .collect();
        // A coordinate too big for a table is still cheap in the high part of a long run
        // (the 3x3x3's 7 edges told apart, 3,991,680 arrangements: 72M entries, worked
        // out once per 2,048 orientations): unranked and re-ranked per rank, it took
        // 20 times as long.
        // Twists too many for a table (the megaminx's orientations) move by their digits, a
        // few look-ups a move: cheap even when every rank is a run of its own.
        let (low_coords, low) = low_part(&self.list);
        let digits = untabled.iter().all(|&i| self.list[i].by_digits(s));
        let by_runs = (low >= RUN_MIN || digits) && untabled.iter().all(|&i| i >= low_coords);
        match untabled[..] {
            [] => split(s, &mut self.list, moves, most),
            // Parities read from the coordinates: the split plan only.
            _ if cross => {
                if by_runs {
                    split(s, &mut self.list, moves, most)
                } else {
                    Plan::Generic
                }
            }
            [last] if last == n - 1 => {
                let c = &self.list[last];
                let comp = &s.components[c.comp];
                // Its low table's entries are in 16 bits: the other coordinates' ranks at
                // least must fit.
                let small: u64 = self.list[..last].iter().map(|c| c.size).product();
                if c.kind == Kind::Pieces
                    && comp.distinct
                    && comp.parity == Parity::Free
                    && comp.reached.is_none()
                    && small <= BIG_LOW_MAX
                {
                    // The small coordinates' tables are combined into the plan's own.
                    build_tables(s, &mut self.list[..last]);
                    let big = big(s, &self.list);
                    drop_tables(&mut self.list[..last]);
                    Plan::Big(Box::new(big))
                } else if by_runs {
                    split(s, &mut self.list, moves, most)
                } else {
                    Plan::Generic
                }
            }
            _ if by_runs => split(s, &mut self.list, moves, most),
            _ => Plan::Generic,
        }
    }

    /// The parity a `cross` coordinate's arrangement has in `rank`: the goal's, changed by
    /// each component it follows that is not as the goal's (those are `late` and free, so
    /// ranked in full by [`rank_distinct`]).
    pub fn wanted(&self, s: &Structure, rank: u64, comp: usize) -> u8 {
        let c = &s.components[comp];
        let Parity::Tied(on) = &c.parity else { return 0 };
        let mut wanted = super::rank::parity(&c.solved_code);
        for &j in on {
            let other = &s.components[j];
            let v = self
                .list
                .iter()
                .find(|x| x.comp == j && x.kind == Kind::Pieces)
                .map_or(0, |x| rank / x.stride % x.size);
            wanted ^= parity_of_rank(full_rank(other, v), other.len()) ^ super::rank::parity(&other.solved_code);
        }
        wanted
    }

    /// The coordinate's value in a flattened state.
    pub fn value(&self, s: &Structure, c: &Coord, pieces: &[u8], twists: &[u8], buf: &mut Vec<u8>) -> u64 {
        let comp = &s.components[c.comp];
        buf.resize(comp.len(), 0);
        match c.kind {
            Kind::Pieces => {
                comp.codes(pieces, buf);
                match &comp.blocks {
                    Some(b) => b.order_rank(buf),
                    None => comp.piece_rank(buf),
                }
            }
            Kind::Pattern => {
                comp.codes(pieces, buf);
                comp.blocks.as_ref().map_or(0, |b| b.pattern_rank(buf))
            }
            Kind::Twists => {
                if let Some(moduli) = &comp.moduli {
                    return comp.rank_open(moduli, pieces, twists);
                }
                for (b, &p) in buf.iter_mut().zip(&comp.positions) {
                    *b = twists[p];
                }
                rank_twists(buf, comp.orientations, comp.fixed_sum)
            }
            Kind::Joint => {
                comp.codes(pieces, buf);
                let mut local = [0u8; MAX_PIECES];
                for (b, &p) in local.iter_mut().zip(&comp.positions) {
                    *b = twists[p];
                }
                joint_index(comp, buf, &local[..comp.len()])
            }
        }
    }

    /// Rank of a flattened state of the goal's class.
    pub fn rank(&self, s: &Structure, pieces: &[u8], twists: &[u8], buf: &mut Vec<u8>) -> u64 {
        self.list
            .iter()
            .map(|c| self.value(s, c, pieces, twists, buf) * c.stride)
            .sum()
    }

    /// The flattened state of `rank` into `pieces` and `twists`; `buf` is scratch space,
    /// kept by the caller so that a search's every rank does not allocate.
    pub fn unrank(&self, s: &Structure, rank: u64, pieces: &mut Vec<u8>, twists: &mut Vec<u8>, buf: &mut Vec<u8>) {
        pieces.clone_from(&s.solved_pieces);
        twists.clone_from(&s.solved_twists);
        let value = |c: &Coord| rank / c.stride % c.size;
        let piece_coord = |i: usize| self.list.iter().find(|c| c.comp == i && c.kind == Kind::Pieces);
        // Twists, and the permutations whose parity is free (their parities decide the rest).
        for c in &self.list {
            let comp = &s.components[c.comp];
            buf.resize(comp.len(), 0);
            if c.kind == Kind::Twists && comp.moduli.is_some() || c.kind == Kind::Pattern {
                // Read once the pieces are in place, below; a pattern with its orders.
                continue;
            } else if let (Kind::Pieces, Some(b)) = (c.kind, &comp.blocks) {
                let pattern = self.list.iter().find(|p| p.comp == c.comp && p.kind == Kind::Pattern);
                b.unrank(
                    pattern.map_or(0, value),
                    value(c),
                    super::rank::parity(&comp.solved_code),
                    buf,
                );
                write_codes(comp, buf, pieces);
            } else if c.kind == Kind::Joint {
                let mut local = [0u8; MAX_PIECES];
                unrank_joint(comp, value(c), buf, &mut local[..comp.len()]);
                write_codes(comp, buf, pieces);
                for (&b, &p) in local.iter().zip(&comp.positions) {
                    twists[p] = b;
                }
            } else if c.kind == Kind::Twists {
                let fixed = comp.fixed_sum.then_some(comp.solved_sum);
                unrank_twists(value(c), comp.orientations, fixed, buf);
                for (&b, &p) in buf.iter().zip(&comp.positions) {
                    twists[p] = b;
                }
            } else if !comp.parity_class() {
                let v = value(c);
                if comp.distinct {
                    unrank_distinct(full_rank(comp, v), buf);
                } else {
                    unrank_multiset(v, &comp.counts, comp.arrangements, buf);
                }
                write_codes(comp, buf, pieces);
            }
        }
        for (i, comp) in s.components.iter().enumerate() {
            if let Parity::Tied(on) = &comp.parity
                && comp.parity_class()
                && comp.blocks.is_none()
            {
                let mut wanted = super::rank::parity(&comp.solved_code);
                for &j in on {
                    let other = &s.components[j];
                    buf.resize(other.len(), 0);
                    other.codes(pieces, buf);
                    wanted ^= super::rank::parity(buf) ^ super::rank::parity(&other.solved_code);
                }
                buf.resize(comp.len(), 0);
                unrank_half(piece_coord(i).map_or(0, value), wanted, buf);
                write_codes(comp, buf, pieces);
            }
        }
        self.derived(s, rank, pieces, twists);
    }

    /// The rest of [`Coords::unrank`]: the pieces whose arrangement follows another set's,
    /// and the twists read from the pieces in place.
    fn derived(&self, s: &Structure, rank: u64, pieces: &mut [u8], twists: &mut [u8]) {
        let value = |c: &Coord| rank / c.stride % c.size;
        for comp in &s.components {
            if let Some(leader) = comp.follows {
                let lead = &s.components[leader];
                for (j, &p) in comp.positions.iter().enumerate() {
                    let code = lead.code[usize::from(pieces[lead.positions[j]])];
                    let from = lead.solved_code.iter().position(|&x| x == code).unwrap_or(0);
                    pieces[p] = comp.alphabet[usize::from(comp.solved_code[from])];
                }
            }
        }
        // Twists whose radix follows the pieces, and twists no move changes, from the pieces
        // now in place.
        for c in self.list.iter().filter(|c| c.kind == Kind::Twists) {
            let comp = &s.components[c.comp];
            if let Some(moduli) = &comp.moduli {
                comp.unrank_open(moduli, value(c), pieces, twists);
            }
        }
        for comp in &s.components {
            if let Some(carried) = &comp.carried {
                for (j, &p) in comp.positions.iter().enumerate() {
                    twists[p] = carried.twist(comp.code[usize::from(pieces[p])], j, comp.orientations);
                }
            }
        }
    }
}

/// The parity of the permutation of `k` pieces ranked `v` by [`rank_distinct`]: digit `i`
/// counts the earlier pieces that are smaller, so `i - digit` the inversions it ends.
fn parity_of_rank(mut v: u64, k: usize) -> u8 {
    let mut inversions = 0;
    for i in 1..k as u64 {
        inversions += i - v % (i + 1);
        v /= i + 1;
    }
    (inversions & 1) as u8
}

fn write_codes(comp: &Component, codes: &[u8], pieces: &mut [u8]) {
    for (&b, &p) in codes.iter().zip(&comp.positions) {
        pieces[p] = comp.alphabet[usize::from(b)];
    }
}

/// The [`rank_distinct`] rank of the arrangement of a component's piece coordinate `v`
/// (the same but where [`Component::reached`] lists the arrangements).
fn full_rank(comp: &Component, v: u64) -> u64 {
    comp.reached.as_ref().map_or(v, |r| r[v as usize])
}

/// A [`Kind::Joint`] coordinate's value: the index of [`Component::joint_value`] in its list (the
/// moves keep the states among those listed, and [`Structure::class_of`] refuses the
/// others before they are ranked).
fn joint_index(comp: &Component, code: &[u8], twists: &[u8]) -> u64 {
    let joint = comp.joint.as_deref().unwrap_or_default();
    joint
        .binary_search(&comp.joint_value(code, twists))
        .map_or(0, |i| i as u64)
}

/// The pieces (as codes) and twists of a [`Kind::Joint`] coordinate's value `v`.
fn unrank_joint(comp: &Component, v: u64, code: &mut [u8], twists: &mut [u8]) {
    let joint = comp.joint.as_deref().unwrap_or_default();
    let twist_size = comp.twist_size().map_or(1, |t| t as u64);
    let full = joint.get(v as usize).copied().unwrap_or(0);
    let (pieces, turns) = (full / twist_size, full % twist_size);
    match comp.parity {
        // Listed only where the parity is free or the goal's: see [`Component::joint`].
        Parity::Tied(_) if comp.reached.is_none() => unrank_half(pieces, super::rank::parity(&comp.solved_code), code),
        _ => unrank_distinct(full_rank(comp, pieces), code),
    }
    let fixed = comp.fixed_sum.then_some(comp.solved_sum);
    unrank_twists(turns, comp.orientations, fixed, twists);
}

impl Coord {
    /// Calls `f(m, after)` with the value after each move `m` from value `v`; `buf` is two
    /// buffers of its component's length.
    /// A `cross` coordinate's arrangement has parity `wanted`; any other's parity is its own.
    fn each_moved(
        &self,
        s: &Structure,
        v: u64,
        wanted: u8,
        buf: (&mut [u8], &mut [u8]),
        mut f: impl FnMut(usize, u64),
    ) {
        let comp = &s.components[self.comp];
        let (cur, next) = buf;
        let parity = if self.cross {
            wanted
        } else {
            super::rank::parity(&comp.solved_code)
        };
        let fixed = comp.fixed_sum.then_some(comp.solved_sum);
        if self.kind == Kind::Joint {
            let (mut t, mut u) = ([0u8; MAX_PIECES], [0u8; MAX_PIECES]);
            let (t, u) = (&mut t[..comp.len()], &mut u[..comp.len()]);
            unrank_joint(comp, v, cur, t);
            for (m, from) in self.local.iter().enumerate() {
                let mv = &s.moves[m];
                for j in 0..comp.len() {
                    let f = usize::from(from[j]);
                    next[j] = cur[f];
                    u[j] = (t[f] + mv.twist[comp.positions[j]]) % comp.orientations;
                }
                f(m, joint_index(comp, next, u));
            }
            return;
        }
        match self.kind {
            Kind::Pieces if !comp.distinct => unrank_multiset(v, &comp.counts, comp.arrangements, cur),
            Kind::Pieces if comp.reached.is_some() => unrank_distinct(full_rank(comp, v), cur),
            Kind::Pieces if matches!(comp.parity, Parity::Tied(_)) => unrank_half(v, parity, cur),
            Kind::Pieces => unrank_distinct(v, cur),
            Kind::Twists | Kind::Joint => unrank_twists(v, comp.orientations, fixed, cur),
            Kind::Pattern => comp.blocks.as_ref().map_or((), |b| b.unrank_pattern(v, cur)),
        }
        for (m, from) in self.local.iter().enumerate() {
            let mv = &s.moves[m];
            for (j, slot) in next.iter_mut().enumerate() {
                let f = usize::from(from[j]);
                *slot = match self.kind {
                    Kind::Pieces | Kind::Pattern => cur[f],
                    Kind::Twists | Kind::Joint => (cur[f] + mv.twist[comp.positions[j]]) % comp.orientations,
                };
            }
            f(
                m,
                match self.kind {
                    Kind::Pieces => comp.piece_rank(next),
                    Kind::Pattern => comp.blocks.as_ref().map_or(0, |b| b.rank_pattern(next)),
                    Kind::Twists | Kind::Joint => rank_twists(next, comp.orientations, comp.fixed_sum),
                },
            );
        }
    }
}

/// `value x moves -> value` for one coordinate whose parity, if tied, is fixed.
fn coord_table(s: &Structure, c: &Coord) -> Table {
    // Built in its final width: a wide table freed after narrowing would stay resident
    // below the narrow one in the allocator's heap.
    if c.size <= 1 << 16 {
        Table::Narrow(fill_coord_table(s, c, |x| x as u16))
    } else {
        Table::Wide(fill_coord_table(s, c, |x| x as u32))
    }
}

/// [`coord_table`]'s entries, each stored as `entry` makes it.
fn fill_coord_table<T: Copy + Default>(s: &Structure, c: &Coord, entry: impl Fn(u64) -> T) -> Vec<T> {
    let comp = &s.components[c.comp];
    let moves = s.moves.len();
    let mut table = vec![T::default(); c.rows() as usize * moves];
    let (mut cur, mut next) = (vec![0u8; comp.len()], vec![0u8; comp.len()]);
    for (row_index, row) in table.chunks_mut(moves.max(1)).enumerate() {
        let (v, wanted) = if c.cross {
            (row_index as u64 / 2, (row_index % 2) as u8)
        } else {
            (row_index as u64, 0)
        };
        c.each_moved(s, v, wanted, (&mut cur, &mut next), |m, after| row[m] = entry(after));
    }
    table
}

/// The combined table of the coordinates `list[..n]`, whose product is `low`, each entry
/// stored as `entry` makes it.
fn combined<T: Copy + Default>(list: &[Coord], n: usize, low: u64, moves: usize, entry: impl Fn(u32) -> T) -> Vec<T> {
    let mut table = vec![T::default(); low as usize * moves];
    for lo in 0..low {
        let row = &mut table[lo as usize * moves..][..moves];
        for (m, slot) in row.iter_mut().enumerate() {
            let moved = list[..n].iter().map(|c| {
                let v = (lo / c.stride % c.size) as usize;
                c.table.get(v * moves + m) * c.stride as u32
            });
            *slot = entry(moved.sum());
        }
    }
    table
}

/// [`Plan::Split`] of `list`: the fastest coordinates combined into one table; the others'
/// moves worked out once a run of ranks, or, when the runs are short, from tables of their
/// own (of at most `most` entries); twists too many for one move by their digits.
fn split(s: &Structure, list: &mut [Coord], moves: u64, most: u64) -> Plan {
    let (low_coords, low) = low_part(list);
    build_tables(s, &mut list[..low_coords]);
    // Values below `low`, at most `LOW_MAX` = 2^15.
    let table = combined(list, low_coords, low, moves as usize, |x| x as u16);
    drop_tables(&mut list[..low_coords]);
    for c in &mut list[low_coords..] {
        if low < RUN_MIN && c.rows().saturating_mul(moves) <= most {
            c.table = coord_table(s, c);
        } else if c.by_digits(s) {
            c.digits = Some(Box::new(TwistMoves::new(&s.components[c.comp], &s.moves, &c.local)));
        }
    }
    Plan::Split { low_coords, low, table }
}

/// [`Plan::Split`]'s low part of `list`: how many of the fastest coordinates, and their
/// ranks together (at most [`LOW_MAX`], none `late`).
fn low_part(list: &[Coord]) -> (usize, u64) {
    let mut low_coords = 0;
    let mut low = 1u64;
    while low_coords < list.len() && !list[low_coords].late && low * list[low_coords].size <= LOW_MAX {
        low *= list[low_coords].size;
        low_coords += 1;
    }
    (low_coords, low)
}

fn build_tables(s: &Structure, list: &mut [Coord]) {
    for c in list {
        c.table = coord_table(s, c);
    }
}

fn drop_tables(list: &mut [Coord]) {
    for c in list {
        c.table = Table::Wide(Vec::new());
    }
}

fn big(s: &Structure, list: &[Coord]) -> Big {
    let moves = s.moves.len();
    let n = list.len() - 1;
    let last = &list[n];
    let comp = &s.components[last.comp];
    let k = comp.len();
    let small: u64 = list[..n].iter().map(|c| c.size).product();
    let small_table = combined(list, n, small, moves, |x| x);
    // A 64th of the planes' bytes (states / 4), in table rows of `moves` 2-byte entries.
    let rows = (last.size * small / 256 / (2 * moves as u64).max(1)).clamp(LOW_MAX, BIG_LOW_MAX);
    let mut head = 1;
    while head < k && FACT[head + 1] * small <= rows {
        head += 1;
    }
    let from = local_moves(s, comp);
    let (mut within, mut mixed) = (Vec::new(), Vec::new());
    for (m, f) in from.iter().enumerate() {
        if f.iter().enumerate().skip(head).all(|(j, &x)| usize::from(x) == j) {
            within.push(m);
        } else {
            let reach = 1 + (0..k).rev().find(|&j| usize::from(f[j]) != j).unwrap_or(0);
            let mut from = [0u8; MAX_DISTINCT];
            from[..k].copy_from_slice(f);
            mixed.push(Mixed { m, reach, from });
        }
    }
    let patterns_n = FACT[head] as usize;
    let mut patterns = vec![0u8; patterns_n * head];
    for (p, out) in patterns.chunks_mut(head.max(1)).enumerate().take(patterns_n) {
        unrank_distinct(p as u64, &mut out[..head]);
    }
    let low = FACT[head] * small;
    let mut table = vec![0u16; low as usize * moves];
    let mut next = vec![0u8; head];
    for p in 0..patterns_n {
        let pattern = &patterns[p * head..][..head];
        for &m in &within {
            for j in 0..head {
                next[j] = pattern[usize::from(from[m][j])];
            }
            let after = rank_distinct(&next);
            for sm in 0..small {
                let lo = p as u64 * small + sm;
                table[lo as usize * moves + m] =
                    (after * small + u64::from(small_table[sm as usize * moves + m])) as u16;
            }
        }
    }
    Big {
        comp: last.comp,
        k,
        head,
        small,
        low,
        table,
        small_table,
        mixed,
        within,
        from,
        patterns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::{Metric, parse_definition};

    /// `n` identical pieces with two orientations in a ring, turned by two moves of
    /// 3-cycles (`B`'s shifted by one place): with `flips` 2 each cycle flips two of its
    /// pieces and the moves keep the twists' sum; with 1, only the first cycle flips one.
    fn ring_of_flips(n: usize, flips: usize) -> String {
        let line = |v: &[usize]| v.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ");
        let mut text = format!(
            "Name ring of flips\n\nSet E {n} 2\n\nSolved\nE\n{}\n{}\nEnd\n",
            line(&vec![1; n]),
            line(&vec![0; n])
        );
        for (name, start) in [("A", 0), ("B", 1)] {
            let (mut from, mut twist): (Vec<usize>, Vec<usize>) = ((1..=n).collect(), vec![0; n]);
            for t in 0..n / 3 {
                let [a, b, c] = [0, 1, 2].map(|k| (start + 3 * t + k) % n);
                (from[a], from[b], from[c]) = (c + 1, a + 1, b + 1);
                match flips {
                    2 => (twist[a], twist[b]) = (1, 1),
                    _ if t == 0 => twist[a] = 1,
                    _ => {}
                }
            }
            text.push_str(&format!("\nMove {name}\nE\n{}\n{}\nEnd\n", line(&from), line(&twist)));
        }
        text
    }

    /// Every twist coordinate of `text`: the values after each move worked out by digits
    /// are those unranked, moved and ranked, on some 5,000 values spread over its range.
    /// Returns how many coordinates were checked.
    fn twists_agree(text: &str) -> usize {
        let def = parse_definition(text).expect("the definition parses");
        let s = Structure::new(&def, Metric::Face).expect("its structure");
        let coords = Coords::layout(&s).expect("its ranks fit");
        let mut checked = 0;
        for c in coords.list.iter().filter(|c| c.by_digits(&s)) {
            let comp = &s.components[c.comp];
            let digits = TwistMoves::new(comp, &s.moves, &c.local);
            let (mut cur, mut next) = (vec![0u8; comp.len()], vec![0u8; comp.len()]);
            for v in (0..c.size).step_by((c.size / 5000).max(1) as usize).chain([c.size - 1]) {
                let (mut fast, mut slow) = (vec![0u64; s.moves.len()], vec![0u64; s.moves.len()]);
                digits.add_moved(v, 3, &mut fast);
                c.each_moved(&s, v, 0, (&mut cur, &mut next), |m, after| slow[m] = 3 * after);
                assert_eq!(fast, slow, "value {v} of {}", c.size);
            }
            checked += 1;
        }
        checked
    }

    #[test]
    fn twists_moved_by_digits_equal_the_twists_unranked_moved_and_ranked() {
        let cube = include_str!("../../../examples/pocket-cube.tws");
        assert_eq!(twists_agree(cube), 1, "the corners' twists");
        let pyraminx = include_str!("../../../examples/pyraminx.tws");
        assert!(twists_agree(pyraminx) >= 2);
        // 30 pieces of two orientations, as the megaminx's edges: the sum kept (2^29
        // values), then not (2^30).
        for flips in [2, 1] {
            let ring = ring_of_flips(30, flips);
            let def = parse_definition(&ring).expect("the ring parses");
            let s = Structure::new(&def, Metric::Face).expect("its structure");
            assert_eq!(s.components[0].fixed_sum, flips == 2);
            assert_eq!(twists_agree(&ring), 1);
        }
    }
}
