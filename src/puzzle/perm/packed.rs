//! A definition's puzzle as packed states, for the sparse search: each position the moves
//! touch is a field of a `u64` or `u128` key holding its piece and twist (`piece *
//! orientations + twist`), in as few bits as the set's labels need. No ranking is
//! involved, so it serves puzzles too large or too loose to rank (M24's 24 distinct
//! pieces take 24 fields of 5 bits, 120 bits).
//!
//! It honours what the ranked form does: the `Illegal` lines (a forbidden state is never
//! entered, `Packing::successors`), another goal (`--goal`, read by the ranked form),
//! and the numbering of pieces in positions (from 0 in a KPuzzle's).

use super::PermPuzzle;
use super::parse::{Definition, DefinitionError};
use super::structure::{self, Layout, Metric, Move};
use super::text;
use crate::puzzle::{Invariant, Notation, SearchGraph, SymmetryChoice};
use crate::puzzle::{Key, PackedGraph, PackedPuzzle, Unranked};
use std::marker::PhantomData;

/// Bits of the widest key.
const MAX_BITS: u32 = 128;

/// Where one touched position's field lies in the key.
#[derive(Debug, Clone, Copy)]
struct Field {
    /// Its flattened position.
    position: usize,
    /// The 64-bit half it lies in (a field never straddles the two).
    word: usize,
    shift: u32,
    mask: u64,
    /// The set's orientations.
    modulus: u8,
    /// Where its twist table starts in [`Packing::twisted`].
    table: usize,
}

/// The values one field may not hold: the pieces an `Illegal` line keeps from its position,
/// in every twist.
#[derive(Debug, Clone, Copy)]
struct Forbidden {
    /// The field's index.
    field: usize,
    /// Bit `v` set: value `v` (`piece * orientations + twist`, at most 8 bits) is forbidden.
    values: [u64; 4],
}

/// How a move fills one field: from field `from`, with `add` added to the twist.
#[derive(Debug, Clone, Copy)]
struct Step {
    from: u16,
    add: u8,
}

/// A definition's moves on packed states, whatever the key's width.
#[derive(Debug, Clone)]
pub struct Packing {
    id: String,
    def: Definition,
    metric: Metric,
    layout: Layout,
    moves: Vec<Move>,
    solved_pieces: Vec<u8>,
    solved_twists: Vec<u8>,
    fields: Vec<Field>,
    /// `steps[m * fields + j]`: how move `m` fills field `j`.
    steps: Vec<Step>,
    /// For each field, a table per twist `add` of the value a value becomes.
    twisted: Vec<u8>,
    bits: u32,
    /// The `Illegal` lines on the fields (one on a position no move touches never applies:
    /// that position keeps the goal's piece, which is legal).
    forbidden: Vec<Forbidden>,
    /// The goal's key: the solved state's, or `--goal`'s ([`Sparse::new`]).
    goal: u128,
    /// The number of the first piece in positions written: 1 as in a `.tws` file, 0 as in
    /// a KPuzzle's.
    first: u32,
}

/// For each field an `Illegal` line names, the values it forbids there.
fn forbidden_values(def: &Definition, layout: &Layout, fields: &[Field]) -> Vec<Forbidden> {
    let mut forbidden: Vec<Forbidden> = Vec::new();
    for line in &def.illegal {
        let at = layout.offset[line.set] + line.position;
        let Some(field) = fields.iter().position(|f| f.position == at) else {
            continue;
        };
        let index = match forbidden.iter().position(|x| x.field == field) {
            Some(i) => i,
            None => {
                forbidden.push(Forbidden { field, values: [0; 4] });
                forbidden.len() - 1
            }
        };
        let m = usize::from(fields[field].modulus);
        for v in line
            .pieces
            .iter()
            .flat_map(|&p| usize::from(p) * m..(usize::from(p) + 1) * m)
        {
            // A field holds at most 8 bits; a piece past them is not in the set.
            if v < 256 {
                forbidden[index].values[v / 64] |= 1 << (v % 64);
            }
        }
    }
    forbidden
}

