//! `--sample D N`: N positions drawn at random among those at distance D from the goal (or
//! with `any`, among all reachable ones), the same on every run for the same seed.
//!
//! A position is picked by its key, a hash of its rank and the seed: the N ranks at
//! distance D with the smallest keys are a uniform sample without replacement (as uniform
//! as the hash is), found in one pass over the ranks in any order, keeping N of them.
//! The ranks at distance D come from the solver's distance table where it keeps one byte
//! a rank ([`DistanceTable`](super::table::DistanceTable)). A table of distances modulo 3 ([`super::mod3`]) cannot
//! tell a rank's distance without walking it to the goal, so larger puzzles run the
//! breadth-first search from the goal up to level D instead (seconds on 3x4), keeping
//! nothing.

use crate::engine::{self, EngineError, Options};
use crate::puzzle::SearchGraph;
use std::ops::ControlFlow;
use thiserror::Error;

/// Why no sample could be drawn.
#[derive(Debug, Error)]
pub enum SampleError {
    /// No position lies that far from the goal.
    #[error("no state lies {distance} from the goal: the maximum distance is {max}")]
    Beyond {
        /// The distance asked for.
        distance: usize,
        /// The largest distance of any position.
        max: usize,
    },
    /// No position lies exactly that far (weighted moves skip some totals).
    #[error("no state lies exactly {distance} from the goal (the totals of weighted moves skip some values)")]
    Empty {
        /// The distance asked for.
        distance: usize,
    },
    /// The puzzle has no table to draw from, and why.
    #[error("{0}")]
    NoTable(String),
    /// The breadth-first search itself failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The key that orders ranks for the sample: splitmix64's finaliser of the rank mixed
/// with the seed, so that every seed orders the ranks differently.
fn key(seed: u64, rank: u64) -> u64 {
    let mut z = rank ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of the `member`-th configuration a rank stands for ([`SearchGraph::multiplicity`]):
/// the rank's own key for the first, so that a rank that stands for one keeps its key.
fn member_key(seed: u64, rank: u64, member: u64) -> u64 {
    match member {
        0 => key(seed, rank),
        m => key(key(seed, rank), m),
    }
}

/// Keeps the `count` ranks (or configurations of ranks) with the smallest keys among those
/// it is offered.
struct Picker {
    count: usize,
    seed: u64,
    /// `(key, rank, member)`, at most `2 * count` before they are cut back to `count`.
    kept: Vec<(u64, u64, u64)>,
}

impl Picker {
    fn new(count: usize, seed: u64) -> Self {
        Self {
            count,
            seed,
            kept: Vec::new(),
        }
    }

    fn offer(&mut self, rank: u64) {
        self.offer_members(rank, 1);
    }

    /// Offers each of the `weight` configurations `rank` stands for, with a key of its own:
    /// the smallest keys are then a uniform sample of the configurations, not the ranks.
    fn offer_members(&mut self, rank: u64, weight: u64) {
        for member in 0..weight {
            self.kept.push((member_key(self.seed, rank, member), rank, member));
            if self.kept.len() >= self.count.max(1).saturating_mul(2) {
                self.cut();
            }
        }
    }

    fn cut(&mut self) {
        self.kept.sort_unstable();
        self.kept.truncate(self.count);
    }

    /// The ranks picked, in the order of their keys (a random order).
    fn ranks(self) -> Vec<u64> {
        self.members().into_iter().map(|(rank, _)| rank).collect()
    }

    /// The configurations picked as `(rank, member)`, in the order of their keys.
    fn members(mut self) -> Vec<(u64, u64)> {
        self.cut();
        self.kept.into_iter().map(|(_, rank, member)| (rank, member)).collect()
    }
}

/// What a sample that drew fewer than asked says: only the `drawn` states lie at
/// `distance` (any: `None`, within reach).
pub fn shortfall(id: &str, drawn: usize, distance: Option<usize>) -> String {
    let there = match distance {
        Some(d) => format!("at distance {d}"),
        None => "within reach".into(),
    };
    match drawn {
        1 => format!("{id}: only 1 state lies {there}"),
        n => format!("{id}: only {} states lie {there}", crate::util::thousands(n as u128)),
    }
}

/// Up to `count` ranks at `distance` (any: `None`) among a table's reached ranks and their
/// distances (`DistanceTable::distances`), picked with `seed` (fewer where fewer lie there).
pub fn from_table(
    reached: impl Iterator<Item = (u64, usize)>,
    distance: Option<usize>,
    count: usize,
    seed: u64,
) -> Result<Vec<u64>, SampleError> {
    let mut picker = Picker::new(count, seed);
    let mut max = 0;
    for (rank, d) in reached {
        max = max.max(d);
        if distance.is_none_or(|distance| d == distance) {
            picker.offer(rank);
        }
    }
    let Some(distance) = distance else {
        return Ok(picker.ranks());
    };
    if distance > max {
        return Err(SampleError::Beyond { distance, max });
    }
    match picker.ranks() {
        ranks if ranks.is_empty() => Err(SampleError::Empty { distance }),
        ranks => Ok(ranks),
    }
}

/// Up to `count` distinct configurations at `distance` (any: `None`) where a rank stands for
/// `weight(rank)` alike ones (flip-k's tail counts, a large lights-out board's press
/// weights), drawn uniformly among the configurations, not the ranks: Floyd's algorithm
/// draws distinct numbers below their total (numbered rank by rank), each then a rank and
/// the index of one of its own, as `(rank, index)`; with `seed`.
pub fn members(
    reached: impl Iterator<Item = (u64, usize)>,
    distance: Option<usize>,
    count: usize,
    seed: u64,
    weight: impl Fn(u64) -> u64,
) -> Result<Vec<(u64, u64)>, SampleError> {
    use rand_core::{RngCore, SeedableRng};
    let (mut ranks, mut ends, mut max, mut total) = (Vec::new(), Vec::new(), 0, 0u128);
    for (rank, d) in reached {
        max = max.max(d);
        if distance.is_none_or(|distance| d == distance) {
            total += u128::from(weight(rank));
            ranks.push(rank);
            ends.push(total);
        }
    }
    match distance {
        Some(distance) if distance > max => return Err(SampleError::Beyond { distance, max }),
        Some(distance) if total == 0 => return Err(SampleError::Empty { distance }),
        _ => {}
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // Below `n`, with a bias under n / 2^128.
    let mut below = |n: u128| (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) % n;
    let (mut drawn, mut seen) = (Vec::new(), std::collections::HashSet::new());
    let m = total.min(count as u128);
    for j in total - m..total {
        let t = below(j + 1);
        let x = if seen.contains(&t) { j } else { t };
        seen.insert(x);
        drawn.push(x);
    }
    Ok(drawn
        .into_iter()
        .map(|x| {
            let k = ends.partition_point(|&end| end <= x);
            let start = if k == 0 { 0 } else { ends[k - 1] };
            (ranks[k], (x - start) as u64)
        })
        .collect())
}

/// Up to `count` configurations at `distance` (any: `None`) from the goals of `puzzle`, as
/// `(rank, member)` ([`members`]), picked with `seed` uniformly among the configurations
/// (a rank stands for [`SearchGraph::multiplicity`] of them), by the breadth-first search
/// from the goals up to that level, or through every level for any distance (on the
/// current rayon pool).
pub fn by_search<P: SearchGraph>(
    puzzle: &P,
    distance: Option<usize>,
    count: usize,
    seed: u64,
) -> Result<Vec<(u64, u64)>, SampleError> {
    let mut picker = Picker::new(count, seed);
    let offer = |picker: &mut Picker, rank| picker.offer_members(rank, puzzle.multiplicity(rank));
    if distance.is_none_or(|d| d == 0) {
        puzzle.goals().into_iter().for_each(|goal| offer(&mut picker, goal));
    }
    let Some(distance) = distance.filter(|&d| d > 0) else {
        return match distance {
            Some(_) => Ok(picker.members()),
            None => every_level(puzzle, picker),
        };
    };
    let (mut max, mut stopped) = (0, false);
    let searched = engine::search(puzzle, Options::default(), |level| {
        if level.next.iter().next().is_some() {
            max = level.depth + 1;
        }
        if level.depth + 1 == distance {
            level.next.iter().for_each(|rank| offer(&mut picker, rank));
            stopped = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    match searched {
        // Stopped at level `distance`, as asked.
        Err(EngineError::Interrupted) if stopped => {}
        Err(e) => return Err(e.into()),
        Ok(_) => {}
    }
    if distance > max {
        return Err(SampleError::Beyond { distance, max });
    }
    Ok(picker.members())
}

/// The `picker`'s pick of every configuration the search from the goals reaches (the
/// goals offered).
fn every_level<P: SearchGraph>(puzzle: &P, mut picker: Picker) -> Result<Vec<(u64, u64)>, SampleError> {
    engine::search(puzzle, Options::default(), |level| {
        level
            .next
            .iter()
            .for_each(|rank| picker.offer_members(rank, puzzle.multiplicity(rank)));
        ControlFlow::Continue(())
    })?;
    Ok(picker.members())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_keys_are_kept_whatever_the_order_offered() {
        let mut forward = Picker::new(5, 7);
        let mut backward = Picker::new(5, 7);
        (0..1000).for_each(|r| forward.offer(r));
        (0..1000).rev().for_each(|r| backward.offer(r));
        let picked = forward.ranks();
        assert_eq!(picked.len(), 5);
        assert_eq!(picked, backward.ranks());
    }

    #[test]
    fn the_search_draws_what_the_table_draws() {
        let puzzle = crate::puzzle::sliding::Sliding::new(2, 4).expect("a board");
        let table = crate::solve::table::DistanceTable::build(&puzzle).expect("a table");
        for distance in [0, 1, 7, 20, 36] {
            let by_table = from_table(table.distances(), Some(distance), 4, 3).expect("a sample");
            let by_search: Vec<u64> = by_search(&puzzle, Some(distance), 4, 3)
                .expect("a sample")
                .into_iter()
                .map(|(rank, _)| rank)
                .collect();
            assert_eq!(by_search, by_table);
            assert!(by_table.iter().all(|&rank| table.distance(rank) == Some(distance)));
        }
        for draw in [
            from_table(table.distances(), Some(37), 4, 3),
            by_search(&puzzle, Some(37), 4, 3).map(|drawn| drawn.into_iter().map(|(rank, _)| rank).collect()),
        ] {
            assert!(
                matches!(draw, Err(SampleError::Beyond { distance: 37, max: 36 })),
                "{draw:?}"
            );
        }
    }

    /// Where a rank stands for several configurations (flip-k's tail counts), the search
    /// draws among the configurations: asked for more, every one of the level once; one
    /// a seed, each about as often, whatever its rank's weight.
    #[test]
    fn the_search_draws_configurations_not_ranks() {
        use crate::puzzle::SearchGraph;
        let puzzle = crate::puzzle::flip_k::FlipK::new(6, 1);
        // Distance 2 from all tails: 4 tails, C(6, 4) = 15 rows.
        let mut all = by_search(&puzzle, Some(2), 100, 5).expect("a sample");
        all.sort_unstable();
        assert_eq!(all, (0..15).map(|m| (4, m)).collect::<Vec<_>>());
        // Any distance: 7 ranks standing for 64 rows.
        let mut drawn = vec![0usize; 64];
        for seed in 0..64 * 200 {
            for (rank, member) in by_search(&puzzle, None, 1, seed).expect("a sample") {
                let before: u64 = (0..rank).map(|r| puzzle.multiplicity(r)).sum();
                drawn[(before + member) as usize] += 1;
            }
        }
        let chi2: f64 = drawn.iter().map(|&n| (n as f64 - 200.0).powi(2) / 200.0).sum();
        assert!(chi2 < 63.0 + 5.0 * 126f64.sqrt(), "chi-square {chi2}: {drawn:?}");
    }

    #[test]
    fn another_seed_picks_others() {
        let pick = |seed| {
            let mut picker = Picker::new(5, seed);
            (0..1000).for_each(|r| picker.offer(r));
            picker.ranks()
        };
        assert_ne!(pick(0), pick(1));
    }
}
