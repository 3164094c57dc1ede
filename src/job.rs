//! Jobs: a family of the registry at one size, with its goal, before and after it is built.
//!
//! [`AnyFamily`] erases a [`Family`]'s size type, [`Job`] is one chosen puzzle (its state
//! count and memory known without building it), and [`Built`] erases the puzzle type once
//! built, so the command line handles every family alike while the engine, inside
//! [`Built::analyze`], still runs specialised for the puzzle's own type.

use crate::analysis::{self, ATLAS_CELLS, Analysis, AnalysisError};
use crate::engine::exchange::Partition;
use crate::engine::{Level, Options};
use crate::puzzle::family::{Family, SizeArgs};
use crate::puzzle::{Notation, Puzzle};
use crate::solve::table::TableRoute;
use crate::solve::{Route, Solver};
use std::fmt;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

/// Bits the engine keeps per rank (two planes: unseen, this level, next level, done).
pub const BITS_PER_STATE: u128 = 2;

/// Bytes of ranks one process may have sent that their owners have not yet taken (the
/// exchange blocks the sender beyond it); a process of N holds at most N times this in
/// exchange buffers: what it sent, and what each other process sent to it.
pub const IN_FLIGHT_BYTES: u64 = 8 << 20;

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
}

/// A family and one of its sizes.
trait Choice: Send + Sync {
    fn family(&self) -> &'static str;
    fn id(&self) -> String;
    fn parameters(&self) -> Vec<(String, u64)>;
    fn states(&self) -> u128;
    fn max_move_cost(&self) -> u32;
    fn beyond(&self) -> Option<String>;
    fn tiles(&self) -> Option<(usize, usize)>;
    fn build(&self, goal: Option<&str>) -> Result<Box<dyn Built>, String>;
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

    fn parameters(&self) -> Vec<(String, u64)> {
        self.family.parameters(&self.size)
    }

    fn states(&self) -> u128 {
        self.family.states(&self.size)
    }

    fn max_move_cost(&self) -> u32 {
        self.family.max_move_cost(&self.size)
    }

    fn beyond(&self) -> Option<String> {
        self.family.beyond(&self.size)
    }

    fn tiles(&self) -> Option<(usize, usize)> {
        self.family.tiles(&self.size)
    }

    fn build(&self, goal: Option<&str>) -> Result<Box<dyn Built>, String> {
        let puzzle = self.family.build(&self.size)?;
        let puzzle = match goal {
            Some(goal) => puzzle.with_goal(goal).map_err(|e| e.to_string())?,
            None => puzzle,
        };
        Ok(Box::new(puzzle))
    }
}

impl Job {
    fn new<F: Family>(family: &'static F, size: F::Size) -> Self {
        Job {
            choice: Arc::new(Chosen { family, size }),
            goal: None,
        }
    }

    /// The family's name, e.g. `sliding`.
    pub fn family(&self) -> &'static str {
        self.choice.family()
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
            .build(Some(goal))
            .map_err(|e| format!("--goal {} is not a goal of {self}: {e}", crate::util::quote(goal)))?;
        self.goal = Some(built.goal_text());
        Ok(self)
    }

    /// Ranks the search covers, computed without building the puzzle (may be huge).
    pub fn states(&self) -> u128 {
        self.choice.states()
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

    /// Bit sets the search keeps per rank: 2 for the BFS (plus its occupancy summaries,
    /// see [`Job::memory`]), the largest move cost + 2 for Dial's search (a bucket per
    /// pending cost, and the visited set).
    pub fn bits_per_state(&self) -> u128 {
        match self.choice.max_move_cost() {
            1 => BITS_PER_STATE,
            cost => u128::from(cost) + 2,
        }
    }

    /// Bytes the search allocates: each bit set is whole 64-bit words; the BFS adds two
    /// occupancy summaries of a bit per 256 ranks (0.4% more).
    pub fn memory(&self) -> u128 {
        let sets = self.states().div_ceil(64).saturating_mul(self.bits_per_state() * 8);
        let summaries = if self.weighted() {
            0
        } else {
            2 * self.states().div_ceil(256 * 64) * 8
        };
        sets.saturating_add(summaries)
    }

    /// Bytes each of `processes` processes allocates: its slice of the rank space (the first
    /// slice, the largest) at the same bits a state, plus the exchange's bounded buffers.
    pub fn memory_per_process(&self, processes: usize) -> u128 {
        if processes <= 1 {
            return self.memory();
        }
        let states = self.states();
        let slice = match u64::try_from(states) {
            Ok(states) => u128::from(Partition::new(states, processes).slice(0).end),
            Err(_) => states / processes as u128,
        };
        slice.saturating_mul(BITS_PER_STATE) / 8
            + 2 * slice.div_ceil(256 * 64) * 8
            + u128::from(IN_FLIGHT_BYTES) * processes as u128
    }

    /// The fewest processes, one a machine of `machine` bytes, whose shares each fit in 90% of
    /// it (as the memory guard asks); `None` if no number of them would do.
    pub fn machines(&self, machine: u64) -> Option<usize> {
        let fits = |k: usize| self.memory_per_process(k) <= u128::from(machine) * 9 / 10;
        let mut k = 1;
        while !fits(k) {
            k = k.checked_mul(2).filter(|&k| k <= 1 << 24)?;
        }
        // The smallest k between k/2 (too few, unless k is 1) and k that fits.
        let (mut low, mut high) = (k / 2, k);
        while high - low > 1 {
            let mid = (low + high) / 2;
            if fits(mid) { high = mid } else { low = mid }
        }
        Some(high)
    }

    /// Builds the puzzle to enumerate or solve; fails (one line) where it cannot be.
    pub fn build(&self) -> Result<Box<dyn Built>, String> {
        self.choice.build(self.goal.as_deref())
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
        analysis.parameters = self.choice.parameters();
        Ok(analysis)
    }

    /// [`Job::analyze`] in this process alone, with the atlas where it is on by default.
    pub fn analyze_alone(&self, progress: &mut dyn FnMut(&Level) -> ControlFlow<()>) -> anyhow::Result<Analysis> {
        let built = self.build().map_err(anyhow::Error::msg)?;
        Ok(self.analyze(built.as_ref(), Options::default(), false, progress)?)
    }

    /// The solver for this puzzle: the sliding routes on a sliding board (any size), else
    /// the distance table of the built puzzle.
    pub fn solver(&self) -> anyhow::Result<Solver> {
        match self.tiles() {
            Some((rows, cols)) => {
                let puzzle = self.build().ok().and_then(|built| built.sliding());
                Solver::sliding(rows, cols, self.goal(), puzzle)
            }
            None => {
                let built = self.build().map_err(|e| anyhow::anyhow!("{self}: {e}"))?;
                if let Some(why) = built.route_refusal() {
                    anyhow::bail!(why);
                }
                Ok(Solver::table(built.route()))
            }
        }
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
    /// The report id: the family's id of the size, then `-goal-...` with `--goal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.choice.id())?;
        match &self.goal {
            Some(goal) => f.write_str(&crate::util::goal_suffix(goal)),
            None => Ok(()),
        }
    }
}

/// A built puzzle with its type erased; its methods run the engine specialised for it.
pub trait Built: Send + Sync {
    /// Ranks the search covers.
    fn ranks(&self) -> u64;
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
    fn ranks(&self) -> u64 {
        self.states()
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
        Box::new(TableRoute::new(*self))
    }

    fn route_refusal(&self) -> Option<String> {
        crate::solve::table::refusal(self)
    }
}
