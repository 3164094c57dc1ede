//! `--goal`: distances to another goal, for sliding boards (the blank anywhere, either
//! parity) and coin boards, checked against plain searches from that goal.

#![allow(clippy::unwrap_used)]

use crate::util::bfs as search;
use crate::util::{
    CoinRules, SLIDING_3X4, SMALL_BOARDS, Sandbox, board_text, coin_distances, coin_vector, distances_to, first_length,
    histogram, pack, ref_flip_k, ref_lights_out, solution_length,
};
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use std::ops::ControlFlow;

/// `distances.csv` as a list of (distance, states).
fn table(csv: &str) -> Vec<u64> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect()
}

fn run_distances(args: &[&str], id: &str) -> Vec<u64> {
    let sandbox = Sandbox::new();
    sandbox.run(&[args, &["--quiet"]].concat()).success();
    table(&sandbox.read(&format!("reports/{id}/distances.csv")))
}

#[test]
fn eight_with_the_blank_in_the_centre_has_148_antipodes_at_30() {
    let goal = [1, 2, 3, 4, 0, 5, 6, 7, 8];
    let levels = run_distances(
        &["--puzzle", "eight", "--goal", "1 2 3 4 0 5 6 7 8"],
        "eight-goal-1-2-3-4-0-5-6-7-8",
    );
    assert_eq!(levels, histogram(distances_to(&goal, 3, 3).into_values()));
    assert_eq!(levels.len() - 1, 30);
    assert_eq!(levels.last(), Some(&148));
}

#[test]
fn eight_with_the_blank_first_has_the_corner_table() {
    let levels = run_distances(
        &["--puzzle", "eight", "--goal", "0 1 2 3 4 5 6 7 8"],
        "eight-goal-0-1-2-3-4-5-6-7-8",
    );
    assert_eq!(
        levels,
        histogram(distances_to(&[0, 1, 2, 3, 4, 5, 6, 7, 8], 3, 3).into_values())
    );
    // The usual goal's table, which tests/tables.rs checks against the published one.
    assert_eq!(levels, run_distances(&["--puzzle", "eight"], "eight"));
}

#[test]
fn every_goal_of_either_parity_on_small_boards_equals_a_search_from_it() {
    for (rows, cols) in SMALL_BOARDS {
        let n = rows * cols;
        // The blank in every cell, tiles in order and with the first two swapped (the
        // other parity class).
        for blank in 0..n {
            for swap in [false, true] {
                let mut goal: Vec<u8> = (1..n as u8).collect();
                if swap {
                    goal.swap(0, 1);
                }
                goal.insert(blank, 0);
                let puzzle = Sliding::new(rows, cols).unwrap().with_goal_tiles(&goal).unwrap();
                let levels = search(&puzzle, |_| ControlFlow::Continue(())).unwrap().levels;
                assert_eq!(
                    levels,
                    histogram(distances_to(&goal, rows, cols).into_values()),
                    "{rows}x{cols} goal {goal:?}"
                );
                assert_eq!(puzzle.render(puzzle.goals()[0]), board_text(&goal));
                // Ranks still round-trip through the user's tiles.
                for rank in (0..puzzle.states()).step_by(97) {
                    assert_eq!(puzzle.rank_board(&puzzle.board(rank)), Ok(rank));
                }
            }
        }
    }
}

#[test]
fn solving_for_another_goal_gives_shortest_paths_to_it() {
    let goal = [1, 2, 3, 4, 0, 5, 6, 7, 8];
    let reference = distances_to(&goal, 3, 3);
    let sandbox = Sandbox::new();
    for start in [[8, 6, 7, 2, 5, 4, 3, 0, 1], [2, 1, 3, 4, 5, 6, 7, 8, 0]] {
        let assert = sandbox.run(&[
            "--puzzle",
            "eight",
            "--goal",
            &board_text(&goal),
            "--solve",
            &board_text(&start),
            "--quiet",
        ]);
        let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).unwrap();
        match reference.get(&pack(&start)) {
            Some(&d) => {
                let length = format!("{d} move{}", if d == 1 { "" } else { "s" });
                assert_eq!(first_length(&stdout), Some(length.as_str()), "{stdout}");
                // The last board drawn is the goal (blank drawn as `.`).
                let last: Vec<&str> = stdout.lines().rev().take(3).collect();
                assert_eq!(last, ["6 7 8", "4 . 5", "1 2 3"], "{stdout}");
            }
            None => assert!(stdout.starts_with("unsolvable"), "{stdout}"),
        }
    }
}

