//! The binary end to end: each test runs `analyze` in a fresh temporary folder and checks
//! its exit status, stdout, stderr and the files it writes.

use crate::util::{
    A089473, SLIDING_2X5, SLIDING_4X4, Sandbox, analyze, distances_csv, example, report_files, states_csv,
    textbook_solvable,
};
use serde_json::Value;
use std::fs;
use std::path::Path;

/// Runs the 8-puzzle into `out` and returns the sandbox.
fn eight() -> Sandbox {
    let (sandbox, assert) = analyze(&["--puzzle", "eight", "--out", "out"]);
    assert.success();
    sandbox
}

/// Width and height from a PNG's IHDR chunk, after checking the signature.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    assert!(bytes.len() > 24, "{} is too short for a PNG", path.display());
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} has no PNG signature",
        path.display()
    );
    assert_eq!(&bytes[12..16], b"IHDR", "{} does not start with IHDR", path.display());
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
    (be(16), be(20))
}

#[test]
fn writes_every_report_file_for_the_8_puzzle() {
    let (sandbox, assert) = analyze(&["--puzzle", "eight", "--out", "out"]);
    let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).expect("UTF-8 stdout");
    assert!(stdout.contains("181,440") && stdout.contains("eight"), "{stdout}");
    // Nothing else, hidden staging folders included.
    assert_eq!(sandbox.list("out"), ["eight"]);
    assert_eq!(sandbox.list("out/eight"), report_files("eight"));
}

