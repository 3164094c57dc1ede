//! The heuristic atlas against straightforward code: the three estimates on every board up
//! to 3x3 and random 4x4 boards, admissibility and consistency over whole spaces, the joint
//! distributions against a plain breadth-first search, and A*'s node counts against a
//! second implementation.

use crate::util::job;
use crate::util::{
    Rng, SLIDING_2X4, SLIDING_2X5, Sandbox, for_each_arrangement, goal_board, pack, slides, sliding_distances,
    textbook_solvable,
};
use analyze::atlas::astar;
use analyze::engine::Options;
use analyze::heuristics::{Estimates, Kind, PositionFacts};
use analyze::solve::ida::{Heuristic, Node};
use analyze::solve::manhattan::ManhattanLc;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::ops::ControlFlow;

/// Goal cell of `tile` (tiles 1..n on cells 0..n-1).
fn home(tile: u8, cols: usize) -> (usize, usize) {
    ((usize::from(tile) - 1) / cols, (usize::from(tile) - 1) % cols)
}

fn plain_hamming(board: &[u8]) -> u32 {
    board
        .iter()
        .enumerate()
        .filter(|&(cell, &t)| t != 0 && usize::from(t) != cell + 1)
        .count() as u32
}

fn plain_manhattan(board: &[u8], cols: usize) -> u32 {
    let mut sum = 0;
    for (cell, &t) in board.iter().enumerate() {
        if t != 0 {
            let (r, c) = home(t, cols);
            sum += r.abs_diff(cell / cols) + c.abs_diff(cell % cols);
        }
    }
    sum as u32
}

/// Longest strictly increasing subsequence by the quadratic textbook recurrence.
fn plain_lis(values: &[usize]) -> usize {
    let mut best = vec![1; values.len()];
    for i in 0..values.len() {
        for j in 0..i {
            if values[j] < values[i] {
                best[i] = best[i].max(best[j] + 1);
            }
        }
    }
    best.into_iter().max().unwrap_or(0)
}

/// Manhattan plus, per row, 2 x (tiles in their goal row - longest subsequence in goal
/// column order), and the same per column.
fn plain_linear_conflict(board: &[u8], rows: usize, cols: usize) -> u32 {
    let mut extra = 0;
    for r in 0..rows {
        let goal_cols: Vec<usize> = (0..cols)
            .map(|c| board[r * cols + c])
            .filter(|&t| t != 0 && home(t, cols).0 == r)
            .map(|t| home(t, cols).1)
            .collect();
        extra += 2 * (goal_cols.len() - plain_lis(&goal_cols));
    }
    for c in 0..cols {
        let goal_rows: Vec<usize> = (0..rows)
            .map(|r| board[r * cols + c])
            .filter(|&t| t != 0 && home(t, cols).1 == c)
            .map(|t| home(t, cols).0)
            .collect();
        extra += 2 * (goal_rows.len() - plain_lis(&goal_rows));
    }
    plain_manhattan(board, cols) + extra as u32
}

fn plain_all(board: &[u8], rows: usize, cols: usize) -> [u32; 3] {
    [
        plain_hamming(board),
        plain_manhattan(board, cols),
        plain_linear_conflict(board, rows, cols),
    ]
}

#[test]
fn estimates_equal_straightforward_code_on_every_board_up_to_3x3() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let estimates = Estimates::new(rows, cols);
        let mut boards = 0;
        for_each_arrangement(rows * cols, |board| {
            let expected = plain_all(board, rows, cols);
            assert_eq!(estimates.all(board), expected, "{rows}x{cols} {board:?}");
            for (kind, value) in Kind::ALL.into_iter().zip(expected) {
                assert_eq!(estimates.value(kind, board), value, "{rows}x{cols} {board:?}");
            }
            boards += 1;
        });
        assert_eq!(boards, (1..=rows * cols).product::<usize>());
    }
}

#[test]
fn estimates_equal_straightforward_code_on_random_4x4_and_larger_boards() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut conflicts_seen = 0;
    for (rows, cols) in [(4, 4), (4, 4), (3, 5), (5, 5), (2, 8)] {
        let estimates = Estimates::new(rows, cols);
        for _ in 0..20_000 {
            let board = rng.board(rows * cols);
            let expected = plain_all(&board, rows, cols);
            assert_eq!(estimates.all(&board), expected, "{rows}x{cols} {board:?}");
            conflicts_seen += usize::from(expected[2] > expected[1]);
        }
    }
    assert!(conflicts_seen > 10_000, "the boards exercise linear conflicts");
}

#[test]
fn the_solvers_estimate_is_the_atlas_linear_conflict() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (rows, cols) in [(3, 3), (4, 4), (3, 5), (5, 5), (6, 6)] {
        let solver = ManhattanLc::new(rows, cols);
        let estimates = Estimates::new(rows, cols);
        for _ in 0..2_000 {
            let board = rng.board(rows * cols);
            let node = Node::new(&analyze::solve::board::Board::new(rows, cols, board.clone()).expect("a board"));
            assert_eq!(solver.evaluate(&node).1, estimates.linear_conflict(&board), "{board:?}");
        }
    }
}

