//! Hostile conditions end to end (issue 12): unwritable stderr and stdout, concurrent runs
//! on one output folder, runs killed mid-commit, signals, damaged caches, odd input. Each
//! test runs the binary and checks its exit status (0 done, 1 run failure, 2 bad input,
//! 130 interrupted), its output and the files it leaves.

use crate::util::{
    EIGHT_AS_PROCESS_0, SLIDING_2X3, SLIDING_3X4, SLIDING_4X4, Sandbox, dead_pid, first_length, marked, report_files,
    signal, wait,
};
use analyze::report::REPORT;
use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn dev_full() -> File {
    File::options()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux")
}

// 1. stderr and stdout that cannot be written -----------------------------------------

#[test]
fn a_full_stderr_never_panics_in_any_mode() {
    let sandbox = Sandbox::new();
    let cases: [(&[&str], i32); 5] = [
        (&["--puzzle", "eight", "--out", "out"], 0),
        (&["--puzzle", "eight", "--solve", "1 2 3 4 5 6 7 0 8"], 0),
        (&["--puzzle", "tetris"], 2),
        (&SLIDING_4X4, 2),
        (&["--puzzle", "eight", "--solve", "1 2 3"], 2),
    ];
    for (args, code) in cases {
        let output = sandbox
            .command(args)
            .stdout(Stdio::null())
            .stderr(dev_full())
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(code), "{args:?}");
    }
    // The report is complete and no staging folder is left.
    assert_eq!(sandbox.list("out"), ["eight"]);
    assert_eq!(sandbox.list("out/eight"), report_files("eight"));
}