#[test]
fn big_boards_solve_for_a_goal_by_ida_star_when_no_cache_can_keep_its_table() {
    // 3x4 is solved by its distance mod 3 table when a cache folder can keep it (tests/mod3.rs
    // covers that route on small boards); without one, by IDA* with pattern databases built
    // for the goal: a goal one slide from the start is one move away.
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("a-file"), "").expect("write");
    let goal = "2 1 3 4 5 6 7 8 9 10 11 0";
    let args = [
        &SLIDING_3X4[..],
        &[
            "--goal",
            goal,
            "--solve",
            "2 1 3 4 5 6 7 8 9 10 0 11",
            "1 2 3 4 5 6 7 8 9 10 11 0",
        ],
    ]
    .concat();
    let mut command = sandbox.command(&args);
    command.env("ANALYZE_CACHE_DIR", sandbox.path("a-file"));
    let assert = assert_cmd::Command::from_std(command).assert();
    let output = assert.success().get_output().clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("solving by IDA*"), "{stderr}");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("state 1 of 2: 2 1 3 4 5 6 7 8 9 10 0 11"),
        "{stdout}"
    );
    assert_eq!(lines.next().and_then(solution_length), Some("1 move"), "{stdout}");
    // The usual goal is in the other class of this goal.
    assert!(
        stdout.contains("| 1 2 3 4 5 6 7 8 9 10 11 0 | unsolvable |"),
        "{stdout}"
    );
}

#[test]
fn coin_goals_equal_a_search_from_them() {
    let goal = "HTH/HHH/THT/HHH";
    let levels = run_distances(
        &["--puzzle", "lights-out", "--goal", goal],
        "lights-out-4x3-goal-HTHHHHTHTHHH",
    );
    let mut rules: CoinRules = ref_lights_out(4, 3);
    rules.goals = vec![coin_vector(goal)];
    assert_eq!(levels, histogram(coin_distances(&rules).into_values()));
}

#[test]
fn bad_goals_are_refused() {
    let sandbox = Sandbox::new();
    for (args, says) in [
        (vec!["--puzzle", "eight", "--goal", "1 2 3"], "expected 9 tiles"),
        (vec!["--puzzle", "lights-out", "--goal", "HHX"], "is not a coin"),
        (vec!["--puzzle", "flip-k", "--goal", "HHH/HHHH"], "1 row of 7 coins"),
        (vec!["--all", "--goal", "HHH"], "cannot be used with"),
    ] {
        let assert = sandbox.run(&[args.as_slice(), &["--out", "out"]].concat());
        let stderr = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
        assert!(
            stderr.starts_with("error: ") && stderr.contains(says),
            "{args:?}: {stderr}"
        );
        assert!(!sandbox.path("out").exists());
    }
}

#[test]
fn flip_k_goals_equal_a_search_over_every_configuration() {
    for (n, k, goal) in [(7, 5, "HTHHTTH"), (6, 4, "HTHTHT"), (6, 4, "HHTTHH"), (5, 5, "THHTH")] {
        let id = format!("flip-k-{n}-{k}-goal-{goal}");
        let levels = run_distances(
            &[
                "--puzzle",
                "flip-k",
                "--coins",
                &n.to_string(),
                "--flip",
                &k.to_string(),
                "--goal",
                goal,
            ],
            &id,
        );
        let mut rules = ref_flip_k(n, k);
        rules.goals = vec![coin_vector(goal)];
        assert_eq!(levels, histogram(coin_distances(&rules).into_values()), "{id}");
    }
}

#[test]
fn flip_k_solutions_reach_the_given_goal_in_the_fewest_moves() {
    let (n, k, goal) = (7, 3, "TTHHTHT");
    let mut rules = ref_flip_k(n, k);
    rules.goals = vec![coin_vector(goal)];
    let reference = coin_distances(&rules);
    let sandbox = Sandbox::new();
    for start in ["HHHHHHH", "TTTTTTT", "HTHTHTH"] {
        let assert = sandbox.run(&[
            "--puzzle", "flip-k", "--coins", "7", "--flip", "3", "--goal", goal, "--solve", start, "--quiet",
        ]);
        let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).unwrap();
        let d = reference[&coin_vector(start)];
        let length = format!("{d} move{}", if d == 1 { "" } else { "s" });
        assert_eq!(first_length(&stdout), Some(length.as_str()), "{stdout}");
        // Replay the printed moves (`coins 1 2 5`, counted from 1) on the start.
        let mut config = coin_vector(start);
        let steps = stdout.lines().filter(|l| l.starts_with("move "));
        for line in steps.filter_map(|l| l.split_once(": coins ").map(|(_, c)| c)) {
            let coins: Vec<usize> = line.split(' ').map(|c| c.parse().unwrap()).collect();
            assert_eq!(coins.len(), k);
            config = coins.iter().fold(config, |v, c| v ^ 1 << (c - 1));
        }
        assert_eq!(config, coin_vector(goal), "{stdout}");
    }
}
