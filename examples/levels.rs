//! Per-level timing of a single-process sliding-board search: where a long run spends its
//! time, level by level (the README's 2x7 table comes from it).
//!
//! usage: cargo run --release --example levels -- ROWS COLS [LAST_LEVEL] [--atlas]
//!
//! Prints one line per level: its distance, configurations, the level's seconds and states
//! per second, and the process's CPU seconds so far; stops after LAST_LEVEL if given. With
//! `--atlas` it also tallies the heuristic atlas of each level and prints the seconds that
//! took apart (`atlas_s`, included in `level_s`).

use analyze::atlas::Collector;
use analyze::engine::{Options, search};
use analyze::puzzle::sliding::Sliding;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let (Some(&rows), Some(&cols)) = (args.first(), args.get(1)) else {
        eprintln!("usage: levels ROWS COLS [LAST_LEVEL]");
        return ExitCode::from(2);
    };
    let Some(puzzle) = Sliding::new(rows, cols) else {
        eprintln!("no {rows}x{cols} board: 2 to 16 cells, at least 2 rows and columns");
        return ExitCode::from(2);
    };
    let last_level = args.get(2).copied().unwrap_or(usize::MAX);
    let mut atlas = std::env::args()
        .any(|a| a == "--atlas")
        .then(|| Collector::new(&puzzle));
    let (mut atlas_total, mut failed) = (0.0, None);
    let start = Instant::now();
    let mut before = 0.0;
    let result = search(&puzzle, Options::default(), |level| {
        let mut atlas_s = 0.0;
        if let Some(atlas) = atlas.as_mut() {
            let begun = Instant::now();
            if let Err(e) = atlas.observe(level) {
                failed = Some(e);
                return ControlFlow::Break(());
            }
            atlas_s = begun.elapsed().as_secs_f64();
            atlas_total += atlas_s;
        }
        let now = start.elapsed().as_secs_f64();
        let took = now - before;
        before = now;
        println!(
            "level {:3} states {:>14} level_s {:8.2} total_s {:8.1} rate_M/s {:7.2} cpu_s {:8.1} atlas_s {atlas_s:6.3}",
            level.depth,
            level.states,
            took,
            now,
            level.states as f64 / took.max(1e-9) / 1e6,
            cpu_seconds()
        );
        if level.depth >= last_level {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    match result {
        Ok(search) => println!(
            "total {} max {} antipodes {} seconds {:.2} cpu_s {:.1} atlas_s {atlas_total:.2}",
            search.levels.iter().sum::<u64>(),
            search.levels.len() - 1,
            search.antipodes.len(),
            start.elapsed().as_secs_f64(),
            cpu_seconds()
        ),
        Err(_) if failed.is_some() => println!("{}", failed.map_or_else(String::new, |e| e.to_string())),
        Err(e) => println!("stopped ({e}) after {:.1} s", start.elapsed().as_secs_f64()),
    }
    ExitCode::SUCCESS
}

/// User plus system CPU seconds of this process, from /proc (0 where there is none).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: f64 = fields
        .iter()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}
