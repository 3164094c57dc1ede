//! What the moves allow, found from the moves themselves: the orbits of positions (a piece
//! never leaves its orbit; positions no move touches are left out), sets whose pieces move
//! in step, twist sums every move keeps, and permutation parities the moves tie together.
//! The ranking covers the goal's class of these invariants only.

use super::blocks::Blocks;
use super::chain::{Chain, Perm};
use super::parse::{Definition, DefinitionError, State, err, power_name, turns};
use super::rank::{
    MAX_DISTINCT, PartialRank, multinomial, multinomial_wide, parity, rank_distinct, rank_half, rank_multiset,
    rank_twists,
};
use std::collections::HashSet;

/// Most moves after expanding powers.
const MAX_MOVES: usize = 1024;

/// Most arrangements of one component listed in [`Component::reached`]: 32 MiB of ranks.
const REACHED_MAX: u128 = 1 << 22;

/// Distance metric: what one move is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Each power of a move is one move (`U`, `U2`, `U'`): twsearch's default.
    #[default]
    Face,
    /// Only a move and its inverse are moves (`U`, `U'`).
    Quarter,
}

impl Metric {
    /// What a distance counts, in reports: any power of a move is one move under the face
    /// metric (a cuber's half-turn metric), only a move or its inverse under the quarter.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Face => "moves",
            Metric::Quarter => "quarter turns",
        }
    }
}

/// A move with its powers expanded, on the flattened positions of every set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// `U`, `U2`, `U'` ...
    pub name: String,
    /// Index of the defined move it is a power of.
    pub base: usize,
    /// How many quarter turns it is (the power, or its inverse's if smaller).
    pub cost: u32,
    /// `from[i]`: the position whose piece comes to position `i`.
    pub from: Vec<u16>,
    /// Twist added to the piece arriving at position `i`.
    pub twist: Vec<u8>,
}

impl Move {
    fn identity(n: usize) -> Self {
        Move {
            name: String::new(),
            base: 0,
            cost: 0,
            from: (0..n as u16).collect(),
            twist: vec![0; n],
        }
    }

    fn is_identity(&self) -> bool {
        self.from.iter().enumerate().all(|(i, &f)| usize::from(f) == i) && self.twist.iter().all(|&t| t == 0)
    }

    /// `self` then `next`.
    fn then(&self, next: &Move, modulus: &[u8]) -> Move {
        let n = self.from.len();
        let mut m = Move::identity(n);
        for (i, &o) in modulus.iter().enumerate().take(n) {
            let f = usize::from(next.from[i]);
            m.from[i] = self.from[f];
            m.twist[i] = (self.twist[f] + next.twist[i]) % o;
        }
        m
    }
}

/// Every set's positions laid end to end.
#[derive(Debug, Clone)]
pub struct Layout {
    /// First flattened position of each set.
    pub offset: Vec<usize>,
    /// Orientations of the set each position belongs to.
    pub modulus: Vec<u8>,
    /// The set of each position.
    pub set_of: Vec<usize>,
    /// The sets' names, for messages.
    pub names: Vec<String>,
    /// `label_mod[set * 256 + label]`: the orientations that piece is told apart by (its
    /// set's, or fewer where the definition leaves them open: 1 for a `?`).
    label_mod: Vec<u8>,
    /// Some piece has fewer orientations told apart than its set has.
    pub open: bool,
}

impl Layout {
    pub(super) fn new(def: &Definition) -> Self {
        let mut offset = Vec::new();
        let (mut modulus, mut set_of) = (Vec::new(), Vec::new());
        let mut label_mod = Vec::with_capacity(256 * def.sets.len());
        for (s, set) in def.sets.iter().enumerate() {
            offset.push(modulus.len());
            modulus.extend(std::iter::repeat_n(set.orientations, set.size));
            set_of.extend(std::iter::repeat_n(s, set.size));
            let mut labels = [set.orientations; 256];
            for (&label, &m) in def.solved.pieces[s].iter().zip(&def.orientation_mod[s]) {
                labels[usize::from(label)] = m;
            }
            label_mod.extend(labels);
        }
        Layout {
            offset,
            open: label_mod
                .iter()
                .zip(def.sets.iter().flat_map(|set| [set.orientations; 256]))
                .any(|(&m, n)| m != n),
            modulus,
            set_of,
            names: def.sets.iter().map(|set| set.name.clone()).collect(),
            label_mod,
        }
    }

    /// The orientations piece `label` of `set` is told apart by.
    #[inline]
    pub fn label_mod(&self, set: usize, label: u8) -> u8 {
        self.label_mod[set * 256 + usize::from(label)]
    }

    /// The orientations piece `label` at flattened position `i` is told apart by.
    #[inline]
    pub fn piece_mod(&self, i: usize, label: u8) -> u8 {
        self.label_mod(self.set_of[i], label)
    }

