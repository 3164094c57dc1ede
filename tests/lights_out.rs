//! Lights out over 25 coins is searched by press weight (`presses.rs`): on every board
//! small enough for the bit-mask search, the two routes must write the same distance
//! table, and 7x7 must come out as the binomials and Burnside's classes.

use crate::util::choose;
use crate::util::run::Sandbox;
use analyze::analysis::{self, Analysis};
use analyze::engine::Options;
use analyze::puzzle::SymmetryChoice;
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::prelude::*;
use analyze::puzzle::presses::Presses;
use analyze::report::csv::write_distances;
use std::ops::ControlFlow;

/// The invertible boards of up to 24 coins, both sides at least 2 (2x3, 5x5 and 4x4 are
/// singular: `presses.rs` tests them).
const INVERTIBLE: [(usize, usize); 8] = [(2, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (2, 6), (4, 5)];

fn distances<P: Puzzle>(puzzle: &P) -> String {
    let analysis: Analysis = analysis::analyze(puzzle, Options::default(), false, |_| ControlFlow::Continue(()))
        .unwrap_or_else(|e| panic!("{}: {e}", puzzle.id()));
    let mut out = Vec::new();
    write_distances(&analysis, &mut out).expect("written");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn press_weights_write_the_bit_mask_searchs_distance_table() {
    for (rows, cols) in INVERTIBLE {
        for choice in ["none", "rotations", "all"] {
            let choice: SymmetryChoice = choice.parse().expect("a choice");
            let masks = lights_out(rows, cols).with_symmetry(choice);
            let presses = Presses::new(lights_out(rows, cols)).and_then(|p| p.with_symmetry(choice));
            // A rectangle has no quarter turn, and both routes then refuse `rotations` alike.
            match (masks, presses) {
                (Ok(masks), Ok(presses)) => {
                    assert_eq!(distances(&presses), distances(&masks), "{rows}x{cols} {choice}");
                }
                (masks, presses) => assert_eq!(masks.err(), presses.err(), "{rows}x{cols} {choice}"),
            }
        }
    }
}

/// 7x7 through the binary: C(49, w) configurations at distance w, 2^49 in all, one
/// antipode at 49, and the classes Burnside counts under the square's 8 symmetries (the
/// quarter turns fix 2^13 press sets, the half turn 2^25, each reflection 2^28).
#[test]
fn lights_out_7x7_is_the_binomials_up_to_the_squares_symmetries() {
    let sandbox = Sandbox::new();
    let ran = sandbox.output(&["--puzzle", "lights-out", "--rows", "7", "--cols", "7", "--out", "out"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let written = sandbox.read("out/lights-out-7x7/distances.csv");
    let levels: Vec<u64> = (0..=49).map(|w| choose(49, w)).collect();
    assert_eq!(levels.iter().sum::<u64>(), 1 << 49);
    let states: Vec<u64> = written.lines().skip(1).map(|l| column(l, 1)).collect();
    assert_eq!(states, levels);
    let classes: u64 = written.lines().skip(1).map(|l| column(l, 2)).sum();
    assert_eq!(classes, ((1 << 49) + 2 * (1 << 13) + (1 << 25) + 4 * (1 << 28)) / 8);
    let report = sandbox.read("out/lights-out-7x7/report.md");
    assert!(report.contains("its distance is that set's size"), "{report}");
    assert!(report.contains("| maximum distance | 49 moves |"), "{report}");
    assert!(
        report.contains("| antipodes (at the maximum) | 1 in 1 class |"),
        "{report}"
    );
}

fn column(line: &str, i: usize) -> u64 {
    line.split(',').nth(i).and_then(|v| v.parse().ok()).expect("a count")
}

/// The presses that made a 7x7 configuration are its unique, optimal solution.
#[test]
fn solves_7x7_by_its_press_set() {
    let presses = ["r1c1", "r4c4", "r7c6"];
    let board = lights_out(7, 7);
    let config = presses
        .iter()
        .map(|name| board.moves.iter().find(|m| m.name == *name).expect("a cell").mask)
        .fold(0, |b, m| b ^ m);
    let sandbox = Sandbox::new();
    let ran = sandbox.output(&[
        "--puzzle",
        "lights-out",
        "--rows",
        "7",
        "--cols",
        "7",
        "--solve",
        &board.render(config),
    ]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stdout.contains("solution (3 moves): r1c1 r4c4 r7c6"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.trim_end().ends_with("HHHHHHH"), "{}", ran.stdout);
}

/// A sample on a board searched by press weight draws among the C(49, 30) states at the
/// distance, which its one rank stands for: distinct states, each 30 presses from the goal;
/// and at distance 1 among the 49, all of them when more are asked for.
#[test]
fn a_sample_draws_among_the_states_one_rank_stands_for() {
    let sandbox = crate::util::Sandbox::new();
    let board = ["--puzzle", "lights-out", "--rows", "7", "--cols", "7"];
    let ended = sandbox.output(&[&board[..], &["--sample", "30", "3"]].concat());
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let drawn: Vec<&str> = ended.stdout.lines().collect();
    assert_eq!(drawn.len(), 3);
    assert!(drawn[0] != drawn[1] && drawn[1] != drawn[2] && drawn[0] != drawn[2]);
    let solved = sandbox.output(&[&board[..], &["--quiet", "--solve"], &drawn[..]].concat());
    let lengths: Vec<&str> = solved.stdout.lines().filter_map(crate::util::solution_length).collect();
    assert_eq!(lengths, ["30 moves"; 3], "{}", solved.stdout);
    let all = sandbox.output(&[&board[..], &["--sample", "1", "60"]].concat());
    let mut states: Vec<&str> = all.stdout.lines().collect();
    states.sort_unstable();
    states.dedup();
    assert_eq!(states.len(), 49);
    assert!(
        all.stderr.contains("only 49 states lie at distance 1"),
        "{}",
        all.stderr
    );
}