/// The fields of the packed key of `def` (laid out as `layout`, moved by `moves`): one per
/// position some move touches, as few bits as its piece and twist take, none across a word;
/// with the tables that add a twist to a field, and the key's bits. Refused past 8 bits a
/// field or [`MAX_BITS`] in all.
fn fields(def: &Definition, layout: &Layout, moves: &[Move]) -> Result<(Vec<Field>, Vec<u8>, u32), DefinitionError> {
    let touched = |i: usize| moves.iter().any(|m| usize::from(m.from[i]) != i || m.twist[i] != 0);
    let (mut fields, mut twisted) = (Vec::new(), Vec::new());
    let (mut word, mut shift) = (0, 0);
    for i in (0..layout.positions()).filter(|&i| touched(i)) {
        let modulus = layout.modulus[i];
        let width = field_width(def, layout, i)?;
        if shift + width > 64 {
            (word, shift) = (word + 1, 0);
        }
        // A table per twist added, over every value the field's bits can hold: modulo
        // what its piece is told apart by.
        let table = twisted.len();
        let m = usize::from(modulus);
        let told = |v: usize| u8::try_from(v / m).map_or(m, |label| usize::from(layout.piece_mod(i, label)));
        for add in 0..m {
            twisted.extend((0..1usize << width).map(|v| (v / m * m + (v % m + add) % m % told(v)) as u8));
        }
        fields.push(Field {
            position: i,
            word,
            shift,
            mask: if width == 0 { 0 } else { u64::MAX >> (64 - width) },
            modulus,
            table,
        });
        shift += width;
    }
    let bits = 64 * word as u32 + shift;
    if bits > MAX_BITS {
        return Err(DefinitionError {
            line: 0,
            message: format!(
                "a state takes {bits} bits packed, its pieces and twists where the moves reach; at most {MAX_BITS} are searched as packed states"
            ),
        });
    }
    Ok((fields, twisted, bits))
}

/// Bits the field of position `i` takes: its set's largest piece and its twists.
fn field_width(def: &Definition, layout: &Layout, i: usize) -> Result<u32, DefinitionError> {
    let set = layout.set_of[i];
    let top = def.solved.pieces[set].iter().max().copied().unwrap_or(0);
    let values = (usize::from(top) + 1) * usize::from(layout.modulus[i]);
    let width = usize::BITS - (values - 1).leading_zeros();
    if width > 8 {
        return Err(DefinitionError {
            line: 0,
            message: format!(
                "set {}'s pieces and twists take {width} bits a state; at most 8 are searched as packed states",
                def.sets[set].name
            ),
        });
    }
    Ok(width)
}

/// Each move as a step per field: the field it takes its value from and the twist it adds.
fn steps(moves: &[Move], fields: &[Field], positions: usize) -> Vec<Step> {
    let mut field_of = vec![0u16; positions];
    for (j, f) in fields.iter().enumerate() {
        field_of[f.position] = j as u16;
    }
    moves
        .iter()
        .flat_map(|m| {
            fields.iter().map(|f| Step {
                from: field_of[usize::from(m.from[f.position])],
                add: m.twist[f.position],
            })
        })
        .collect()
}

/// A [`Packing`] whose keys are `K`.
#[derive(Debug, Clone)]
pub struct PackedPerm<K> {
    packing: Packing,
    key: PhantomData<K>,
}