    /// Forgets the orientations flattened `twists` hold beyond what their pieces are told
    /// apart by: one state for each position the definition counts.
    pub fn reduce(&self, pieces: &[u8], twists: &mut [u8]) {
        if self.open {
            for (i, (&p, t)) in pieces.iter().zip(twists.iter_mut()).enumerate() {
                *t %= self.piece_mod(i, p);
            }
        }
    }

    /// Positions in all.
    pub fn positions(&self) -> usize {
        self.modulus.len()
    }

    /// A state's pieces and twists laid end to end.
    pub fn flatten(&self, state: &State) -> (Vec<u8>, Vec<u8>) {
        (state.pieces.concat(), state.twists.concat())
    }
}

/// How a component's permutation parity is constrained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parity {
    /// Not a permutation of distinct pieces (or follows another set): no parity.
    None,
    /// The moves can give it either parity independently.
    Free,
    /// Its parity (relative to the goal) is the sum of those components' parities: every
    /// move keeps that relation. Empty: every move is even on it.
    Tied(Vec<usize>),
}

/// One orbit of positions of one set.
#[derive(Debug, Clone)]
pub struct Component {
    /// The set it belongs to.
    pub set: usize,
    /// Which orbit of the set it is (0 for the first), for names.
    pub orbit: usize,
    /// Its flattened positions, ascending.
    pub positions: Vec<usize>,
    /// `code[label]`: the piece label's index in this component's alphabet (sorted labels).
    pub code: Vec<u8>,
    /// The alphabet: piece labels in increasing order.
    pub alphabet: Vec<u8>,
    /// How many pieces carry each label of the alphabet.
    pub counts: Vec<usize>,
    /// Every piece distinct.
    pub distinct: bool,
    /// The table that ranks its arrangements when one piece repeats and the others are
    /// distinct (a pattern database's pieces told apart): the same ranks as
    /// [`rank_multiset`], a look-up a position.
    pub partial: Option<PartialRank>,
    /// Orientations its pieces are told apart by: their set's, or the fewer the definition
    /// leaves its pieces (`?`, `orientationMod`) when they all have the same; the set's
    /// when they differ ([`Component::moduli`]).
    pub orientations: u8,
    /// Per piece code, the orientations it is told apart by, when they differ between its
    /// pieces (a `?` for some pieces only): its twists are then a mixed radix whose digit at
    /// a position depends on the piece there, ranked with the pieces in hand.
    pub moduli: Option<Vec<u8>>,
    /// The goal's pieces as codes.
    pub solved_code: Vec<u8>,
    /// The goal's twist sum modulo the orientations.
    pub solved_sum: u8,
    /// Every move keeps the twist sum (and the twists are not [`Component::carried`]).
    pub fixed_sum: bool,
    /// Twists no move changes (up to where a piece stands), so not a coordinate: a piece
    /// at position `j` (of the component) with code `c` has twist `carried[c] + shift[j]`.
    pub carried: Option<Carried>,
    /// The component whose permutation this one's follows (same positions moved alike).
    pub follows: Option<usize>,
    /// The parity constraint.
    pub parity: Parity,
    /// Arrangements of its pieces (`k!` or the multinomial).
    pub arrangements: u64,
    /// The arrangements the moves make of its distinct pieces, as sorted full ranks
    /// ([`rank_distinct`]), when they are at most half of those its parity allows (`<U,R>`
    /// makes 120 of the 720 arrangements of the corners it turns): the piece coordinate is
    /// the index in this list.
    pub reached: Option<Vec<u64>>,
    /// The states the moves make of its pieces and twists together, as sorted values of
    /// [`Component::joint_value`], when they are at most half of what its two
    /// coordinates cover (the octahedron's held corners: 960 of 60 x 4^4): it is then one
    /// coordinate, the index in this list, so that a table of that coordinate (the class
    /// ranking's) covers only what the moves make.
    pub joint: Option<Vec<u64>>,
    /// Its distinct pieces ranked as a pattern of blocks and their orders, for a search
    /// by class that needs a coordinate the symmetries keep ([`Blocks`]).
    pub blocks: Option<Blocks>,
}

impl Component {
    /// Pieces in it.
    #[expect(clippy::len_without_is_empty, reason = "a component is never empty")]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Its name in messages: the set's, with `#2` for a second orbit.
    pub fn name(&self, def: &Definition) -> String {
        let set = &def.sets[self.set].name;
        if self.orbit == 0 {
            set.clone()
        } else {
            format!("{set}#{}", self.orbit + 1)
        }
    }

    /// Whether its permutation is ranked (not following another, more than one arrangement).
    pub fn ranks_pieces(&self) -> bool {
        self.follows.is_none() && self.arrangements > 1
    }

    /// Whether its twists are ranked.
    pub fn ranks_twists(&self) -> bool {
        self.orientations > 1 && self.carried.is_none() && !(self.fixed_sum && self.len() == 1)
    }

    /// The rank of its twists when [`Component::moduli`] differ: a mixed radix, the first
    /// position fastest, each digit in the radix of the piece standing there.
    pub fn rank_open(&self, moduli: &[u8], pieces: &[u8], twists: &[u8]) -> u64 {
        self.positions.iter().rev().fold(0, |r, &p| {
            let m = moduli[usize::from(self.code[usize::from(pieces[p])])];
            r * u64::from(m) + u64::from(twists[p])
        })
    }

