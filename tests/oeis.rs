//! The reports name the OEIS sequence their distance table equals: each known sequence a
//! search of the suite's size reaches is found for the right puzzle, metric and goal, and
//! the report and summary say so.

use crate::util::{Sandbox, analysis, job, read, summary};
use analyze::report::oeis;

/// The sequence the table of `job` is named as.
fn named(job: analyze::job::Job) -> Option<&'static str> {
    oeis::find(&analysis(job).levels).map(|s| s.id)
}

#[test]
fn sliding_boards_are_named_by_their_sequences_in_either_orientation() {
    let sliding = |rows: u64, cols: u64| named(job("sliding", &[("rows", rows), ("cols", cols)]));
    assert_eq!(sliding(2, 3), Some("A090034"));
    assert_eq!(sliding(3, 2), Some("A090034"));
    assert_eq!(sliding(2, 4), Some("A090035"));
    assert_eq!(sliding(5, 2), Some("A090036"));
    assert_eq!(sliding(3, 3), Some("A089473"));
    assert_eq!(named(job("eight", &[])), Some("A089473"));
    // A board no sequence here describes.
    assert_eq!(sliding(2, 2), None);
}

#[test]
fn the_report_and_summary_name_the_sequence_and_another_goal_its_own() {
    let sandbox = Sandbox::new();
    sandbox.run(&["--puzzle", "eight", "--out", "out", "--quiet"]).success();
    let report = read(&sandbox.path("out/eight/report.md"));
    assert!(
        report.contains("This table is OEIS [A089473](https://oeis.org/A089473), the 8-puzzle's"),
        "{report}"
    );
    assert!(read(&sandbox.path("out/eight/summary.json")).contains("\"oeis\": \"A089473\""));
    // The blank in the centre: A089474, max 30.
    let goal = [
        "--puzzle",
        "eight",
        "--goal",
        "1 2 3 4 0 5 6 7 8",
        "--out",
        "out",
        "--quiet",
    ];
    sandbox.run(&goal).success();
    let summary = read(&sandbox.path("out/eight-goal-1-2-3-4-0-5-6-7-8/summary.json"));
    assert!(summary.contains("\"oeis\": \"A089474\""), "{summary}");
    // Lights out has no sequence here: nothing is claimed.
    sandbox
        .run(&["--puzzle", "lights-out", "--out", "out", "--quiet"])
        .success();
    assert!(!read(&sandbox.path("out/lights-out-4x3/report.md")).contains("OEIS"));
}

#[test]
fn the_pocket_cube_is_named_in_either_metric() {
    let sandbox = Sandbox::new();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pocket-cube-held.tws");
    sandbox.run(&["--rules", file, "--out", "out", "--quiet"]).success();
    sandbox
        .run(&["--rules", file, "--metric", "quarter", "--out", "out", "--quiet"])
        .success();
    assert!(read(&sandbox.path("out/pocket-cube-held/summary.json")).contains("\"oeis\": \"A079761\""));
    assert!(read(&sandbox.path("out/pocket-cube-held-quarter/summary.json")).contains("\"oeis\": \"A079762\""));
}

#[test]
fn the_cubes_subgroups_from_the_whole_cube_definition_are_their_sequences() {
    // The whole cube's definition with only its half turns (A080627), and the whole cube's
    // six faces with only U and R chosen, in quarter turns (A080628, 73,483,200
    // positions): every term, not just the totals.
    let sandbox = Sandbox::new();
    let squares = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/3x3x3-squares.tws");
    let cube = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/3x3x3.tws");
    // The sequences count positions; up to symmetry the ids get `-symmetry-none`.
    sandbox
        .run(&["--rules", squares, "--symmetry", "none", "--out", "out", "--quiet"])
        .success();
    let ur = [
        "--rules",
        cube,
        "--moves",
        "U,R",
        "--metric",
        "quarter",
        "--symmetry",
        "none",
        "--out",
        "out",
        "--quiet",
    ];
    sandbox.run(&ur).success();
    let oeis = |id: &str| summary(&sandbox.path(&format!("out/{id}/summary.json")))["oeis"].clone();
    assert_eq!(oeis("3x3x3-squares-symmetry-none"), "A080627");
    assert_eq!(oeis("3x3x3-moves-u-r-quarter-symmetry-none"), "A080628");
}

#[test]
fn oeis_writes_the_table_as_terms_and_a_b_file() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["--puzzle", "eight", "--oeis", "--out", "out", "--quiet"])
        .success();
    let published = crate::util::A089473.map(|n| n.to_string());
    assert_eq!(
        read(&sandbox.path("out/eight/oeis-terms.txt")),
        format!("{}\n", published.join(","))
    );
    let b_file = read(&sandbox.path("out/eight/b-file.txt"));
    let rows: Vec<&str> = b_file.lines().filter(|l| !l.starts_with('#')).collect();
    let expected: Vec<String> = published.iter().enumerate().map(|(n, a)| format!("{n} {a}")).collect();
    assert_eq!(rows, expected);
    // Without --oeis, neither file.
    sandbox
        .run(&["--puzzle", "eight", "--out", "plain", "--quiet"])
        .success();
    assert!(!sandbox.path("plain/eight/b-file.txt").exists());
}
