//! Weighted moves: Dial's bucketed search against a plain Dijkstra (HashMap + BinaryHeap)
//! on every coin board up to 16 cells, with the weighted-nine-tails costs and random ones.

#![allow(clippy::unwrap_used)]

use crate::util::{
    CoinRules, CoinVector, Rng, analyze, boards_up_to, book_rank, coin_vector, first_length, histogram, ref_lights_out,
    ref_nine_tails,
};
use crate::util::{bfs as search, job};
use analyze::puzzle::coins::{CoinMove, Coins};
use analyze::puzzle::nine_tails::weighted_nine_tails;
use analyze::puzzle::prelude::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::ops::ControlFlow;

/// Least total cost to the nearest goal of every configuration that can reach one: a
/// textbook Dijkstra from the goals over reversed moves (`costs[i]` is move `i`'s cost).
fn dijkstra(rules: &CoinRules, costs: &[u32]) -> HashMap<CoinVector, u64> {
    let mut best: HashMap<CoinVector, u64> = HashMap::new();
    let mut heap: BinaryHeap<Reverse<(u64, CoinVector)>> = rules.goals.iter().map(|&g| Reverse((0, g))).collect();
    while let Some(Reverse((d, after))) = heap.pop() {
        if best.contains_key(&after) {
            continue;
        }
        best.insert(after, d);
        for (mv, &cost) in rules.moves.iter().zip(costs) {
            let before = after ^ mv.flips;
            if CoinRules::legal(mv, before) && !best.contains_key(&before) {
                heap.push(Reverse((d + u64::from(cost), before)));
            }
        }
    }
    best
}

