//! Published figures (shared/REFERENCES.md) that the analyses must reproduce exactly.

use crate::util::{A089473, analysis, choose, engine_distances, job};
use analyze::analysis::{self, Analysis};
use analyze::engine::Options;
use analyze::puzzle::SymmetryChoice;
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::coins::Coins;
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use std::ops::ControlFlow;

fn sliding(rows: usize, cols: usize) -> Analysis {
    analysis(job("sliding", &[("rows", rows as u64), ("cols", cols as u64)]))
}

/// OEIS A090034: the 2x3 board.
const A090034: [u64; 22] = [
    1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1,
];

/// The 2x2 board (a row of OEIS A151944).
const TWO_BY_TWO: [u64; 7] = [1, 2, 2, 2, 2, 2, 1];

#[test]
fn sliding_2x2_matches_its_published_table() {
    assert_eq!(sliding(2, 2).levels, TWO_BY_TWO);
}

#[test]
fn sliding_2x3_and_3x2_match_a090034() {
    assert_eq!(sliding(2, 3).levels, A090034);
    assert_eq!(sliding(3, 2).levels, A090034);
}

/// OEIS A090035: the 2x4 board (https://oeis.org/A090035).
const A090035: [u64; 37] = [
    1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194, 1414, 1664, 1884, 1999,
    1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1,
];

/// OEIS A090036: the 2x5 board (https://oeis.org/A090036).
const A090036: [u64; 56] = [
    1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567, 4996, 6838, 9279, 12463,
    16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725, 104896, 116966, 126335, 131998, 133107, 128720,
    119332, 106335, 91545, 75742, 60119, 45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224, 528, 225, 75, 20, 2,
];

/// OEIS A090166: the 3x4 board, as in REFERENCES.md.
const A090166: [u64; 54] = [
    1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167, 119888, 198363,
    323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872, 10065800, 12760413, 15570786,
    18171606, 20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217, 6583181, 4242753, 2503873,
    1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18,
];

#[test]
fn sliding_2x4_and_4x2_match_a090035() {
    assert_eq!(A090035.iter().sum::<u64>(), 20_160);
    assert_eq!(sliding(2, 4).levels, A090035);
    assert_eq!(sliding(4, 2).levels, A090035);
}

#[test]
fn sliding_2x5_and_5x2_match_a090036() {
    assert_eq!(A090036.iter().sum::<u64>(), 1_814_400);
    assert_eq!(sliding(2, 5).levels, A090036);
    assert_eq!(sliding(5, 2).levels, A090036);
}

/// 239,500,800 states: the longest test (16 s measured on two busy cores, 90 MiB).
#[test]
fn sliding_3x4_matches_a090166() {
    assert_eq!(A090166.iter().sum::<u64>(), 239_500_800);
    assert_eq!(sliding(3, 4).levels, A090166);
}

#[test]
fn eight_puzzle_matches_a089473() {
    let a = analysis(job("eight", &[]));
    assert_eq!(a.levels, A089473);
    assert_eq!(a.reachable(), A089473.iter().sum::<u64>());
    assert_eq!((a.configurations, a.reachable()), (362_880, 181_440));
}

#[test]
fn sliding_3x3_matches_a089473_like_the_eight() {
    assert_eq!(sliding(3, 3).levels, A089473);
}