    /// Writes into `twists` those [`Component::rank_open`] ranks `v`, the pieces in place.
    pub fn unrank_open(&self, moduli: &[u8], mut v: u64, pieces: &[u8], twists: &mut [u8]) {
        for &p in &self.positions {
            let m = u64::from(moduli[usize::from(self.code[usize::from(pieces[p])])]);
            twists[p] = (v % m) as u8;
            v /= m;
        }
    }

    /// Whether its permutation's parity sorts positions into classes: tied to others' and
    /// ranked, not listed in [`Component::reached`].
    pub fn parity_class(&self) -> bool {
        matches!(self.parity, Parity::Tied(_)) && self.ranks_pieces() && self.reached.is_none() && self.joint.is_none()
    }

    /// Its piece coordinate from its codes. (The moves keep the arrangement among those
    /// [`Component::reached`] lists, and [`Structure::class_of`] refuses the others before
    /// they are ranked.)
    pub fn piece_rank(&self, code: &[u8]) -> u64 {
        if let Some(reached) = &self.reached {
            reached.binary_search(&rank_distinct(code)).map_or(0, |i| i as u64)
        } else if let Some(partial) = &self.partial {
            partial.rank(code)
        } else if !self.distinct {
            rank_multiset(code, &self.counts, self.arrangements)
        } else if matches!(self.parity, Parity::Tied(_)) {
            rank_half(code)
        } else {
            rank_distinct(code)
        }
    }

    /// The value [`Component::joint`] lists for its pieces as `code` and twists as `twists`
    /// (its own positions'): its two coordinates' values in one number.
    pub fn joint_value(&self, code: &[u8], twists: &[u8]) -> u64 {
        let twist_size = self.twist_size().map_or(1, |t| t as u64);
        self.piece_rank(code) * twist_size + rank_twists(twists, self.orientations, self.fixed_sum)
    }

    /// Whether its twist sum sorts positions into classes: kept by every move, and not
    /// within the states [`Component::joint`] lists.
    pub fn sum_class(&self) -> bool {
        self.fixed_sum && self.joint.is_none()
    }

    /// Ranked size of its permutation coordinate.
    pub fn piece_size(&self) -> u64 {
        if !self.ranks_pieces() {
            1
        } else if let Some(reached) = &self.reached {
            reached.len() as u64
        } else if matches!(self.parity, Parity::Tied(_)) {
            self.arrangements / 2
        } else {
            self.arrangements
        }
    }

    /// Ranked size of its twist coordinate (`None`: past 128 bits).
    pub fn twist_size(&self) -> Option<u128> {
        if !self.ranks_twists() {
            return Some(1);
        }
        if let Some(moduli) = &self.moduli {
            return moduli
                .iter()
                .zip(&self.counts)
                .try_fold(1u128, |a, (&m, &c)| a.checked_mul(u128::from(m).checked_pow(c as u32)?));
        }
        let k = self.len() - usize::from(self.fixed_sum);
        u128::from(self.orientations).checked_pow(k as u32)
    }

    /// The codes of `pieces` (flattened labels) at this component's positions.
    pub fn codes(&self, pieces: &[u8], out: &mut [u8]) {
        for (o, &p) in out.iter_mut().zip(&self.positions) {
            *o = self.code[usize::from(pieces[p])];
        }
    }
}

/// Twists the pieces carry along unchanged: every move's twist at a position is a
/// difference `shift[to] - shift[from]`, so `twist - shift` travels with the piece and is
/// what it was in the goal (for the edges under `<U,R>`, every shift is 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    /// Per position of the component.
    pub shift: Vec<u8>,
    /// Per piece code: its twist less its position's shift.
    pub own: Vec<u8>,
}

impl Carried {
    /// The twist of a piece of code `code` at the component's position `j`.
    pub fn twist(&self, code: u8, j: usize, orientations: u8) -> u8 {
        (self.own[usize::from(code)] + self.shift[j]) % orientations
    }
}

/// What the moves allow, and the moves themselves.
#[derive(Debug, Clone)]
pub struct Structure {
    /// Flattened positions.
    pub layout: Layout,
    /// The moves of the metric, powers expanded, in file order.
    pub moves: Vec<Move>,
    /// The orbits that moves touch.
    pub components: Vec<Component>,
    /// The goal, flattened.
    pub solved_pieces: Vec<u8>,
    /// The goal's twists, flattened.
    pub solved_twists: Vec<u8>,
    /// Positions no move touches.
    pub still: Vec<usize>,
    /// All assemblies of the pieces: every set's arrangements times its twists (`None`:
    /// past 128 bits).
    pub assemblies: Option<u128>,
}