#[test]
fn a_closed_stderr_never_panics() {
    let sandbox = Sandbox::new();
    for (args, code) in [
        (&["--puzzle", "eight", "--rows", "3"][..], 2),
        (&["--puzzle", "eight", "--out", "out"][..], 0),
    ] {
        let mut child = sandbox
            .command(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        drop(child.stderr.take());
        let status = child.wait().expect("exits");
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

#[test]
fn a_full_stdout_is_a_run_failure_in_every_mode() {
    let sandbox = Sandbox::new();
    for args in [
        &["--list"][..],
        &["--help"],
        &["--puzzle", "eight", "--solve", "1 2 3 4 5 6 7 0 8"],
        &["--puzzle", "eight", "--out", "out"],
    ] {
        let output = sandbox.command(args).stdout(dev_full()).output().expect("runs");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error: cannot write to stdout"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let sandbox = Sandbox::new();
    let mut child = sandbox
        .command(&["--puzzle", "eight", "--solve", "8 6 7 2 5 4 3 0 1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let ended = wait(child, Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(!ended.stderr.contains("error"), "{}", ended.stderr);
}

// 2. two runs on the same --out ---------------------------------------------------------

#[test]
fn concurrent_runs_on_one_out_folder_all_succeed() {
    let sandbox = Sandbox::new();
    let args = [&SLIDING_2X3[..], &["--out", "out", "--quiet"]].concat();
    for round in 0..25 {
        let pair: Vec<_> = (0..2)
            .map(|_| {
                sandbox
                    .command(&args)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("runs")
            })
            .collect();
        for child in pair {
            let ended = wait(child, Duration::from_secs(60));
            assert_eq!(ended.code, Some(0), "round {round}: {}", ended.stderr);
        }
        assert_eq!(sandbox.list("out"), ["sliding-2x3"], "round {round}");
        assert_eq!(
            sandbox.list("out/sliding-2x3"),
            report_files("sliding-2x3"),
            "round {round}"
        );
    }
}

// 3. a run killed between the two renames of a commit -----------------------------------

#[test]
fn a_report_moved_aside_by_a_killed_run_is_put_back() {
    let sandbox = Sandbox::new();
    let status = sandbox
        .command(&["--puzzle", "eight", "--out", "out", "--quiet"])
        .stdout(Stdio::null())
        .status()
        .expect("runs");
    assert!(status.success());
    let before = fs::read(sandbox.path("out/eight/distances.csv")).expect("written");
    // What a SIGKILL between the renames leaves: the report aside, the new one staged,
    // both in folders analyze marked as its own.
    let pid = dead_pid();
    let aside = marked(&sandbox, &format!("out/.eight.old-{pid}-abc"), pid);
    fs::rename(sandbox.path("out/eight"), aside.join(REPORT)).expect("rename");
    let staged = marked(&sandbox, &format!("out/.eight.partial-{pid}-def"), pid);
    fs::create_dir(staged.join(REPORT)).expect("mkdir");
    // Any later run into the folder, even of another puzzle, restores it.
    let status = sandbox
        .command(&[&SLIDING_2X3[..], &["--out", "out", "--quiet"]].concat())
        .stdout(Stdio::null())
        .status()
        .expect("runs");
    assert!(status.success());
    assert_eq!(sandbox.list("out"), ["eight", "sliding-2x3"]);
    assert_eq!(
        fs::read(sandbox.path("out/eight/distances.csv")).expect("restored"),
        before
    );
}

// 4. the report's name taken by a file ---------------------------------------------------

#[test]
fn a_file_in_place_of_the_report_folder_is_named_and_nothing_is_left() {
    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.path("out")).expect("mkdir");
    fs::write(sandbox.path("out/eight"), "mine").expect("write");
    let ended = sandbox.output(&["--puzzle", "eight", "--out", "out"]);
    assert_eq!(ended.code, Some(1));
    let stderr = ended.stderr;
    assert!(
        stderr.contains("out/eight exists and is not a folder") && !stderr.contains("Is a directory"),
        "{stderr}"
    );
    assert_eq!(sandbox.list("out"), ["eight"]);
    assert_eq!(fs::read_to_string(sandbox.path("out/eight")).expect("kept"), "mine");
}

// 5. and 130: interrupts ---------------------------------------------------------------

#[test]
fn an_interrupted_all_says_what_was_written_and_what_was_not() {
    let sandbox = Sandbox::new();
    let mut child = sandbox
        .command(&["--all", "--out", "out", "--quiet", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a first line");
    assert!(first.starts_with("eight:"), "{first}");
    signal(&child, "-INT");
    let ended = wait(child, Duration::from_secs(120));
    assert_eq!(ended.code, Some(130));
    let stderr = ended.stderr;
    assert!(stderr.starts_with("error: interrupted: wrote eight"), "{stderr}");
    assert!(
        stderr.contains("not written:") && stderr.contains("flip-k-60-31") && stderr.contains("the index"),
        "{stderr}"
    );
    // Exactly the folders it says it wrote, nothing hidden, no index.
    let written = sandbox.list("out");
    assert!(written.contains(&"eight".to_string()));
    for name in &written {
        assert!(
            stderr
                .split("not written:")
                .next()
                .is_some_and(|w| w.contains(name.as_str())),
            "{name} on disk but not said written: {stderr}"
        );
    }
}

#[test]
fn an_interrupted_search_exits_130_and_writes_nothing() {
    let sandbox = Sandbox::new();
    let child = sandbox
        .command(&[&SLIDING_3X4[..], &["--out", "out", "--threads", "1"]].concat())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "-INT");
    let signalled = std::time::Instant::now();
    let ended = wait(child, Duration::from_secs(120));
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    // The engine stops within a chunk of a level, not at the level's end (seconds on 3x4
    // with one thread): a generous bound, for a loaded machine.
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "{:?}",
        signalled.elapsed()
    );
    assert!(
        ended.stderr.contains("interrupted: no report was written"),
        "{}",
        ended.stderr
    );
    assert!(ended.stdout.is_empty());
    assert!(sandbox.list("out").is_empty(), "{:?}", sandbox.list("out"));
}

/// A 6x6 board the blank has wandered 400 moves from the goal on (a fixed walk): solvable,
/// and far beyond what IDA* with Manhattan distance solves in a test's time.
fn wandered_6x6() -> String {
    let mut tiles: Vec<u32> = (1..36).chain([0]).collect();
    let (mut blank, mut last, mut seed) = (35usize, usize::MAX, 12345u64);
    for _ in 0..400 {
        let (r, c) = (blank / 6, blank % 6);
        let next: Vec<usize> = [
            (r > 0, blank.wrapping_sub(6)),
            (r < 5, blank + 6),
            (c > 0, blank.wrapping_sub(1)),
            (c < 5, blank + 1),
        ]
        .into_iter()
        .filter(|&(ok, cell)| ok && cell != last)
        .map(|(_, cell)| cell)
        .collect();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let cell = next[(seed >> 33) as usize % next.len()];
        tiles.swap(blank, cell);
        (last, blank) = (blank, cell);
    }
    tiles.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// Starts `args` (a long `--solve`), sends `signal_name` after `after`, and checks that it
/// ends within a few seconds with exit status 130, one line on stderr and nothing on stdout.
fn solve_stops_on(sandbox: &Sandbox, args: &[&str], signal_name: &str, after: Duration) {
    let child = sandbox.spawn(args);
    std::thread::sleep(after);
    signal(&child, signal_name);
    let signalled = std::time::Instant::now();
    let ended = wait(child, Duration::from_secs(60));
    assert_eq!(ended.code, Some(130), "{signal_name}: {}", ended.stderr);
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "{:?}",
        signalled.elapsed()
    );
    assert!(ended.stderr.contains("interrupted"), "{}", ended.stderr);
    assert!(ended.stdout.is_empty(), "{}", ended.stdout);
}

#[test]
fn a_long_solve_ends_with_130_on_sigterm_and_sigint() {
    let sandbox = Sandbox::new();
    let position = wandered_6x6();
    let args = [
        "--puzzle", "sliding", "--rows", "6", "--cols", "6", "--quiet", "--solve", &position,
    ];
    for signal_name in ["-TERM", "-INT"] {
        solve_stops_on(&sandbox, &args, signal_name, Duration::from_millis(500));
    }
}

#[test]
fn a_table_build_stopped_by_sigterm_leaves_nothing_in_the_cache() {
    let sandbox = Sandbox::with_own_cache();
    let args = [
        &SLIDING_3X4[..],
        &["--threads", "1", "--solve", "1 2 3 4 5 6 7 8 9 10 0 11"],
    ]
    .concat();
    solve_stops_on(&sandbox, &args, "-TERM", Duration::from_millis(1500));
    let left: Vec<_> = fs::read_dir(sandbox.cache())
        .expect("the cache folder exists")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

// 6. sliding positions that are neither tiles nor a file ------------------------------

#[test]
fn a_position_with_letters_or_signs_gets_the_position_error() {
    for position in ["1 2 3 4 5 6 7 0 -8", "a b c d e f g h i", "１ ２ ３ ４ ５ ６ ７ ８ ０"] {
        let sandbox = Sandbox::new();
        let ended = sandbox.output(&["--puzzle", "eight", "--solve", position]);
        assert_eq!(ended.code, Some(2), "{position}");
        let stderr = ended.stderr;
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("is not a tile number") && stderr.contains("row by row"),
            "{stderr}"
        );
        assert!(!stderr.contains("No such file"), "{stderr}");
    }
}

#[test]
fn a_position_path_that_is_no_regular_file_is_named_at_once() {
    let sandbox = Sandbox::new();
    let pipe = fifo(&sandbox, "pipe");
    fs::create_dir(sandbox.path("folder")).expect("mkdir");
    fs::write(sandbox.path("empty"), "").expect("written");
    for (position, expected) in [
        ("folder", "`folder`: it is a folder, not a regular file"),
        (pipe.as_str(), "`pipe`: it is a FIFO, not a regular file"),
        ("/dev/null", "`/dev/null`: it is a device, not a regular file"),
        ("empty", "empty is an empty file"),
    ] {
        let started = std::time::Instant::now();
        let stderr = refusal_in(&sandbox, &["--puzzle", "eight", "--solve", position]);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{position}: {stderr}");
        assert!(!stderr.contains("tile number"), "{position}: {stderr}");
        assert!(
            stderr.contains("row by row"),
            "{position}: says what is accepted: {stderr}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{position}: {:?}",
            started.elapsed()
        );
    }
}

// 7. contradictory options ------------------------------------------------------------

#[test]
fn all_with_solve_is_refused() {
    let sandbox = Sandbox::new();
    let ended = sandbox.output(&["--all", "--solve", "HHH", "--out", "out"]);
    assert_eq!(ended.code, Some(2));
    let stderr = ended.stderr;
    assert!(stderr.contains("--all") && stderr.contains("--solve"), "{stderr}");
    assert!(sandbox.list(".").is_empty());
}

// 8. defaults the user never typed ----------------------------------------------------

/// Runs `args` in a fresh sandbox expecting exit status 2 and nothing written; its stderr.
fn refusal(args: &[&str]) -> String {
    let sandbox = Sandbox::new();
    let stderr = refusal_in(&sandbox, args);
    assert!(sandbox.list(".").is_empty());
    stderr
}

/// Runs `args` in `sandbox` expecting exit status 2; its stderr.
fn refusal_in(sandbox: &Sandbox, args: &[&str]) -> String {
    let ended = sandbox.output(args);
    assert_eq!(ended.code, Some(2), "{args:?}");
    ended.stderr
}

#[test]
fn a_negative_or_non_numeric_count_says_what_is_accepted() {
    for (args, shown) in [
        (
            &["--puzzle", "sliding", "--rows", "-2", "--cols", "3"][..],
            "'-2' for '--rows <R>'",
        ),
        (&["--puzzle", "flip-k", "--coins", "seven"], "'seven' for '--coins <N>'"),
        (
            &["--hosts", "h", "--process", "-1", "--puzzle", "eight"],
            "'-1' for '--process <I>'",
        ),
    ] {
        let stderr = refusal(args);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(shown) && stderr.contains("use a whole number, 0 or more"),
            "{stderr}"
        );
    }
    let stderr = refusal(&["--puzzle", "flip-k", "--coins", "123456789012345678901234567890"]);
    assert!(stderr.contains("too large"), "{stderr}");
}

#[test]
fn every_refused_thread_count_gets_the_same_range() {
    for value in ["-1", "0", "1025", "many", "123456789012345678901234567890"] {
        let stderr = refusal(&["--puzzle", "eight", "--threads", value]);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("'{value}' for '--threads <N>'"))
                && stderr.contains("use a whole number of threads, 1 to 1024"),
            "{value}: {stderr}"
        );
        assert!(!stderr.contains("0 or more"), "{value}: {stderr}");
    }
}

#[test]
fn a_default_out_of_range_is_named_as_the_default() {
    let stderr = refusal(&["--puzzle", "flip-k", "--coins", "4"]);
    assert!(
        stderr.contains("--flip defaults to 5") && stderr.contains("--flip K"),
        "{stderr}"
    );
    let stderr = refusal(&["--puzzle", "flip-k", "--flip", "9"]);
    assert!(stderr.contains("--coins defaults to 7"), "{stderr}");
}

#[test]
fn one_board_side_alone_is_refused_for_every_board_puzzle() {
    for (puzzle, default) in [
        ("lights-out", Some("4x3")),
        ("nine-tails", Some("3x3")),
        ("sliding", None),
    ] {
        let stderr = refusal(&["--puzzle", puzzle, "--rows", "3"]);
        assert!(stderr.contains("--rows 3 is given without --cols"), "{stderr}");
        if let Some(default) = default {
            assert!(stderr.contains(default), "{stderr}");
        }
        let stderr = refusal(&["--puzzle", puzzle, "--cols", "3"]);
        assert!(stderr.contains("--cols 3 is given without --rows"), "{stderr}");
    }
    let help = Sandbox::new().output(&["--help"]);
    assert!(help.stdout.contains("neither for the default board"));
}

// 10. damaged cache entries -------------------------------------------------------------

/// Solves a position with `make` having put something odd where the table's cache file goes.
fn solve_with_cache_entry(make: impl FnOnce(&Path)) {
    let sandbox = Sandbox::with_own_cache();
    make(
        &sandbox
            .cache()
            .join(crate::util::cache_name(&["--puzzle", "eight"], "dist")),
    );
    let child = sandbox.spawn(&["--puzzle", "eight", "--solve", "1 2 3 4 5 6 7 0 8"]);
    let ended = wait(child, Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(first_length(&ended.stdout), Some("1 move"), "{}", ended.stdout);
    assert!(ended.stderr.contains("not a regular file"), "{}", ended.stderr);
}

#[test]
fn a_cache_entry_that_is_a_fifo_does_not_hang() {
    solve_with_cache_entry(|path| {
        let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
        assert!(status.success());
    });
}

#[test]
fn a_cache_entry_linked_to_dev_zero_is_not_read() {
    solve_with_cache_entry(|path| std::os::unix::fs::symlink("/dev/zero", path).expect("symlink"));
}

// 11. huge input -------------------------------------------------------------------------

#[test]
fn errors_quote_only_the_start_of_a_huge_input() {
    let huge = "1 ".repeat(50_000);
    for args in [
        vec!["--puzzle", "eight", "--solve", &huge],
        vec!["--puzzle", "eight", "--solve", "1 2 3 4 5 6 7 8 0", &huge],
    ] {
        let stderr = refusal(&args);
        assert_eq!(stderr.lines().count(), 1, "{}", &stderr[..200]);
        assert!(stderr.len() < 400, "{} bytes: {}", stderr.len(), &stderr[..200]);
        assert!(stderr.contains("(100,000 characters)"), "{stderr}");
    }
    // A value clap itself refuses.
    let huge_name = "x".repeat(100_000);
    let stderr = refusal(&["--puzzle", &huge_name]);
    assert!(
        stderr.len() < 400 && stderr.contains("characters)"),
        "{}",
        &stderr[..200]
    );
    let long_token = "7".repeat(10_000);
    let stderr = refusal(&["--puzzle", "eight", "--solve", &long_token]);
    assert!(stderr.len() < 400, "{} bytes", stderr.len());
}

#[test]
fn a_huge_goal_or_metric_is_quoted_by_its_start() {
    let sandbox = Sandbox::new();
    let cube = format!("{}/examples/pocket-cube-held.tws", env!("CARGO_MANIFEST_DIR"));
    let ones = "1".repeat(120_000);
    let heads = "H".repeat(120_000);
    let cases: [&[&str]; 5] = [
        &["--puzzle", "eight", "--goal", &ones],
        &["--puzzle", "nine-tails", "--goal", &heads],
        &["--puzzle", "coin-lines", "--goal", &ones],
        &["--rules", &cube, "--goal", &ones],
        &["--rules", &cube, "--metric", &ones],
    ];
    for args in cases {
        let stderr = refusal_in(&sandbox, args);
        assert_eq!(stderr.lines().count(), 1, "{args:.40?}");
        assert!(stderr.len() < 400, "{} bytes: {}", stderr.len(), &stderr[..200]);
        assert!(stderr.contains("(120,000 characters)"), "{stderr}");
    }
}

#[test]
fn hostile_definitions_get_one_line_naming_the_file_and_line() {
    let sandbox = Sandbox::new();
    let head = "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove M\nA\n2 1 3\nEnd\n";
    // Ten thousand sequences; a chain of sequences each naming the next (composed without
    // deep recursion); a cycle; a sequence naming what no line defines; Illegal on a set
    // or a position that is not there.
    let many: String = (0..10_000).map(|i| format!("MoveSequence S{i} M\n")).collect();
    let chain: String = (0..1_000)
        .map(|i| format!("MoveSequence C{i} C{} M\n", i + 1))
        .collect();
    let cases = [
        (many, ":1034: ", "more than 1024 `MoveSequence`"),
        (format!("{chain}MoveSequence C1000 M\n"), ":", "moves"),
        (
            "MoveSequence P Q\nMoveSequence Q R\nMoveSequence R P'\n".into(),
            ":12: ",
            "P -> Q -> R -> P name each other in a cycle",
        ),
        ("MoveSequence P M Z\n".into(), ":10: ", "`Z` is not a move"),
        ("Illegal CORNERS 1 2\n".into(), ":10: ", "unknown set `CORNERS`"),
        ("Illegal A 0 2\n".into(), ":10: ", "out of range 1 to 3"),
        ("Illegal A 1 2 x\n".into(), ":10: ", "`x` is not a number"),
        ("Illegal A 1 1\n".into(), ":10: ", "solved state itself illegal"),
    ];
    for (i, (tail, line, what)) in cases.iter().enumerate() {
        let name = format!("hostile{i}.tws");
        fs::write(sandbox.path(&name), format!("{head}{tail}")).expect("write");
        let stderr = refusal_in(&sandbox, &["--rules", &name, "--out", "out"]);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("{name}{line}")), "{stderr}");
        assert!(stderr.contains(what), "{stderr}");
    }
    let cube = format!("{}/examples/pocket-cube-held.tws", env!("CARGO_MANIFEST_DIR"));
    let stderr = refusal_in(&sandbox, &["--rules", &cube, "--moves", "U,X"]);
    assert!(
        stderr.contains("`X` is not a move of the definition (its moves are U R F)"),
        "{stderr}"
    );
    assert!(!sandbox.path("out").exists());
}

// 12. wording ----------------------------------------------------------------------------

#[test]
fn counts_of_one_are_singular() {
    // A 26-cell board is solved by IDA* with its note on stderr: one move.
    let goal_but_one = (1..=24).map(|t: u32| t.to_string()).chain(["0".into(), "25".into()]);
    let position = goal_but_one.collect::<Vec<_>>().join(" ");
    let sandbox = Sandbox::new();
    let ended = sandbox.output(&[
        "--puzzle", "sliding", "--rows", "2", "--cols", "13", "--solve", &position,
    ]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(first_length(&ended.stdout), Some("1 move"), "{}", ended.stdout);
    assert!(ended.stderr.contains(": 1 move,"), "{}", ended.stderr);

    // A data-file row with one tile.
    fs::write(sandbox.path("short.txt"), "3\n1 2 3\n4\n5 6 7 8 0\n").expect("write");
    let stderr = refusal_in(&sandbox, &["--puzzle", "eight", "--solve", "short.txt"]);
    assert!(stderr.contains("row 2 has 1 tile, expected 3"), "{stderr}");

    // The smallest job's memory note: two planes of one word, two summaries of one word.
    let ended = sandbox.output(&["--puzzle", "flip-k", "--coins", "1", "--flip", "1", "--out", "out"]);
    assert_eq!(ended.code, Some(0));
    let stderr = ended.stderr;
    assert!(
        stderr.contains("32 bytes of bit sets") && !stderr.contains(" 0 bytes"),
        "{stderr}"
    );
}

// Exit statuses ---------------------------------------------------------------------------

#[test]
fn exit_status_1_for_an_output_folder_that_cannot_be_created() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.path("blocker"), "a file").expect("write");
    let ended = sandbox.output(&["--puzzle", "eight", "--out", "blocker/reports"]);
    assert_eq!(ended.code, Some(1));
}

