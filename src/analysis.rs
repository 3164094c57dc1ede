//! One plain result type, [`Analysis`], and the function that produces it from a puzzle.
//!
//! Report writers and charts only read an `Analysis`; everything in it except
//! [`Analysis::seconds`] and [`Analysis::threads`] is the same on every run.

use crate::engine::exchange::{Exchange, Local};
use crate::engine::{self, EngineError, Level, Options};
use crate::puzzle::Puzzle;
use serde::Serialize;
use std::ops::ControlFlow;
use std::time::Instant;
use thiserror::Error;

/// One row of `classes.csv`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassRow {
    /// Label of the class (e.g. a syndrome).
    pub class: String,
    /// Configurations in the class.
    pub configurations: u64,
    /// What the invariant predicts.
    pub solvable: bool,
    /// Configurations of the class the search reached.
    pub reached: u64,
    /// One configuration of the class.
    pub example: String,
}

/// Everything known about one puzzle's state space after the search.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Family name as on the command line, e.g. `sliding`.
    pub family: String,
    /// Report id, e.g. `sliding-2x5`.
    pub id: String,
    /// Human name.
    pub title: String,
    /// Rules and goal.
    pub rules: String,
    /// Why the classes are what they are.
    pub invariant: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Extra size parameters (e.g. `coins`, `flip` for flip-k), in order.
    pub parameters: Vec<(String, u64)>,
    /// All configurations, reachable or not.
    pub configurations: u64,
    /// How `configurations` arises, e.g. `9!`.
    pub configurations_formula: String,
    /// What a distance counts: `moves`, or the name of the moves' cost such as `flips`.
    pub metric: String,
    /// Configurations at each distance from the goal (each total cost, for weighted
    /// moves: some costs may have none).
    pub levels: Vec<u64>,
    /// The solvability classes with what the search reached in each.
    pub classes: Vec<ClassRow>,
    /// Up to 20 configurations at the maximum distance, one line each.
    pub antipode_examples: Vec<String>,
    /// The same configurations drawn as grids.
    pub antipode_drawings: Vec<String>,
    /// The goal configurations drawn as grids.
    pub goal_drawings: Vec<String>,
    /// Rank of the move matrix over GF(2), for coin puzzles.
    pub gf2_rank: Option<u32>,
    /// Distance of the puzzle's classic start, if it has one (`None` inside: unsolvable).
    pub start_distance: Option<Option<usize>>,
    /// The heuristic atlas of a sliding board, when it was measured.
    pub atlas: Option<crate::atlas::Atlas>,
    /// Wall time of the search, of its check against the invariant and of the atlas,
    /// seconds (writing the report files is not included).
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
}

impl Analysis {
    /// Configurations the search reached.
    pub fn reachable(&self) -> u64 {
        self.levels.iter().sum()
    }

    /// Largest distance to the goal.
    pub fn max_distance(&self) -> usize {
        self.levels.len().saturating_sub(1)
    }

    /// Configurations at the largest distance.
    pub fn antipodes(&self) -> u64 {
        self.levels.last().copied().unwrap_or(0)
    }

    /// Mean distance over the reachable configurations.
    pub fn mean_distance(&self) -> f64 {
        let total: f64 = self.levels.iter().enumerate().map(|(d, &n)| d as f64 * n as f64).sum();
        total / self.reachable() as f64
    }

    /// Configurations of solvable classes that the search did not reach.
    pub fn solvable_unreached(&self) -> u64 {
        self.classes
            .iter()
            .filter(|c| c.solvable)
            .map(|c| c.configurations - c.reached)
            .sum()
    }
}

/// What the caller knows about a puzzle beyond the [`Puzzle`] trait.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// Family name, e.g. `nine-tails`.
    pub family: String,
    /// Extra size parameters for the summary.
    pub parameters: Vec<(String, u64)>,
    /// GF(2) rank of the moves.
    pub gf2_rank: Option<u32>,
    /// A classic start rank whose distance the summary reports.
    pub start: Option<u64>,
    /// Whether every configuration of a solvable class must be reached (true unless moves
    /// have preconditions, as in nine tails).
    pub exact_invariant: bool,
}