/// The moves with their powers: `U`, `U2`, `U'` for a move of order 4 (twsearch's names).
pub(super) fn expand(def: &Definition, layout: &Layout, metric: Metric) -> Result<Vec<Move>, DefinitionError> {
    let mut moves = Vec::new();
    for (b, m) in def.moves.iter().enumerate() {
        let mut base = Move::identity(layout.positions());
        for (s, set) in def.sets.iter().enumerate() {
            let off = layout.offset[s];
            for i in 0..set.size {
                base.from[off + i] = (off + usize::from(m.from[s][i])) as u16;
                base.twist[off + i] = m.twist[s][i];
            }
        }
        base.name = m.name.clone();
        base.base = b;
        let mut powers = vec![base.clone()];
        while let Some(last) = powers.last() {
            let next = last.then(&base, &layout.modulus);
            if next.is_identity() {
                break;
            }
            if powers.len() >= MAX_MOVES {
                return err(m.line, format!("move {} has an order above {MAX_MOVES}", m.name));
            }
            powers.push(next);
        }
        let order = powers.len() + 1;
        for (j, mut p) in powers.into_iter().enumerate() {
            let turns = turns(j + 1, order);
            p.cost = turns.unsigned_abs() as u32;
            p.name = power_name(&m.name, turns);
            p.base = b;
            if metric == Metric::Face || p.cost == 1 {
                moves.push(p);
            }
        }
        if moves.len() > MAX_MOVES {
            return err(
                m.line,
                format!("more than {MAX_MOVES} moves once their powers are counted"),
            );
        }
    }
    for (i, m) in moves.iter().enumerate() {
        if let Some(other) = moves[..i].iter().find(|o| o.name == m.name) {
            let line = def.moves[other.base].line.max(def.moves[m.base].line);
            return err(
                line,
                format!(
                    "the move name {} is used twice (a power of one move is named like another)",
                    m.name
                ),
            );
        }
    }
    Ok(moves)
}