/// The engine's cost of every rank (`None`: unreached), through `engine::search`.
fn engine_costs<P: Puzzle>(puzzle: &P) -> Vec<Option<u64>> {
    let mut costs = vec![None; puzzle.states() as usize];
    for goal in puzzle.goals() {
        costs[goal as usize] = Some(0);
    }
    let found = search(puzzle, |level| {
        for rank in level.next.iter() {
            assert!(costs[rank as usize].is_none(), "rank {rank} settled twice");
            costs[rank as usize] = Some(level.depth as u64 + 1);
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    let reached: u64 = costs.iter().filter(|c| c.is_some()).count() as u64;
    assert_eq!(found.levels.iter().sum::<u64>(), reached);
    costs
}

/// Asserts that the engine and Dijkstra agree on every configuration of `puzzle`,
/// the reference model `rules` with move costs `costs`.
fn assert_same_costs(puzzle: &Coins, rules: &CoinRules, costs: &[u32]) {
    let reference = dijkstra(rules, costs);
    let engine = engine_costs(puzzle);
    for config in rules.all() {
        let rank = book_rank(config, rules.coins);
        assert_eq!(
            engine[rank as usize],
            reference.get(&config).copied(),
            "{}: configuration {config:b}",
            puzzle.id()
        );
    }
}

/// The engine's puzzle with the same moves as `base` but the given costs.
fn with_costs(base: Coins, costs: &[u32]) -> Coins {
    let moves: Vec<CoinMove> = base
        .moves
        .iter()
        .zip(costs)
        .map(|(m, &cost)| CoinMove { cost, ..m.clone() })
        .collect();
    Coins::new(
        base.id.clone(),
        base.title.clone(),
        String::new(),
        (base.rows, base.cols),
        moves,
        base.goals.clone(),
    )
}

#[test]
fn weighted_nine_tails_equals_dijkstra_on_every_board_up_to_16_cells() {
    for (rows, cols) in boards_up_to(16) {
        let rules = ref_nine_tails(rows, cols);
        // The reference's own count of flips: the coins each move's vector holds.
        let costs: Vec<u32> = rules.moves.iter().map(|m| m.flips.count_ones()).collect();
        assert_same_costs(&weighted_nine_tails(rows, cols), &rules, &costs);
    }
}

#[test]
fn random_costs_equal_dijkstra_on_every_board_up_to_16_cells() {
    let mut random = Rng(0x9E37_79B9_7F4A_7C15);
    for (rows, cols) in boards_up_to(16) {
        for (base, rules) in [
            (
                analyze::puzzle::nine_tails::nine_tails(rows, cols),
                ref_nine_tails(rows, cols),
            ),
            (
                analyze::puzzle::lights_out::lights_out(rows, cols),
                ref_lights_out(rows, cols),
            ),
        ] {
            for max in [2u64, 7] {
                let costs: Vec<u32> = rules.moves.iter().map(|_| 1 + random.below(max) as u32).collect();
                assert_same_costs(&with_costs(base.clone(), &costs), &rules, &costs);
            }
        }
    }
}

#[test]
fn unit_costs_through_dial_equal_the_bfs() {
    for (rows, cols) in boards_up_to(12) {
        let puzzle = analyze::puzzle::nine_tails::nine_tails(rows, cols);
        let by_dial = search(&puzzle, |_| ControlFlow::Continue(())).unwrap();
        let by_bfs = search(&puzzle, |_| ControlFlow::Continue(())).unwrap();
        assert_eq!(by_dial, by_bfs, "{rows}x{cols}");
    }
}

#[test]
fn weighted_nine_tails_tables_3x3_and_4x4_equal_dijkstra() {
    for (rows, cols) in [(3, 3), (4, 4)] {
        let rules = ref_nine_tails(rows, cols);
        let costs: Vec<u32> = rules.moves.iter().map(|m| m.flips.count_ones()).collect();
        let reference = histogram(dijkstra(&rules, &costs).values().map(|&d| d as usize));
        let analysis = job("weighted-nine-tails", &[("rows", rows as u64), ("cols", cols as u64)])
            .analyze_alone(&mut |_| ControlFlow::Continue(()))
            .unwrap();
        assert_eq!(analysis.levels, reference, "{rows}x{cols}");
        assert_eq!(analysis.metric, "flips");
    }
}

#[test]
fn hhhttthhh_needs_8_flips_and_the_printed_path_adds_up() {
    let (_sandbox, assert) = analyze(&["--puzzle", "weighted-nine-tails", "--solve", "HHHTTTHHH", "--quiet"]);
    let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).unwrap();
    assert_eq!(first_length(&stdout), Some("8 flips, 2 moves"), "{stdout}");
    // Each printed move names a cell and its cost; replay them on the reference model.
    let rules = ref_nine_tails(3, 3);
    let mut config: CoinVector = coin_vector("HHHTTTHHH");
    let mut total = 0;
    for line in stdout.lines().filter(|l| l.starts_with("move ")) {
        let (name, cost) = line.split_once(": ").unwrap().1.split_once(" (").unwrap();
        let cell = {
            let (r, c) = name.trim_start_matches('r').split_once('c').unwrap();
            (r.parse::<usize>().unwrap() - 1) * 3 + c.parse::<usize>().unwrap() - 1
        };
        let mv = &rules.moves[cell];
        assert!(CoinRules::legal(mv, config), "{line}: the coin is not face up");
        assert_eq!(cost, format!("{} flips)", mv.flips.count_ones()), "{line}");
        config ^= mv.flips;
        total += mv.flips.count_ones();
    }
    assert_eq!(config, rules.all_tails());
    assert_eq!(total, 8);
}

#[test]
fn summary_and_report_name_the_metric() {
    let (sandbox, assert) = analyze(&["--puzzle", "weighted-nine-tails", "--quiet"]);
    assert.success();
    let summary = sandbox.read("reports/weighted-nine-tails-3x3/summary.json");
    assert!(summary.contains("\"metric\": \"flips\""), "{summary}");
    let report = sandbox.read("reports/weighted-nine-tails-3x3/report.md");
    assert!(report.contains("## Distances (flips)"), "{report}");
    let (sandbox, assert) = analyze(&["--puzzle", "nine-tails", "--quiet"]);
    assert.success();
    let summary = sandbox.read("reports/nine-tails-3x3/summary.json");
    assert!(summary.contains("\"metric\": \"moves\""), "{summary}");
}