impl Packing {
    /// Lays out the packed key of `def` under `metric`; refuses a state past 128 bits.
    pub fn new(def: Definition, id: &str, metric: Metric) -> Result<Self, DefinitionError> {
        let structure::Flat {
            layout,
            moves,
            solved_pieces,
            solved_twists,
        } = structure::Flat::new(&def, metric)?;
        let (fields, twisted, bits) = fields(&def, &layout, &moves)?;
        let steps = steps(&moves, &fields, layout.positions());
        let forbidden = forbidden_values(&def, &layout, &fields);
        let mut packing = Packing {
            id: id.to_string(),
            def,
            metric,
            layout,
            moves,
            solved_pieces,
            solved_twists,
            fields,
            steps,
            twisted,
            bits,
            forbidden,
            goal: 0,
            first: 1,
        };
        packing.goal = packing.key(&packing.solved_pieces, &packing.solved_twists);
        Ok(packing)
    }

    /// Whether no `Illegal` line forbids `key`.
    #[inline]
    fn legal(&self, key: u128) -> bool {
        let words = [key as u64, (key >> 64) as u64];
        self.forbidden.iter().all(|x| {
            let f = &self.fields[x.field];
            let v = (words[f.word] >> f.shift & f.mask) as usize;
            x.values[v / 64] >> (v % 64) & 1 == 0
        })
    }

    /// Bits of a packed state.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The moves of the metric, powers expanded.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The definition's packed key of flattened pieces and twists.
    pub fn key(&self, pieces: &[u8], twists: &[u8]) -> u128 {
        let mut words = [0u64; 2];
        for f in &self.fields {
            let value = pieces[f.position] * f.modulus + twists[f.position];
            words[f.word] |= u64::from(value) << f.shift;
        }
        u128::from(words[0]) | u128::from(words[1]) << 64
    }

    /// The flattened pieces and twists of a packed key (positions no move touches as
    /// solved).
    pub fn state(&self, key: u128) -> (Vec<u8>, Vec<u8>) {
        let (mut pieces, mut twists) = (self.solved_pieces.clone(), self.solved_twists.clone());
        let words = [key as u64, (key >> 64) as u64];
        for f in &self.fields {
            let value = (words[f.word] >> f.shift & f.mask) as u8;
            pieces[f.position] = value / f.modulus;
            twists[f.position] = value % f.modulus;
        }
        (pieces, twists)
    }

    /// The goal's key.
    pub fn goal(&self) -> u128 {
        self.goal
    }

    /// Writes the key after each move of `key` into `out`: the fields are read once, and
    /// each move gathers them into its key. A move into a state an `Illegal` line forbids
    /// writes `key` itself: the search finds `key` in its own level and drops it, so the
    /// forbidden state is never entered, with no second kind of output for the engine.
    #[inline]
    pub(super) fn successors(&self, key: u128, mut out: impl FnMut(usize, u128)) {
        let mut values = [0u8; MAX_BITS as usize];
        let words = [key as u64, (key >> 64) as u64];
        for (v, f) in values.iter_mut().zip(&self.fields) {
            *v = (words[f.word] >> f.shift & f.mask) as u8;
        }
        let n = self.fields.len();
        for (m, steps) in self.steps.chunks_exact(n.max(1)).enumerate().take(self.moves.len()) {
            let mut next = [0u64; 2];
            for (f, step) in self.fields.iter().zip(steps) {
                let mut v = values[usize::from(step.from)];
                if step.add != 0 {
                    let values = (f.mask as usize) + 1;
                    v = self.twisted[f.table + usize::from(step.add) * values + usize::from(v)];
                }
                next[f.word] |= u64::from(v) << f.shift;
            }
            let next = u128::from(next[0]) | u128::from(next[1]) << 64;
            out(
                m,
                if self.forbidden.is_empty() || self.legal(next) {
                    next
                } else {
                    key
                },
            );
        }
    }

    /// One line: the report id's title.
    pub fn title(&self) -> String {
        text::title(&self.id, self.metric, &self.def)
    }

    /// The rules in a sentence.
    pub fn rules(&self) -> String {
        text::rules(&self.def, self.metric, self.moves.len())
    }

