//! Jobs: a family of the registry at one size, with its goal, before and after it is built.
//!
//! [`AnyFamily`] erases a [`Family`]'s size type, [`Job`] is one chosen puzzle (its state
//! count and memory known without building it), and [`Built`] erases the puzzle type once
//! built, so the command line handles every family alike while the engine, inside
//! [`Built::analyze`], still runs specialised for the puzzle's own type.

use crate::analysis::{self, ATLAS_CELLS, Analysis, AnalysisError};
use crate::engine::memory;
use crate::engine::sparse::SparseOptions;
use crate::engine::{Level, Options};
use crate::identity::Identity;
use crate::puzzle::family::{Family, Parts, SizeArgs};
use crate::puzzle::perm::LARGEST_GROUP;
use crate::puzzle::perm::packed::Sparse;
use crate::puzzle::{Invariant, Notation, Puzzle, SearchGraph, SymmetryChoice};
use crate::solve::table::TableRoute;
use crate::solve::{Route, SolveBy, Solver};
use std::fmt;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A [`Family`] with its size type erased, as the registry lists it.
pub trait AnyFamily: Sync {
    /// See [`Family::name`].
    fn name(&self) -> &'static str;
    /// See [`Family::about`].
    fn about(&self) -> Option<&'static str>;
    /// See [`Family::flags`].
    fn flags(&self) -> (&'static [&'static str], &'static str);
    /// The job `--puzzle NAME` with these size flags asks for.
    fn choose(&'static self, args: &SizeArgs) -> Result<Job, String>;
    /// See [`Family::extensions`].
    fn extensions(&self) -> &'static [&'static str];
    /// See [`Family::recognises`].
    fn recognises(&self, first_line: &str) -> bool;
    /// The job a `--rules` file of this family's kind describes.
    fn read(&'static self, path: &Path, text: &str, args: &SizeArgs) -> Result<Job, String>;
    /// The jobs `--all` runs.
    fn all(&'static self) -> Vec<Job>;
}

impl<F: Family> AnyFamily for F {
    fn name(&self) -> &'static str {
        Family::name(self)
    }

    fn about(&self) -> Option<&'static str> {
        Family::about(self)
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        Family::flags(self)
    }

    fn choose(&'static self, args: &SizeArgs) -> Result<Job, String> {
        Family::choose(self, args).map(|size| Job::new(self, size))
    }

    fn extensions(&self) -> &'static [&'static str] {
        Family::extensions(self)
    }

    fn recognises(&self, first_line: &str) -> bool {
        Family::recognises(self, first_line)
    }

    fn read(&'static self, path: &Path, text: &str, args: &SizeArgs) -> Result<Job, String> {
        Family::read(self, path, text, args).map(|size| Job::new(self, size))
    }

    fn all(&'static self) -> Vec<Job> {
        Family::all(self).into_iter().map(|size| Job::new(self, size)).collect()
    }
}

/// One puzzle to analyse or solve: a family at one size, with its goal.
#[derive(Clone)]
pub struct Job {
    choice: Arc<dyn Choice>,
    /// `--goal`, as the puzzle renders it (checked when set).
    goal: Option<String>,
    /// How the whole space is searched, once chosen ([`Job::with_route`]).
    route: SearchRoute,
    /// `--symmetry`: the group positions are counted up to.
    symmetry: SymmetryChoice,
    /// The ranks the search covers where the built puzzle decides them ([`Job::ranks`]),
    /// counted once; emptied when the goal or the symmetry changes.
    ranks: OnceLock<u128>,
}

/// How a job's whole space is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchRoute {
    /// Bit planes over the dense ranks (2 bits a rank): [`crate::engine::search`].
    #[default]
    Dense,
    /// Sorted levels of packed states (a key of this many bytes a state):
    /// [`crate::engine::sparse`].
    Sparse {
        /// Bytes of one packed state, 8 or 16.
        key_bytes: u32,
    },
}

