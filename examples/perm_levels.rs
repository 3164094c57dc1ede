//! Per-level timing of a permutation puzzle read from a ksolve / twsearch definition: the
//! side-by-side benchmark against `twsearch -g`.
//!
//! usage: cargo run --release --example perm_levels -- FILE.tws [--quarter]
//!
//! Prints the rank space and how predecessors are generated, then one line per level (its
//! distance, positions, the level's seconds), then the total, the largest distance and the
//! wall seconds (building the tables included).

use analyze::engine::bfs;
use analyze::puzzle::Puzzle;
use analyze::puzzle::perm::{Metric, PermPuzzle};
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
    let mut before = start.elapsed().as_secs_f64();
    let result = bfs(&puzzle, |level| {
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
