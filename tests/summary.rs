//! `summary.json` read as JavaScript reads it: counts above 2^53 are also strings.

use crate::util::{Sandbox, summary};

#[test]
fn counts_above_2_to_the_53_are_also_given_as_strings() {
    let sandbox = Sandbox::new();
    let args = [
        "--puzzle", "flip-k", "--coins", "60", "--flip", "31", "--out", "out", "--quiet",
    ];
    sandbox.run(&args).success();
    let json = summary(&sandbox.path("out/flip-k-60-31/summary.json"));
    assert_eq!(json["configurations"], serde_json::json!(1u64 << 60));
    assert_eq!(json["configurations_string"], "1152921504606846976");
    assert_eq!(json["reachable_string"], "1152921504606846976");
    // Small counts are numbers only.
    assert!(json.get("antipodes_string").is_none(), "{json}");
    sandbox.run(&["--puzzle", "eight", "--out", "out", "--quiet"]).success();
    let eight = summary(&sandbox.path("out/eight/summary.json"));
    assert!(eight.get("configurations_string").is_none(), "{eight}");
}

#[test]
fn run_json_names_the_version_commit_command_date_machine_and_mode() {
    let sandbox = Sandbox::new();
    sandbox.run(&["--puzzle", "eight", "--out", "out", "--quiet"]).success();
    let run = summary(&sandbox.path("out/eight/run.json"));
    assert_eq!(run["version"], env!("CARGO_PKG_VERSION"));
    let commit = run["commit"].as_str().expect("a commit");
    assert!(
        commit == "not a git checkout" || (commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{commit}"
    );
    let command: Vec<&str> = run["command"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(command[1..], ["--puzzle", "eight", "--out", "out", "--quiet"]);
    for field in ["started", "ended"] {
        let date = run[field].as_str().expect("a date");
        assert!(
            date.len() == 20 && date.ends_with('Z') && date.as_bytes()[10] == b'T',
            "{field}: {date}"
        );
    }
    assert!(run["started"].as_str() <= run["ended"].as_str(), "{run}");
    assert!(run["cores"].as_u64().is_some_and(|c| c >= 1), "{run}");
    assert!(run["threads"].as_u64().is_some_and(|t| t >= 1), "{run}");
    assert!(run["host"].as_str().is_some_and(|h| !h.is_empty()), "{run}");
    assert!(run["cpu"].as_str().is_some_and(|c| !c.is_empty()), "{run}");
    assert_eq!(run["mode"], "memory");
    assert!(run["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{run}");
    // The compared files name the version only.
    let json = summary(&sandbox.path("out/eight/summary.json"));
    assert_eq!(json["analyze_version"], env!("CARGO_PKG_VERSION"));
    let page = std::fs::read_to_string(sandbox.path("out/eight/report.md")).expect("report.md");
    let footer = format!("Computed by analyze {};", env!("CARGO_PKG_VERSION"));
    assert!(
        page.lines().last().is_some_and(|line| line.starts_with(&footer)),
        "{page}"
    );
}