#[test]
fn writes_into_the_reports_folder_by_default() {
    let (sandbox, assert) = analyze(&["--puzzle", "eight", "--quiet"]);
    let output = assert.success().get_output().clone();
    assert!(
        output.stderr.is_empty(),
        "--quiet: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(sandbox.list("."), ["reports"]);
    assert_eq!(sandbox.list("reports/eight"), report_files("eight"));
}

#[test]
fn writes_depth_csv_for_8_puzzle() {
    let sandbox = eight();
    assert_eq!(
        states_csv(&sandbox.read("out/eight/distances.csv")),
        distances_csv(&A089473)
    );
}

#[test]
fn writes_classes_csv_for_8_puzzle() {
    let sandbox = eight();
    let text = sandbox.read("out/eight/classes.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("class,configurations,solvable,reached,example"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in &rows {
        assert_eq!(row.len(), 5, "{row:?}");
        let board: Vec<u8> = row[4]
            .split_whitespace()
            .map(|t| t.parse().expect("a tile number"))
            .collect::<Vec<_>>();
        let solvable = textbook_solvable(&board, 3, 3);
        match row[2] {
            "true" => assert_eq!(&row[1..4], ["181440", "true", "181440"], "{row:?}"),
            "false" => assert_eq!(&row[1..4], ["181440", "false", "0"], "{row:?}"),
            other => panic!("solvable is {other}"),
        }
        assert_eq!(
            row[2] == "true",
            solvable,
            "the example {} lies in the wrong class",
            row[4]
        );
    }
    assert_ne!(rows[0][2], rows[1][2], "one solvable and one unsolvable class");
}

#[test]
fn writes_summary_json_for_8_puzzle() {
    let sandbox = eight();
    let summary: Value = serde_json::from_str(&sandbox.read("out/eight/summary.json")).expect("valid JSON");
    assert_eq!(summary["puzzle"], "eight");
    assert_eq!(summary["rows"], 3);
    assert_eq!(summary["cols"], 3);
    assert_eq!(summary["configurations"], 362_880);
    assert_eq!(summary["reachable"], 181_440);
    assert_eq!(summary["max_distance"], 31);
    assert_eq!(summary["antipodes"], 2);
    // One class up to the diagonal reflection, shown by one of the two.
    assert_eq!(summary["antipode_classes"], 1);
    assert_eq!(summary["symmetry"]["order"], 2);
    let antipodes: Vec<&str> = summary["antipode_examples"]
        .as_array()
        .expect("antipode_examples is an array")
        .iter()
        .map(|v| v.as_str().expect("a board"))
        .collect();
    assert_eq!(antipodes, ["6 4 7 8 5 0 3 2 1"]);
    let total: u64 = A089473.iter().sum();
    let mean = A089473
        .iter()
        .enumerate()
        .map(|(d, &n)| d as f64 * n as f64)
        .sum::<f64>()
        / total as f64;
    let written = summary["mean_distance"].as_f64().expect("mean_distance is a number");
    assert!(
        (written - mean).abs() < 1e-6,
        "mean_distance {written}, expected {mean}"
    );
    assert!(summary.get("seconds").is_none() && summary.get("threads").is_none());
    let run: Value = serde_json::from_str(&sandbox.read("out/eight/run.json")).expect("run.json is JSON");
    assert!(
        run["seconds"].as_f64().is_some_and(|s| s >= 0.0),
        "seconds: {}",
        run["seconds"]
    );
    assert!(
        run["threads"].as_u64().is_some_and(|t| t >= 1),
        "threads: {}",
        run["threads"]
    );
}

#[test]
fn draws_every_chart_as_a_1200_by_700_png() {
    let sandbox = eight();
    for chart in ["distances.png", "distances-log.png", "growth.png"] {
        assert_eq!(
            png_size(&sandbox.path(&format!("out/eight/{chart}"))),
            (1200, 700),
            "{chart}"
        );
    }
}

/// Runs `args` with one and with two threads and compares the two report folders.
fn assert_thread_count_only_changes_run_fields(args: &[&str], id: &str) {
    let sandbox = Sandbox::new();
    for threads in ["1", "2"] {
        let out = format!("out-{threads}");
        let mut full = args.to_vec();
        full.extend(["--out", &out, "--threads", threads]);
        sandbox.run(&full).success();
    }
    let (one, two) = (format!("out-1/{id}"), format!("out-2/{id}"));
    let files = report_files(id);
    assert_eq!(sandbox.list(&one), files);
    assert_eq!(sandbox.list(&two), files);
    for file in files {
        let a = fs::read(sandbox.path(&format!("{one}/{file}"))).expect("readable");
        let b = fs::read(sandbox.path(&format!("{two}/{file}"))).expect("readable");
        if file == "run.json" {
            let threads = |s: &[u8]| serde_json::from_slice::<Value>(s).expect("valid JSON")["threads"].clone();
            assert_eq!((threads(&a), threads(&b)), (1.into(), 2.into()), "{id}/{file}");
        } else {
            assert!(a == b, "{id}/{file} differs between --threads 1 and --threads 2");
        }
    }
}

#[test]
fn thread_count_changes_only_seconds_and_threads_for_the_8_puzzle() {
    assert_thread_count_only_changes_run_fields(&["--puzzle", "eight"], "eight");
}

#[test]
fn thread_count_changes_only_seconds_and_threads_for_sliding_2x5() {
    // The 8-puzzle's ranks fit in one work chunk; 2x5's 1.8 million span several, so two
    // threads really split its levels.
    assert_thread_count_only_changes_run_fields(&SLIDING_2X5, "sliding-2x5");
}

#[test]
fn thread_count_changes_only_seconds_and_threads_for_the_full_heuristic_atlas() {
    // The A* sample runs its searches in parallel: the table must not depend on it.
    assert_thread_count_only_changes_run_fields(&["--puzzle", "eight", "--heuristics"], "eight");
}

#[test]
fn heuristics_option_takes_only_sliding_boards() {
    let (_sandbox, assert) = analyze(&["--puzzle", "lights-out", "--heuristics"]);
    let output = assert.code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 stderr");
    assert_eq!(
        stderr,
        "error: --heuristics applies to sliding boards only (--puzzle eight or sliding)\n"
    );
}

#[test]
fn lists_every_puzzle() {
    let (sandbox, assert) = analyze(&["--list"]);
    let output = assert.success().get_output().clone();
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 stdout");
    let names: Vec<&str> = stdout.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(
        names,
        [
            "eight",
            "sliding",
            "nine-tails",
            "weighted-nine-tails",
            "lights-out",
            "coin-lines",
            "flip-k"
        ]
    );
    assert!(output.stderr.is_empty());
    assert!(sandbox.list(".").is_empty(), "--list writes nothing");
}

#[test]
fn rerun_replaces_the_report_folder_cleanly() {
    let sandbox = eight();
    let first = sandbox.read("out/eight/distances.csv");
    fs::write(sandbox.path("out/eight/stale.txt"), "from an older run").expect("writable");
    fs::write(sandbox.path("out/notes.txt"), "not ours").expect("writable");
    sandbox.run(&["--puzzle", "eight", "--out", "out"]).success();
    // No leftover .eight.partial-* or .eight.old-* folder, no file of the old report, and
    // the rest of the output folder left alone.
    assert_eq!(sandbox.list("out"), ["eight", "notes.txt"]);
    assert_eq!(sandbox.read("out/notes.txt"), "not ours");
    assert_eq!(sandbox.list("out/eight"), report_files("eight"));
    assert_eq!(sandbox.read("out/eight/distances.csv"), first);
}

#[test]
fn all_writes_an_index_an_overview_and_every_puzzle_folder_as_committed() {
    let (sandbox, assert) = analyze(&["--all", "--out", "out", "--quiet"]);
    assert.success();
    let index = sandbox.read("out/README.md");
    crate::charts::assert_overview_inside(&sandbox.path("out/overview.png"));
    // Every row of the index links to `<id>/report.md`; those folders are all there is.
    let linked: Vec<&str> = index
        .split("](")
        .skip(1)
        .filter_map(|s| s.split_once("/report.md)"))
        .map(|p| p.0)
        .collect();
    for id in [
        "eight",
        "sliding-2x3",
        "nine-tails-3x3",
        "lights-out-4x3",
        "coin-lines-3x3",
        "flip-k-7-5",
    ] {
        assert!(linked.contains(&id), "{id} missing from the index: {linked:?}");
    }
    let mut expected: Vec<String> = linked.iter().map(|id| (*id).to_string()).collect();
    expected.extend(["README.md".into(), "overview.png".into()]);
    expected.sort();
    assert_eq!(sandbox.list("out"), expected);
    for id in &linked {
        assert_eq!(sandbox.list(&format!("out/{id}")), report_files(id), "{id}");
        for chart in ["distances.png", "distances-log.png", "growth.png"] {
            assert_eq!(
                png_size(&sandbox.path(&format!("out/{id}/{chart}"))),
                (1200, 700),
                "{id}/{chart}"
            );
        }
    }
    assert_eq!(
        states_csv(&sandbox.read("out/eight/distances.csv")),
        distances_csv(&A089473)
    );
    index_rows_equal_the_tables(&sandbox, &index);
    crate::committed_reports::assert_committed(&sandbox.path("out"));
}

/// Every figure in each row of the index equals what the puzzle's own CSV files say.
fn index_rows_equal_the_tables(sandbox: &Sandbox, index: &str) {
    let number = |cell: &str| -> u64 { cell.trim().replace(',', "").parse().expect("a count") };
    let rows: Vec<&str> = index.lines().filter(|l| l.starts_with("| [")).collect();
    assert!(!rows.is_empty(), "the index has no puzzle rows");
    for row in rows {
        let cells: Vec<&str> = row.trim_matches('|').split('|').collect();
        let id = cells[0]
            .split("](")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .expect("a link");
        let distances = sandbox.read(&format!("out/{id}/distances.csv"));
        let levels: Vec<(u64, u64)> = distances
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<u64> = l.split(',').map(|x| x.parse().expect("a number")).collect();
                (f[0], f[1])
            })
            .collect();
        let classes = sandbox.read(&format!("out/{id}/classes.csv"));
        let class_sizes: Vec<u64> = classes
            .lines()
            .skip(1)
            .map(|l| number(l.split(',').nth(1).expect("size")))
            .collect();
        let reachable: u64 = levels.iter().map(|l| l.1).sum();
        let weighted: f64 = levels.iter().map(|&(d, n)| d as f64 * n as f64).sum();
        let last = levels.last().expect("a level");
        assert_eq!(
            number(cells[1]),
            class_sizes.iter().sum::<u64>(),
            "{id}: configurations"
        );
        assert_eq!(number(cells[2]), reachable, "{id}: reachable");
        assert_eq!(number(cells[3]), class_sizes.len() as u64, "{id}: classes");
        let (max, unit) = cells[4].trim().split_once(' ').expect("a distance and its unit");
        assert_eq!(number(max), last.0, "{id}: max distance");
        let summary = sandbox.read(&format!("out/{id}/summary.json"));
        assert!(
            summary.contains(&format!("\"metric\": \"{unit}\"")),
            "{id}: unit {unit}"
        );
        assert_eq!(number(cells[5]), last.1, "{id}: antipodes");
        let mean: f64 = cells[6].trim().parse().expect("a mean");
        assert!((mean - weighted / reachable as f64).abs() < 1e-4, "{id}: mean distance");
    }
}