/// Orbits of positions under the moves: a union-find.
fn orbits(n: usize, moves: &[Move]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for m in moves {
        for (i, &f) in m.from.iter().enumerate() {
            let (a, b) = (root(&mut parent, i), root(&mut parent, usize::from(f)));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    (0..n).map(|i| root(&mut parent, i)).collect()
}

/// A component's piece labels coded: the sorted alphabet, `code[label]` (its index in the
/// alphabet, `u8::MAX` for labels absent) and how many pieces carry each label.
fn alphabet_of(labels: &[u8]) -> (Vec<u8>, Vec<u8>, Vec<usize>) {
    let mut alphabet = labels.to_vec();
    alphabet.sort_unstable();
    alphabet.dedup();
    let mut code = vec![u8::MAX; 256];
    for (i, &a) in alphabet.iter().enumerate() {
        code[usize::from(a)] = i as u8;
    }
    let mut counts = vec![0usize; alphabet.len()];
    for &l in labels {
        counts[usize::from(code[usize::from(l)])] += 1;
    }
    (alphabet, code, counts)
}

/// The goal and the moves, flattened, that the components are read from.
struct Sources<'a> {
    def: &'a Definition,
    layout: &'a Layout,
    moves: &'a [Move],
    solved_pieces: &'a [u8],
    solved_twists: &'a [u8],
    /// Whether orbits too large to rank are kept (their arrangements saturated at
    /// `u64::MAX`): a structure only read and checked, never ranked whole
    /// ([`Structure::for_reading`]).
    reading: bool,
}

impl Sources<'_> {
    /// The component of the orbit `positions` (rooted at its first position), the `orbit`-th
    /// of its set. Refuses an orbit too large to rank, unless only [`Sources::reading`].
    fn component(&self, positions: Vec<usize>, orbit: usize) -> Result<Component, DefinitionError> {
        let r = positions[0];
        let set = self.layout.set_of[r];
        let labels: Vec<u8> = positions.iter().map(|&p| self.solved_pieces[p]).collect();
        let (alphabet, code, counts) = alphabet_of(&labels);
        let distinct = counts.iter().all(|&c| c == 1);
        let k = positions.len();
        if distinct && k > MAX_DISTINCT && !self.reading {
            return err(
                0,
                format!(
                    "set {} has an orbit of {k} distinct pieces; at most {MAX_DISTINCT} can be ranked",
                    self.def.sets[set].name
                ),
            );
        }
        let Some(arrangements) = multinomial(&counts).or(self.reading.then_some(u64::MAX)) else {
            return err(
                0,
                format!(
                    "set {}'s pieces have too many arrangements to rank in 64 bits",
                    self.def.sets[set].name
                ),
            );
        };
        let told: Vec<u8> = alphabet.iter().map(|&l| self.layout.label_mod(set, l)).collect();
        let uniform = told.iter().all(|&m| m == told[0]);
        let orientations = if uniform { told[0] } else { self.layout.modulus[r] };
        let moduli = (!uniform).then_some(told);
        let sum_of = |m: &Move| positions.iter().map(|&p| u32::from(m.twist[p])).sum::<u32>() % u32::from(orientations);
        let solved_code: Vec<u8> = labels.iter().map(|&l| code[usize::from(l)]).collect();
        // Twists told apart by different moduli are ranked whole, neither carried nor
        // summed: a sum they keep modulo the moduli's common divisor (2 for moduli 2 and 4)
        // is left to the search, whose class is then that many times what it reaches.
        let carried = match moduli {
            None => self.carried(&positions, &solved_code, alphabet.len(), orientations),
            Some(_) => None,
        };
        let fixed_sum =
            orientations > 1 && moduli.is_none() && carried.is_none() && self.moves.iter().all(|m| sum_of(m) == 0);
        let solved_sum =
            (positions.iter().map(|&p| u32::from(self.solved_twists[p])).sum::<u32>() % u32::from(orientations)) as u8;
        Ok(Component {
            set,
            orbit,
            positions,
            code,
            alphabet,
            partial: PartialRank::new(&counts),
            counts,
            distinct,
            orientations,
            moduli,
            solved_code,
            solved_sum,
            fixed_sum,
            carried,
            follows: None,
            parity: Parity::None,
            arrangements,
            reached: None,
            joint: None,
            blocks: None,
        })
    }

    /// The twists of the orbit `positions` if no move changes them but for a shift by
    /// position ([`Carried`]), and every piece of one code has one twist in the goal.
    fn carried(&self, positions: &[usize], solved_code: &[u8], codes: usize, orientations: u8) -> Option<Carried> {
        if orientations < 2 {
            return None;
        }
        let o = orientations;
        let index = |p: u16| positions.binary_search(&usize::from(p)).ok();
        // Each move's twist at `j` says `shift[j] = shift[from] + twist`: spread from the
        // first position over the orbit (it is connected), then check every move.
        let mut shift: Vec<Option<u8>> = vec![None; positions.len()];
        shift[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for m in self.moves {
                for (j, &p) in positions.iter().enumerate() {
                    let f = index(m.from[p])?;
                    let w = m.twist[p] % o;
                    match (shift[f], shift[j]) {
                        (Some(a), None) => shift[j] = Some((a + w) % o),
                        (None, Some(b)) => shift[f] = Some((b + o - w) % o),
                        _ => continue,
                    }
                    changed = true;
                }
            }
        }
        let shift: Vec<u8> = shift.into_iter().collect::<Option<_>>()?;
        let consistent = self.moves.iter().all(|m| {
            positions
                .iter()
                .enumerate()
                .all(|(j, &p)| index(m.from[p]).is_some_and(|f| (shift[f] + m.twist[p] % o) % o == shift[j]))
        });
        if !consistent {
            return None;
        }
        let mut own: Vec<Option<u8>> = vec![None; codes];
        for (j, &p) in positions.iter().enumerate() {
            let t = (self.solved_twists[p] + o - shift[j]) % o;
            let c = usize::from(solved_code[j]);
            match own[c] {
                Some(x) if x != t => return None,
                _ => own[c] = Some(t),
            }
        }
        Some(Carried {
            shift,
            own: own.into_iter().map(|t| t.unwrap_or(0)).collect(),
        })
    }

    /// The components: the orbits some move touches, in order of their first position.
    fn components(&self, root: &[usize], touched: &[bool]) -> Result<Vec<Component>, DefinitionError> {
        let n = root.len();
        let mut components: Vec<Component> = Vec::new();
        let mut orbit_of_set = vec![0usize; self.def.sets.len()];
        for r in 0..n {
            if root[r] != r || !touched[r] {
                continue;
            }
            let positions: Vec<usize> = (r..n).filter(|&i| root[i] == r).collect();
            let set = self.layout.set_of[r];
            components.push(self.component(positions, orbit_of_set[set])?);
            orbit_of_set[set] += 1;
        }
        Ok(components)
    }
}

/// All assemblies of the pieces: every set's arrangements times its twists (`None`: past
/// 128 bits; the whole 3x3x3 cube's 5.2 x 10^20 are past 64).
pub(super) fn assemblies(def: &Definition) -> Option<u128> {
    let mut assemblies: Option<u128> = Some(1);
    for (s, set) in def.sets.iter().enumerate() {
        let mut labels = def.solved.pieces[s].clone();
        labels.sort_unstable();
        let counts: Vec<usize> = labels.chunk_by(|a, b| a == b).map(<[u8]>::len).collect();
        // Each piece's twists as told apart: the set's orientations, or fewer where open.
        let twists = def.orientation_mod[s]
            .iter()
            .try_fold(1u128, |a, &m| a.checked_mul(u128::from(m)));
        debug_assert_eq!(def.orientation_mod[s].len(), set.size);
        assemblies = assemblies
            .zip(multinomial_wide(&counts))
            .and_then(|(a, b)| a.checked_mul(b))
            .zip(twists)
            .and_then(|(a, b)| a.checked_mul(b));
    }
    assemblies
}

