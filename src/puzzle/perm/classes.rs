//! Searching a definition's positions one class at a time: a dense ranking of the classes
//! up to its symmetries (Kociemba's sym-coordinates), so that the search's bit planes hold
//! an entry per class rather than per position and shrink by about the group's order.
//!
//! The rank's highest coordinate (most often a set's arrangement of pieces) is closed under
//! the group: the image of a position's coordinate depends on that coordinate alone. Its
//! values fall into classes; a table gives each value its class and a group element that
//! takes it to the class's representative (its least value). A position's class index is
//! then the coordinate's class, followed by the other coordinates of the position moved by
//! that element, least over the elements that fix the representative (its stabiliser):
//! equal for every position of a class, and different between classes.
//!
//! The highest coordinate, so that a class index's position is its class's least rank, the
//! member the search by positions counts it at, and the classes' indices are in the order of
//! those ranks: every route keeps and shows the same representatives.
//!
//! A position whose coordinate is already its representative with a trivial stabiliser is
//! indexed by its digits alone. The others are moved and their lower coordinates ranked: a
//! neighbour from the position it was reached from, the move and the symmetry in one pass
//! over the pieces, not unranked. (Tables of each coordinate's images, Kociemba's, would
//! need each lower coordinate closed too; a set's twists are not: a symmetry turns a piece
//! by its label as well as its place.)
//!
//! The classes are those of the symmetries; the inverse of a position, where it counts,
//! pairs classes without being ranked ([`PermPuzzle::classes_at_index`]).

use super::PermPuzzle;
use super::blocks::Blocks;
use super::conjugate::{self, Conjugation, Digits, Lower, MAX_LOWER, Part};
use super::coords::{Kind, Table};
use super::structure::Parity;
use super::symmetry;
use std::sync::Arc;

/// Most values of the coordinate the table covers: 6 bytes each, 100 MB.
const MAX_VALUES: u64 = 1 << 24;

/// Whether a highest coordinate of `size` values can be reduced to its classes by a table.
pub(super) fn tabulated(size: u64) -> bool {
    (2..=MAX_VALUES).contains(&size)
}

/// The most symmetries a class ranking takes: a class is never larger, so a search by
/// class holds at least one rank for this many positions.
pub const LARGEST_GROUP: usize = u16::MAX as usize;

/// Fewest patterns of blocks per symmetry for a set to be ranked by blocks: fewer, and
/// the patterns' classes are few, each fixed by many symmetries, so that the classes of
/// positions are far more than the positions over the group's order.
const PATTERNS_PER_SYMMETRY: u64 = 2;

/// Positions off the goal on which the coordinate's closure is checked, per element.
const CLOSURE_CHECKS: u64 = 64;

/// Ranks on which the conjugation tables are checked against the pass over the pieces.
const CONJUGATION_CHECKS: u64 = 4096;

/// The class index of a definition's positions (see the module's documentation).
#[derive(Debug, Clone)]
pub struct ClassRanks {
    /// The coordinate reduced: its place value (the other coordinates' ranks) and size.
    stride: u64,
    size: u64,
    /// Per value of the coordinate: its class, and the element taking it to the class's
    /// representative.
    class_of: Vec<u32>,
    to_rep: Vec<u16>,
    /// Per class: its representative value, and (from `stab_start[k]` to
    /// `stab_start[k + 1]` in `stab`) the elements other than the identity that fix it.
    reps: Vec<u32>,
    stab_start: Vec<u32>,
    stab: Vec<u16>,
    /// Class indices: classes of the coordinate times `stride`.
    pub states: u64,
    /// Per symmetry `e` but the identity and move `m`, at `((e - 1) * moves + m) * points`:
    /// where each point goes under `m` then `e` ([`symmetry::Action::after`]), so that a
    /// neighbour is moved to its class's representative in one pass.
    after: Vec<(u16, u8)>,
    points: usize,
    /// The lower coordinates' images under each element, where they are tables: a class
    /// index is then look-ups, never a pass over the pieces ([`conjugate`]).
    pub(super) conj: Option<Conjugation>,
    /// The highest coordinate's move table, where it is small ([`Coord::move_table`](super::coords::Coord::move_table)):
    /// a neighbour's value, so the element taking it to its representative, is known
    /// before the neighbour is made, which is then made once and never ranked in full
    /// ([`PermPuzzle::any_moved_neighbour`]).
    top_moves: Option<Table>,
}

/// Scratch space for moving positions by the group.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    p: Vec<u8>,
    t: Vec<u8>,
    q: Vec<u8>,
    u: Vec<u8>,
    ip: Vec<u8>,
    it: Vec<u8>,
    buf: Vec<u8>,
    /// The position entered ([`PermPuzzle::enter_class`]), whose neighbours are indexed.
    rp: Vec<u8>,
    rt: Vec<u8>,
}

/// Runs `f` with this thread's scratch space: asked of every rank of a level, a class's
/// size and count would otherwise allocate their vectors each time.
pub fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Scratch> = Default::default();
    }
    SCRATCH.with_borrow_mut(f)
}

impl ClassRanks {
    /// The rank of the position of class index `index`: its representative's.
    pub fn full(&self, index: u64) -> u64 {
        let (k, r) = (index / self.stride, index % self.stride);
        u64::from(self.reps[k as usize]) * self.stride + r
    }