/// Runs `args` (which name their own `--out`) expecting a refusal: exit status `code`,
/// nothing on stdout, exactly one `error:` line on stderr, which it returns.
fn refused(sandbox: &Sandbox, args: &[&str], code: i32) -> String {
    let output = sandbox.run(args).code(code).get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 stderr");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr should be one line:\n{stderr}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    assert!(
        output.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    lines[0].to_string()
}

/// Asserts `analyze ARGS --out out` is refused with a message containing every one of
/// `mentions`, and that nothing at all is written.
fn rejects(args: &[&str], mentions: &[&str]) {
    let sandbox = Sandbox::new();
    let mut full = args.to_vec();
    full.extend(["--out", "out"]);
    let message = refused(&sandbox, &full, 2);
    for m in mentions {
        assert!(message.contains(m), "`{m}` missing from: {message}");
    }
    assert!(sandbox.list(".").is_empty(), "wrote {:?}", sandbox.list("."));
}

#[test]
fn rejects_unknown_puzzle() {
    // The message names the bad value and lists the accepted ones.
    rejects(&["--puzzle", "tetris"], &["tetris", "eight", "flip-k"]);
}

#[test]
fn rejects_zero_rows() {
    rejects(&["--puzzle", "sliding", "--rows", "0", "--cols", "3"], &["--rows"]);
}

