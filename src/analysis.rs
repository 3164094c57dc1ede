//! One plain result type, [`Analysis`], and the function that produces it from a puzzle.
//!
//! Report writers and charts only read an `Analysis`; everything in it except
//! [`Analysis::seconds`] and [`Analysis::threads`] is the same on every run.

use crate::atlas::{Collector, astar};
use crate::engine::sparse::{SparseDistances, SparseOptions};
use crate::engine::{self, Distances, EngineError, Level, Observer, Options};
use crate::heuristics::Estimates;
use crate::puzzle::{Notation, PackedPuzzle, Puzzle, SearchGraph, Symmetry};
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
    /// The search's identity, short (12 hex digits of its hash): two reports of one id but
    /// another search (a rules file named like a built-in, same-named definitions) differ
    /// here, so that neither silently replaces the other.
    pub search: String,
    /// Human name.
    pub title: String,
    /// Rules and goal.
    pub rules: String,
    /// Why the classes are what they are.
    pub invariant: String,
    /// Whether the puzzle is a board of cells (see `Notation::on_board`): its states are
    /// configurations and `rows` and `cols` its shape; else positions of pieces.
    pub board: bool,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The family's size parameters beyond the board's shape, in order.
    pub parameters: Vec<(String, u64)>,
    /// All configurations, reachable or not (128 bits: a permutation puzzle's assemblies
    /// may pass 64).
    pub configurations: u128,
    /// How `configurations` arises, e.g. `9!`.
    pub configurations_formula: String,
    /// What a distance counts: `moves`, or the name of the moves' cost such as `flips`.
    pub metric: String,
    /// Configurations at each distance from the goal (each total cost, for weighted
    /// moves: some costs may have none).
    pub levels: Vec<u64>,
    /// The symmetry group configurations are counted up to.
    pub symmetry: Symmetry,
    /// `level_classes[d]`: the classes up to [`Analysis::symmetry`] of `levels[d]`.
    pub level_classes: Vec<u64>,
    /// The solvability classes with what the search reached in each.
    pub classes: Vec<ClassRow>,
    /// Up to 20 configurations at the maximum distance, one line each.
    pub antipode_examples: Vec<String>,
    /// The same configurations drawn as grids.
    pub antipode_drawings: Vec<String>,
    /// For the first antipodes of a permutation puzzle, the moves that reach each from the
    /// goal, space-separated (filled by the caller, which has the solver; may be empty).
    pub antipode_moves: Vec<String>,
    /// The goal configurations drawn as grids.
    pub goal_drawings: Vec<String>,
    /// Rank of the move matrix over GF(2), for coin puzzles.
    pub gf2_rank: Option<u32>,
    /// The order of the group the moves generate, where it counts the configurations the
    /// goal reaches (permutation puzzles of distinct pieces): equal to [`Analysis::reachable`].
    pub group_order: Option<u64>,
    /// Distance of the puzzle's classic start, if it has one (`None` inside: unsolvable).
    pub start_distance: Option<Option<usize>>,
    /// The heuristic atlas of a sliding board, when it was measured.
    pub atlas: Option<crate::atlas::Atlas>,
    /// Wall time of the search, of its check against the invariant and of the atlas,
    /// seconds (writing the report files is not included).
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// The seconds of the earlier runs of a resumed search (`--disk`, `--checkpoint`),
    /// each up to its last save: the search took these and [`Analysis::seconds`].
    pub earlier_seconds: Vec<f64>,
}

impl Analysis {
    /// What one counted arrangement is called, on every puzzle and in every output: a
    /// `state` (a `configuration` is any arrangement, reachable or not).
    pub fn noun(&self) -> &'static str {
        "state"
    }

    /// A distance in the metric's words: `1 move`, `8 moves`, `1 quarter turn`.
    pub fn distance_text(&self, d: usize) -> String {
        let metric = &self.metric;
        if d != 1 {
            return format!("{d} {metric}");
        }
        let sibilant = ["sses", "shes", "ches", "xes", "zes"]
            .iter()
            .any(|e| metric.ends_with(e));
        let one = match metric.strip_suffix('s') {
            Some(_) if sibilant => &metric[..metric.len() - 2],
            Some(stem) => stem,
            None => metric,
        };
        format!("1 {one}")
    }

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

    /// Classes up to the symmetry group the search reached.
    pub fn reachable_classes(&self) -> u64 {
        self.level_classes.iter().sum()
    }

    /// Classes up to the symmetry group at the largest distance.
    pub fn antipode_classes(&self) -> u64 {
        self.level_classes.last().copied().unwrap_or(0)
    }

    /// Whether configurations are counted up to more than the identity.
    pub fn symmetric(&self) -> bool {
        self.symmetry.order > 1
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

/// Why an analysis failed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AnalysisError {
    /// The engine stopped.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A move led outside the ranked class: the puzzle's invariant does not hold.
    #[error("invariant violated: a move from {from} leaves the class the invariant predicts ({count} such moves)")]
    InvariantViolated {
        /// Example configuration the escaping move starts from.
        from: String,
        /// How many escaping moves were seen in that level.
        count: u64,
    },
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
    /// The search reached other than the order of the group the moves generate: a bug.
    #[error("internal error: the search reached {} states, but the moves generate a group of {} (Schreier–Sims), each one state", crate::util::thousands(*reached), crate::util::thousands(*order))]
    Unreached {
        /// The group's order.
        order: u64,
        /// Configurations reached.
        reached: u64,
    },
}