/// Why an analysis failed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AnalysisError {
    /// The engine stopped.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// An estimate of the heuristic atlas exceeds a true distance.
    #[error(transparent)]
    Inadmissible(#[from] crate::atlas::Inadmissible),
    /// The search and the invariant disagree.
    #[error("the search disagrees with the invariant in class {class}: {reached} reached of {configurations}, predicted {}", if *solvable { "solvable" } else { "unsolvable" })]
    Disagreement {
        /// Class label.
        class: String,
        /// Class size.
        configurations: u64,
        /// Reached by the search.
        reached: u64,
        /// What the invariant said.
        solvable: bool,
    },
}

/// Searches the whole space of `puzzle` and checks the result against its invariant.
///
/// `progress` sees each level as it completes and may stop the search. Runs on the
/// current rayon pool.
pub fn analyze<P: Puzzle>(
    puzzle: &P,
    extras: &Extras,
    progress: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Analysis, AnalysisError> {
    analyze_on(
        puzzle,
        extras,
        &mut Local::new(puzzle.states()),
        Options::default(),
        progress,
    )
}

/// [`analyze`] as one of the processes of a search shared through `exchange`; every
/// process returns the same analysis (timings aside). `options.watch` is set here.
pub fn analyze_on<P: Puzzle>(
    puzzle: &P,
    extras: &Extras,
    exchange: &mut dyn Exchange,
    mut options: Options,
    mut progress: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Analysis, AnalysisError> {
    let started = Instant::now();
    let search = if puzzle.max_move_cost() > 1 {
        // Weighted moves: Dial's buckets, in one process (the command line refuses --hosts
        // and --checkpoint for them).
        let mut start_distance = None;
        let mut search = engine::dial(puzzle, |level| {
            if let Some(start) = extras.start {
                if level.depth == 0 && puzzle.goals().contains(&start) {
                    start_distance = Some(0);
                } else if start_distance.is_none() && level.next.contains(start) {
                    start_distance = Some(level.depth + 1);
                }
            }
            progress(level)
        })?;
        search.watched = extras.start.map(|_| start_distance).into_iter().collect();
        search
    } else {
        options.watch = extras.start.into_iter().collect();
        engine::search(puzzle, exchange, options, progress)?
    };
    let classes: Vec<ClassRow> = puzzle
        .classes()
        .into_iter()
        .zip(&search.reached_by_class)
        .map(|(c, &reached)| ClassRow {
            class: c.label,
            configurations: c.configurations,
            solvable: c.solvable,
            reached,
            example: c.example,
        })
        .collect();
    for c in &classes {
        let wrong = if c.solvable {
            extras.exact_invariant && c.reached != c.configurations
        } else {
            c.reached != 0
        };
        if wrong {
            return Err(AnalysisError::Disagreement {
                class: c.class.clone(),
                configurations: c.configurations,
                reached: c.reached,
                solvable: c.solvable,
            });
        }
    }
    let (rows, cols) = puzzle.shape();
    let (configurations, configurations_formula) = puzzle.configurations();
    Ok(Analysis {
        family: extras.family.clone(),
        id: puzzle.id(),
        title: puzzle.title(),
        rules: puzzle.rules(),
        invariant: puzzle.invariant(),
        rows,
        cols,
        parameters: extras.parameters.clone(),
        configurations,
        configurations_formula,
        metric: puzzle.metric(),
        levels: search.levels.clone(),
        classes,
        antipode_examples: search.antipodes.iter().map(|&r| puzzle.render(r)).collect(),
        antipode_drawings: search.antipodes.iter().map(|&r| puzzle.draw(r)).collect(),
        goal_drawings: puzzle.goals().iter().map(|&r| puzzle.draw(r)).collect(),
        gf2_rank: extras.gf2_rank,
        start_distance: extras.start.map(|_| search.watched.first().copied().flatten()),
        atlas: None,
        seconds: started.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    })
}