/// A family and one of its sizes.
trait Choice: Send + Sync {
    fn family(&self) -> &'static str;
    fn id(&self) -> String;
    fn canonical(&self) -> Vec<(&'static str, String)>;
    fn note(&self) -> Option<String>;
    fn parameters(&self) -> Vec<(String, u64)>;
    fn states(&self) -> u128;
    fn by_class(&self) -> bool;
    fn max_move_cost(&self) -> u32;
    fn beyond(&self) -> Option<String>;
    fn definition(&self) -> Option<Parts>;
    fn tiles(&self) -> Option<(usize, usize)>;
    fn build(&self, goal: Option<&str>, symmetry: SymmetryChoice) -> Result<Box<dyn Built>, String>;
    fn unranked(&self) -> Option<String>;
    fn packed_bits(&self) -> Option<u32>;
    fn reach(&self) -> Option<u128>;
    fn build_sparse(&self, goal: Option<&str>) -> Result<Sparse, String>;
}

struct Chosen<F: Family> {
    family: &'static F,
    size: F::Size,
}

impl<F: Family> Choice for Chosen<F> {
    fn family(&self) -> &'static str {
        self.family.name()
    }

    fn id(&self) -> String {
        self.family.id(&self.size)
    }

    fn canonical(&self) -> Vec<(&'static str, String)> {
        self.family.canonical(&self.size)
    }

    fn note(&self) -> Option<String> {
        self.family.note(&self.size)
    }

    fn parameters(&self) -> Vec<(String, u64)> {
        self.family.parameters(&self.size)
    }

    fn states(&self) -> u128 {
        self.family.states(&self.size)
    }

    fn by_class(&self) -> bool {
        self.family.by_class(&self.size)
    }

    fn max_move_cost(&self) -> u32 {
        self.family.max_move_cost(&self.size)
    }

    fn beyond(&self) -> Option<String> {
        self.family.beyond(&self.size)
    }

    fn definition(&self) -> Option<Parts> {
        self.family.definition(&self.size)
    }

    fn tiles(&self) -> Option<(usize, usize)> {
        self.family.tiles(&self.size)
    }

    fn unranked(&self) -> Option<String> {
        self.family.unranked(&self.size)
    }

    fn packed_bits(&self) -> Option<u32> {
        self.family.packed_bits(&self.size)
    }

    fn reach(&self) -> Option<u128> {
        self.family.reach(&self.size)
    }

    fn build_sparse(&self, goal: Option<&str>) -> Result<Sparse, String> {
        self.family.build_sparse(&self.size, goal)
    }

    fn build(&self, goal: Option<&str>, symmetry: SymmetryChoice) -> Result<Box<dyn Built>, String> {
        let puzzle = self.family.build(&self.size)?;
        let puzzle = match goal {
            Some(goal) => puzzle.with_goal(goal).map_err(|e| e.to_string())?,
            None => puzzle,
        };
        Ok(Box::new(puzzle.with_symmetry(symmetry)?))
    }
}

impl Job {
    fn new<F: Family>(family: &'static F, size: F::Size) -> Self {
        Job {
            choice: Arc::new(Chosen { family, size }),
            goal: None,
            route: SearchRoute::Dense,
            symmetry: SymmetryChoice::default(),
            ranks: OnceLock::new(),
        }
    }

