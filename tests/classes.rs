//! Solvability: the invariants the library states (inversion parity for sliding tiles,
//! GF(2) cosets for coins) checked exhaustively against what a reference search reaches.

use crate::util::{
    CoinRules, SMALL_BOARDS, board_text, boards_up_to, book_rank, coin_distances, coin_text, factorial,
    for_each_arrangement, pack, ref_coin_lines, ref_flip_k, ref_lights_out, ref_nine_tails, sliding_distances,
    textbook_solvable,
};
use analyze::analysis::{self, Analysis};
use analyze::engine::Options;
use analyze::puzzle::ParseError;
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::coins::Coins;
use analyze::puzzle::flip_k::{FlipK, flip_k_brute};
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use analyze::report::csv::write_classes;
use serde::Deserialize;
use std::ops::ControlFlow;

#[test]
fn textbook_inversion_rule_agrees_with_reachability_on_every_arrangement() {
    for (rows, cols) in SMALL_BOARDS {
        let reachable = sliding_distances(rows, cols);
        let cells = rows * cols;
        assert_eq!(reachable.len() as u64, factorial(cells as u64) / 2, "{rows}x{cols}");
        for_each_arrangement(cells, |board| {
            assert_eq!(
                textbook_solvable(board, rows, cols),
                reachable.contains_key(&pack(board)),
                "{rows}x{cols} {board:?}"
            );
        });
    }
}

#[test]
fn parse_accepts_exactly_the_reachable_arrangements() {
    for (rows, cols) in SMALL_BOARDS {
        let puzzle = Sliding::new(rows, cols).expect("a valid board");
        let reachable = sliding_distances(rows, cols);
        for_each_arrangement(rows * cols, |board| match puzzle.parse(&board_text(board)) {
            Ok(rank) => {
                assert!(
                    reachable.contains_key(&pack(board)),
                    "{rows}x{cols} accepted unreachable {board:?}"
                );
                assert_eq!(puzzle.board(rank), board, "{rows}x{cols}");
            }
            Err(ParseError::Unsolvable(_)) => {
                assert!(
                    !reachable.contains_key(&pack(board)),
                    "{rows}x{cols} refused reachable {board:?}"
                )
            }
            Err(e) => panic!("{rows}x{cols} {board:?} is well formed, yet: {e}"),
        });
    }
}

#[test]
fn sliding_classes_are_the_two_halves_with_examples_on_the_right_side() {
    for (rows, cols) in SMALL_BOARDS {
        let puzzle = Sliding::new(rows, cols).expect("a valid board");
        let classes = puzzle.classes();
        let half = factorial((rows * cols) as u64) / 2;
        assert_eq!(classes.len(), 2);
        for class in &classes {
            assert_eq!(class.configurations, half, "{rows}x{cols} {}", class.label);
            let parsed = puzzle.parse(&class.example);
            if class.solvable {
                assert!(
                    parsed.is_ok(),
                    "{rows}x{cols} example {} of a solvable class",
                    class.example
                );
            } else {
                assert!(
                    matches!(parsed, Err(ParseError::Unsolvable(_))),
                    "{rows}x{cols} {}",
                    class.example
                );
            }
        }
    }
}

/// One row of `classes.csv`, read back from the writer's output.
#[derive(Debug, Deserialize)]
struct ClassCsvRow {
    class: String,
    configurations: u64,
    solvable: bool,
    reached: u64,
    example: String,
}

fn classes_csv(analysis: &Analysis) -> Vec<ClassCsvRow> {
    let mut bytes = Vec::new();
    write_classes(analysis, &mut bytes).expect("classes.csv is written to memory");
    csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("classes.csv parses")
}

/// Checks the GF(2) class prediction of `puzzle` against the reference search on `rules`
/// (the same puzzle restated): every configuration is reached iff its class is solvable;
/// `class_of`, `parse` and `classes.csv` all say so; and the analysis counts of solvable
/// configurations left unreached matches the reference.
fn assert_classes_predict_reachability(puzzle: &Coins, rules: &CoinRules) {
    let id = &puzzle.id;
    // `exact_invariant: false` so that the analysis reports rather than refuses a
    // disagreement: this test is the judge.
    let analysis =
        analysis::analyze(puzzle, Options::default(), false, |_| ControlFlow::Continue(())).expect("the analysis runs");
    let rows = classes_csv(&analysis);
    assert_eq!(rows.len(), puzzle.classes().len(), "{id}");

    let distance = coin_distances(rules);
    let mut configurations = vec![0u64; rows.len()];
    let mut reached = vec![0u64; rows.len()];
    let mut solvable_unreached = 0;
    for config in rules.all() {
        let rank = book_rank(config, rules.coins);
        let text = coin_text(config, rules.coins);
        assert_eq!(puzzle.render(rank), text, "{id}: rank {rank}");
        let class = puzzle.class_of(rank);
        let is_reached = distance.contains_key(&config);
        configurations[class] += 1;
        reached[class] += u64::from(is_reached);
        let solvable = rows[class].solvable;
        solvable_unreached += u64::from(solvable && !is_reached);
        assert_eq!(
            is_reached, solvable,
            "{id}: {text} reached vs class {} solvable",
            rows[class].class
        );
        match puzzle.parse(&text) {
            Ok(parsed) => assert!(solvable && parsed == rank, "{id}: parse({text}) = {parsed}"),
            Err(ParseError::Unsolvable(_)) => assert!(!solvable, "{id}: parse refused solvable {text}"),
            Err(e) => panic!("{id}: {text} is well formed, yet: {e}"),
        }
    }
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.configurations, configurations[i], "{id}: class {}", row.class);
        assert_eq!(row.reached, reached[i], "{id}: class {}", row.class);
        let example = row.example.chars().fold(0, |rank, c| rank << 1 | u64::from(c == 'T'));
        assert_eq!(
            puzzle.class_of(example),
            i,
            "{id}: example {} of class {}",
            row.example,
            row.class
        );
        let holds_a_goal = rules
            .goals
            .iter()
            .any(|&g| puzzle.class_of(book_rank(g, rules.coins)) == i);
        assert_eq!(row.solvable, holds_a_goal, "{id}: class {}", row.class);
    }
    assert_eq!(analysis.solvable_unreached(), solvable_unreached, "{id}");
}

