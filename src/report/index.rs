//! The index `README.md` of an output folder written for several puzzles (`--all`, or
//! several `--rules` files): one row per analysis.

use super::thousands;
use crate::analysis::Analysis;
use std::io::{self, Write};

/// Writes the index table, linking each puzzle's folder and report. The heuristic atlas
/// column and its paragraph appear only when some puzzle has an atlas (a sliding board),
/// and a distance is given with its unit, which differs between puzzles (moves, flips,
/// quarter turns).
pub fn write_index(analyses: &[Analysis], mut w: impl Write) -> io::Result<()> {
    let atlas = analyses.iter().any(|a| a.atlas.is_some());
    writeln!(w, "# Puzzle state spaces\n")?;
    writeln!(
        w,
        "Every configuration of each puzzle below, its solvability class and, for the states among them, its distance to the goal, as computed by `analyze`: *configurations* counts every arrangement, reachable or not (a permutation puzzle's pieces taken apart and put back at will), *states* those that can reach the goal. Each row links to a page with the charts and tables.\n"
    )?;
    writeln!(w, "![distance distributions compared](overview.png)\n")?;
    let (head, rule) = match atlas {
        true => (" heuristic atlas |", "---|"),
        false => ("", ""),
    };
    writeln!(
        w,
        "| puzzle | configurations | states | solvability classes | max distance | antipodes | mean distance |{head}\n|---|---:|---:|---:|---:|---:|---:|{rule}"
    )?;
    for a in analyses {
        write!(
            w,
            "| [{}]({}/report.md) | {} | {} | {} | {} | {} | {:.4} |",
            super::markdown::escape(&a.title),
            a.id,
            thousands(a.configurations),
            thousands(a.reachable()),
            a.classes.len(),
            a.distance_text(a.max_distance()),
            thousands(a.antipodes()),
            a.mean_distance(),
        )?;
        match atlas {
            true => writeln!(w, " {} |", atlas_link(a))?,
            false => writeln!(w)?,
        }
    }
    if atlas {
        writeln!(
            w,
            "\nThe heuristic atlas of a sliding board measures the Hamming, Manhattan and linear-conflict estimates on every state against its true distance, with the A* search effort they lead to."
        )?;
    }
    writeln!(
        w,
        "\nEvery figure is exact and the same on every run; each folder's `run.json` (ignored by git) names the run that wrote it: version, commit, command line, date, machine, mode, threads and wall time."
    )?;
    Ok(())
}

/// A link to the *Heuristics* section of a report that has one.
fn atlas_link(a: &Analysis) -> String {
    match &a.atlas {
        Some(_) => format!("[estimates, A*]({}/report.md#heuristics)", a.id),
        None => String::new(),
    }
}
