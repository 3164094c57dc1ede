//! Flip K of N searched by symmetry (N + 1 tail counts, weighted by C(N, t)) must give
//! the same answers as the brute-force puzzle over all 2^N configurations.

use crate::util::{choose, engine_distances, engine_levels};
use analyze::analysis;
use analyze::engine::Options;
use analyze::puzzle::flip_k::{FlipK, flip_k_brute};
use analyze::puzzle::gf2::Span;
use analyze::puzzle::prelude::*;
use std::ops::ControlFlow;

/// Asserts the symmetric and brute-force searches find the same number of configurations
/// at every distance, and the same number in solvable classes.
fn assert_symmetric_matches_brute_force(n: u32, k: u32) {
    let symmetric = FlipK::new(n, k);
    let brute = flip_k_brute(n as usize, k as usize);
    assert_eq!(engine_levels(&symmetric), engine_levels(&brute), "N={n} K={k}");
    let solvable = |classes: Vec<analyze::puzzle::ClassInfo>| -> u64 {
        classes.iter().filter(|c| c.solvable).map(|c| c.configurations).sum()
    };
    assert_eq!(solvable(symmetric.classes()), solvable(brute.classes()), "N={n} K={k}");
    assert_eq!(symmetric.configurations().0, u128::from(brute.states()), "N={n} K={k}");
}

#[test]
fn symmetric_search_matches_brute_force_for_every_k_up_to_12_coins() {
    for n in 1..=12 {
        for k in 1..=n {
            assert_symmetric_matches_brute_force(n, k);
        }
    }
}

#[test]
fn symmetric_search_matches_brute_force_up_to_18_coins_for_extreme_k() {
    // The brute force costs about C(N, K) * 2^N move applications: keep K near 0 or N,
    // and each case within 2^26 of them (which leaves out only K = 3 for N = 17, 18).
    for n in 13..=18u32 {
        let mut flips = vec![1, 2, 3, n - 2, n - 1, n];
        flips.dedup();
        for k in flips {
            if choose(u64::from(n), u64::from(k)) << n <= 1 << 26 {
                assert_symmetric_matches_brute_force(n, k);
            }
        }
    }
}

#[test]
fn start_distance_from_all_heads_matches_brute_force() {
    for n in 1..=12u32 {
        for k in 1..=n {
            let symmetric = FlipK::new(n, k);
            assert_eq!(symmetric.start(), Some(symmetric.all_heads()));
            let analysis = analysis::analyze(&symmetric, Options::default(), false, |_| ControlFlow::Continue(()))
                .expect("analyses");
            // All heads is rank 0 of the brute-force board (H = 0 on every coin).
            let brute = engine_distances(&flip_k_brute(n as usize, k as usize), &[0]);
            assert_eq!(analysis.start_distance, Some(brute[0]), "N={n} K={k}");
        }
    }
}

#[test]
fn rank_formula_matches_the_span_of_all_weight_k_masks() {
    for n in 1..=12u32 {
        for k in 1..=n {
            let masks = (0u64..1 << n).filter(|m| m.count_ones() == k);
            let span = Span::new(n, masks);
            assert_eq!(FlipK::new(n, k).rank(), span.rank(), "N={n} K={k}");
            assert_eq!(flip_k_brute(n as usize, k as usize).rank(), span.rank(), "N={n} K={k}");
        }
    }
}

#[test]
fn multiplicities_are_binomials_summing_to_2_pow_n() {
    for n in [1u32, 2, 7, 20, 40, 60] {
        let puzzle = FlipK::new(n, 1);
        let weights: Vec<u64> = (0..puzzle.states()).map(|t| puzzle.multiplicity(t)).collect();
        let expected: Vec<u64> = (0..=u64::from(n)).map(|t| choose(u64::from(n), t)).collect();
        assert_eq!(weights, expected, "N={n}");
        assert_eq!(weights.iter().sum::<u64>(), 1 << n, "N={n}");
    }
}