#[test]
fn eight_puzzle_has_exactly_the_two_known_antipodes_at_31_moves() {
    let a = analysis(job("eight", &[]).with_symmetry(SymmetryChoice::NONE).expect("none"));
    assert_eq!((a.max_distance(), a.antipodes()), (31, 2));
    // Up to the diagonal reflection they are one class, shown once.
    let up_to = analysis(job("eight", &[]));
    assert_eq!((up_to.antipode_classes(), up_to.antipode_examples.len()), (1, 1));
    assert!(a.antipode_examples.contains(&up_to.antipode_examples[0]));
    let mut antipodes = a.antipode_examples.clone();
    antipodes.sort();
    assert_eq!(antipodes, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    // And the engine agrees when asked for those two boards directly.
    let eight = Sliding::eight();
    let ranks: Vec<u64> = antipodes
        .iter()
        .map(|b| eight.parse(b).expect("an antipode is solvable"))
        .collect();
    assert_eq!(engine_distances(&eight, &ranks), [Some(31), Some(31)]);
}

#[test]
fn lights_out_4x3_has_c12k_configurations_at_distance_k() {
    // The 4x3 move matrix is invertible, so every subset of presses is the unique minimal
    // solution of its configuration: C(12, k) configurations need exactly k presses.
    let a = analysis(job("lights-out", &[("rows", 4), ("cols", 3)]));
    let binomials: Vec<u64> = (0..=12).map(|k| choose(12, k)).collect();
    assert_eq!(a.levels, binomials);
}

/// The configuration (from all heads) that the named presses of `puzzle` produce.
fn pressed(puzzle: &Coins, presses: &str) -> u64 {
    presses
        .chars()
        .map(|name| {
            let name = name.to_string();
            puzzle
                .moves
                .iter()
                .find(|m| m.name == name)
                .unwrap_or_else(|| panic!("no move {name}"))
                .mask
        })
        .fold(0, |config, mask| config ^ mask)
}

#[test]
fn lights_out_4x3_worked_examples_need_their_published_presses() {
    // Cells ABC/DEF/GHI/JKL. With only L flipped the minimal solution is ADEGIKL; only A,
    // B or C flipped need ABDFHIL, ABCGHIK and BCDFGHJ: seven presses each.
    let puzzle = lights_out(4, 3);
    let examples = [
        ("HHHHHHHHHHHT", "ADEGIKL"),
        ("THHHHHHHHHHH", "ABDFHIL"),
        ("HTHHHHHHHHHH", "ABCGHIK"),
        ("HHTHHHHHHHHH", "BCDFGHJ"),
    ];
    let ranks: Vec<u64> = examples
        .iter()
        .map(|(c, _)| puzzle.parse(c).expect("4x3 is always solvable"))
        .collect();
    for ((config, presses), &rank) in examples.iter().zip(&ranks) {
        assert_eq!(
            pressed(&puzzle, presses),
            rank,
            "pressing {presses} should give {config}"
        );
    }
    assert_eq!(engine_distances(&puzzle, &ranks), [Some(7); 4]);
}

#[test]
fn lights_out_3x3_solves_all_512_configurations() {
    let a = analysis(job("lights-out", &[("rows", 3), ("cols", 3)]));
    assert_eq!((a.configurations, a.reachable(), a.classes.len()), (512, 512, 1));
}

#[test]
fn lights_out_4x4_solves_4096_of_65536() {
    let a = analysis(job("lights-out", &[("rows", 4), ("cols", 4)]));
    assert_eq!((a.configurations, a.reachable()), (65_536, 4_096));
    // Nullity 4: 16 classes of 4,096, only the goal's solvable.
    assert_eq!(a.classes.len(), 16);
    assert_eq!(a.classes.iter().filter(|c| c.solvable).count(), 1);
}

#[test]
fn lights_out_5x5_solves_2_pow_23_in_4_classes_within_15_presses() {
    // One search gives the table, the classes and (as the "start") all lights on, which
    // OEIS A075464 says needs exactly 15 presses, the maximum.
    let puzzle = lights_out(5, 5);
    assert!(puzzle.exact());
    let a = analysis::analyze(&puzzle, Options::default(), false, |_| ControlFlow::Continue(())).expect("5x5 analyses");
    assert_eq!((a.configurations, a.reachable()), (1 << 25, 1 << 23));
    assert_eq!(a.classes.len(), 4);
    assert_eq!(
        a.classes.iter().filter(|c| c.solvable).map(|c| c.reached).sum::<u64>(),
        1 << 23
    );
    assert_eq!(a.max_distance(), 15);
    assert_eq!(engine_distances(&puzzle, &[puzzle.all_tails()]), [Some(15)]);
}

#[test]
fn lights_out_all_on_needs_a075464_presses() {
    // OEIS A075464 for n = 1..4 (5 is checked with the 5x5 table above).
    for (n, presses) in [(1, 1), (2, 4), (3, 5), (4, 4)] {
        let puzzle = lights_out(n, n);
        assert_eq!(
            engine_distances(&puzzle, &[puzzle.all_tails()]),
            [Some(presses)],
            "{n}x{n}"
        );
    }
}

#[test]
fn lights_out_move_rank_follows_a159257_nullity() {
    // OEIS A159257: nullity of the n x n lights-out matrix over GF(2), for every n whose
    // n * n coins fit the library's 64-bit masks.
    let nullity = [0, 0, 0, 4, 2, 0, 0, 0];
    for (n, &null) in (1..=8).zip(&nullity) {
        let puzzle = lights_out(n, n);
        assert_eq!(puzzle.rank(), (n * n) as u32 - null, "{n}x{n}");
        if n * n <= 25 {
            assert_eq!(puzzle.classes().len(), 1 << null, "{n}x{n}");
        }
    }
}

#[test]
fn nine_tails_3x3_brings_all_512_to_the_goal_within_10_moves() {
    let a = analysis(job("nine-tails", &[("rows", 3), ("cols", 3)]));
    assert_eq!((a.configurations, a.reachable(), a.max_distance()), (512, 512, 10));
    assert_eq!(a.solvable_unreached(), 0);
}

#[test]
fn nine_tails_book_example_hhhttthhh_takes_two_moves() {
    let puzzle = nine_tails(3, 3);
    let parse = |text: &str| puzzle.parse(text).expect("the book's configurations are solvable");
    // The book numbers configurations with H = 0, T = 1, first coin most significant.
    assert_eq!(parse("TTTTTTTTT"), 511);
    assert_eq!(parse("HHHHHHHHH"), 0);
    let (start, middle, goal) = (parse("HHHTTTHHH"), parse("HHHTHTTTT"), parse("TTTTTTTTT"));
    assert_eq!(engine_distances(&puzzle, &[start]), [Some(2)]);
    // The book's path: flip the middle of the last row, then the middle of the first row.
    let mut after_start = Vec::new();
    puzzle.for_each_successor(start, |r| after_start.push(r));
    assert!(after_start.contains(&middle));
    let mut after_middle = Vec::new();
    puzzle.for_each_successor(middle, |r| after_middle.push(r));
    assert!(after_middle.contains(&goal));
}

#[test]
fn flip_5_of_7_needs_three_moves_from_all_heads() {
    let a = analysis(job("flip-k", &[("coins", 7), ("flip", 5)]));
    assert_eq!(a.start_distance, Some(Some(3)));
}

#[test]
fn flip_k_published_examples_need_their_published_moves() {
    for (coins, flip, moves) in [(5, 3, 3), (9, 5, 3), (4, 3, 4)] {
        let a = analysis(job("flip-k", &[("coins", coins as u64), ("flip", flip as u64)]));
        assert_eq!(a.start_distance, Some(Some(moves)), "N={coins}, K={flip}");
    }
}

#[test]
fn flip_k_with_odd_n_and_even_k_is_impossible() {
    for coins in (3..=21).step_by(2) {
        for flip in (2..coins).step_by(2) {
            let a = analysis(job("flip-k", &[("coins", coins as u64), ("flip", flip as u64)]));
            assert_eq!(a.start_distance, Some(None), "N={coins}, K={flip}");
        }
    }
}

#[test]
fn coin_lines_3x3_has_four_classes_of_128_and_only_the_goals_is_solvable() {
    let a = analysis(job("coin-lines", &[("size", 3)]));
    assert_eq!(a.classes.len(), 4);
    assert!(a.classes.iter().all(|c| c.configurations == 128), "{:?}", a.classes);
    let solvable: Vec<_> = a.classes.iter().filter(|c| c.solvable).collect();
    assert_eq!(solvable.len(), 1);
    assert_eq!(solvable[0].reached, 128);
    assert_eq!(a.reachable(), 128);
    // Both goals (all heads, all tails) lie in that one class.
    let puzzle = coin_lines(3);
    let goal_classes: Vec<usize> = puzzle.goals().iter().map(|&g| puzzle.class_of(g)).collect();
    assert_eq!(goal_classes[0], goal_classes[1]);
}

#[test]
fn coin_lines_article_examples_are_classified_as_published() {
    let puzzle = coin_lines(3);
    assert!(matches!(
        puzzle.parse("TTH/HTH/HHH"),
        Err(analyze::puzzle::ParseError::Unsolvable(_))
    ));
    let start = puzzle.parse("TTH/HHH/THH").expect("the article solves TTH/HHH/THH");
    // The article's (not necessarily shortest) solution L1 L2 C2 D1 reaches a goal.
    let end = ["L1", "L2", "C2", "D1"]
        .iter()
        .map(|name| {
            puzzle
                .moves
                .iter()
                .find(|m| m.name == *name)
                .expect("a named line")
                .mask
        })
        .fold(start, |config, mask| config ^ mask);
    assert!(puzzle.goals().contains(&end), "ends at {}", puzzle.render(end));
}