#[test]
fn rejects_a_single_row() {
    rejects(&["--puzzle", "sliding", "--rows", "1", "--cols", "3"], &["--rows"]);
}

#[test]
fn rejects_a_row_count_beyond_any_integer() {
    rejects(
        &["--puzzle", "sliding", "--rows", "99999999999999999999", "--cols", "3"],
        &["--rows"],
    );
}

#[test]
fn refuses_the_15_puzzle_with_its_state_count_and_memory() {
    rejects(&SLIDING_4X4, &["10,461,394,944,000", "TiB"]);
}

#[test]
fn refuses_sliding_3x5_with_its_state_count_and_memory() {
    // 653,837,184,000 states need about 152 GiB of bit planes: more than this machine has.
    rejects(
        &["--puzzle", "sliding", "--rows", "3", "--cols", "5"],
        &["653,837,184,000", "GiB"],
    );
}

#[test]
fn refuses_nine_tails_6x6() {
    rejects(
        &["--puzzle", "nine-tails", "--rows", "6", "--cols", "6"],
        &["36 coins", "68,719,476,736"],
    );
}

#[test]
fn refuses_a_singular_lights_out_board_over_25_coins_naming_its_nullity() {
    // 5x7 is over the bit masks' 25 coins, and its press matrix is singular: presses are
    // not unique, so the search by press weight does not apply either.
    rejects(
        &["--puzzle", "lights-out", "--rows", "5", "--cols", "7"],
        &["35 coins", "presses are not unique", "nullity 4"],
    );
}

#[test]
fn refuses_a_64x64_lights_out_board() {
    // 4,096 coins: the refusal must still be one plain line, whatever the figures.
    rejects(
        &["--puzzle", "lights-out", "--rows", "64", "--cols", "64"],
        &["4096 coins"],
    );
}

#[test]
fn refuses_coin_lines_12x12() {
    rejects(&["--puzzle", "coin-lines", "--size", "12"], &["144 coins"]);
}

#[test]
fn rejects_rows_for_the_8_puzzle() {
    rejects(&["--puzzle", "eight", "--rows", "3"], &["--rows"]);
}

#[test]
fn rejects_rows_for_coin_lines() {
    rejects(&["--puzzle", "coin-lines", "--rows", "3"], &["--rows", "--size"]);
}

#[test]
fn a_size_option_a_puzzle_does_not_take_is_refused_naming_those_it_takes() {
    let definition = format!("{}/examples/pocket-cube-held.tws", env!("CARGO_MANIFEST_DIR"));
    let rules = format!("{}/examples/nine-tails.toml", env!("CARGO_MANIFEST_DIR"));
    let cases: [(&[&str], &str); 9] = [
        (&["--puzzle", "lights-out", "--size", "5"], "(use --rows R --cols C)"),
        (&["--puzzle", "nine-tails", "--coins", "5"], "(use --rows R --cols C)"),
        (
            &["--puzzle", "weighted-nine-tails", "--size", "5"],
            "(use --rows R --cols C)",
        ),
        (&["--puzzle", "sliding", "--size", "4"], "(use --rows R --cols C)"),
        (&["--puzzle", "flip-k", "--rows", "3"], "(use --coins N --flip K)"),
        (&["--puzzle", "coin-lines", "--cols", "3"], "use --size N"),
        (&["--puzzle", "eight", "--size", "3"], "--rows R --cols C"),
        (&["--rules", &definition, "--rows", "3"], "--metric face|quarter"),
        (&["--rules", &rules, "--size", "3"], "rows and cols in the file"),
    ];
    for (args, hint) in cases {
        rejects(args, &["does not take --", hint]);
    }
    // --metric: who takes it, whatever the puzzle.
    rejects(
        &["--puzzle", "weighted-nine-tails", "--metric", "flips"],
        &["does not take --metric", "--rules FILE.tws --metric face|quarter"],
    );
}