#[test]
fn estimates_are_admissible_and_consistent_on_whole_spaces() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)] {
        let estimates = Estimates::new(rows, cols);
        let distances = sliding_distances(rows, cols);
        let mut checked = 0;
        for_each_arrangement(rows * cols, |board| {
            if !textbook_solvable(board, rows, cols) {
                return;
            }
            let key = pack(board);
            let distance = distances[&key] as u32;
            let values = estimates.all(board);
            for (kind, value) in Kind::ALL.into_iter().zip(values) {
                assert!(value <= distance, "{} {value} > {distance} on {board:?}", kind.name());
                assert_eq!(value == 0, distance == 0, "{} is 0 only at the goal", kind.name());
            }
            for next in slides(board, rows, cols) {
                for (a, b) in values.iter().zip(estimates.all(&next)) {
                    assert!(a.abs_diff(b) <= 1, "{board:?} -> {next:?}");
                }
            }
            checked += 1;
        });
        assert_eq!(checked, distances.len());
    }
}

/// `heuristics.csv` rows from a plain BFS and the straightforward estimates.
fn plain_joint(rows: usize, cols: usize) -> Vec<String> {
    let distances = sliding_distances(rows, cols);
    let mut cells: BTreeMap<(usize, usize, u32), u64> = BTreeMap::new();
    for_each_arrangement(rows * cols, |board| {
        if let Some(&d) = distances.get(&pack(board)) {
            for (k, value) in plain_all(board, rows, cols).into_iter().enumerate() {
                *cells.entry((k, d, value)).or_default() += 1;
            }
        }
    });
    let mut lines = vec!["heuristic,distance,value,states".to_string()];
    lines.extend(
        cells
            .into_iter()
            .map(|((k, d, v), n)| format!("{},{d},{v},{n}", Kind::ALL[k].name())),
    );
    lines
}

#[test]
fn joint_distributions_equal_a_plain_breadth_first_search_row_for_row() {
    for (args, id, rows, cols) in [
        (vec!["--puzzle", "eight"], "eight", 3, 3),
        (SLIDING_2X4.to_vec(), "sliding-2x4", 2, 4),
        (SLIDING_2X5.to_vec(), "sliding-2x5", 2, 5),
    ] {
        let sandbox = Sandbox::new();
        let mut full = args.clone();
        full.extend(["--quiet", "--out", "out"]);
        sandbox.run(&full).success();
        let csv = std::fs::read_to_string(sandbox.path(&format!("out/{id}/heuristics.csv"))).expect("heuristics.csv");
        // The file is sorted by heuristic in the order hamming, manhattan, linear-conflict.
        let mut expected = plain_joint(rows, cols);
        let header = expected.remove(0);
        let mut got: Vec<String> = csv.lines().map(str::to_string).collect();
        assert_eq!(got.remove(0), header);
        assert_eq!(got, expected, "{id}");
    }
}

#[test]
fn the_8_puzzle_has_mean_manhattan_14_and_mean_hamming_64_over_9() {
    let spec = job("eight", &[]);
    let puzzle = spec.build().expect("the 8-puzzle");
    let analysis = spec
        .analyze(puzzle.as_ref(), Options::default(), false, &mut |_| {
            ControlFlow::Continue(())
        })
        .expect("analysis");
    let atlas = analysis.atlas.expect("the atlas is on for the 8-puzzle");
    let sum = |k: usize| -> (u64, u64) {
        let joint = &atlas.joints[k];
        let rows = joint.states.iter().flat_map(|row| row.iter().enumerate());
        rows.fold((0, 0), |(s, n), (v, &c)| (s + v as u64 * c, n + c))
    };
    assert_eq!(sum(0), (64 * 181_440 / 9, 181_440));
    assert_eq!(sum(1), (14 * 181_440, 181_440));
    assert_eq!(atlas.joints[1].mean_value(), 14.0);
    assert_eq!(atlas.joints[0].mean_value(), 64.0 / 9.0);
    assert!(
        !atlas.effort.rows.is_empty(),
        "the A* effort comes with the atlas, so the default run writes what is committed"
    );
}

/// The assignment's A*, written as plainly as possible: boards as vectors, the estimate
/// recomputed from scratch, a binary heap ordered by (moves + estimate, estimate, order).
fn plain_astar(board: &[u8], rows: usize, cols: usize, kind: usize) -> u64 {
    let mut nodes: Vec<(Vec<u8>, u32, Option<usize>)> = vec![(board.to_vec(), 0, None)];
    let h = plain_all(board, rows, cols)[kind];
    let mut heap = BinaryHeap::from([Reverse((h, h, 0))]);
    let goal = goal_board(rows, cols);
    let mut dequeued = 0;
    while let Some(Reverse((_, _, index))) = heap.pop() {
        dequeued += 1;
        let (board, moves, previous) = nodes[index].clone();
        if board == goal {
            return dequeued;
        }
        for next in slides(&board, rows, cols) {
            if previous.is_some_and(|p| nodes[p].0 == next) {
                continue;
            }
            let h = plain_all(&next, rows, cols)[kind];
            nodes.push((next, moves + 1, Some(index)));
            heap.push(Reverse((moves + 1 + h, h, nodes.len() - 1)));
        }
    }
    panic!("the goal is reachable");
}