    /// The family's name, e.g. `sliding`.
    pub fn family(&self) -> &'static str {
        self.choice.family()
    }

    /// What decides this puzzle's search and report, hashed (see [`Identity`]): the family,
    /// the report id, the family's canonical description of the size (a rules or definition
    /// file's content), and the goal. The one place an identity is made; callers add the
    /// options that change their output ([`Identity::with`]).
    pub fn identity(&self) -> Identity {
        let head = [("family", self.family().to_string()), ("id", self.choice.id())];
        let goal = ("goal", self.goal.clone().unwrap_or_default());
        // The default (the largest group that holds) follows from the rest: named only
        // when chosen, so the identities of searches made before `--symmetry` stand.
        let symmetry = (self.symmetry != SymmetryChoice::default()).then(|| ("symmetry", self.symmetry.to_string()));
        Identity::new(
            head.into_iter()
                .chain(self.choice.canonical())
                .chain([goal])
                .chain(symmetry),
        )
    }

    /// What reading the puzzle chose that the user should hear (see [`Family::note`]).
    pub fn note(&self) -> Option<String> {
        self.choice.note().map(|n| format!("{self}: {n}"))
    }

    /// The goal given with `--goal`, if any, as the puzzle writes it.
    pub fn goal(&self) -> Option<&str> {
        self.goal.as_deref()
    }

    /// The same puzzle measured to `goal` (`--goal`, in the puzzle's notation), checked
    /// by building the puzzle (the goal is stored as the puzzle renders it); sliding
    /// boards too large to enumerate keep the goal as written for the solver to check.
    pub fn with_goal(mut self, goal: &str) -> Result<Job, String> {
        if self.beyond().is_some() && self.tiles().is_some() {
            self.goal = Some(goal.to_string());
            return Ok(self);
        }
        let built = self
            .choice
            .build(Some(goal), SymmetryChoice::default())
            .map_err(|e| format!("--goal {} is not a goal of {self}: {e}", crate::util::quote(goal)))?;
        self.goal = Some(built.goal_text());
        self.ranks = OnceLock::new();
        Ok(self)
    }

    /// Ranks the search covers, computed without building the puzzle (may be huge).
    pub fn states(&self) -> u128 {
        self.choice.states()
    }

    /// Ranks the search will hold where `fits` refuses the positions': a definition may be
    /// searched one rank per class up to its symmetries (never fewer than one rank for
    /// [`LARGEST_GROUP`] positions), so it is then built to count them, once, and only if
    /// that can change the answer. Elsewhere [`Job::states`].
    pub fn ranks_unless_fit(&self, fits: impl Fn(u128) -> bool) -> u128 {
        let states = self.states();
        let may_fit = || fits(states / LARGEST_GROUP as u128);
        if fits(states) || !self.choice.by_class() || self.beyond().is_some() || self.unranked().is_some() || !may_fit()
        {
            return states;
        }
        *self
            .ranks
            .get_or_init(|| self.build().map_or(states, |built| u128::from(built.ranks())))
    }

    /// What a search of `ranks` covers, for messages: its ranks (a configuration each, or
    /// for flip-k and large lights-out boards, a count of them), or the configurations and
    /// the ranks of their classes up to symmetry.
    pub fn searched(&self, ranks: u128) -> String {
        use crate::util::thousands;
        match ranks < self.states() {
            true => format!(
                "{} configurations, as {} ranks of classes up to its symmetries,",
                thousands(self.states()),
                thousands(ranks)
            ),
            false => format!("{} ranks", thousands(self.states())),
        }
    }

    /// Why the puzzle cannot be enumerated whatever the memory (`None`: it can).
    pub fn beyond(&self) -> Option<String> {
        self.choice.beyond()
    }

    /// A sliding board's rows and columns (the solver's own routes).
    pub fn tiles(&self) -> Option<(usize, usize)> {
        self.choice.tiles()
    }

    /// Whether some moves cost more than others (searched by Dial's buckets, in one process).
    pub fn weighted(&self) -> bool {
        self.choice.max_move_cost() > 1
    }

    /// Whether the heuristic atlas is measured without `--heuristics`: sliding boards of up
    /// to [`ATLAS_CELLS`] cells, with the usual goal (the estimates are to that goal).
    pub fn atlas_by_default(&self) -> bool {
        self.goal.is_none() && self.tiles().is_some_and(|(rows, cols)| rows * cols <= ATLAS_CELLS)
    }

    /// Bit sets the search keeps per rank (see [`memory::bits_per_state`]).
    pub fn bits_per_state(&self) -> u128 {
        memory::bits_per_state(self.choice.max_move_cost())
    }

    /// Bytes the search allocates (see [`memory::memory`]).
    pub fn memory(&self) -> u128 {
        self.memory_of(self.states())
    }

    /// Bytes a search of `ranks` allocates (see [`memory::memory`]).
    pub fn memory_of(&self, ranks: u128) -> u128 {
        memory::memory(ranks, self.choice.max_move_cost())
    }

    /// Bytes each of `processes` processes allocates (see [`memory::memory_per_process`]).
    pub fn memory_per_process(&self, processes: usize) -> u128 {
        memory::memory_per_process(self.states(), processes)
    }

    /// The fewest processes, one a machine of `machine` bytes, whose shares each fit (see
    /// [`memory::machines`]).
    pub fn machines(&self, machine: u64) -> Option<usize> {
        memory::machines(self.states(), machine)
    }

    /// Bytes of a packed state, where the puzzle can be searched as packed states.
    pub fn key_bytes(&self) -> Option<u32> {
        self.choice.packed_bits().map(|bits| if bits <= 64 { 8 } else { 16 })
    }

    /// Why the puzzle cannot be ranked, if it cannot (only the sparse route searches it).
    pub fn unranked(&self) -> Option<String> {
        self.choice.unranked()
    }

    /// The route the rule of [`memory::sparse_route`] picks with `available` bytes of
    /// memory, or the one `forced` names (`--route`); `Err` says why a forced sparse route
    /// cannot be taken.
    pub fn pick_route(&self, forced: Option<&str>, available: Option<u64>) -> Result<SearchRoute, String> {
        let sparse = self.key_bytes().map(|key_bytes| SearchRoute::Sparse { key_bytes });
        // A definition searched by class holds its classes' ranks, not its positions' (the
        // held octahedron: 31 billion ranks of its 230 billion positions).
        let fits = |ranks: u128| available.is_none_or(|free| self.memory_of(ranks) <= memory::usable(free));
        let ranks = self.unranked().is_none().then(|| self.ranks_unless_fit(fits));
        match (forced, sparse) {
            (Some("dense"), _) if ranks.is_some() => Ok(SearchRoute::Dense),
            (Some("dense"), _) => Err(format!(
                "--route dense: {self} cannot be ranked ({}); leave out --route",
                self.unranked().unwrap_or_default()
            )),
            (Some("sparse"), Some(route)) => Ok(route),
            (Some("sparse"), None) => Err(format!(
                "--route sparse: {self} is not searched as packed states (permutation puzzles whose state packs into 128 bits are)"
            )),
            (Some(other), _) => Err(format!(
                "--route {} is not a route: use dense or sparse (leave it out to choose by memory)",
                crate::util::quote(other)
            )),
            (None, Some(route @ SearchRoute::Sparse { key_bytes })) => {
                let wins = memory::sparse_route(ranks, self.reach_estimate(), key_bytes, available);
                Ok(if wins { route } else { SearchRoute::Dense })
            }
            (None, _) => Ok(SearchRoute::Dense),
        }
    }

    /// How many positions the moves reach, if known before the search (a permutation
    /// puzzle's group order); without it the rule falls back on the rank space.
    pub fn reach_estimate(&self) -> Option<u128> {
        self.choice.reach()
    }

    /// The same job searched by `route`.
    pub fn with_route(mut self, route: SearchRoute) -> Job {
        self.route = route;
        self
    }

    /// How the job's whole space is searched.
    pub fn route(&self) -> SearchRoute {
        self.route
    }

    /// Searches the job's space as packed states (the sparse route), with `budget` bytes
    /// at most: see [`analysis::analyze_sparse`].
    pub fn analyze_sparse(
        &self,
        options: &SparseOptions,
        progress: &mut dyn FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, SparseError> {
        let sparse = self
            .choice
            .build_sparse(self.goal.as_deref())
            .and_then(|sparse| sparse.with_symmetry(self.symmetry))
            .map_err(SparseError::Build)?;
        let mut analysis = match &sparse {
            Sparse::Narrow(p) => analysis::analyze_sparse(p, options, self.reach_estimate(), progress),
            Sparse::Wide(p) => analysis::analyze_sparse(p, options, self.reach_estimate(), progress),
        }?;
        analysis.family = self.family().into();
        analysis.search = self.identity().short();
        analysis.parameters = self.choice.parameters();
        Ok(analysis)
    }

    /// Builds the puzzle to enumerate or solve; fails (one line) where it cannot be.
    pub fn build(&self) -> Result<Box<dyn Built>, String> {
        self.choice.build(self.goal.as_deref(), self.symmetry)
    }

    /// The same puzzle counting positions up to the symmetries of `choice`
    /// (`--symmetry`), checked by building it unless it is past enumerating.
    pub fn with_symmetry(mut self, choice: SymmetryChoice) -> Result<Job, String> {
        self.symmetry = choice;
        self.ranks = OnceLock::new();
        if self.beyond().is_none() && choice != SymmetryChoice::default() {
            self.build().map_err(|e| format!("{}: {e}", self.choice.id()))?;
        }
        Ok(self)
    }

    /// `--symmetry` as given.
    pub fn symmetry(&self) -> SymmetryChoice {
        self.symmetry
    }

    /// Searches the whole space of `built` (this job's puzzle) and checks it: see
    /// [`analysis::analyze`]; the result names this job's family and parameters.
    pub fn analyze(
        &self,
        built: &dyn Built,
        options: Options,
        heuristics: bool,
        progress: &mut dyn FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, AnalysisError> {
        let mut analysis = built.analyze(options, heuristics, progress)?;
        analysis.family = self.family().into();
        analysis.search = self.identity().short();
        analysis.parameters = self.choice.parameters();
        Ok(analysis)
    }

    /// [`Job::analyze`] in this process alone, with the atlas where it is on by default.
    pub fn analyze_alone(&self, progress: &mut dyn FnMut(&Level) -> ControlFlow<()>) -> anyhow::Result<Analysis> {
        let built = self.build().map_err(anyhow::Error::msg)?;
        Ok(self.analyze(built.as_ref(), Options::default(), false, progress)?)
    }

    /// The solver for this puzzle: the sliding routes on a sliding board (any size), else
    /// the distance table of the built puzzle, or a definition's IDA* where no table can
    /// hold it.
    pub fn solver(&self) -> anyhow::Result<Solver> {
        self.solver_by(SolveBy::Auto, None)
    }

    /// [`Job::solver`], taking the route `by` asks for (`--solve-by`): a definition's IDA*
    /// ([`crate::solve::definition`]) with pattern databases in at most `memory` bytes
    /// (`None`: the default), or its table.
    pub fn solver_by(&self, by: SolveBy, memory: Option<u64>) -> anyhow::Result<Solver> {
        if let Some((rows, cols)) = self.tiles() {
            if by == SolveBy::Search {
                anyhow::bail!(
                    "{self}: --solve-by search is for definition files; a sliding board chooses its own route"
                );
            }
            let puzzle = self.build().ok().and_then(|built| built.sliding());
            return Ok(Solver::sliding(rows, cols, self.goal(), puzzle)?.with_identity(self.identity()));
        }
        let definition = self.choice.definition();
        let searched = |parts: Parts| -> anyhow::Result<Solver> {
            if self.goal().is_some() {
                anyhow::bail!("{self}: --goal is not taken by the heuristic search of a definition: leave it out");
            }
            let route = crate::solve::definition::DefinitionSearch::new(parts, memory)?;
            Ok(Solver::by_search(Box::new(route)).with_identity(self.identity()))
        };
        match (by, definition) {
            (SolveBy::Search, Some(parts)) => return searched(parts),
            (SolveBy::Search, None) => {
                anyhow::bail!("{self}: --solve-by search is for definition files; this puzzle is solved by its table")
            }
            (SolveBy::Auto, Some(parts)) if self.beyond().is_some() => return searched(parts),
            _ => {}
        }
        let built = self.build().map_err(|e| anyhow::anyhow!("{self}: {e}"))?;
        if let Some(why) = built.route_refusal() {
            match self.choice.definition().filter(|_| by == SolveBy::Auto) {
                Some(parts) => return searched(parts),
                None => anyhow::bail!(why),
            }
        }
        Ok(Solver::table(built.route()).with_identity(self.identity()))
    }
}

impl PartialEq for Job {
    fn eq(&self, other: &Self) -> bool {
        self.family() == other.family() && self.to_string() == other.to_string()
    }
}

impl Eq for Job {}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Job({self})")
    }
}

