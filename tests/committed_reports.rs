//! The committed `reports/` folder must be what `analyze --all` writes today
//! (`scripts/reports.sh` regenerates it); only timings may differ. Charts are compared
//! byte for byte: they show no timing, and rendering is deterministic.

use crate::util::{Sandbox, read, summary_without_run_fields};
use std::fs;
use std::path::Path;

/// The index table without its last column (seconds).
fn without_time_column(index: &str) -> String {
    index
        .lines()
        .map(|line| match line.trim_end().strip_suffix('|') {
            Some(row) if line.starts_with('|') => row.rsplit_once('|').map_or(line, |(head, _)| head).to_string(),
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A committed file (e.g. a chart) is exactly what the fresh run wrote.
fn assert_same_bytes(committed: &Path, fresh: &Path) {
    let old = fs::read(committed).unwrap_or_else(|e| panic!("cannot read {}: {e}", committed.display()));
    let new = fs::read(fresh).unwrap_or_else(|e| panic!("cannot read {}: {e}", fresh.display()));
    assert!(old == new, "{} is stale: run scripts/reports.sh", committed.display());
}

#[test]
fn committed_reports_equal_a_fresh_run() {
    let sandbox = Sandbox::new();
    sandbox.run(&["--all", "--quiet", "--out", "fresh"]).success();
    let fresh = sandbox.path("fresh");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    assert_eq!(
        without_time_column(&read(&committed.join("README.md"))),
        without_time_column(&read(&fresh.join("README.md"))),
        "reports/README.md is stale: run scripts/reports.sh"
    );
    assert_same_bytes(&committed.join("overview.png"), &fresh.join("overview.png"));
    let mut folders = 0;
    for entry in fs::read_dir(&fresh).expect("fresh output") {
        let entry = entry.expect("entry");
        if !entry.path().is_dir() {
            continue;
        }
        folders += 1;
        let name = entry.file_name();
        let old = committed.join(&name);
        for file in ["distances.csv", "classes.csv", "report.md"] {
            assert_eq!(
                read(&old.join(file)),
                read(&entry.path().join(file)),
                "reports/{name:?}/{file} is stale"
            );
        }
        assert_eq!(
            summary_without_run_fields(&old.join("summary.json")),
            summary_without_run_fields(&entry.path().join("summary.json")),
            "reports/{name:?}/summary.json is stale"
        );
        for chart in ["distances.png", "distances-log.png", "growth.png"] {
            assert_same_bytes(&old.join(chart), &entry.path().join(chart));
        }
    }
    let committed_folders = fs::read_dir(&committed)
        .expect("reports/")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().is_dir()))
        .count();
    assert_eq!(
        folders, committed_folders,
        "reports/ has a different set of puzzles than --all"
    );
}
