//! Per-level timing of a permutation puzzle read from a ksolve / twsearch definition: the
//! side-by-side benchmark against `twsearch -g`.
//!
//! usage: cargo run --release --example perm_levels -- FILE.tws [--quarter] [--info | --generate]
//!
//! Prints the rank space and how predecessors are generated, then one line per level (its
//! distance, positions, the level's seconds), then the total, the largest distance and the
//! wall seconds (building the tables included). `--info` stops after the first line;
//! `--generate` only times the puzzle's side: every rank's predecessors on one thread.

use analyze::engine::{Options, search};
use analyze::puzzle::perm::{Metric, PermPuzzle};
use analyze::puzzle::prelude::*;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: perm_levels FILE.tws [--quarter]");
        return ExitCode::from(2);
    };
    let metric = if args.iter().any(|a| a == "--quarter") {
        Metric::Quarter
    } else {
        Metric::Face
    };
    let start = Instant::now();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let puzzle = match PermPuzzle::from_text(&text, "bench", metric) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "states {} moves {} plan {} built_s {:.3}",
        puzzle.states(),
        puzzle.moves().len(),
        puzzle.plan(),
        start.elapsed().as_secs_f64()
    );
    if args.iter().any(|a| a == "--info") {
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "--generate") {
        // Only the puzzle's side: every rank's predecessors, one thread, summed.
        let begun = Instant::now();
        let mut memo = Default::default();
        let (mut sum, mut count) = (0u64, 0u64);
        let words = vec![u64::MAX; 4096];
        let mut first = 0;
        while first < puzzle.states() {
            let n = ((puzzle.states() - first).div_ceil(64) as usize).min(words.len());
            puzzle.for_each_far_predecessor_in_words(&mut memo, first, &words[..n], |_, p| {
                sum = sum.wrapping_add(p);
                count += 1;
            });
            first += 64 * n as u64;
        }
        let s = begun.elapsed().as_secs_f64();
        println!(
            "generated {count} in {s:.3} s: {:.2} ns each (sum {sum})",
            s * 1e9 / count as f64
        );
        return ExitCode::SUCCESS;
    }
    let mut before = start.elapsed().as_secs_f64();
    let result = search(&puzzle, Options::default(), |level| {
        let now = start.elapsed().as_secs_f64();
        println!(
            "level {:3} states {:>14} level_s {:8.3}",
            level.depth,
            level.states,
            now - before
        );
        before = now;
        ControlFlow::Continue(())
    });
    match result {
        Ok(search) => {
            println!(
                "total {} max {} antipodes {} seconds {:.3}",
                search.levels.iter().sum::<u64>(),
                search.levels.len() - 1,
                search.antipodes.len(),
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