    fn stabiliser(&self, k: usize) -> &[u16] {
        &self.stab[self.stab_start[k] as usize..self.stab_start[k + 1] as usize]
    }

    /// The class index of rank `full`, whose highest coordinate is `v`, from its digits
    /// alone, if `v` is its class's representative with a trivial stabiliser (most ranks).
    #[inline]
    fn at_once(&self, v: usize, full: u64) -> Option<u64> {
        let k = self.class_of[v] as usize;
        (self.to_rep[v] == 0 && self.stab_start[k] == self.stab_start[k + 1])
            .then(|| k as u64 * self.stride + full % self.stride)
    }
}

impl PermPuzzle {
    /// Elements of the group counted: each symmetry (the identity first), and with the
    /// inverse, each again after inverting the position.
    fn elements(&self) -> usize {
        self.geometric() << usize::from(self.symmetry.inverse)
    }

    /// The symmetries alone (the identity first): the group the classes are ranked under.
    /// The inverse is counted, not ranked: it turns a move before a position into one
    /// after it, so a class's neighbours would be those of its representative's inverse
    /// too, a second expansion of every rank.
    fn geometric(&self) -> usize {
        self.symmetry.syms.len() + 1
    }

    /// The image of the position in `x.p`, `x.t` under element `e`, into `x.q`, `x.u`.
    fn move_by(&self, e: usize, x: &mut Scratch) {
        let n = x.p.len();
        for v in [&mut x.q, &mut x.u, &mut x.ip, &mut x.it] {
            v.resize(n, 0);
        }
        let (sym, inverted) = (e % self.geometric(), e >= self.geometric());
        let (p, t): (&[u8], &[u8]) = match inverted {
            true => {
                symmetry::invert(&self.s, &x.p, &x.t, &mut x.ip, &mut x.it);
                (&x.ip, &x.it)
            }
            false => (&x.p, &x.t),
        };
        match sym {
            0 => {
                x.q.copy_from_slice(p);
                x.u.copy_from_slice(t);
            }
            _ => self.symmetry.syms[sym - 1].apply(&self.s, p, t, &mut x.q, &mut x.u),
        }
    }

    /// The coordinate's value (at `stride`, of `size`) of the image of rank `full` under `e`.
    fn digit_image(&self, c: usize, full: u64, e: usize, x: &mut Scratch) -> u64 {
        self.coords.unrank(&self.s, full, &mut x.p, &mut x.t, &mut x.buf);
        self.move_by(e, x);
        let coord = &self.coords.list[c];
        self.coords.value(&self.s, coord, &x.q, &x.u, &mut x.buf)
    }

    /// The class ranking of this puzzle's group, if its highest coordinate is closed under
    /// the group and has at most [`MAX_VALUES`] values, and the ranking at least halves the
    /// ranks.
    pub(super) fn class_ranks(&self) -> Option<ClassRanks> {
        if self.geometric() < 2 || !self.illegal.is_empty() || self.geometric() > LARGEST_GROUP {
            return None;
        }
        let c = self.coords.list.len().checked_sub(1)?;
        if !tabulated(self.coords.list[c].size) {
            return None;
        }
        let mut x = Scratch::default();
        if !self.closed(c, &mut x) {
            return None;
        }
        let mut ranks = self.class_table(c, &mut x)?;
        if ranks.states > self.coords.states / 2 {
            return None;
        }
        for sym in &self.symmetry.syms {
            for m in &self.s.moves {
                let to = sym.after(&self.s, m);
                ranks.points = to.len();
                ranks.after.extend(to);
            }
        }
        ranks.conj = self.conjugation(&ranks, &mut x);
        ranks.top_moves = self.coords.list[c].move_table(&self.s);
        Some(ranks)
    }