    /// Rows and columns of a drawing.
    pub fn shape(&self) -> (usize, usize) {
        text::shape(&self.def)
    }

    /// What a distance counts.
    pub fn metric(&self) -> String {
        self.metric.unit().into()
    }

    /// The report id.
    pub fn id(&self) -> String {
        self.id.clone()
    }

    /// A key in the definition's one-line notation.
    pub fn render(&self, key: u128) -> String {
        let (p, t) = self.state(key);
        text::render_state(&self.def, &self.layout, &p, &t, self.first)
    }

    /// A key drawn a set a line.
    pub fn draw(&self, key: u128) -> String {
        let (p, t) = self.state(key);
        text::draw_state(&self.def, &self.layout, &p, &t, self.first)
    }

    /// All assemblies of the pieces (saturated at `u64::MAX`) and how they arise.
    pub fn configurations(&self) -> (u128, String) {
        let all = structure::assemblies(&self.def).unwrap_or(u128::MAX);
        (all, text::assemblies_formula(&self.def))
    }

    /// Measures to `goal` (`--goal`) as `ranked`, the definition's ranked form (or why it
    /// has none), reads it; returns that form measured to it too.
    fn aim(&mut self, ranked: Result<PermPuzzle, String>, goal: &str) -> Result<PermPuzzle, String> {
        let quoted = crate::util::quote(goal);
        let ranked = ranked.map_err(|why| {
            format!("--goal {quoted} is read by the ranked puzzle, and this one cannot be ranked ({why})")
        })?;
        let ranked = ranked.with_goal(goal).map_err(|e| format!("--goal {quoted}: {e}"))?;
        let (pieces, twists) = ranked.state(ranked.goal);
        self.goal = self.key(&pieces, &twists);
        self.id = ranked.id();
        Ok(ranked)
    }

    /// The packing with keys of type `K`, if they are wide enough.
    pub fn with_key<K: Key>(self) -> Option<PackedPerm<K>> {
        (self.bits <= K::BITS).then_some(PackedPerm {
            packing: self,
            key: PhantomData,
        })
    }
}

impl<K> PackedPerm<K> {
    /// The packing, whatever the key type.
    pub fn packing(&self) -> &Packing {
        &self.packing
    }
}

impl<K: Key> PackedGraph for PackedPerm<K> {
    type Key = K;

    fn goal_keys(&self) -> Vec<K> {
        vec![K::from_u128(self.packing.goal())]
    }

    fn degree(&self) -> usize {
        self.packing.moves.len()
    }

    /// The moves are closed under inverses (every power, or a move and its inverse), so a
    /// key's successors are its predecessors.
    fn predecessors(&self, key: K, out: &mut [K]) {
        self.packing
            .successors(key.to_u128(), |m, next| out[m] = K::from_u128(next));
    }

    fn symmetric(&self) -> bool {
        true
    }
}

/// A definition's puzzle for the sparse search: packed, with its ranked form where the
/// definition can be ranked (the report is then the dense search's).
pub struct SparsePerm<K> {
    packed: PackedPerm<K>,
    ranked: Option<PermPuzzle>,
    /// Why the definition cannot be ranked, when it cannot.
    unranked: String,
}

impl<K: Key> SparsePerm<K> {
    /// The packed puzzle, with its ranked form if it has one, or why not.
    pub fn new(packed: PackedPerm<K>, ranked: Result<PermPuzzle, String>) -> Self {
        let (ranked, unranked) = match ranked {
            Ok(p) => (Some(p), String::new()),
            Err(why) => (None, why),
        };
        SparsePerm {
            packed,
            ranked,
            unranked,
        }
    }

    /// Counted up to the symmetries of `choice`, which the ranked form finds; one without
    /// a ranked form has the identity alone.
    fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Self, String> {
        self.ranked = match self.ranked {
            Some(ranked) => Some(ranked.with_symmetry(choice)?.by_position()),
            None if choice.asks_for_more() => return Err(choice.missing("none: the definition is not ranked")),
            None => None,
        };
        Ok(self)
    }
}