/// A definition's moves and goal on the flattened positions, powers expanded and the goal's
/// open orientations forgotten: what the structure, the packed form and the group read.
pub struct Flat {
    /// Where each set's positions are, and the orientations told apart.
    pub layout: Layout,
    /// Every move under the metric.
    pub moves: Vec<Move>,
    /// The goal's pieces.
    pub solved_pieces: Vec<u8>,
    /// The goal's twists.
    pub solved_twists: Vec<u8>,
}

impl Flat {
    /// Flattens `def` under `metric`.
    pub fn new(def: &Definition, metric: Metric) -> Result<Self, DefinitionError> {
        let layout = Layout::new(def);
        let moves = expand(def, &layout, metric)?;
        let (solved_pieces, mut solved_twists) = layout.flatten(&def.solved);
        layout.reduce(&solved_pieces, &mut solved_twists);
        Ok(Flat {
            layout,
            moves,
            solved_pieces,
            solved_twists,
        })
    }
}

impl Structure {
    /// Finds the structure of `def` under `metric`; refuses an orbit too large to rank.
    pub fn new(def: &Definition, metric: Metric) -> Result<Self, DefinitionError> {
        Self::found(def, metric, false)
    }

    /// The structure of `def` under `metric` for reading and checking positions only (the
    /// heuristic search's, which ranks projections, never the whole): an orbit too large
    /// to rank (the megaminx's 30 edges) is kept, with its invariants, but must not be
    /// ranked.
    pub fn for_reading(def: &Definition, metric: Metric) -> Result<Self, DefinitionError> {
        Self::found(def, metric, true)
    }

    /// [`Structure::new`], or [`Structure::for_reading`] if `reading`.
    fn found(def: &Definition, metric: Metric, reading: bool) -> Result<Self, DefinitionError> {
        let Flat {
            layout,
            moves,
            solved_pieces,
            solved_twists,
        } = Flat::new(def, metric)?;
        let n = layout.positions();
        let root = orbits(n, &moves);
        let touched: Vec<bool> = (0..n)
            .map(|i| moves.iter().any(|m| usize::from(m.from[i]) != i || m.twist[i] != 0))
            .collect();
        let still: Vec<usize> = (0..n).filter(|&i| !touched[i]).collect();
        let sources = Sources {
            def,
            layout: &layout,
            moves: &moves,
            solved_pieces: &solved_pieces,
            solved_twists: &solved_twists,
            reading,
        };
        let mut components = sources.components(&root, &touched)?;
        follow(&mut components, &moves);
        parities(&mut components, &moves);
        for c in &mut components {
            c.reached = reached(c, &moves);
        }
        for i in 0..components.len() {
            // A parity another set's follows is read from its own coordinate.
            let read = (components.iter()).any(|d| matches!(&d.parity, Parity::Tied(on) if on.contains(&i)));
            if !read {
                components[i].joint = joint(&components[i], &moves, &solved_twists);
            }
        }
        Ok(Structure {
            layout,
            moves,
            components,
            solved_pieces,
            solved_twists,
            still,
            assemblies: assemblies(def),
        })
    }

    /// The moves of `def` under `metric`, powers expanded, without finding what they keep.
    pub fn moves_of(def: &Definition, metric: Metric) -> Result<Vec<Move>, DefinitionError> {
        expand(def, &Layout::new(def), metric)
    }

    /// How many classes the invariants split the structured assemblies into: twist sums
    /// times parity relations.
    pub fn invariant_classes(&self) -> u64 {
        self.components
            .iter()
            .map(|c| {
                let twist = if c.sum_class() { u64::from(c.orientations) } else { 1 };
                let parity = if c.parity_class() { 2 } else { 1 };
                twist * parity
            })
            .product()
    }

    /// The invariants of a flattened state, as a class index (goal: 0), or why it is outside
    /// every class (a piece out of its orbit, a still piece moved, sets out of step).
    pub fn class_of(&self, pieces: &[u8], twists: &[u8]) -> Result<u64, String> {
        self.still_in_place(pieces, twists)?;
        let codes = (self.components.iter())
            .map(|c| self.code_of(c, pieces, twists))
            .collect::<Result<Vec<Vec<u8>>, String>>()?;
        self.in_step(&codes)?;
        Ok(self.class_index(&codes, twists))
    }

    /// Refuses a state whose still positions (no move touches them) do not hold their
    /// solved pieces.
    fn still_in_place(&self, pieces: &[u8], twists: &[u8]) -> Result<(), String> {
        for &p in &self.still {
            if pieces[p] != self.solved_pieces[p] || twists[p] != self.solved_twists[p] {
                let set = self.layout.set_of[p];
                return Err(format!(
                    "slot {} of set {} is never moved, so it must hold its solved piece",
                    p - self.layout.offset[set] + 1,
                    self.layout.names[set]
                ));
            }
        }
        Ok(())
    }