#[test]
fn exit_status_0_for_a_run_and_for_help() {
    let sandbox = Sandbox::new();
    for args in [
        &["--puzzle", "eight", "--out", "out", "--quiet"][..],
        &["--help"],
        &["--version"],
        &["--list"],
    ] {
        let status = sandbox.command(args).stdout(Stdio::null()).status().expect("runs");
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
}

// The memory guard without /proc/meminfo ----------------------------------------------

#[test]
fn a_search_beyond_memory_is_refused_with_its_figure_not_aborted() {
    // Where the kernel may grant any allocation (overcommit mode 1), the refusal cannot
    // be observed: the pages would only fail when touched.
    let mode = fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    if mode.trim() == "1" {
        return;
    }
    // 4x4 passes validation when the available memory is unknown; the engine's fallible
    // allocation then refuses its 2.3 TiB of bit sets.
    let spec = crate::util::job("sliding", &[("rows", 4), ("cols", 4)]);
    let err = spec
        .analyze_alone(&mut |_| std::ops::ControlFlow::Continue(()))
        .expect_err("terabytes cannot be allocated");
    let message = format!("{err:#}");
    assert!(
        message.starts_with("cannot allocate") && message.contains("TiB for the bit sets"),
        "{message}"
    );
}

/// Makes `name` in the sandbox a FIFO (no writer ever opens it).
fn fifo(sandbox: &Sandbox, name: &str) -> String {
    let status = Command::new("mkfifo")
        .arg(sandbox.path(name))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    name.to_string()
}

#[test]
fn every_file_input_is_a_bounded_regular_file() {
    let sandbox = Sandbox::new();
    let pipe = fifo(&sandbox, "pipe");
    fs::create_dir(sandbox.path("folder")).expect("mkdir");
    fs::write(sandbox.path("huge.toml"), "#".repeat(2 << 20)).expect("written");
    fs::write(sandbox.path("hosts"), "127.0.0.1:7000\n127.0.0.1:7001\n").expect("written");
    let cases: [(&[&str], &str); 7] = [
        (&["--rules", &pipe], "it is a FIFO, not a regular file"),
        (&["--rules", "/dev/zero"], "it is a device, not a regular file"),
        (&["--rules", "folder"], "it is a folder, not a regular file"),
        (&["--rules", "huge.toml"], "it is over 1.0 MiB"),
        (
            &["--puzzle", "eight", "--hosts", &pipe, "--process", "0"],
            "it is a FIFO",
        ),
        (
            &[&EIGHT_AS_PROCESS_0[..], &["--secret-file", "/dev/zero"]].concat(),
            "it is a device",
        ),
        (
            &[&EIGHT_AS_PROCESS_0[..], &["--secret-file", "huge.toml"]].concat(),
            "it is over 1.0 MiB",
        ),
    ];
    for (args, expected) in cases {
        let started = std::time::Instant::now();
        let message = refusal_in(&sandbox, args);
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn a_checkpoint_file_that_is_a_fifo_is_refused_at_once() {
    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.path("ck")).expect("mkdir");
    fifo(&sandbox, "ck/slice-0.a.ckpt");
    let started = std::time::Instant::now();
    let message = refusal_in(&sandbox, &["--puzzle", "eight", "--checkpoint", "ck", "--out", "out"]);
    assert!(message.contains("it is not a regular file"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

#[test]
fn a_report_id_too_long_for_a_folder_name_is_refused_before_the_search() {
    let sandbox = Sandbox::new();
    let rules = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/nine-tails.toml")).expect("example");
    let long = format!("name = \"{}\"", "x".repeat(5000));
    let first = rules.lines().find(|l| l.starts_with("name = ")).expect("a name line");
    fs::write(sandbox.path("long.toml"), rules.replacen(first, &long, 1)).expect("written");
    let message = refusal_in(&sandbox, &["--rules", "long.toml", "--out", "out"]);
    assert!(
        message.contains("is 5000 bytes long: a report folder's name takes at most 200"),
        "{message}"
    );
    assert!(!sandbox.path("out").exists());
}

// 9. text read from files, shown as written ---------------------------------------------

#[test]
fn text_from_files_reaches_the_terminal_and_the_report_escaped() {
    let sandbox = Sandbox::new();
    // A scramble named with an escape sequence that would set the window title.
    let scrambles = "ScrambleAlg evil\u{1b}]0;owned\u{7}\nR U\nEnd\nScrambleAlg plain\nR\nEnd\n";
    std::fs::write(sandbox.path("evil.scr"), scrambles).expect("written");
    let cube = crate::util::example("pocket-cube.kpuzzle.json");
    let ended = sandbox.output(&["--rules", &cube, "--solve", "evil.scr"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(
        !ended.stdout.contains('\u{1b}') && !ended.stderr.contains('\u{1b}'),
        "{}",
        ended.stdout
    );
    assert!(ended.stdout.contains("evil\\u{1b}]0;owned\\u{7}"), "{}", ended.stdout);
    // A rules file's description with HTML, a heading and a colour: text in the report.
    let rules = crate::util::read(Path::new(&crate::util::example("merlins-magic-square.toml")));
    let hostile = "description = \"<script>alert(1)</script>\\n# Owned \\u001b[31m red\"\n";
    std::fs::write(sandbox.path("hostile.toml"), format!("{hostile}{rules}")).expect("written");
    sandbox
        .run(&["--rules", "hostile.toml", "--out", "out", "--quiet"])
        .success();
    let page = sandbox.read("out/merlin-s-magic-square/report.md");
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\# Owned \\u{1b}\\[31m red"),
        "{page}"
    );
    assert!(!page.contains("<script>") && !page.contains('\u{1b}'), "{page}");
    assert!(!page.lines().any(|line| line.starts_with("# Owned")), "{page}");
    // A file planted in the cache folder under a name with a colour.
    std::fs::create_dir_all(sandbox.cache()).expect("the cache folder");
    std::fs::write(sandbox.cache().join("red\u{1b}[31m.dist"), "not a table").expect("written");
    let listed = sandbox.output(&["--cache"]);
    assert_eq!(listed.code, Some(0), "{}", listed.stderr);
    assert!(!listed.stdout.contains('\u{1b}'), "{}", listed.stdout);
    assert!(listed.stdout.contains("red\\u{1b}[31m.dist"), "{}", listed.stdout);
}
