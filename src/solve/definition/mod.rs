//! Solving a definition's positions by heuristic search, where its distance table does not
//! fit (the 3x3x3: 4.3 x 10^19 positions) or when asked (`--solve-by search`).
//!
//! [`DefinitionSearch`] reads positions as the table route does (moves from the goal or
//! the definition's lines, checked against the invariants the moves keep), chooses
//! projections of the puzzle to fit the memory budget ([`choose`]), builds or loads their
//! distance tables with the engine ([`projection`]), and runs IDA* ([`ida`]) over canonical
//! move sequences ([`canonical`]) with the largest of the projections' distances as its
//! estimate, each read on the position and on some of its conjugates by the puzzle's
//! symmetries ([`probe`]). Each solution is replayed on the definition's moves before it is returned.

pub mod canonical;
pub mod choose;
pub mod fused;
pub mod ida;
pub mod image;
pub mod probe;
pub mod projection;

use super::mod3::DistanceMod3;
use super::table::{DistanceTable, MAX_TABLE_RANKS};
use super::{Outcome, Position, Preparing, Route, Sample, Solution, State, unsolvable};
use crate::puzzle::family::Parts;
use crate::puzzle::perm::{PermPuzzle, text};
use crate::util::human_bytes;
use anyhow::{Context, Result, bail};
use canonical::Canonical;
use choose::Choice;
use probe::Probe;
use projection::{Pattern, Projection, Table, describe_table};

/// The pattern databases' memory when none is given: 1 GiB.
pub const DEFAULT_MEMORY: u64 = 1 << 30;

/// Most probes a node (patterns read on the position and its conjugates), unless told.
/// On the 3x3x3 at 1 GiB, 8 probes (the three tables, five conjugates of the edges')
/// search half the nodes of 3 for about the same time: each probe past the first few
/// prunes less than its ranking costs (`docs/performance.md`).
pub const DEFAULT_PROBES: usize = 8;

/// A definition's positions solved by IDA* with pattern databases.
pub struct DefinitionSearch {
    parts: Parts,
    /// The definition built to read, check and write positions (not to rank them).
    reader: PermPuzzle,
    canonical: Canonical,
    /// The budget for the patterns' tables.
    memory: u64,
    /// The projections, if given rather than chosen.
    given: Option<Vec<Projection>>,
    patterns: Vec<Pattern>,
    /// Most probes a node.
    most_probes: usize,
    probes: Vec<Probe>,
    prepared: bool,
}

impl DefinitionSearch {
    /// The route for the definition `parts`, its pattern databases within `memory` bytes
    /// (`None`: [`DEFAULT_MEMORY`]).
    pub fn new(parts: Parts, memory: Option<u64>) -> Result<Self> {
        let reader = PermPuzzle::reader((*parts.def).clone(), &parts.id, parts.metric, parts.first)
            .map_err(|e| anyhow::anyhow!("{}: {e}", parts.id))?;
        let s = reader.structure();
        let canonical = Canonical::new(&s.moves, &s.layout.modulus, parts.metric);
        Ok(Self {
            parts,
            reader,
            canonical,
            memory: memory.unwrap_or(DEFAULT_MEMORY),
            given: None,
            patterns: Vec::new(),
            most_probes: DEFAULT_PROBES,
            probes: Vec::new(),
            prepared: false,
        })
    }

    /// The same route estimating with `projections` instead of those the budget chooses
    /// (tests, measurements).
    pub fn with_projections(mut self, projections: Vec<Projection>) -> Self {
        self.given = Some(projections);
        self
    }

    /// The same route with at most `most` probes a node (1 or the patterns' count: no
    /// conjugates; tests, measurements).
    pub fn with_probes(mut self, most: usize) -> Self {
        self.most_probes = most;
        self
    }

    /// The canonical-sequence automaton.
    pub fn canonical(&self) -> &Canonical {
        &self.canonical
    }