/// Largest sliding board whose heuristic atlas every run measures (any size with
/// `heuristics`).
pub const ATLAS_CELLS: usize = 10;

/// Searches the whole space of `puzzle`, checks the result against its invariant, and on a
/// sliding board with its usual goal measures the heuristic atlas and the A* effort (boards
/// up to [`ATLAS_CELLS`] cells, or any with `heuristics`).
///
/// `progress` sees each level as it completes and may stop the search. Runs on the current
/// rayon pool; with `options.exchange`, as one of the processes sharing the search, and
/// every process returns the same analysis (timings aside). The family and parameters of
/// the result are the caller's to fill in.
pub fn analyze<P: Puzzle>(
    puzzle: &P,
    options: Options,
    heuristics: bool,
    mut progress: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Analysis, AnalysisError> {
    let board = puzzle.tile_board().filter(|b| {
        let (rows, cols) = b.shape();
        !b.has_custom_goal() && (heuristics || rows * cols <= ATLAS_CELLS)
    });
    let Some(board) = board else {
        return search_and_check(puzzle, options, &mut progress);
    };
    // The atlas reads every level whole, as the search finds it. When it could not (the
    // search was shared by several processes, each holding its slice only, or resumed from
    // a checkpoint past level 0), process 0 measures it in a search of its own; the command
    // line allows that only where one process can hold the board.
    let (shared, first) = match &options.exchange {
        Some(exchange) => (exchange.partition().processes() > 1, exchange.index() == 0),
        None => (false, true),
    };
    let mut collector = Collector::new(board);
    let (mut inadmissible, mut complete) = (None, !shared);
    let mut expected = 0;
    let analysis = search_and_check(puzzle, options, &mut |level| {
        complete &= level.depth == expected;
        expected = level.depth + 1;
        if complete && let Err(e) = collector.observe(level) {
            inadmissible = Some(e);
            return ControlFlow::Break(());
        }
        progress(level)
    });
    if let Some(e) = inadmissible {
        return Err(e.into());
    }
    let mut analysis = analysis?;
    if !first {
        return Ok(analysis);
    }
    // A search resumed after its last level observes none.
    if !complete || expected != analysis.levels.len() {
        collector = Collector::new(board);
        engine::search(board, Options::default(), |level| match collector.observe(level) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                inadmissible = Some(e);
                ControlFlow::Break(())
            }
        })?;
        if let Some(e) = inadmissible {
            return Err(e.into());
        }
    }
    let (rows, cols) = board.shape();
    let effort = astar::effort(&Estimates::new(rows, cols), &collector.samples());
    analysis.atlas = Some(collector.finish(effort));
    Ok(analysis)
}

/// The search and its check against the invariant: the analysis without the atlas.
fn search_and_check<P: Puzzle>(
    puzzle: &P,
    mut options: Options,
    progress: &mut Observer,
) -> Result<Analysis, AnalysisError> {
    let started = Instant::now();
    let start = puzzle.start();
    options.watch = start.into_iter().collect();
    options.id = puzzle.id();
    let search = engine::search(puzzle, options, progress).map_err(|e| match e {
        EngineError::InvariantViolated { from, count } => AnalysisError::InvariantViolated {
            from: from.map_or_else(String::new, |r| puzzle.render(r)),
            count,
        },
        e => e.into(),
    })?;
    let mut analysis = assemble(puzzle, &search, start.is_some())?;
    analysis.seconds = started.elapsed().as_secs_f64();
    Ok(analysis)
}

/// The analysis of `puzzle` from what its search found, checked against the invariant
/// (`watched`: the search watched the puzzle's start); `seconds` is the caller's to set.
fn assemble<P: Puzzle>(puzzle: &P, search: &Distances, watched: bool) -> Result<Analysis, AnalysisError> {
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
            puzzle.exact() && c.reached != c.configurations
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
    let mut invariant = puzzle.invariant();
    let group_order = puzzle.group_order();
    if let Some(order) = group_order {
        invariant.push_str(&group_order_checked(order, &search.levels)?);
    }
    let (rows, cols) = puzzle.shape();
    let (configurations, configurations_formula) = puzzle.configurations();
    Ok(Analysis {
        family: String::new(),
        search: String::new(),
        id: puzzle.id(),
        title: puzzle.title(),
        rules: puzzle.rules(),
        invariant,
        board: puzzle.on_board(),
        rows,
        cols,
        parameters: Vec::new(),
        configurations,
        configurations_formula,
        metric: puzzle.metric(),
        levels: search.levels.clone(),
        symmetry: puzzle.symmetry(),
        level_classes: search.classes.clone(),
        classes,
        antipode_examples: search.antipodes.iter().map(|&r| puzzle.render(r)).collect(),
        antipode_drawings: search.antipodes.iter().map(|&r| puzzle.draw(r)).collect(),
        antipode_moves: Vec::new(),
        goal_drawings: puzzle.goals().iter().map(|&r| puzzle.draw(r)).collect(),
        gf2_rank: puzzle.gf2_rank(),
        group_order,
        start_distance: watched.then(|| search.watched.first().copied().flatten()),
        atlas: None,
        seconds: 0.0,
        threads: rayon::current_num_threads(),
        earlier_seconds: search.earlier_millis.iter().map(|&ms| ms as f64 / 1000.0).collect(),
    })
}