#[test]
fn help_describes_every_input_the_environment_and_the_exit_statuses() {
    let (_, assert) = analyze(&["--help"]);
    let help = String::from_utf8(assert.success().get_output().stdout.clone()).expect("UTF-8 help");
    for words in [
        ".toml",
        ".tws",
        ".ksolve",
        "--metric <METRIC>",
        "quarter",
        "--sample <D> [N]",
        "ANALYZE_CACHE_DIR",
        "XDG_CACHE_HOME",
        "HOME",
        "Exit status:",
        "130  interrupted",
        "analyze --rules examples/pocket-cube-held.tws",
    ] {
        assert!(help.contains(words), "`{words}` missing from --help:\n{help}");
    }
}

#[test]
fn the_manual_page_has_examples_environment_and_exit_status() {
    let man = Sandbox::new().output(&["--man"]);
    assert_eq!(man.code, Some(0), "{}", man.stderr);
    for section in ["INPUTS", "EXAMPLES", "ENVIRONMENT", "EXIT STATUS"] {
        assert!(
            man.stdout.contains(&format!(".SH \"{section}\"\n")),
            "{section}:\n{}",
            man.stdout
        );
    }
    assert!(man.stdout.contains("ANALYZE_CACHE_DIR"), "{}", man.stdout);
    assert!(
        !man.stdout.contains("EXTRA"),
        "the sections are not repeated after the options"
    );
}

#[test]
fn bash_completion_offers_the_metrics_after_metric() {
    let bash = Sandbox::new().output(&["--completions", "bash"]);
    assert_eq!(bash.code, Some(0), "{}", bash.stderr);
    let case = bash
        .stdout
        .split("--metric)")
        .nth(1)
        .and_then(|rest| rest.split(";;").next())
        .unwrap_or_else(|| panic!("no --metric case in:\n{}", bash.stdout));
    assert!(case.contains("\"face quarter\""), "{case}");
}

#[test]
fn rejects_flipping_zero_coins() {
    rejects(&["--puzzle", "flip-k", "--flip", "0"], &["--flip"]);
}

#[test]
fn rejects_flipping_more_coins_than_there_are() {
    rejects(&["--puzzle", "flip-k", "--coins", "4", "--flip", "5"], &["--flip"]);
}

#[test]
fn rejects_more_than_60_coins() {
    rejects(&["--puzzle", "flip-k", "--coins", "61"], &["--coins", "60"]);
}

#[test]
fn rejects_zero_threads() {
    rejects(&["--puzzle", "eight", "--threads", "0"], &["--threads"]);
}

#[test]
fn refuses_an_out_path_that_is_a_file() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.path("out"), "not a folder").expect("writable");
    let message = refused(&sandbox, &["--puzzle", "eight", "--out", "out"], 1);
    assert!(message.contains("out"), "{message}");
    assert_eq!(sandbox.read("out"), "not a folder");
    assert_eq!(sandbox.list("."), ["out"]);
}

#[test]
fn refuses_an_out_path_that_cannot_be_created() {
    // A folder inside a regular file cannot exist, whoever runs the test (root ignores
    // permission bits, so a read-only folder would not do).
    let sandbox = Sandbox::new();
    fs::write(sandbox.path("blocker"), "a file").expect("writable");
    let message = refused(&sandbox, &["--puzzle", "eight", "--out", "blocker/reports"], 1);
    assert!(message.contains("blocker/reports"), "{message}");
    assert_eq!(sandbox.read("blocker"), "a file");
    assert_eq!(sandbox.list("."), ["blocker"]);
}

