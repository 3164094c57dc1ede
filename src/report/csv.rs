//! `distances.csv` and `classes.csv`: flat rows serialised with their header.

use crate::analysis::Analysis;
use serde::Serialize;
use std::io::Write;

/// One row of `distances.csv`.
#[derive(Debug, Serialize)]
struct DistanceRow {
    distance: usize,
    states: u64,
    cumulative: u64,
}

/// Writes `distance,states,cumulative`, one row per distance from 0 to the maximum.
pub fn write_distances(analysis: &Analysis, out: impl Write) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    let mut cumulative = 0;
    for (distance, &states) in analysis.levels.iter().enumerate() {
        cumulative += states;
        writer.serialize(DistanceRow {
            distance,
            states,
            cumulative,
        })?;
    }
    writer.flush()?;
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
