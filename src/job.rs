//! Validated puzzle choices ([`Spec`]), their memory estimates, and the dispatch from a
//! choice to the concrete puzzle type the engine is specialised for.

use crate::analysis::{self, Analysis, AnalysisError, Extras};
use crate::atlas::{Collector, astar};
use crate::engine::exchange::{Exchange, Local, Partition};
use crate::engine::{Level, Options};
use crate::heuristics::Estimates;
use crate::puzzle::coin_lines::coin_lines;
use crate::puzzle::coins::{self, Coins};
use crate::puzzle::flip_k::{self, FlipK};
use crate::puzzle::lights_out::lights_out;
use crate::puzzle::nine_tails::{nine_tails, weighted_nine_tails};
use crate::puzzle::sliding::{self, Sliding};
use crate::puzzle::{ParseError, Puzzle};
use anyhow::Context;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

/// A puzzle and its size, already checked to be a valid choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// The 8-puzzle.
    Eight,
    /// An R x C sliding-tile board.
    Sliding {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Nine tails on R x C coins.
    NineTails {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Nine tails on R x C coins, each move costing the coins it flips.
    WeightedNineTails {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Lights out on R x C coins.
    LightsOut {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Coin lines on N x N coins.
    CoinLines {
        /// Side of the board.
        size: usize,
    },
    /// Flip K of N coins.
    FlipK {
        /// N.
        coins: u32,
        /// K.
        flip: u32,
    },
    /// A coin puzzle read from a rules file.
    Rules(Arc<Coins>),
    /// A puzzle with another goal than its own (`--goal`), checked, in the puzzle's
    /// notation as its `render` writes it (tiles separated by spaces, or an H/T string).
    Goal {
        /// The puzzle.
        base: Box<Spec>,
        /// The goal.
        goal: String,
    },
}

/// The concrete puzzle behind a [`Spec`]; matching on it monomorphises the engine.
#[expect(
    clippy::large_enum_variant,
    reason = "built once per run; a box would only add an indirection"
)]
pub enum AnyPuzzle {
    /// Sliding tiles.
    Sliding(Sliding),
    /// A coin board with XOR moves.
    Coins(Coins),
    /// Flip K of N by symmetry.
    FlipK(FlipK),
}

impl AnyPuzzle {
    /// The same puzzle with `goal` (in its notation) as its goal; see [`Spec::Goal`].
    pub fn with_goal(self, goal: &str) -> Result<AnyPuzzle, ParseError> {
        match self {
            AnyPuzzle::Sliding(p) => {
                let tiles = sliding::read_tiles(goal, p.shape().0 * p.shape().1)?;
                Ok(AnyPuzzle::Sliding(p.with_goal(&tiles)?))
            }
            AnyPuzzle::Coins(c) => Ok(AnyPuzzle::Coins(c.with_goal(goal)?)),
            AnyPuzzle::FlipK(p) => Ok(AnyPuzzle::FlipK(p.with_goal(goal)?)),
        }
    }

    /// The goal in the puzzle's notation (its first goal).
    pub fn goal_text(&self) -> String {
        crate::with_puzzle!(self, p => p.render(p.goals()[0]))
    }
}

/// Runs `$body` with `$p` bound to the concrete puzzle inside an [`AnyPuzzle`].
#[macro_export]
macro_rules! with_puzzle {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::job::AnyPuzzle::Sliding($p) => $body,
            $crate::job::AnyPuzzle::Coins($p) => $body,
            $crate::job::AnyPuzzle::FlipK($p) => $body,
        }
    };
}

/// Bits the engine keeps per rank (two planes: unseen, this level, next level, done).
pub const BITS_PER_STATE: u128 = 2;

/// Bytes of ranks one process may have sent that their owners have not yet taken (the
/// exchange blocks the sender beyond it); a process of N holds at most N times this in
/// exchange buffers: what it sent, and what each other process sent to it.
pub const IN_FLIGHT_BYTES: u64 = 8 << 20;