#[test]
fn prints_completions_for_each_shell_and_a_man_page() {
    let sandbox = Sandbox::new();
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef analyze"),
        ("fish", "complete -c analyze -l puzzle"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let ended = sandbox.output(&["--completions", shell]);
        assert_eq!(ended.code, Some(0), "{shell}: {}", ended.stderr);
        assert!(ended.stdout.contains(marker), "{shell}");
        assert!(ended.stdout.contains("puzzle"), "{shell}");
    }
    let man = sandbox.output(&["--man"]);
    assert_eq!(man.code, Some(0));
    assert!(
        man.stdout.starts_with(".ie") || man.stdout.contains(".TH analyze 1"),
        "{}",
        man.stdout
    );
    assert!(man.stdout.contains("secret\\-file"), "the page lists every option");
    assert_eq!(sandbox.output(&["--completions", "tcsh"]).code, Some(2));
    assert!(sandbox.list(".").is_empty());
}

#[test]
fn solve_prints_one_json_object_per_position() {
    let sandbox = Sandbox::new();
    let ended = sandbox.output(&[
        "--puzzle",
        "eight",
        "--quiet",
        "--json",
        "--solve",
        "1 2 3 4 5 6 0 7 8",
        "2 1 3 4 5 6 7 8 0",
    ]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let lines: Vec<serde_json::Value> = ended
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is a JSON object"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["state"], "1 2 3 4 5 6 0 7 8");
    assert_eq!(lines[0]["solvable"], true);
    assert_eq!(lines[0]["length"], 2);
    assert_eq!(lines[0]["moves"], serde_json::json!(["tile 7", "tile 8"]));
    assert_eq!(
        lines[0]["path"],
        serde_json::json!(["1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 0"])
    );
    assert_eq!(lines[0]["facts"]["manhattan"], 2);
    assert!(lines[0]["seconds"].as_f64().is_some());
    assert_eq!(lines[1]["solvable"], false);
    assert!(lines[1]["reason"].as_str().expect("a reason").contains("inversion"));
    // Weighted moves carry their cost.
    let weighted = sandbox.output(&[
        "--puzzle",
        "weighted-nine-tails",
        "--quiet",
        "--json",
        "--solve",
        "HHH/TTT/HHH",
    ]);
    let line: serde_json::Value = serde_json::from_str(weighted.stdout.trim()).expect("JSON");
    assert_eq!(
        (line["metric"].as_str(), line["cost"].as_u64()),
        (Some("flips"), Some(8))
    );
    // --json is for --solve.
    assert_eq!(sandbox.output(&["--puzzle", "eight", "--json"]).code, Some(2));
}

#[test]
fn the_index_of_several_rules_files_says_what_they_are() {
    let sandbox = Sandbox::new();
    let (flips, moves) = (example("weighted-nine-tails.toml"), example("flipping-game.toml"));
    sandbox
        .run(&["--rules", &flips, &moves, "--out", "out", "--quiet"])
        .success();
    let index = sandbox.read("out/README.md");
    // No sliding board: no atlas column, no paragraph about one; each distance in its unit.
    assert!(!index.contains("atlas") && !index.contains("--all"), "{index}");
    assert!(index.contains(" flips |") && index.contains(" moves |"), "{index}");
    index_rows_equal_the_tables(&sandbox, &index);
}

#[test]
fn numbers_and_sizes_say_what_is_wrong_with_them() {
    let sandbox = Sandbox::new();
    let huge_moves: Vec<String> = (0..12_000).map(|i| format!("M{i}")).collect();
    let huge_moves = huge_moves.join(",");
    let cube = crate::util::example("pocket-cube-held.tws");
    for (args, says) in [
        (
            &["--puzzle", "lights-out", "--disk", "d", "--memory", "1.5"][..],
            "a size without a unit is whole bytes",
        ),
        (
            &["--puzzle", "lights-out", "--disk", "d", "--memory", "-1"],
            "a size is never negative",
        ),
        (
            &[
                "--puzzle",
                "lights-out",
                "--disk",
                "d",
                "--memory",
                "99999999999999999999",
            ],
            "too large: at most 16 EiB",
        ),
        (&["--puzzle", "flip-k", "--coins", "-1"], "a count is never negative"),
        (
            &["--puzzle", "flip-k", "--coins", "99999999999999999999"],
            "too large: at most 18446744073709551615",
        ),
        (&["--puzzle", "eight", "--sample", "3", "--json"], "leave out --json"),
        (&["--rules", &cube, "--moves", &huge_moves], "(72,889 characters)"),
    ] {
        let ended = sandbox.output(args);
        assert_eq!(ended.code, Some(2), "{says}: {}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(ended.stderr.len() < 400, "{}", ended.stderr);
        assert!(ended.stderr.contains(says), "{says}: {}", ended.stderr);
        assert!(!ended.stderr.contains("not a number"), "{}", ended.stderr);
    }
}