/// The sentence that the search reached exactly the group's order, or the error that it
/// did not (the positions are the group's elements where the pieces are all distinct).
fn group_order_checked(order: u64, levels: &[u64]) -> Result<String, AnalysisError> {
    let reached = levels.iter().sum();
    if reached != order {
        return Err(AnalysisError::Unreached { order, reached });
    }
    let n = crate::util::thousands(order);
    Ok(format!(" Group order by Schreier–Sims: {n}; reached: {n}."))
}

/// The analysis of a puzzle searched over packed states (the sparse route): the same as
/// [`analyze`] gives where the puzzle is also ranked, else one class, of what was reached.
/// `progress` sees each level as [`analyze`]'s does ([`engine::search_packed`]).
///
/// `reach`, the positions the moves reach by the group's order where known before the
/// search, checks an unranked search as it checks a ranked one.
pub fn analyze_sparse<P: PackedPuzzle>(
    puzzle: &P,
    options: &SparseOptions,
    reach: Option<u128>,
    progress: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Analysis, AnalysisError> {
    let started = Instant::now();
    let found = engine::search_packed(puzzle, options, progress)?;
    let mut analysis = match puzzle.ranked() {
        Some(ranked) => assemble(ranked, &ranked_distances(puzzle, ranked, &found), false)?,
        None => unranked_analysis(puzzle, &found),
    };
    if analysis.group_order.is_none()
        && let Some(order) = reach.and_then(|r| u64::try_from(r).ok())
    {
        analysis
            .invariant
            .push_str(&group_order_checked(order, &analysis.levels)?);
        analysis.group_order = Some(order);
    }
    analysis.seconds = started.elapsed().as_secs_f64();
    Ok(analysis)
}

/// The sparse search's findings as the dense search reports them: every state reached is
/// in the goal's class, and the antipodes are the smallest ranks of the last level.
fn ranked_distances<P: PackedPuzzle>(puzzle: &P, ranked: &P::Ranked, found: &SparseDistances<P::Key>) -> Distances {
    let mut by_class = vec![0; ranked.class_count()];
    by_class[0] = found.levels.iter().sum();
    // Up to symmetry, the antipodes shown are classes: their representatives.
    let shown = |&k: &P::Key| !puzzle.counts_classes() || puzzle.classes_at(k) > 0;
    let mut last: Vec<u64> = found
        .last
        .iter()
        .filter(|k| shown(k))
        .map(|&k| puzzle.rank(k))
        .collect();
    last.sort_unstable();
    last.truncate(engine::bfs::EXAMPLES);
    Distances {
        levels: found.levels.clone(),
        classes: found.classes.clone(),
        earlier_millis: Vec::new(),
        reached_by_class: by_class,
        antipodes: last,
        watched: Vec::new(),
    }
}

/// The analysis of a puzzle with no ranked form: one class, all that was reached.
fn unranked_analysis<P: PackedPuzzle>(puzzle: &P, found: &SparseDistances<P::Key>) -> Analysis {
    let text = puzzle.unranked();
    let reached: u64 = found.levels.iter().sum();
    let antipodes = &found.last[..found.last.len().min(engine::bfs::EXAMPLES)];
    let goals = puzzle.goal_keys();
    Analysis {
        family: String::new(),
        search: String::new(),
        id: puzzle.id(),
        title: text.title,
        rules: text.rules,
        invariant: text.invariant,
        rows: text.shape.0,
        cols: text.shape.1,
        parameters: Vec::new(),
        configurations: text.configurations.0,
        configurations_formula: text.configurations.1,
        metric: text.metric,
        levels: found.levels.clone(),
        symmetry: Symmetry::trivial(),
        level_classes: found.levels.clone(),
        classes: vec![ClassRow {
            class: "reached".into(),
            configurations: reached,
            solvable: true,
            reached,
            example: puzzle.render_key(goals[0]),
        }],
        antipode_examples: antipodes.iter().map(|&k| puzzle.render_key(k)).collect(),
        antipode_drawings: antipodes.iter().map(|&k| puzzle.draw_key(k)).collect(),
        goal_drawings: goals.iter().map(|&k| puzzle.draw_key(k)).collect(),
        board: false,
        antipode_moves: Vec::new(),
        group_order: None,
        gf2_rank: None,
        start_distance: None,
        atlas: None,
        seconds: 0.0,
        threads: rayon::current_num_threads(),
        earlier_seconds: Vec::new(),
    }
}