    /// Component `c`'s pieces in a state, as their codes; refused where a piece is out of
    /// the orbit, an arrangement the moves do not make, or an orientation no move changes
    /// differs from its own.
    fn code_of(&self, c: &Component, pieces: &[u8], twists: &[u8]) -> Result<Vec<u8>, String> {
        let mut code = vec![0u8; c.len()];
        let mut counts = vec![0usize; c.counts.len()];
        for (slot, &p) in code.iter_mut().zip(&c.positions) {
            let k = c.code[usize::from(pieces[p])];
            if k == u8::MAX || counts[usize::from(k)] == c.counts[usize::from(k)] {
                return Err("a piece is outside the orbit its moves keep it in".into());
            }
            counts[usize::from(k)] += 1;
            *slot = k;
        }
        if let Some(reached) = &c.reached
            && reached.binary_search(&rank_distinct(&code)).is_err()
        {
            return Err(format!(
                "the moves make {} arrangements of set {}'s pieces, and not this one",
                crate::util::thousands(reached.len() as u64),
                self.layout.names[c.set]
            ));
        }
        if let Some(joint) = &c.joint {
            let local: Vec<u8> = c.positions.iter().map(|&p| twists[p]).collect();
            if joint.binary_search(&c.joint_value(&code, &local)).is_err() {
                return Err(format!(
                    "the moves make {} states of set {}'s pieces and twists together, and not this one",
                    crate::util::thousands(joint.len() as u64),
                    self.layout.names[c.set]
                ));
            }
        }
        if let Some(carried) = &c.carried
            && code
                .iter()
                .zip(&c.positions)
                .enumerate()
                .any(|(j, (&k, &p))| twists[p] != carried.twist(k, j, c.orientations))
        {
            return Err(format!(
                "no move changes the orientations of set {}'s pieces, so each keeps its own",
                self.layout.names[c.set]
            ));
        }
        Ok(code)
    }