impl<K: Key> PackedGraph for SparsePerm<K> {
    type Key = K;

    fn goal_keys(&self) -> Vec<K> {
        self.packed.goal_keys()
    }

    fn degree(&self) -> usize {
        self.packed.degree()
    }

    #[inline]
    fn predecessors(&self, key: K, out: &mut [K]) {
        self.packed.predecessors(key, out);
    }

    fn symmetric(&self) -> bool {
        self.packed.symmetric()
    }

    /// Classes are the ranked form's: the report is then the dense search's.
    fn counts_classes(&self) -> bool {
        self.ranked.as_ref().is_some_and(SearchGraph::counts_classes)
    }

    fn classes_at(&self, key: K) -> u64 {
        self.ranked.as_ref().map_or(1, |r| r.classes_at(self.rank(key)))
    }
}

impl<K: Key> PackedPuzzle for SparsePerm<K> {
    type Ranked = PermPuzzle;

    fn id(&self) -> String {
        self.packed.packing.id()
    }

    fn ranked(&self) -> Option<&PermPuzzle> {
        self.ranked.as_ref()
    }

    /// Every key the search reaches is in the goal's class, so it has a rank.
    fn rank(&self, key: K) -> u64 {
        let (p, t) = self.packed.packing.state(key.to_u128());
        self.ranked
            .as_ref()
            .and_then(|r| r.rank_of(&p, &t).ok())
            .unwrap_or(u64::MAX)
    }

    fn unranked(&self) -> Unranked {
        let p = &self.packed.packing;
        Unranked {
            title: p.title(),
            rules: p.rules(),
            invariant: format!(
                "Not ranked ({}): searched as packed states, so no invariant classes were computed; the one class is what the moves reach.",
                self.unranked
            ),
            shape: p.shape(),
            configurations: p.configurations(),
            metric: p.metric(),
        }
    }

    fn render_key(&self, key: K) -> String {
        self.packed.packing.render(key.to_u128())
    }

    fn draw_key(&self, key: K) -> String {
        self.packed.packing.draw(key.to_u128())
    }
}

/// A definition's sparse form, in the narrowest key its packed state fits.
pub enum Sparse {
    /// States of at most 64 bits.
    Narrow(SparsePerm<u64>),
    /// States of 65 to 128 bits.
    Wide(SparsePerm<u128>),
}

impl Sparse {
    /// See [`SparsePerm::with_symmetry`].
    pub fn with_symmetry(self, choice: SymmetryChoice) -> Result<Sparse, String> {
        Ok(match self {
            Sparse::Narrow(p) => Sparse::Narrow(p.with_symmetry(choice)?),
            Sparse::Wide(p) => Sparse::Wide(p.with_symmetry(choice)?),
        })
    }

