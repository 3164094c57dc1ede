//! `distances.csv` and `classes.csv`: flat rows serialised with their header.

use crate::analysis::Analysis;
use serde::Serialize;
use std::io::Write;

/// One row of `distances.csv`.
#[derive(Debug, Serialize)]
struct DistanceRow {
    distance: usize,
    states: u64,
    classes: u64,
    cumulative: u64,
}

/// Writes `distance,states,classes,cumulative`, one row per distance from 0 to the
/// maximum: `classes` counts the states up to the puzzle's symmetry group (the states
/// themselves where it has none).
pub fn write_distances(analysis: &Analysis, out: impl Write) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    let mut cumulative = 0;
    for (distance, (&states, &classes)) in analysis.levels.iter().zip(&analysis.level_classes).enumerate() {
        cumulative += states;
        writer.serialize(DistanceRow {
            distance,
            states,
            classes,
            cumulative,
        })?;
    }
    writer.flush()?;
    Ok(())
}

/// Writes the distance table's counts as an OEIS sequence's DATA: on one line, separated
/// by commas alone (OEIS's style), offset 0 (the goal's own count first).
pub fn write_oeis_terms(analysis: &Analysis, mut out: impl Write) -> std::io::Result<()> {
    let terms: Vec<String> = analysis.levels.iter().map(u64::to_string).collect();
    writeln!(out, "{}", terms.join(","))
}

/// Writes the distance table as an OEIS b-file: a comment naming what is counted, then
/// `n a(n)` a line from n = 0.
pub fn write_b_file(analysis: &Analysis, mut out: impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "# {}: {}s at each distance ({}) from the goal; analyze {}",
        analysis.title,
        analysis.noun(),
        analysis.metric,
        env!("CARGO_PKG_VERSION")
    )?;
    for (n, count) in analysis.levels.iter().enumerate() {
        writeln!(out, "{n} {count}")?;
    }
    Ok(())
}

/// Writes `class,configurations,solvable,reached,example`, one row per class.
pub fn write_classes(analysis: &Analysis, out: impl Write) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for row in &analysis.classes {
        writer.serialize(row)?;
    }
    writer.flush()?;
    Ok(())
}