impl Spec {
    /// Family name as on the command line.
    pub fn family(&self) -> &'static str {
        match self {
            Spec::Eight => "eight",
            Spec::Sliding { .. } => "sliding",
            Spec::NineTails { .. } => "nine-tails",
            Spec::WeightedNineTails { .. } => "weighted-nine-tails",
            Spec::LightsOut { .. } => "lights-out",
            Spec::CoinLines { .. } => "coin-lines",
            Spec::FlipK { .. } => "flip-k",
            Spec::Rules(_) => "rules",
            Spec::Goal { base, .. } => base.family(),
        }
    }

    /// Ranks the search covers, computed without building the puzzle (may be huge).
    pub fn states(&self) -> u128 {
        match *self {
            Spec::Eight => Spec::Sliding { rows: 3, cols: 3 }.states(),
            Spec::Sliding { rows, cols } => (1..=(rows * cols) as u128)
                .try_fold(1u128, |a, b| a.checked_mul(b))
                .map_or(u128::MAX, |f| f / 2),
            Spec::NineTails { rows, cols }
            | Spec::WeightedNineTails { rows, cols }
            | Spec::LightsOut { rows, cols } => 1u128.checked_shl((rows * cols) as u32).unwrap_or(u128::MAX),
            Spec::CoinLines { size } => 1u128.checked_shl((size * size) as u32).unwrap_or(u128::MAX),
            Spec::FlipK { coins, .. } => u128::from(coins) + 1,
            Spec::Rules(ref c) => 1u128 << c.coins(),
            Spec::Goal { ref base, .. } => base.states(),
        }
    }

    /// Bit sets the search keeps per rank: 2 for the BFS (plus its occupancy summaries,
    /// see [`Spec::memory`]), the largest move cost + 2 for Dial's search (a bucket per
    /// pending cost, and the visited set).
    pub fn bits_per_state(&self) -> u128 {
        match self {
            // A move flips at most 5 coins (a cell and its 4 neighbours).
            Spec::WeightedNineTails { .. } => 5 + 2,
            Spec::Rules(c) if c.max_move_cost() > 1 => u128::from(c.max_move_cost()) + 2,
            Spec::Goal { base, .. } => base.bits_per_state(),
            _ => BITS_PER_STATE,
        }
    }

    /// Whether some moves cost more than others (searched by Dial's buckets, in one process).
    pub fn weighted(&self) -> bool {
        match self {
            Spec::WeightedNineTails { .. } => true,
            Spec::Rules(c) => c.max_move_cost() > 1,
            Spec::Goal { base, .. } => base.weighted(),
            _ => false,
        }
    }

    /// Whether the heuristic atlas is measured without `--heuristics`: sliding boards of up
    /// to [`ATLAS_CELLS`] cells, with the usual goal (the estimates are to that goal).
    pub fn atlas_by_default(&self) -> bool {
        match *self {
            Spec::Eight => true,
            Spec::Sliding { rows, cols } => rows * cols <= ATLAS_CELLS,
            _ => false,
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

    /// Builds the puzzle to enumerate; `None` for a sliding board beyond the ranking's
    /// 16 cells (such boards can only be solved position by position).
    pub fn build(&self) -> Option<AnyPuzzle> {
        Some(match *self {
            Spec::Eight => AnyPuzzle::Sliding(Sliding::eight()),
            Spec::Sliding { rows, cols } => AnyPuzzle::Sliding(Sliding::new(rows, cols)?),
            Spec::NineTails { rows, cols } => AnyPuzzle::Coins(nine_tails(rows, cols)),
            Spec::WeightedNineTails { rows, cols } => AnyPuzzle::Coins(weighted_nine_tails(rows, cols)),
            Spec::LightsOut { rows, cols } => AnyPuzzle::Coins(lights_out(rows, cols)),
            Spec::CoinLines { size } => AnyPuzzle::Coins(coin_lines(size)),
            Spec::FlipK { coins, flip } => AnyPuzzle::FlipK(FlipK::new(coins, flip)),
            Spec::Rules(ref c) => AnyPuzzle::Coins(Coins::clone(c)),
            Spec::Goal { ref base, ref goal } => base.build()?.with_goal(goal).ok()?,
        })
    }

    /// What the analysis needs to know beyond the puzzle itself.
    pub fn extras(&self, puzzle: &AnyPuzzle) -> Extras {
        if let Spec::Goal { base, .. } = self {
            return base.extras(puzzle);
        }
        let mut extras = Extras {
            family: self.family().into(),
            exact_invariant: true,
            ..Extras::default()
        };
        match puzzle {
            AnyPuzzle::Sliding(_) => {}
            AnyPuzzle::Coins(c) => {
                extras.gf2_rank = Some(c.rank());
                extras.exact_invariant = c.moves.iter().all(|m| m.needs_heads.is_none());
                if let Spec::CoinLines { size } = self {
                    extras.parameters.push(("size".into(), *size as u64));
                }
            }
            AnyPuzzle::FlipK(f) => {
                extras.gf2_rank = Some(f.rank());
                extras.start = Some(f.all_heads());
                if let Spec::FlipK { coins, flip } = self {
                    extras.parameters.push(("coins".into(), u64::from(*coins)));
                    extras.parameters.push(("flip".into(), u64::from(*flip)));
                }
            }
        }
        extras
    }

    /// Configurations the invariant expects the search to reach (for progress bars).
    pub fn expected_reachable(puzzle: &AnyPuzzle) -> u64 {
        with_puzzle!(puzzle, p => p.classes().iter().filter(|c| c.solvable).map(|c| c.configurations).sum())
    }

    /// The default sizes and a few instructive generalisations, for `--all`.
    pub fn all() -> Vec<Spec> {
        vec![
            Spec::Eight,
            Spec::Sliding { rows: 2, cols: 3 },
            Spec::Sliding { rows: 2, cols: 4 },
            Spec::Sliding { rows: 2, cols: 5 },
            Spec::NineTails { rows: 3, cols: 3 },
            Spec::NineTails { rows: 4, cols: 4 },
            Spec::LightsOut { rows: 4, cols: 3 },
            Spec::LightsOut { rows: 4, cols: 4 },
            Spec::LightsOut { rows: 5, cols: 5 },
            Spec::CoinLines { size: 3 },
            Spec::CoinLines { size: 4 },
            Spec::FlipK { coins: 7, flip: 5 },
            Spec::FlipK { coins: 60, flip: 31 },
        ]
    }

    /// Builds the puzzle and runs the whole analysis on the current rayon pool.
    pub fn analyze(&self, progress: impl FnMut(&Level) -> ControlFlow<()>) -> anyhow::Result<Analysis> {
        let puzzle = self
            .build()
            .with_context(|| format!("{self} is too large to enumerate"))?;
        Ok(self.analyze_built(&puzzle, progress)?)
    }

    /// Runs the whole analysis of `puzzle`, built from this spec, with the heuristic atlas
    /// where it is on by default (sliding boards up to [`ATLAS_CELLS`] cells).
    pub fn analyze_built(
        &self,
        puzzle: &AnyPuzzle,
        progress: impl FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, AnalysisError> {
        self.analyze_built_with(puzzle, false, progress)
    }

    /// [`Spec::analyze_built`]; `heuristics` (`--heuristics`) measures the atlas on sliding
    /// boards of any size and adds the A* effort table.
    pub fn analyze_built_with(
        &self,
        puzzle: &AnyPuzzle,
        heuristics: bool,
        progress: impl FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, AnalysisError> {
        let mut alone = Local::new(with_puzzle!(puzzle, p => p.states()));
        self.analyze_on(puzzle, heuristics, &mut alone, Options::default(), progress)
    }

    /// [`Spec::analyze_built_with`] as one of the processes sharing the search through
    /// `exchange`, with the engine's `options` (checkpoints).
    ///
    /// The atlas reads every level whole, as the search finds it. When it could not (the
    /// search was shared by several processes, each holding its slice only, or resumed
    /// from a checkpoint past level 0), process 0 measures it in a search of its own; the
    /// command line allows that only where one process can hold the board.
    pub fn analyze_on(
        &self,
        puzzle: &AnyPuzzle,
        heuristics: bool,
        exchange: &mut dyn Exchange,
        options: Options,
        mut progress: impl FnMut(&Level) -> ControlFlow<()>,
    ) -> Result<Analysis, AnalysisError> {
        let extras = self.extras(puzzle);
        let p = match puzzle {
            AnyPuzzle::Sliding(p) if !matches!(self, Spec::Goal { .. }) && (heuristics || self.atlas_by_default()) => p,
            _ => return with_puzzle!(puzzle, p => analysis::analyze_on(p, &extras, exchange, options, progress)),
        };
        let shared = exchange.partition().processes() > 1;
        let first = exchange.index() == 0;
        let mut collector = Collector::new(p);
        let (mut inadmissible, mut complete) = (None, !shared);
        let mut expected = 0;
        let analysis = analysis::analyze_on(p, &extras, exchange, options, |level| {
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
        if !complete {
            collector = Collector::new(p);
            analysis::analyze(p, &extras, |level| match collector.observe(level) {
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
        let (rows, cols) = p.shape();
        let effort = heuristics.then(|| astar::effort(&Estimates::new(rows, cols), &collector.samples()));
        analysis.atlas = Some(collector.finish(effort));
        Ok(analysis)
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Spec::Eight => write!(f, "eight"),
            Spec::Sliding { rows, cols } => write!(f, "sliding-{rows}x{cols}"),
            Spec::NineTails { rows, cols } => write!(f, "nine-tails-{rows}x{cols}"),
            Spec::WeightedNineTails { rows, cols } => write!(f, "weighted-nine-tails-{rows}x{cols}"),
            Spec::LightsOut { rows, cols } => write!(f, "lights-out-{rows}x{cols}"),
            Spec::CoinLines { size } => write!(f, "coin-lines-{size}x{size}"),
            Spec::FlipK { coins, flip } => write!(f, "flip-k-{coins}-{flip}"),
            Spec::Rules(ref c) => write!(f, "{}", c.id),
            Spec::Goal { ref base, ref goal } => write!(f, "{base}-goal-{}", goal.replace(' ', "-")),
        }
    }
}

/// Largest sliding board whose heuristic atlas every run measures (more with `--heuristics`).
pub const ATLAS_CELLS: usize = 10;

/// Largest sliding board the ranking handles.
pub const MAX_SLIDING_CELLS: usize = sliding::MAX_CELLS;
/// Largest coin board.
pub const MAX_COIN_CELLS: usize = coins::MAX_COINS;
/// Largest N for flip-k.
pub const MAX_FLIP_COINS: u32 = flip_k::MAX_COINS;

/// `bytes` in the largest binary unit that keeps it above 1, e.g. `85.6 MiB`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if bytes == 1 {
        "1 byte".into()
    } else if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