impl fmt::Display for Job {
    /// The report id: the family's id of the size, then `-goal-...` with `--goal`, then
    /// `-symmetry-...` with a `--symmetry` other than the default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.choice.id())?;
        if let Some(goal) = &self.goal {
            f.write_str(&crate::util::goal_suffix(goal))?;
        }
        match self.symmetry == SymmetryChoice::default() {
            true => Ok(()),
            false => write!(f, "-symmetry-{}", self.symmetry.to_string().replace('+', "-")),
        }
    }
}

/// Why a sparse analysis failed.
#[derive(Debug, thiserror::Error)]
pub enum SparseError {
    /// The packed form could not be built.
    #[error("{0}")]
    Build(String),
    /// The search or its check failed.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}

/// A built puzzle with its type erased; its methods run the engine specialised for it.
pub trait Built: Send + Sync {
    /// The puzzle's own report id (the job's, [`Job`]'s `Display`, names its folder).
    fn id(&self) -> String;
    /// Ranks the search covers.
    fn ranks(&self) -> u64;
    /// See [`SearchGraph::bins`]: how a search on disk cuts its parts.
    fn bins(&self) -> Option<crate::puzzle::Bins>;
    /// See [`SearchGraph::locality`]: where a search on disk cuts its parts otherwise.
    fn locality(&self) -> Vec<u64>;
    /// Largest cost of one move.
    fn max_move_cost(&self) -> u32;
    /// How this program numbers the puzzle's positions, hashed (a sample of ranks with
    /// their renderings and successors): part of a search's identity.
    fn fingerprint(&self) -> String;
    /// Configurations the invariant expects the search to reach (for progress bars).
    fn expected_reachable(&self) -> u64;
    /// The goal in the puzzle's notation (its first goal).
    fn goal_text(&self) -> String;
    /// The puzzle as a sliding board (for the solver's sliding routes).
    fn sliding(&self) -> Option<crate::puzzle::sliding::Sliding>;
    /// See [`analysis::analyze`].
    fn analyze(
        &self,
        options: Options,
        heuristics: bool,
        progress: &mut dyn FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, AnalysisError>;
    /// Solving positions by the distance table of the whole space.
    fn route(self: Box<Self>) -> Box<dyn Route>;
    /// Why [`Built::route`] could not solve it (too many ranks for any table), if so.
    fn route_refusal(&self) -> Option<String>;
}

impl<P: Puzzle + Send + Sync + 'static> Built for P {
    fn id(&self) -> String {
        Notation::id(self)
    }