    /// Refuses components' `codes` where a follower is out of step with its leader.
    fn in_step(&self, codes: &[Vec<u8>]) -> Result<(), String> {
        for (i, c) in self.components.iter().enumerate() {
            if let Some(leader) = c.follows {
                // Follower in step: the leader's piece at each position names where in the
                // goal the follower's piece comes from.
                let lead = &self.components[leader];
                for (j, &code) in codes[leader].iter().enumerate() {
                    let from = lead.solved_code.iter().position(|&s| s == code).unwrap_or(0);
                    if codes[i][j] != c.solved_code[from] {
                        return Err(format!(
                            "set {} moves in step with set {} and is out of step",
                            self.layout.names[c.set], self.layout.names[lead.set]
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The class index of a state whose components' pieces are `codes`: each fixed twist
    /// sum's offset and each tied parity's, in mixed radix.
    fn class_index(&self, codes: &[Vec<u8>], twists: &[u8]) -> u64 {
        let mut class = 0u64;
        let mut radix = 1u64;
        for (i, c) in self.components.iter().enumerate() {
            if c.sum_class() {
                let sum = c.positions.iter().map(|&p| u32::from(twists[p])).sum::<u32>();
                let o = u32::from(c.orientations);
                let off = (sum + o - u32::from(c.solved_sum)) % o;
                class += u64::from(off) * radix;
                radix *= u64::from(c.orientations);
            }
            if let Parity::Tied(on) = &c.parity
                && c.parity_class()
            {
                let relative = |j: usize| parity(&codes[j]) ^ parity(&self.components[j].solved_code);
                let wrong = on.iter().fold(relative(i), |acc, &j| acc ^ relative(j));
                class += u64::from(wrong) * radix;
                radix *= 2;
            }
        }
        class
    }
}

/// Marks components whose pieces move exactly like an earlier component's (the pyraminx's
/// tips and axial pieces): their arrangement follows, so only the leader's is ranked.
fn follow(components: &mut [Component], moves: &[Move]) {
    for b in 0..components.len() {
        for a in 0..b {
            let (ca, cb) = (&components[a], &components[b]);
            if ca.follows.is_some() || !ca.distinct || ca.len() != cb.len() || ca.len() < 2 {
                continue;
            }
            let index = |c: &Component, p: u16| c.positions.binary_search(&usize::from(p)).ok();
            let alike = moves.iter().all(|m| {
                ca.positions
                    .iter()
                    .zip(&cb.positions)
                    .all(|(&pa, &pb)| index(ca, m.from[pa]) == index(cb, m.from[pb]))
            });
            if alike {
                components[b].follows = Some(a);
                break;
            }
        }
    }
}

/// Finds which components' parities the moves tie: each move's parity on every ranked
/// permutation of distinct pieces is a vector over GF(2); the components that are not
/// pivots of the span's reduced basis have their parity fixed by the pivots'.
fn parities(components: &mut [Component], moves: &[Move]) {
    let columns: Vec<usize> = (0..components.len())
        .filter(|&i| {
            let c = &components[i];
            c.distinct && c.follows.is_none() && c.len() >= 2
        })
        .take(64)
        .collect();
    let mut basis: Vec<(usize, u64)> = Vec::new();
    for m in moves {
        let mut v = 0u64;
        for (bit, &i) in columns.iter().enumerate() {
            let c = &components[i];
            let mut code = vec![0u8; c.len()];
            for (j, &p) in c.positions.iter().enumerate() {
                let from = usize::from(m.from[p]);
                code[j] = c.positions.binary_search(&from).unwrap_or(0) as u8;
            }
            v |= u64::from(parity(&code)) << bit;
        }
        for &(pivot, b) in &basis {
            if v >> pivot & 1 == 1 {
                v ^= b;
            }
        }
        if v != 0 {
            let pivot = v.trailing_zeros() as usize;
            for (_, b) in basis.iter_mut() {
                if *b >> pivot & 1 == 1 {
                    *b ^= v;
                }
            }
            basis.push((pivot, v));
        }
    }
    for (bit, &i) in columns.iter().enumerate() {
        components[i].parity = if basis.iter().any(|&(p, _)| p == bit) {
            Parity::Free
        } else {
            Parity::Tied(
                basis
                    .iter()
                    .filter(|&&(_, b)| b >> bit & 1 == 1)
                    .map(|&(p, _)| columns[p])
                    .collect(),
            )
        };
    }
}

/// The arrangements the moves make of `c`'s distinct pieces, if they are at most half of
/// what its parity allows and at most [`REACHED_MAX`]: the order of the group the moves
/// generate on its positions says so before they are listed.
fn reached(c: &Component, moves: &[Move]) -> Option<Vec<u64>> {
    let free = matches!(&c.parity, Parity::Free) || c.parity == Parity::Tied(Vec::new());
    if !(c.distinct && c.ranks_pieces() && free) || c.len() > MAX_DISTINCT {
        return None;
    }
    let local: Vec<Perm> = moves
        .iter()
        .map(|m| {
            c.positions
                .iter()
                .map(|&p| c.positions.binary_search(&usize::from(m.from[p])).unwrap_or(0) as u16)
                .collect()
        })
        .collect();
    let order = Chain::new(c.len(), &local).order().exact()?;
    if order > REACHED_MAX || 2 * order > u128::from(c.piece_size()) {
        return None;
    }
    // Every element of the group makes one arrangement of the distinct pieces.
    let mut seen = HashSet::from([rank_distinct(&c.solved_code)]);
    let mut todo = vec![c.solved_code.clone()];
    while let Some(code) = todo.pop() {
        for from in &local {
            let next: Vec<u8> = from.iter().map(|&f| code[usize::from(f)]).collect();
            if seen.insert(rank_distinct(&next)) {
                todo.push(next);
            }
        }
    }
    let mut ranks: Vec<u64> = seen.into_iter().collect();
    ranks.sort_unstable();
    Some(ranks)
}

/// The states the moves make of `c`'s pieces and twists together ([`Component::joint`]),
/// if they are at most half of what its two coordinates cover and at most [`REACHED_MAX`]:
/// the order of the group the moves generate on its points (each orientation of each
/// position; its pieces are distinct, so each element is one state) says so before they
/// are listed.
fn joint(c: &Component, moves: &[Move], solved_twists: &[u8]) -> Option<Vec<u64>> {
    let free = matches!(&c.parity, Parity::Free) || c.parity == Parity::Tied(Vec::new());
    let rankable = c.len() <= MAX_DISTINCT && c.arrangements < u64::MAX;
    if !(c.distinct && free && c.ranks_pieces() && c.ranks_twists() && c.moduli.is_none() && rankable) {
        return None;
    }
    let o = usize::from(c.orientations);
    let space = u128::from(c.piece_size()) * c.twist_size()?;
    let local = |m: &Move, j: usize| {
        c.positions
            .binary_search(&usize::from(m.from[c.positions[j]]))
            .unwrap_or(0)
    };
    let points: Vec<Perm> = moves
        .iter()
        .map(|m| {
            let mut to = vec![0u16; c.len() * o];
            for j in 0..c.len() {
                let twist = usize::from(m.twist[c.positions[j]]);
                for a in 0..o {
                    to[local(m, j) * o + a] = (j * o + (a + twist) % o) as u16;
                }
            }
            to
        })
        .collect();
    let order = Chain::new(c.len() * o, &points).order().exact()?;
    if order > REACHED_MAX || 2 * order > space {
        return None;
    }
    let twists: Vec<u8> = c.positions.iter().map(|&p| solved_twists[p]).collect();
    let mut seen = HashSet::from([c.joint_value(&c.solved_code, &twists)]);
    let mut todo = vec![(c.solved_code.clone(), twists)];
    while let Some((code, twists)) = todo.pop() {
        for m in moves {
            let next: Vec<u8> = (0..c.len()).map(|j| code[local(m, j)]).collect();
            let turned: Vec<u8> = (0..c.len())
                .map(|j| (twists[local(m, j)] + m.twist[c.positions[j]]) % c.orientations)
                .collect();
            if seen.insert(c.joint_value(&next, &turned)) {
                todo.push((next, turned));
            }
        }
    }
    let mut values: Vec<u64> = seen.into_iter().collect();
    values.sort_unstable();
    Some(values)
}