    /// Packs `def` under `metric`, with its ranked form where it can be ranked, pieces in
    /// positions numbered from `first` (0 for a KPuzzle definition), measured to `goal`
    /// (`--goal`, which the ranked form reads) if given.
    pub fn new(def: Definition, id: &str, metric: Metric, first: u32, goal: Option<&str>) -> Result<Sparse, String> {
        let ranked = PermPuzzle::new(def.clone(), id, metric)
            .map(|p| p.numbered_from(first))
            .map_err(|e| e.message);
        let mut packing = Packing::new(def, id, metric).map_err(|e| e.to_string())?;
        packing.first = first;
        let ranked = match goal {
            Some(goal) => Ok(packing.aim(ranked, goal)?),
            None => ranked,
        };
        if !packing.legal(packing.goal) {
            return Err("the goal is a state the definition's `Illegal` lines forbid".into());
        }
        match packing.clone().with_key::<u64>() {
            Some(narrow) => Ok(Sparse::Narrow(SparsePerm::new(narrow, ranked))),
            None => packing
                .with_key::<u128>()
                .map(|wide| Sparse::Wide(SparsePerm::new(wide, ranked)))
                .ok_or_else(|| "a packed state takes more than 128 bits".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::{PermPuzzle, parse_definition};

    fn packing(name: &str, text: &str, metric: Metric) -> Packing {
        Packing::new(parse_definition(text).expect("the test's own values"), name, metric)
            .expect("the test's own values")
    }

    /// Keys round-trip to states, and each move on a key is the ranked puzzle's move on
    /// the state (the pyraminx twists three sets, with labels that repeat nowhere).
    #[test]
    fn moves_on_keys_are_moves_on_states() {
        let text = include_str!("../../../examples/pyraminx.tws");
        let p = packing("pyraminx", text, Metric::Face);
        let puzzle = PermPuzzle::from_text(text, "pyraminx", Metric::Face).expect("the test's own values");
        assert_eq!(p.moves(), puzzle.moves());
        let (mut pieces, mut twists) = p.state(p.goal());
        let (mut p2, mut t2) = (Vec::new(), Vec::new());
        for step in 0..40 {
            let m = &puzzle.moves()[(step * 7 + 3) % puzzle.moves().len()];
            let key = p.key(&pieces, &twists);
            assert_eq!(p.state(key), (pieces.clone(), twists.clone()));
            let mut next = Vec::new();
            p.successors(key, |_, k| next.push(k));
            puzzle.apply(m, &pieces, &twists, &mut p2, &mut t2);
            let moved = puzzle
                .moves()
                .iter()
                .position(|x| x == m)
                .expect("the test's own values");
            assert_eq!(p.state(next[moved]), (p2.clone(), t2.clone()));
            (pieces, twists) = (p2.clone(), t2.clone());
        }
        assert!(p.bits() <= 64, "{}", p.bits());
    }

    /// A move into a state an `Illegal` line forbids gives the key it came from; every
    /// other move gives the ranked puzzle's state (slice rings forbid a long piece's
    /// second half at four slots).
    #[test]
    fn a_forbidden_state_is_written_as_the_key_it_comes_from() {
        let text = include_str!("../../../examples/slice-rings.tws");
        let p = packing("slice-rings", text, Metric::Face);
        let puzzle = PermPuzzle::from_text(text, "slice-rings", Metric::Face).expect("the test's own values");
        let (mut pieces, mut twists) = p.state(p.goal());
        let (mut p2, mut t2) = (Vec::new(), Vec::new());
        let mut forbidden = 0;
        for step in 0..60 {
            let key = p.key(&pieces, &twists);
            let mut next = Vec::new();
            p.successors(key, |_, k| next.push(k));
            let mut legal = Vec::new();
            for (m, &k) in puzzle.moves().iter().zip(&next) {
                puzzle.apply(m, &pieces, &twists, &mut p2, &mut t2);
                if puzzle.forbidden(&p2).is_some() {
                    assert_eq!(k, key);
                    forbidden += 1;
                } else {
                    assert_eq!(p.state(k), (p2.clone(), t2.clone()));
                    legal.push(k);
                }
            }
            (pieces, twists) = p.state(legal[(step * 7 + 3) % legal.len()]);
        }
        assert!(forbidden > 0, "the walk met no forbidden state");
    }

    #[test]
    fn refuses_states_past_128_bits() {
        // 40 distinct pieces of 6 bits, ten to a 64-bit word: four words.
        let cycle: Vec<String> = (2..=40).chain([1]).map(|i| i.to_string()).collect();
        let text = format!("Set A 40 1\nMove R\nA\n{}\nEnd\n", cycle.join(" "));
        let e = Packing::new(
            parse_definition(&text).expect("the test's own values"),
            "big",
            Metric::Face,
        )
        .expect_err("a refusal");
        assert!(e.message.contains("252 bits"), "{e}");
    }
}