    /// This puzzle searched by class with the set of its highest coordinate ranked by
    /// blocks ([`Blocks`]), when that set's pieces are distinct and no other set's parity
    /// follows its own, the symmetries keep a partition of them into blocks with a pattern
    /// of at most [`MAX_VALUES`] values, and the class ranking of that pattern exists.
    pub(super) fn blocked(self) -> Option<Self> {
        let top = self.coords.list.last()?;
        let i = top.comp;
        let comp = &self.s.components[i];
        let read = self
            .s
            .components
            .iter()
            .any(|d| matches!(&d.parity, Parity::Tied(on) if on.contains(&i)));
        let half = match &comp.parity {
            Parity::Free => false,
            Parity::Tied(on) if on.is_empty() => true,
            _ => return None,
        };
        let plain = comp.reached.is_none() && comp.joint.is_none() && comp.moduli.is_none() && comp.follows.is_none();
        if top.kind != Kind::Pieces || !comp.distinct || !plain || read || self.geometric() < 2 {
            return None;
        }
        // Each symmetry as a permutation of the set's piece codes (its alphabet's indices).
        let actions = self
            .symmetry
            .syms
            .iter()
            .map(|sym| {
                let code = |&l: &u8| {
                    comp.alphabet
                        .binary_search(&sym.relabelled(comp.set, l))
                        .ok()
                        .map(|c| c as u8)
                };
                comp.alphabet.iter().map(code).collect::<Option<Vec<u8>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        let least = PATTERNS_PER_SYMMETRY * self.geometric() as u64;
        let blocks = Blocks::find(&actions, comp.len(), half, least, MAX_VALUES)?;
        let mut blocked = self.relaid(|s| s.components[i].blocks = Some(blocks))?;
        blocked.by_class = Some(Arc::new(blocked.class_ranks()?));
        Some(blocked)
    }

    /// Whether the image of coordinate `c` under each element depends on `c` alone: checked
    /// on positions spread over the ranks, against the position with the other coordinates
    /// at zero.
    fn closed(&self, c: usize, x: &mut Scratch) -> bool {
        let (stride, size, states) = (self.coords.list[c].stride, self.coords.list[c].size, self.coords.states);
        (1..=CLOSURE_CHECKS).all(|i| {
            let full = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % states;
            let own = full / stride % size * stride;
            (0..self.geometric()).all(|e| self.digit_image(c, full, e, x) == self.digit_image(c, own, e, x))
        })
    }

    /// The inverse of each element, found on a position that only the identity fixes
    /// (`None` if none of a few tried is).
    fn inverses(&self, x: &mut Scratch) -> Option<Vec<u16>> {
        let n = self.geometric();
        let states = self.coords.states;
        let probe = (1..16u64)
            .map(|i| states / 17 * i + i * 31 % states.max(1))
            .find(|&r| {
                self.coords.unrank(&self.s, r % states, &mut x.p, &mut x.t, &mut x.buf);
                let (p, t) = (x.p.clone(), x.t.clone());
                (1..n).all(|e| {
                    self.move_by(e, x);
                    (&x.q, &x.u) != (&p, &t)
                })
            })?;
        self.coords
            .unrank(&self.s, probe % states, &mut x.p, &mut x.t, &mut x.buf);
        let (p, t) = (x.p.clone(), x.t.clone());
        let images: Vec<(Vec<u8>, Vec<u8>)> = (0..n)
            .map(|e| {
                self.move_by(e, x);
                (x.q.clone(), x.u.clone())
            })
            .collect();
        images
            .iter()
            .map(|(q, u)| {
                (0..n).find_map(|h| {
                    x.p.clone_from(q);
                    x.t.clone_from(u);
                    self.move_by(h, x);
                    ((&x.q, &x.u) == (&p, &t)).then_some(h as u16)
                })
            })
            .collect()
    }

    /// The table of coordinate `c`'s classes: each value, in ascending order, not yet met
    /// is a representative; its images are its class.
    fn class_table(&self, c: usize, x: &mut Scratch) -> Option<ClassRanks> {
        let inverse = self.inverses(x)?;
        let (stride, size) = (self.coords.list[c].stride, self.coords.list[c].size);
        let mut class_of = vec![u32::MAX; size as usize];
        let mut to_rep = vec![0u16; size as usize];
        let (mut reps, mut stab_start, mut stab) = (Vec::new(), vec![0u32], Vec::new());
        for v in 0..size {
            if class_of[v as usize] != u32::MAX {
                continue;
            }
            let k = u32::try_from(reps.len()).ok()?;
            reps.push(v as u32);
            for (e, &back) in inverse.iter().enumerate() {
                let image = self.digit_image(c, v * stride, e, x) as usize;
                if image == v as usize && e > 0 {
                    stab.push(e as u16);
                }
                if class_of[image] == u32::MAX {
                    class_of[image] = k;
                    to_rep[image] = back;
                }
            }
            stab_start.push(u32::try_from(stab.len()).ok()?);
        }
        Some(ClassRanks {
            stride,
            size,
            class_of,
            to_rep,
            states: reps.len() as u64 * stride,
            reps,
            stab_start,
            stab,
            after: Vec::new(),
            points: 0,
            conj: None,
            top_moves: None,
        })
    }

    /// The lower coordinates' tables of `ranks` ([`conjugate`]), if they fit and index
    /// sampled ranks as the pass over the pieces does.
    fn conjugation(&self, ranks: &ClassRanks, x: &mut Scratch) -> Option<Conjugation> {
        let top = self.coords.list.len() - 1;
        let g = self.geometric() as u64;
        let lower = &self.coords.list[..top];
        // Each coordinate's images, and at most as many again of twists' parts.
        let entries: u64 = lower.iter().map(|c| 2 * c.size * g).sum::<u64>() + ranks.size + ranks.stab.len() as u64;
        if top > MAX_LOWER || entries > conjugate::MAX_ENTRIES {
            return None;
        }
        let lower = (0..top)
            .map(|i| self.lower_images(ranks, i, x))
            .collect::<Option<Vec<_>>>()?;
        let conj = Conjugation { lower };
        self.conjugation_agrees(ranks, &conj, x).then_some(conj)
    }

    /// Lower coordinate `i`'s images under each element; for twists whose pieces move, with
    /// their arrangement at zero, and what each arrangement adds.
    fn lower_images(&self, ranks: &ClassRanks, i: usize, x: &mut Scratch) -> Option<Lower> {
        let c = &self.coords.list[i];
        let g = self.geometric();
        let image = (0..g)
            .flat_map(|e| (0..c.size).map(move |d| (e, d)))
            .map(|(e, d)| u32::try_from(self.digit_image(i, d * c.stride, e, x)).ok())
            .collect::<Option<Vec<_>>>()?;
        // A set whose pieces follow another's arrangement has that arrangement's labels.
        let comp = self.s.components[c.comp].follows.unwrap_or(c.comp);
        let by = match c.kind {
            Kind::Twists => self
                .coords
                .list
                .iter()
                .position(|a| a.comp == comp && a.kind == Kind::Pieces),
            Kind::Pieces | Kind::Joint | Kind::Pattern => None,
        };
        let part = match by {
            None => Part::None,
            Some(by) => {
                let digits = Digits::new(self.s.components[c.comp].orientations, c.size)?;
                let part = self.twists_part(ranks, i, by, &digits, x)?;
                match by == self.coords.list.len() - 1 {
                    true => Part::Top { part, digits },
                    false => Part::Lower { by, part, digits },
                }
            }
        };
        Some(Lower {
            stride: c.stride,
            size: c.size,
            image,
            part,
        })
    }
    /// What each arrangement (coordinate `by`) adds to twists `i`'s image, digit by digit:
    /// its image with the twists at zero, less the image of both at zero. Per element and
    /// arrangement ([`Part::Lower`]); for the highest coordinate, per value under the element
    /// taking it to its representative, then per stabilising element ([`Part::Top`]).
    fn twists_part(
        &self,
        ranks: &ClassRanks,
        i: usize,
        by: usize,
        digits: &Digits,
        x: &mut Scratch,
    ) -> Option<Vec<u32>> {
        let g = self.geometric();
        let zero: Vec<u64> = (0..g).map(|e| self.digit_image(i, 0, e, x)).collect();
        let mut part_of =
            |full: u64, e: usize| u32::try_from(digits.sub(self.digit_image(i, full, e, x), zero[e])).ok();
        if by < self.coords.list.len() - 1 {
            let b = &self.coords.list[by];
            return (0..g)
                .flat_map(|e| (0..b.size).map(move |a| (e, a)))
                .map(|(e, a)| part_of(a * b.stride, e))
                .collect();
        }
        let mut part = (0..ranks.size)
            .map(|v| part_of(v * ranks.stride, usize::from(ranks.to_rep[v as usize])))
            .collect::<Option<Vec<_>>>()?;
        for (k, &rep) in ranks.reps.iter().enumerate() {
            for &e in ranks.stabiliser(k) {
                part.push(part_of(u64::from(rep) * ranks.stride, usize::from(e))?);
            }
        }
        Some(part)
    }

    /// Whether the tables index ranks spread over the space as the pass over the pieces does.
    fn conjugation_agrees(&self, ranks: &ClassRanks, conj: &Conjugation, x: &mut Scratch) -> bool {
        let states = self.coords.states;
        (1..=CONJUGATION_CHECKS).all(|i| {
            let full = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % states;
            let v = (full / ranks.stride % ranks.size) as usize;
            self.coords.unrank(&self.s, full, &mut x.p, &mut x.t, &mut x.buf);
            self.table_index(ranks, conj, v, full) == self.index_of_position(ranks, v, x)
        })
    }

    /// The class index of rank `full`, whose highest coordinate is `v`, by the tables: its
    /// lower digits moved by the element taking `v` to its representative, least over the
    /// representative's stabiliser.
    #[inline]
    fn table_index(&self, ranks: &ClassRanks, conj: &Conjugation, v: usize, full: u64) -> u64 {
        let k = ranks.class_of[v] as usize;
        let d = conj.digits(full);
        let mut moved = [0u32; MAX_LOWER];
        conj.moved(usize::from(ranks.to_rep[v]), v, &d, &mut moved);
        let mut least = conj.rank(&moved);
        let first = ranks.size as usize + ranks.stab_start[k] as usize;
        let mut image = [0u32; MAX_LOWER];
        for (j, &e) in ranks.stabiliser(k).iter().enumerate() {
            conj.moved(usize::from(e), first + j, &moved, &mut image);
            least = least.min(conj.rank(&image));
        }
        k as u64 * ranks.stride + least
    }

    /// The class index of the position of rank `full`.
    pub(super) fn class_index(&self, ranks: &ClassRanks, full: u64, x: &mut Scratch) -> u64 {
        let v = (full / ranks.stride % ranks.size) as usize;
        if let Some(index) = ranks.at_once(v, full) {
            return index;
        }
        if let Some(conj) = &ranks.conj {
            return self.table_index(ranks, conj, v, full);
        }
        self.coords.unrank(&self.s, full, &mut x.p, &mut x.t, &mut x.buf);
        self.index_of_position(ranks, v, x)
    }

    /// Says whether a class is indexed by class index `index` (its position's other
    /// coordinates the least its stabiliser makes of them); without tables, unranks its
    /// position (its representative) into `x.rp`, `x.rt`, where
    /// [`PermPuzzle::neighbour_index`] moves it.
    pub(super) fn enter_class(&self, ranks: &ClassRanks, index: u64, x: &mut Scratch) -> bool {
        let full = ranks.full(index);
        let v = (full / ranks.stride % ranks.size) as usize;
        if let Some(conj) = &ranks.conj {
            return ranks.at_once(v, full).is_some() || self.table_index(ranks, conj, v, full) == index;
        }
        self.coords.unrank(&self.s, full, &mut x.rp, &mut x.rt, &mut x.buf);
        if ranks.at_once(v, full).is_some() {
            return true;
        }
        x.p.clone_from(&x.rp);
        x.t.clone_from(&x.rt);
        self.index_of_position(ranks, v, x) == index
    }

    /// The class index of neighbour `n`, by move `m`, of the class index entered
    /// ([`PermPuzzle::enter_class`]): by the tables, or without them that position moved by
    /// `m` where a symmetry must move it, not unranked from `n` (an unranking costs more
    /// than the move).
    pub(super) fn neighbour_index(&self, ranks: &ClassRanks, m: usize, n: u64, x: &mut Scratch) -> u64 {
        let v = (n / ranks.stride % ranks.size) as usize;
        if let Some(index) = ranks.at_once(v, n) {
            return index;
        }
        if let Some(conj) = &ranks.conj {
            return self.table_index(ranks, conj, v, n);
        }
        self.moved_index(ranks, m, v, x)
    }

    /// The class index of the entered position's neighbour by move `m`, whose highest
    /// coordinate is `v`: the entered position moved by `m` and the element taking `v` to
    /// its representative in one pass ([`symmetry::Action::after`]), least over the
    /// representative's stabiliser.
    fn moved_index(&self, ranks: &ClassRanks, m: usize, v: usize, x: &mut Scratch) -> u64 {
        let n_points = x.rp.len();
        x.p.resize(n_points, 0);
        x.t.resize(n_points, 0);
        match usize::from(ranks.to_rep[v]) {
            0 => self.apply(&self.s.moves[m], &x.rp, &x.rt, &mut x.p, &mut x.t),
            h => {
                let to = &ranks.after[((h - 1) * self.s.moves.len() + m) * ranks.points..][..ranks.points];
                self.symmetry.syms[h - 1].apply_after(to, &self.s, &x.rp, &x.rt, &mut x.p, &mut x.t);
            }
        }
        self.least_image(ranks, v, x)
    }

    /// Whether `test` holds for the class index of a neighbour of the class index `index`
    /// entered ([`PermPuzzle::enter_class`], without tables), generating them in the moves'
    /// order only until the first that passes; `None` without the highest coordinate's move
    /// table. Each neighbour's highest coordinate is read from the table, so the entered
    /// position is moved by the move and the element taking it to its representative in
    /// one pass, and only its lower coordinates are ranked: neither the neighbour's full
    /// rank nor its position before the symmetry is made.
    pub(super) fn any_moved_neighbour(
        &self,
        ranks: &ClassRanks,
        index: u64,
        x: &mut Scratch,
        mut test: impl FnMut(u64) -> bool,
    ) -> Option<bool> {
        let top = ranks.top_moves.as_ref()?;
        let moves = self.s.moves.len();
        let v = (ranks.full(index) / ranks.stride % ranks.size) as usize;
        Some((0..moves).any(|m| {
            let w = top.get(v * moves + m) as usize;
            test(self.moved_index(ranks, m, w, x))
        }))
    }

    /// The class index of the position in `x.p`, `x.t`, whose highest coordinate is `v`: its
    /// image under the element taking `v` to its representative, least over the
    /// representative's stabiliser. The images share the highest coordinate, so only the
    /// others are ranked and compared.
    fn index_of_position(&self, ranks: &ClassRanks, v: usize, x: &mut Scratch) -> u64 {
        let h = usize::from(ranks.to_rep[v]);
        if h != 0 {
            self.move_by(h, x);
            std::mem::swap(&mut x.p, &mut x.q);
            std::mem::swap(&mut x.t, &mut x.u);
        }
        self.least_image(ranks, v, x)
    }

    /// The class index of the position in `x.p`, `x.t` already moved to the representative
    /// of `v`'s class: least over the representative's stabiliser.
    fn least_image(&self, ranks: &ClassRanks, v: usize, x: &mut Scratch) -> u64 {
        let k = ranks.class_of[v] as usize;
        let mut least = self.lower_rank(&x.p, &x.t, &mut x.buf);
        for &e in ranks.stabiliser(k) {
            self.move_by(usize::from(e), x);
            least = least.min(self.lower_rank(&x.q, &x.u, &mut x.buf));
        }
        k as u64 * ranks.stride + least
    }

    /// The rank of a position less its highest coordinate's part.
    fn lower_rank(&self, pieces: &[u8], twists: &[u8], buf: &mut Vec<u8>) -> u64 {
        let lower = &self.coords.list[..self.coords.list.len() - 1];
        lower
            .iter()
            .map(|c| self.coords.value(&self.s, c, pieces, twists, buf) * c.stride)
            .sum()
    }

    /// How many classes of the whole group (with the inverse, if counted) the class index
    /// `index` counts for: a class and its inverses' are one, counted at the lesser index
    /// (the lesser representative: its least rank, as the search by positions counts it).
    pub(super) fn classes_at_index(&self, ranks: &ClassRanks, index: u64, x: &mut Scratch) -> u64 {
        if !self.symmetry.inverse {
            return 1;
        }
        self.coords
            .unrank(&self.s, ranks.full(index), &mut x.ip, &mut x.it, &mut x.buf);
        let n = x.ip.len();
        x.p.resize(n, 0);
        x.t.resize(n, 0);
        symmetry::invert(&self.s, &x.ip, &x.it, &mut x.p, &mut x.t);
        if ranks.conj.is_some() {
            let inverse = self.coords.rank(&self.s, &x.p, &x.t, &mut x.buf);
            return u64::from(index <= self.class_index(ranks, inverse, x));
        }
        let Some(top) = self.coords.list.last() else {
            return 1;
        };
        let v = self.coords.value(&self.s, top, &x.p, &x.t, &mut x.buf) as usize;
        u64::from(index <= self.index_of_position(ranks, v, x))
    }

    /// The rank of the inverse of the position of rank `full`.
    #[cfg(test)]
    pub(super) fn inverse_rank(&self, full: u64, x: &mut Scratch) -> u64 {
        self.coords.unrank(&self.s, full, &mut x.p, &mut x.t, &mut x.buf);
        let n = x.p.len();
        x.ip.resize(n, 0);
        x.it.resize(n, 0);
        symmetry::invert(&self.s, &x.p, &x.t, &mut x.ip, &mut x.it);
        self.coords.rank(&self.s, &x.ip, &x.it, &mut x.buf)
    }

    /// Whether `rank` is the least rank of its class: the one rank the search by positions
    /// counts the class at (a class index's own position, searching by class). The images'
    /// highest coordinate decides most comparisons; only a tie ranks the image in full.
    pub(super) fn least_of_class(&self, rank: u64) -> bool {
        let Some(top) = self.coords.list.last() else {
            return true;
        };
        let own = rank / top.stride;
        with_scratch(|x| {
            self.coords.unrank(&self.s, rank, &mut x.p, &mut x.t, &mut x.buf);
            (1..self.elements()).all(|e| {
                self.move_by(e, x);
                match self.coords.value(&self.s, top, &x.q, &x.u, &mut x.buf).cmp(&own) {
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Equal => self.coords.rank(&self.s, &x.q, &x.u, &mut x.buf) >= rank,
                }
            })
        })
    }

    /// The rank of the `member`-th position (ascending, below [`PermPuzzle::class_size`])
    /// of the class of index `index`: an image of its representative under a symmetry, so
    /// that a drawn class is a real position, each of its class's as likely.
    pub(super) fn member(&self, ranks: &ClassRanks, index: u64, member: u64, x: &mut Scratch) -> u64 {
        let full = ranks.full(index);
        self.coords.unrank(&self.s, full, &mut x.p, &mut x.t, &mut x.buf);
        let mut images: Vec<u64> = (0..self.geometric())
            .map(|e| {
                self.move_by(e, x);
                self.coords.rank(&self.s, &x.q, &x.u, &mut x.buf)
            })
            .collect();
        images.sort_unstable();
        images.dedup();
        images.get(member as usize).copied().unwrap_or(full)
    }

    /// Positions in the class of index `index` (under the symmetries alone): their number
    /// over its representative's stabiliser's. An element fixing the position fixes its highest
    /// coordinate, so only the coordinate's stabiliser is tried: most classes have none.
    pub(super) fn class_size(&self, ranks: &ClassRanks, index: u64, x: &mut Scratch) -> u64 {
        let stabiliser = ranks.stabiliser((index / ranks.stride) as usize);
        if stabiliser.is_empty() {
            return self.geometric() as u64;
        }
        self.coords
            .unrank(&self.s, ranks.full(index), &mut x.p, &mut x.t, &mut x.buf);
        let fixed = 1 + stabiliser
            .iter()
            .filter(|&&e| {
                self.move_by(usize::from(e), x);
                (&x.q, &x.u) == (&x.p, &x.t)
            })
            .count();
        (self.geometric() / fixed) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Invariant, SearchGraph, SymmetryChoice};

    fn puzzle(file: &str) -> PermPuzzle {
        let text = std::fs::read_to_string(format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"))).expect("example");
        PermPuzzle::from_text(&text, file, super::super::Metric::Face)
            .expect("definition")
            .with_symmetry(SymmetryChoice::default())
            .expect("group")
    }

    /// Every position's class index, taken over all ranks: each representative has its own
    /// index, every image of a position the position's; the indices count as many classes
    /// as the search by positions counts at their least ranks, and their sizes sum to the
    /// positions.
    fn check_by_brute_force(p: &PermPuzzle) {
        let ranks = p.by_class.clone().expect("searched by class");
        let mut x = Scratch::default();
        let plain = p.clone().by_position();
        let mut seen = std::collections::HashSet::new();
        let mut least = 0u64;
        for full in 0..p.coords.states {
            seen.insert(p.class_index(&ranks, full, &mut x));
            least += plain.classes_at(full);
        }
        for &i in &seen {
            assert_eq!(p.class_index(&ranks, ranks.full(i), &mut x), i, "representative of {i}");
        }
        for full in (0..p.coords.states).step_by(997) {
            let i = p.class_index(&ranks, full, &mut x);
            p.coords.unrank(&p.s, full, &mut x.p, &mut x.t, &mut x.buf);
            let (p0, t0) = (x.p.clone(), x.t.clone());
            for e in 0..p.geometric() {
                x.p.clone_from(&p0);
                x.t.clone_from(&t0);
                p.move_by(e, &mut x);
                let image = p.coords.rank(&p.s, &x.q, &x.u, &mut x.buf);
                assert_eq!(p.class_index(&ranks, image, &mut x), i, "{full} under {e}");
            }
        }
        let counted: u64 = seen.iter().map(|&i| p.classes_at_index(&ranks, i, &mut x)).sum();
        assert_eq!(counted, least, "classes");
        let total: u64 = seen.iter().map(|&i| p.class_size(&ranks, i, &mut x)).sum();
        assert_eq!(total, p.coords.states, "positions");
    }

    /// A search of the classes' ranks, level by level, against the plain search of the
    /// positions: the classes' sizes at each distance add up to its positions.
    fn check_levels(p: &PermPuzzle) {
        let levels = |q: &PermPuzzle| {
            let mut memo = super::super::Memo::default();
            let mut seen = vec![false; q.states() as usize];
            let mut frontier = q.goals();
            seen[frontier[0] as usize] = true;
            let mut counts = Vec::new();
            while !frontier.is_empty() {
                counts.push(frontier.iter().map(|&r| q.multiplicity(r)).sum::<u64>());
                let mut next = Vec::new();
                for &r in &frontier {
                    q.for_each_predecessor(&mut memo, r, |n| {
                        if !std::mem::replace(&mut seen[n as usize], true) {
                            next.push(n);
                        }
                    });
                }
                frontier = next;
            }
            counts
        };
        assert_eq!(levels(p), levels(&p.clone().by_position()));
    }

    /// The class index of rank `full` the long way, as it was first written: unranked,
    /// moved to its class's representative, ranked in full, least over the stabiliser.
    fn unranked_index(p: &PermPuzzle, ranks: &ClassRanks, full: u64, x: &mut Scratch) -> u64 {
        let v = (full / ranks.stride % ranks.size) as usize;
        let (k, h) = (ranks.class_of[v] as usize, usize::from(ranks.to_rep[v]));
        p.coords.unrank(&p.s, full, &mut x.p, &mut x.t, &mut x.buf);
        if h != 0 {
            p.move_by(h, x);
            std::mem::swap(&mut x.p, &mut x.q);
            std::mem::swap(&mut x.t, &mut x.u);
        }
        let mut least = p.coords.rank(&p.s, &x.p, &x.t, &mut x.buf);
        for &e in ranks.stabiliser(k) {
            p.move_by(usize::from(e), x);
            least = least.min(p.coords.rank(&p.s, &x.q, &x.u, &mut x.buf));
        }
        k as u64 * ranks.stride + least % ranks.stride
    }

    /// Every `step`-th class index: whether it is entered, its neighbours' class indices
    /// (each moved from the entered position, the move and symmetry in one pass) and how
    /// many classes it counts for (its inverse moved, not ranked) are as unranking each
    /// rank, moving and ranking it again makes them.
    fn check_against_unranking(p: &PermPuzzle, step: usize) {
        let ranks = p.by_class.as_deref().expect("searched by class");
        let mut untabled = ranks.clone();
        untabled.conj = None;
        for ranks in [ranks, &untabled] {
            check_ranks_against_unranking(p, ranks, step);
        }
    }

    /// [`check_against_unranking`] of one class ranking, with its tables or without.
    fn check_ranks_against_unranking(p: &PermPuzzle, ranks: &ClassRanks, step: usize) {
        let (mut memo, mut x) = (super::super::Memo::default(), Scratch::default());
        let mut entered = 0;
        for index in (0..ranks.states).step_by(step) {
            let full = ranks.full(index);
            let indexed = p.enter_class(ranks, index, &mut memo.class);
            assert_eq!(indexed, unranked_index(p, ranks, full, &mut x) == index, "{index}");
            if !indexed {
                continue;
            }
            entered += 1;
            let mut found = Vec::new();
            p.any_position_neighbour(&mut memo, full, |n| {
                found.push(n);
                false
            });
            assert_eq!(found.len(), p.s.moves.len());
            let mut wanted = Vec::new();
            for (m, &n) in found.iter().enumerate() {
                let want = unranked_index(p, ranks, n, &mut x);
                assert_eq!(p.neighbour_index(ranks, m, n, &mut memo.class), want, "{index} by {m}");
                assert_eq!(p.class_index(ranks, n, &mut memo.class), want, "{n}");
                wanted.push(want);
            }
            // Made from the entered position by the highest coordinate's move table.
            if ranks.conj.is_none() {
                let mut moved = Vec::new();
                let made = p.any_moved_neighbour(ranks, index, &mut memo.class, |i| {
                    moved.push(i);
                    false
                });
                assert_eq!(made, Some(false), "{index}: the move table");
                assert_eq!(moved, wanted, "{index}");
            }
            let counted = match p.symmetry.inverse {
                true => u64::from(index <= unranked_index(p, ranks, p.inverse_rank(full, &mut x), &mut x)),
                false => 1,
            };
            assert_eq!(p.classes_at_index(ranks, index, &mut memo.class), counted, "{index}");
        }
        assert!(entered > 0);
    }

    /// The held octahedron's corners (as `examples/fto-corners-edges.tws` turns them with
    /// U, F, L and R) beside four markers, one a face, each turn cycling the other three
    /// in the order the faces stand round the held corner.
    const CORNERS_AND_MARKERS: &str = "
Set CORNERS 6 4
Set MARKERS 4 1
Move U
CORNERS
1 2 3 5 6 4
0 0 0 0 0 0
MARKERS
1 4 2 3
End
Move L
CORNERS
1 4 3 6 5 2
0 2 0 0 0 2
MARKERS
4 2 1 3
End
Move F
CORNERS
1 6 2 4 5 3
0 0 0 0 0 0
MARKERS
4 1 3 2
End
Move R
CORNERS
1 2 6 4 3 5
0 0 0 0 2 2
MARKERS
3 1 2 4
End
";

    /// The corners are one coordinate, the 960 states their moves make (of 60 x 4^4 that
    /// their pieces' and twists' coordinates cover), ranked highest: the class table covers
    /// those 960 alone, and the classes are exact.
    /// The 6 edges of a tetrahedron, each move a third turn of the three edges at a vertex
    /// (counterclockwise seen from outside): 360 positions, and 24 symmetries that keep
    /// the three pairs of opposite edges.
    const TETRAHEDRON_EDGES: &str = "Name TetrahedronEdges\nSet EDGE 6 1\n\
        Solved\nEDGE\n1 2 3 4 5 6\nEnd\n\
        Move V0\nEDGE\n2 3 1 4 5 6\nEnd\nMove V1\nEDGE\n5 2 3 1 4 6\nEnd\n\
        Move V2\nEDGE\n1 4 3 6 5 2\nEnd\nMove V3\nEDGE\n1 2 6 4 3 5\nEnd\n";

    #[test]
    fn a_set_ranked_by_blocks_is_searched_by_class() {
        let p = PermPuzzle::from_text(TETRAHEDRON_EDGES, "tetrahedron-edges", super::super::Metric::Face)
            .expect("definition")
            .with_symmetry(SymmetryChoice::default())
            .expect("group");
        assert_eq!(p.geometric(), 24);
        // Its whole arrangement is small enough to be tabulated itself; ranked by blocks
        // all the same, as a set too large for a table would be.
        let b = p.clone().blocked().expect("blocks");
        let top = b.coords.list.last().map(|c| (c.kind, c.size));
        assert_eq!(top, Some((Kind::Pattern, 90)));
        assert_eq!(b.coords.states, 360);
        check_by_brute_force(&b);
        check_levels(&b);
        check_against_unranking(&b, 1);
        // The solver's table is of the same classes; with no symmetry, of positions ranked
        // the plain way again.
        let solving = b.clone().for_solving();
        assert_eq!(solving.states(), b.states());
        assert!(!solving.counts_classes());
        let plain = p.with_symmetry(SymmetryChoice::NONE).expect("none").for_solving();
        assert!(plain.s.components.iter().all(|c| c.blocks.is_none()));
        assert_eq!((plain.coords.list.len(), plain.states()), (1, 360));
    }

    #[test]
    fn a_set_ranked_by_what_its_moves_make_is_searched_by_class() {
        let p = PermPuzzle::from_text(CORNERS_AND_MARKERS, "corners", super::super::Metric::Face)
            .expect("definition")
            .with_symmetry(SymmetryChoice::default())
            .expect("group");
        let top = p.coords.list.last().map(|c| (c.kind, c.size));
        assert_eq!(top, Some((Kind::Joint, 960)));
        assert!(p.by_class.as_ref().is_some_and(|r| r.size == 960));
        check_by_brute_force(&p);
        check_levels(&p);
        check_against_unranking(&p, 1);
    }

    /// The held octahedron's corners and edges (`examples/fto-corners-edges.tws`), too many
    /// to search in a test: its edges have no tables, so every neighbour is made from the
    /// entered position by the corners' move table. About 300 class indices spread over
    /// all 31,374,604,800.
    #[test]
    fn the_held_octahedrons_neighbours_are_indexed_as_by_unranking() {
        let p = puzzle("fto-corners-edges.tws");
        let ranks = p.by_class.as_deref().expect("searched by class");
        assert!(ranks.conj.is_none() && ranks.top_moves.is_some());
        assert!(matches!(p.coords.plan, super::super::Plan::Generic));
        check_ranks_against_unranking(&p, ranks, 104_582_017);
    }

    /// Ranked under its 6 symmetries, the inverse counted beside them (12 in all).
    #[test]
    fn the_held_pocket_cube_by_class() {
        let p = puzzle("pocket-cube-held.tws");
        assert!(p.by_class.is_some());
        check_by_brute_force(&p);
        check_levels(&p);
    }

    /// With the conjugation tables and without.
    #[test]
    fn the_held_pocket_cubes_neighbours_are_indexed_as_by_unranking() {
        let p = puzzle("pocket-cube-held.tws");
        assert!(p.by_class.as_ref().is_some_and(|r| r.conj.is_some()));
        check_against_unranking(&p, 1);
    }

    /// Its 48 symmetries move the corners' twists by their pieces' labels too: the twists are
    /// not closed, so the symmetry's pass over the moved position is what is checked. One
    /// class index in 13.
    #[test]
    fn the_pocket_cubes_neighbours_are_indexed_as_by_unranking() {
        let p = puzzle("pocket-cube.tws");
        assert!(p.by_class.as_ref().is_some_and(|r| r.conj.is_some()));
        check_against_unranking(&p, 13);
    }

    /// Its tips and axial pieces are sets of one piece each, which the symmetries carry onto
    /// each other: no coordinate's images are a table of its own, so it keeps the pass over
    /// the pieces. One class index in 11.
    #[test]
    fn the_pyraminxs_neighbours_are_indexed_as_by_unranking() {
        let p = puzzle("pyraminx.tws");
        assert!(p.by_class.as_ref().is_some_and(|r| r.conj.is_none()));
        check_against_unranking(&p, 11);
    }
}