    /// The projections to build, with their sizes: those given, else those chosen.
    fn choices(&self) -> Result<Vec<Choice>> {
        let def = &self.parts.def;
        let Some(given) = &self.given else {
            return Ok(choose::choose(
                def,
                self.parts.metric,
                self.reader.structure(),
                self.memory,
            ));
        };
        given
            .iter()
            .map(|projection| {
                let name = projection.describe(def, self.parts.first);
                let ranks = projection
                    .ranks(def, self.parts.metric)
                    .with_context(|| format!("{name}: the projection cannot be ranked in 64 bits"))?;
                let (bytes, _) = projection::table_bytes(ranks).with_context(|| describe_table(&name, ranks))?;
                Ok(Choice {
                    projection: projection.clone(),
                    ranks,
                    bytes,
                })
            })
            .collect()
    }

    /// Builds (or loads from the cache) the table of one projection.
    fn pattern(&self, choice: &Choice, how: &Preparing) -> Result<Pattern> {
        let def = &self.parts.def;
        let name = choice.projection.describe(def, self.parts.first);
        let id = format!(
            "{}-projection-{}",
            self.parts.id,
            crate::util::slug(&name).to_lowercase()
        );
        let projected = choice.projection.definition(def);
        let puzzle = PermPuzzle::new(projected, &id, self.parts.metric)
            .map_err(|e| anyhow::anyhow!("{id}: cannot build the projection: {e}"))?;
        let identity = how.identity(&self.parts.id).with("projection", &name);
        let table = match crate::puzzle::SearchGraph::states(&puzzle) <= MAX_TABLE_RANKS {
            true => Table::Bytes(
                DistanceTable::load_or_build(&puzzle, &identity, how.cache, how.note)
                    .with_context(|| format!("{id}: cannot build the projection's table"))?,
            ),
            false => Table::Mod3(
                DistanceMod3::prepare(&puzzle, &identity, how.cache, true, how.note)
                    .with_context(|| format!("{id}: cannot build the projection's table"))?
                    .with_context(|| format!("{id}: no table was built"))?,
            ),
        };
        let offsets = &self.reader.structure().layout.offset;
        Ok(Pattern::new(name, &choice.projection, def, offsets, puzzle, table))
    }

    /// Solves the flattened `pieces` and `twists` (of the goal's class), once prepared.
    fn search(&self, label: &str, pieces: &[u8], twists: &[u8], progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        let s = self.reader.structure();
        let mut hs = Vec::new();
        for probe in &self.probes {
            let pattern = &self.patterns[probe.pattern];
            match pattern.distance(&probe.reader, pieces, twists) {
                Some(d) => hs.push(d),
                None => {
                    return Ok(Outcome::Unsolvable(format!(
                        "no sequence of moves reaches the goal: no moves solve its projection {}",
                        pattern.name
                    )));
                }
            }
        }
        let space = ida::Space {
            moves: &s.moves,
            layout: &s.layout,
            goal: [&s.solved_pieces[..], &s.solved_twists[..]].concat(),
            canonical: &self.canonical,
            patterns: &self.patterns,
            probes: &self.probes,
        };
        let start = [pieces, twists].concat();
        let Some(found) = space.solve(start, hs, progress) else {
            bail!("{label}: no solution within {} moves", ida::MAX_DEPTH);
        };
        self.solution(label, pieces, twists, &found)
    }

    /// The solution `found` from `pieces` and `twists`, replayed on the definition's moves:
    /// an internal error if it does not end at the goal.
    fn solution(&self, label: &str, pieces: &[u8], twists: &[u8], found: &ida::Found) -> Result<Outcome> {
        let s = self.reader.structure();
        let def = self.reader.definition();
        let (mut p, mut t) = (pieces.to_vec(), twists.to_vec());
        let draw = |p: &[u8], t: &[u8]| text::draw_state(def, &s.layout, p, t, self.parts.first);
        let (mut drawings, mut positions) = (vec![draw(&p, &t)], vec![self.reader.render_state(&p, &t)]);
        let (mut p2, mut t2) = (Vec::new(), Vec::new());
        for &m in &found.moves {
            self.reader.apply(&s.moves[m], &p, &t, &mut p2, &mut t2);
            std::mem::swap(&mut p, &mut p2);
            std::mem::swap(&mut t, &mut t2);
            drawings.push(draw(&p, &t));
            positions.push(self.reader.render_state(&p, &t));
        }
        if p != s.solved_pieces || t != s.solved_twists {
            bail!("{label}: internal error: the solution found does not reach the goal when replayed");
        }
        Ok(Outcome::Solved(Solution {
            drawings,
            positions,
            moves: found.moves.iter().map(|&m| s.moves[m].name.clone()).collect(),
            nodes: Some(found.nodes),
            weights: None,
        }))
    }
}

