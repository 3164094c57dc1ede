//! `summary.json`: the headline figures of an analysis, the same on every run; and
//! `run.json`: what varies from run to run (the wall time, the threads, the date, the
//! machine and the command line: the run's provenance), kept apart so
//! that a report folder can be compared, and committed, byte for byte. A count above 2^53
//! is also given as a string (`configurations_string`), which a reader that holds numbers
//! as doubles (JavaScript) reads exactly.

use crate::analysis::Analysis;
use serde_json::{Map, Value, json};
use std::io::Write;

/// The summary as a JSON object: every field is the same on every run.
pub fn summary(analysis: &Analysis) -> Value {
    let mut map = Map::new();
    map.insert("analyze_version".into(), json!(env!("CARGO_PKG_VERSION")));
    map.insert("puzzle".into(), json!(analysis.family));
    map.insert("id".into(), json!(analysis.id));
    map.insert("search".into(), json!(analysis.search));
    map.insert("title".into(), json!(analysis.title));
    if analysis.board {
        map.insert("rows".into(), json!(analysis.rows));
        map.insert("cols".into(), json!(analysis.cols));
    }
    for (name, value) in &analysis.parameters {
        map.insert(name.clone(), json!(value));
    }
    count(&mut map, "configurations", analysis.configurations);
    map.insert("configurations_formula".into(), json!(analysis.configurations_formula));
    map.insert("metric".into(), json!(analysis.metric));
    count(&mut map, "reachable", analysis.reachable());
    if let Some(order) = analysis.group_order {
        count(&mut map, "group_order", order);
    }
    map.insert(
        "symmetry".into(),
        json!({"order": analysis.symmetry.order, "made_of": analysis.symmetry.made_of}),
    );
    count(&mut map, "reachable_classes", analysis.reachable_classes());
    map.insert("max_distance".into(), json!(analysis.max_distance()));
    if let Some(sequence) = super::oeis::find(&analysis.levels) {
        map.insert("oeis".into(), json!(sequence.id));
    }
    count(&mut map, "antipodes", analysis.antipodes());
    count(&mut map, "antipode_classes", analysis.antipode_classes());
    map.insert("antipode_examples".into(), json!(analysis.antipode_examples));
    map.insert("mean_distance".into(), json!(round6(analysis.mean_distance())));
    map.insert("classes".into(), json!(analysis.classes.len()));
    map.insert(
        "solvable_classes".into(),
        json!(analysis.classes.iter().filter(|c| c.solvable).count()),
    );
    count(&mut map, "solvable_unreached", analysis.solvable_unreached());
    if let Some(rank) = analysis.gf2_rank {
        map.insert("rank".into(), json!(rank));
    }
    if let Some(start) = analysis.start_distance {
        map.insert("start_distance".into(), json!(start));
    }
    if let Some(atlas) = &analysis.atlas {
        map.insert("heuristics".into(), super::atlas::summary(atlas));
    }
    Value::Object(map)
}

/// Integers JSON readers that hold numbers as doubles (JavaScript) read exactly: up to 2^53.
const EXACT_IN_DOUBLES: u64 = 1 << 53;

/// Inserts the count `name`; one above 2^53 also as a string, `NAME_string`, since a
/// reader that holds numbers as doubles (JavaScript) would round it.
fn count(map: &mut Map<String, Value>, name: &str, value: impl Into<u128>) {
    let value: u128 = value.into();
    // Past 64 bits JSON has no exact integer here: the nearest double, and the string.
    match u64::try_from(value) {
        Ok(exact) => map.insert(name.into(), json!(exact)),
        Err(_) => map.insert(name.into(), json!(value as f64)),
    };
    if value > u128::from(EXACT_IN_DOUBLES) {
        map.insert(format!("{name}_string"), json!(value.to_string()));
    }
}

/// Rounds to 6 decimals so the file reads cleanly.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Where, when and how a report was made: what a researcher cites beside a figure, and
/// what differs from run to run, so it goes to `run.json`, never to the compared files.
/// The binary gathers it (the library reads no clock, host or command line of its own).
#[derive(Debug, Clone)]
pub struct Provenance {
    /// The crate's version.
    pub version: &'static str,
    /// The git commit the binary was built from, or `not a git checkout`.
    pub commit: &'static str,
    /// The command line, every argument as given.
    pub command: Vec<String>,
    /// When the run started, ISO 8601 UTC.
    pub started: String,
    /// The machine's host name.
    pub host: String,
    /// The processor's model, as the system names it.
    pub cpu: String,
    /// Cores (hardware threads) the system offers this process.
    pub cores: usize,
    /// How the search ran: `memory`, `disk`, `hosts`, `packed states` (with details).
    pub mode: String,
}

/// Writes `run.json`: the provenance of the run, when it ended, the search's wall time in
/// seconds (a resumed search's across its runs, with each run's in `runs`) and the
/// worker threads.
pub fn write_run(analysis: &Analysis, provenance: &Provenance, mut out: impl Write) -> std::io::Result<()> {
    let run = json!({
        "version": provenance.version,
        "commit": provenance.commit,
        "command": provenance.command,
        "started": provenance.started,
        "ended": crate::util::utc_iso(std::time::SystemTime::now()),
        "host": provenance.host,
        "cpu": provenance.cpu,
        "cores": provenance.cores,
        "threads": analysis.threads,
        "mode": provenance.mode,
        "seconds": round6(analysis.earlier_seconds.iter().sum::<f64>() + analysis.seconds),
        "runs": analysis.earlier_seconds.iter().chain([&analysis.seconds]).map(|&s| round6(s)).collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut out, &run)?;
    writeln!(out)
}

/// Writes the summary, pretty-printed, with a final newline.
pub fn write_summary(analysis: &Analysis, mut out: impl Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut out, &summary(analysis))?;
    writeln!(out)
}