#[test]
fn lights_out_classes_predict_reachability_up_to_16_coins() {
    for (rows, cols) in boards_up_to(16) {
        assert_classes_predict_reachability(&lights_out(rows, cols), &ref_lights_out(rows, cols));
    }
}

#[test]
fn nine_tails_classes_predict_reachability_up_to_16_coins() {
    // Only face-up coins may be picked, so the algebra alone might over-promise; on every
    // board up to 16 coins the face-up rule turns out to leave no configuration of the
    // goal's class unreached, and `solvable_unreached` must say so.
    for (rows, cols) in boards_up_to(16) {
        assert_classes_predict_reachability(&nine_tails(rows, cols), &ref_nine_tails(rows, cols));
    }
}

#[test]
fn coin_lines_classes_predict_reachability() {
    for size in 2..=4 {
        assert_classes_predict_reachability(&coin_lines(size), &ref_coin_lines(size));
    }
}

#[test]
fn flip_k_brute_force_classes_predict_reachability_up_to_12_coins() {
    for n in 1..=12 {
        for k in 1..=n {
            assert_classes_predict_reachability(&flip_k_brute(n, k), &ref_flip_k(n, k));
        }
    }
}

#[test]
fn flip_k_symmetric_classes_predict_reachability_up_to_12_coins() {
    // The symmetric puzzle's ranks are tail counts; its classes must still count and
    // classify the individual configurations the reference search explores.
    for n in 1..=12usize {
        for k in 1..=n {
            let puzzle = FlipK::new(n as u32, k as u32);
            let rules = ref_flip_k(n, k);
            let distance = coin_distances(&rules);
            let classes = puzzle.classes();
            let mut configurations = vec![0u64; classes.len()];
            for config in rules.all() {
                let class = puzzle.class_of(u64::from(config.count_ones()));
                configurations[class] += 1;
                assert_eq!(
                    distance.contains_key(&config),
                    classes[class].solvable,
                    "N={n} K={k} {config:b}"
                );
            }
            let predicted: Vec<u64> = classes.iter().map(|c| c.configurations).collect();
            assert_eq!(predicted, configurations, "N={n} K={k}");
        }
    }
}

/// Tail count of an `H`/`T` row.
fn tails(text: &str) -> u64 {
    text.chars().filter(|&c| c == 'T').count() as u64
}

#[test]
fn every_class_is_non_empty_and_its_example_lies_in_it() {
    // classes.csv shows one example per class: it must be a configuration of that class.
    let coin_puzzles = [
        lights_out(4, 3),
        lights_out(4, 4),
        lights_out(5, 5),
        nine_tails(3, 3),
        coin_lines(3),
        coin_lines(4),
    ];
    for puzzle in &coin_puzzles {
        for (i, class) in puzzle.classes().iter().enumerate() {
            let rank = class.example.chars().fold(0, |rank, c| rank << 1 | u64::from(c == 'T'));
            assert!(
                class.configurations > 0,
                "{}: class {} is empty",
                puzzle.id,
                class.label
            );
            assert_eq!(
                puzzle.class_of(rank),
                i,
                "{}: example {} of class {}",
                puzzle.id,
                class.example,
                class.label
            );
        }
    }
    for n in 1..=12 {
        for k in 1..=n {
            let puzzle = FlipK::new(n, k);
            for (i, class) in puzzle.classes().iter().enumerate() {
                assert!(class.configurations > 0, "N={n} K={k}: class {} is empty", class.label);
                assert_eq!(
                    puzzle.class_of(tails(&class.example)),
                    i,
                    "N={n} K={k}: example {} of class {}",
                    class.example,
                    class.label
                );
            }
        }
    }
}