#[test]
fn astar_node_counts_equal_a_second_implementation() {
    // By hand: one move from the goal, A* dequeues the start and the goal.
    let estimates = Estimates::new(3, 3);
    for kind in Kind::ALL {
        assert_eq!(
            astar::dequeued(&estimates, kind, &[1, 2, 3, 4, 5, 6, 7, 0, 8], 100),
            Some(2)
        );
    }
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for (rows, cols) in [(3, 3), (2, 4), (2, 5)] {
        let estimates = Estimates::new(rows, cols);
        let mut positions = 0;
        while positions < 12 {
            let board = rng.board(rows * cols);
            if !textbook_solvable(&board, rows, cols) {
                continue;
            }
            positions += 1;
            for (k, kind) in Kind::ALL.into_iter().enumerate() {
                let Some(nodes) = astar::dequeued(&estimates, kind, &board, 20_000) else {
                    continue;
                };
                assert_eq!(nodes, plain_astar(&board, rows, cols, k), "{} {board:?}", kind.name());
            }
        }
    }
}

#[test]
fn the_astar_table_comes_with_the_full_atlas() {
    let spec = job("sliding", &[("rows", 2), ("cols", 3)]);
    let puzzle = spec.build().expect("2x3");
    let analysis = spec
        .analyze(puzzle.as_ref(), Options::default(), true, &mut |_| {
            ControlFlow::Continue(())
        })
        .expect("analysis");
    let effort = analysis.atlas.map(|a| a.effort).expect("effort table");
    // 2x3: every distance, every estimate, and all positions where fewer than 100.
    assert_eq!(effort.rows.len(), 3 * analysis.levels.len());
    for row in &effort.rows {
        assert_eq!(row.positions as u64, analysis.levels[row.distance].min(100));
        let (mean, max) = row.nodes.expect("2x3 searches stay within the budget");
        assert!(mean >= row.distance as f64 + 1.0 && max as f64 >= mean);
    }
}

#[test]
fn position_facts_match_the_assignment_and_the_textbook_rule() {
    // The assignment's example board: Hamming 5, Manhattan 10.
    let facts = PositionFacts::new(3, 3, &[8, 1, 3, 4, 0, 2, 7, 6, 5]);
    assert_eq!((facts.hamming, facts.manhattan), (5, 10));
    for (rows, cols) in [(2, 3), (3, 3), (2, 4), (3, 4)] {
        let mut rng = Rng(7 + rows as u64 * 10 + cols as u64);
        for _ in 0..500 {
            let board = rng.board(rows * cols);
            let facts = PositionFacts::new(rows, cols, &board);
            assert_eq!(facts.solvable(), textbook_solvable(&board, rows, cols), "{board:?}");
            assert_eq!(
                [facts.hamming, facts.manhattan, facts.linear_conflict],
                plain_all(&board, rows, cols)
            );
        }
    }
}

#[test]
fn solve_states_the_estimates_and_the_parity_rule_after_the_first_line() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .run(&["--puzzle", "eight", "--solve", "8 1 3 4 0 2 7 6 5", "1 2 3 4 5 6 8 7 0"])
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 stdout");
    assert!(
        stdout.starts_with(
            "state 1 of 2: 8 1 3 4 0 2 7 6 5\n\
             solution (14 moves): tile 2, tile 5, tile 6, tile 7, tile 4, tile 8, tile 1, tile 2, tile 8, tile 4, tile 7, tile 8, tile 5, tile 6\n\
             hamming 5, manhattan 10, linear-conflict 10\n\
             inversions 12, blank row 1 (0 = top, 2 = bottom)\n\
             parity rule: the width 3 is odd, so a configuration is solvable exactly when its inversions are even; 12 is even: solvable\n\
             8 1 3\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "hamming 2, manhattan 2, linear-conflict 4\n\
             inversions 1, blank row 2 (0 = top, 2 = bottom)\n\
             parity rule: the width 3 is odd, so a configuration is solvable exactly when its inversions are even; 1 is odd: unsolvable\n"
        ),
        "{stdout}"
    );
    let output = sandbox
        .run(&[&SLIDING_2X4[..], &["--solve", "2 1 3 4 5 6 7 0"]].concat())
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 stdout");
    assert!(
        stdout.ends_with(
            "inversions 1, blank row 1 (0 = top, 1 = bottom)\n\
             parity rule: the width 4 is even, so a configuration is solvable exactly when inversions + the blank's rows above the bottom row is even; 1 + 0 = 1 is odd: unsolvable\n"
        ),
        "{stdout}"
    );
}