    fn ranks(&self) -> u64 {
        self.states()
    }

    fn bins(&self) -> Option<crate::puzzle::Bins> {
        SearchGraph::bins(self)
    }

    fn locality(&self) -> Vec<u64> {
        SearchGraph::locality(self)
    }

    fn max_move_cost(&self) -> u32 {
        SearchGraph::max_move_cost(self)
    }

    fn fingerprint(&self) -> String {
        format!("{:016x}", crate::solve::cache::fingerprint(self))
    }

    fn expected_reachable(&self) -> u64 {
        self.classes()
            .iter()
            .filter(|c| c.solvable)
            .map(|c| c.configurations)
            .sum()
    }

    fn goal_text(&self) -> String {
        self.render(self.goals()[0])
    }

    fn sliding(&self) -> Option<crate::puzzle::sliding::Sliding> {
        self.tile_board().cloned()
    }

    fn analyze(
        &self,
        options: Options,
        heuristics: bool,
        progress: &mut dyn FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, AnalysisError> {
        analysis::analyze(self, options, heuristics, progress)
    }

    fn route(self: Box<Self>) -> Box<dyn Route> {
        Box::new(TableRoute::new(self.for_solving()))
    }

    fn route_refusal(&self) -> Option<String> {
        crate::solve::table::refusal(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::family::SizeArgs;
    use crate::registry::FAMILIES;

    /// A family describes a size's id, state count and largest move cost without building
    /// it (the report folder is named from the descriptor, the summary from the puzzle):
    /// every size `--all` runs, and every family's default size, must agree with the
    /// puzzle built.
    #[test]
    fn every_built_puzzle_agrees_with_its_descriptor() {
        let defaults = FAMILIES.iter().filter_map(|f| f.choose(&SizeArgs::default()).ok());
        let jobs: Vec<_> = FAMILIES.iter().flat_map(|f| f.all()).chain(defaults).collect();
        assert!(jobs.len() >= FAMILIES.len(), "{jobs:?}");
        for job in jobs {
            let built = job.build().expect("a size --all runs builds");
            assert_eq!(built.id(), job.to_string(), "{job}");
            // A definition may rank classes up to its symmetries: by positions, it has them all.
            let plain = job
                .clone()
                .with_symmetry(crate::puzzle::SymmetryChoice::NONE)
                .expect("no symmetry");
            let positions = plain.build().expect("a size --all runs builds").ranks();
            assert_eq!(u128::from(positions), job.states(), "{job}");
            assert!(built.ranks() <= positions, "{job}");
            assert_eq!(built.max_move_cost() > 1, job.weighted(), "{job}");
            assert_eq!(built.max_move_cost(), job.choice.max_move_cost(), "{job}");
        }
    }
}
