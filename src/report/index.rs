//! The index `README.md` of an output folder written by `--all`: one row per analysis.

use super::thousands;
use crate::analysis::Analysis;
use std::io::{self, Write};

/// Writes the index table, linking each puzzle's folder and report.
pub fn write_index(analyses: &[Analysis], mut w: impl Write) -> io::Result<()> {
    writeln!(w, "# Puzzle state spaces\n")?;
    writeln!(
        w,
        "Every configuration of each puzzle, its distance to the goal and its solvability class, as computed by `analyze --all`. Each row links to a page with the charts and tables.\n"
    )?;
    writeln!(w, "![distance distributions compared](overview.png)\n")?;
    writeln!(
        w,
        "| puzzle | configurations | reachable | classes | max distance | antipodes | mean distance | heuristic atlas |\n|---|---:|---:|---:|---:|---:|---:|---|"
    )?;
    for a in analyses {
        writeln!(
            w,
            "| [{}]({}/report.md) | {} | {} | {} | {} | {} | {:.4} | {} |",
            super::markdown::escape(&a.title),
            a.id,
            thousands(a.configurations),
            thousands(a.reachable()),
            a.classes.len(),
            a.max_distance(),
            thousands(a.antipodes()),
            a.mean_distance(),
            atlas_link(a),
        )?;
    }
    writeln!(
        w,
        "\nThe heuristic atlas of a sliding board measures the Hamming, Manhattan and linear-conflict estimates on every state against its true distance, with the A* search effort they lead to.\n"
    )?;
    writeln!(
        w,
        "Every figure is exact and the same on every run; each folder's `run.json` (not committed) has the wall time and threads of the run that wrote it."
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