impl Route for DefinitionSearch {
    fn id(&self) -> String {
        self.parts.id.clone()
    }

    fn read(&self, text: &str) -> Result<Position> {
        let state = match self.reader.parse_state(text) {
            Ok((pieces, twists)) => match self.reader.check(&pieces, &twists) {
                Ok(()) => State::Flat(pieces, twists),
                Err(e) => unsolvable(e, text)?,
            },
            Err(e) => unsolvable(e, text)?,
        };
        Ok(Position::read_as(text, state))
    }

    fn prepare(&mut self, how: &Preparing) -> Result<Option<Box<dyn Route>>> {
        if self.prepared {
            return Ok(None);
        }
        let mut choices = self.choices()?;
        // The smallest table first: the search stops looking up at the first estimate that
        // prunes, and a small table's look-ups hit the cache more often.
        choices.sort_by_key(|c| c.bytes);
        let bytes: u64 = choices.iter().map(|c| c.bytes).sum();
        let def = &self.parts.def;
        let names: Vec<String> = choices
            .iter()
            .map(|c| describe_table(&c.projection.describe(def, self.parts.first), c.ranks))
            .collect();
        (how.note)(&match choices.is_empty() {
            true => format!(
                "{}: no pattern database fits in {}: IDA* by its moves alone (an estimate of 0)",
                self.parts.id,
                human_bytes(u128::from(self.memory))
            ),
            false => format!(
                "{}: IDA* with {} pattern database{} in {} (of {}): {}",
                self.parts.id,
                choices.len(),
                if choices.len() == 1 { "" } else { "s" },
                human_bytes(u128::from(bytes)),
                human_bytes(u128::from(self.memory)),
                names.join("; ")
            ),
        });
        // Built the largest first, as the choice counted their memory
        // ([`choose::builds_fit`]), then kept the smallest first.
        let mut patterns = (choices.iter().rev())
            .map(|choice| self.pattern(choice, how))
            .collect::<Result<Vec<_>>>()?;
        patterns.reverse();
        self.patterns = patterns;
        let projections: Vec<Projection> = choices.into_iter().map(|c| c.projection).collect();
        let most = self.most_probes.max(1);
        self.probes = probe::probes(def, self.reader.structure(), &projections, &self.patterns, most);
        let conjugates = self.probes.iter().filter(|p| p.conjugate).count();
        if conjugates > 0 {
            (how.note)(&format!(
                "{}: each read on the position and on {conjugates} of its conjugates by the puzzle's symmetries that tell other pieces apart ({} probes a node at most)",
                self.parts.id,
                self.probes.len()
            ));
        }
        self.prepared = true;
        Ok(None)
    }

    fn prepared_what(&self) -> Option<String> {
        let names: Vec<String> = self
            .patterns
            .iter()
            .map(|p| describe_table(&p.name, p.ranks()))
            .collect();
        self.prepared
            .then(|| format!("pattern databases ({})", names.join("; ")))
    }

    fn solve(&mut self, position: &Position, progress: &mut dyn FnMut(u32, u64)) -> Result<Outcome> {
        let State::Flat(pieces, twists) = &position.state else {
            bail!("{}: this state does not belong to this puzzle", position.label);
        };
        self.search(&position.label, pieces, twists, progress)
    }

    fn walks(&self) -> bool {
        false
    }

    /// Any distance: positions drawn from the moves' group, with no table; a given distance
    /// needs a table, which does not fit.
    fn sample(&mut self, request: Sample, _: &Preparing) -> Result<Vec<String>> {
        let why = match request.distance {
            None => match self.reader.random_positions(request.count, request.seed) {
                Ok(positions) => return Ok(positions),
                Err(why) => format!("no position can be drawn from its group: {why}"),
            },
            Some(_) => "no distance table of it fits (--solve solves it by heuristic search) to draw from at a distance; --sample any draws from all its positions".into(),
        };
        Err(super::sample::SampleError::NoTable(why).into())
    }
}
