//! `--cache` and `--cache-clear [DAYS]` end to end: what a solve cached is listed with its
//! puzzle, goal, size and last use; clearing removes what was not used (loading a file
//! counts as a use), the leftovers of interrupted writes, and nothing that is not the
//! cache's own; a reader holding a file open reads it whole while it is cleared.

use crate::util::{Ended, SLIDING_2X5, Sandbox, cached, unhashed};
use std::fs::{self, File};
use std::io::Read;
use std::path::Path;
use std::time::{Duration, SystemTime};

const DAY: Duration = Duration::from_secs(24 * 3600);

/// Runs `args` in `sandbox` and checks it succeeded: its stdout.
fn ok(sandbox: &Sandbox, args: &[&str]) -> String {
    let Ended {
        code, stdout, stderr, ..
    } = sandbox.output(args);
    assert_eq!(code, Some(0), "analyze {args:?}: {stderr}");
    stdout
}

/// Caches the 8-puzzle's distance table (181,440 ranks) by solving a position of it.
fn cache_eight(sandbox: &Sandbox) {
    ok(
        sandbox,
        &["--puzzle", "eight", "--quiet", "--solve", "1 2 3 4 5 6 7 0 8"],
    );
}

/// Sets the last use (modification time) of `path` to `ago` before now.
fn last_used(path: &Path, ago: Duration) {
    File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(SystemTime::now() - ago))
        .unwrap_or_else(|e| panic!("cannot set the time of {}: {e}", path.display()));
}

/// A file in the cache folder written as the cache writes them: a header line, a checksum
/// line and bytes (the header names the table; nothing reads these as tables).
fn fake_cache_file(sandbox: &Sandbox, name: &str, header: &str) {
    let text = format!("{header}\nchecksum 0000000000000000\n{}", "x".repeat(1000));
    fs::write(sandbox.cache().join(name), text).expect("a cache file is written");
}

/// The row of `file` in a listing.
fn row<'a>(listing: &'a str, file: &str) -> &'a str {
    listing
        .lines()
        .find(|l| l.split_whitespace().next().map(unhashed).as_deref() == Some(file))
        .unwrap_or_else(|| panic!("no row for {file} in:\n{listing}"))
}

#[test]
fn lists_what_solving_cached_with_puzzle_goal_size_and_last_use() {
    let sandbox = Sandbox::with_own_cache();
    cache_eight(&sandbox);
    let goal = ["--puzzle", "eight", "--goal", "1 2 3 4 5 6 7 0 8", "--quiet"];
    ok(&sandbox, &[&goal[..], &["--solve", "1 2 3 4 5 6 7 8 0"]].concat());
    ok(
        &sandbox,
        &[&SLIDING_2X5[..], &["--quiet", "--solve", "1 2 3 4 5 6 7 8 9 0"]].concat(),
    );
    let listing = ok(&sandbox, &["--cache"]);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(
        lines[0],
        format!("the cache at {}, oldest use first:", sandbox.cache().display()),
        "{listing}"
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["file", "puzzle", "goal", "size", "last", "use", "(UTC)"]
    );
    let eight = row(&listing, "eight.dist");
    assert!(eight.contains(" eight ") && eight.contains(" usual "), "{eight}");
    // 181,440 bytes of distances, a header and a checksum line.
    assert!(eight.contains(" 177.3 KiB "), "{eight}");
    let today = chrono_free_today();
    assert!(eight.contains(&today), "{eight} is not dated {today}");
    let with_goal = row(&listing, "eight-goal-1-2-3-4-5-6-7-0-8.dist");
    assert!(
        with_goal.contains(" eight ") && with_goal.contains(" 1 2 3 4 5 6 7 0 8 "),
        "{with_goal}"
    );
    let board = row(&listing, "sliding-2x5.dist");
    assert!(
        board.contains(" sliding-2x5 ") && board.contains(" 1.7 MiB "),
        "{board}"
    );
    assert_eq!(lines.len(), 2 + 3 + 1, "{listing}");
    // Oldest use first: the order they were built in.
    assert!(
        unhashed(lines[2].split_whitespace().next().unwrap_or("")) == "eight.dist"
            && unhashed(lines[4].split_whitespace().next().unwrap_or("")) == "sliding-2x5.dist",
        "{listing}"
    );
    assert_eq!(lines[5], "total: 3 files, 2.1 MiB", "{listing}");
}

/// Today's date in UTC as `YYYY-MM-DD`, from `date` (the binary computes its own).
fn chrono_free_today() -> String {
    let out = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .expect("date runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn an_empty_or_missing_cache_is_listed_as_empty() {
    let sandbox = Sandbox::with_own_cache();
    let empty = format!("the cache at {} is empty\n", sandbox.cache().display());
    assert_eq!(ok(&sandbox, &["--cache"]), empty);
    fs::remove_dir(sandbox.cache()).expect("the empty cache folder is removed");
    assert_eq!(ok(&sandbox, &["--cache"]), empty);
    let cleared = ok(&sandbox, &["--cache-clear"]);
    assert!(cleared.starts_with("removed nothing from the cache at "), "{cleared}");
    assert!(!sandbox.cache().exists(), "clearing creates no folder");
}

#[test]
fn clearing_removes_the_cache_files_and_leaves_everything_else() {
    let sandbox = Sandbox::with_own_cache();
    cache_eight(&sandbox);
    let cache = sandbox.cache();
    // What is not the cache's: a note (even one starting like a header), a subfolder, a
    // file named like another program's temporary file, a link to a cache file outside.
    fs::write(cache.join("notes.txt"), "analyze this folder\n").expect("a note");
    fs::write(cache.join("README"), "analyze distance table v1 without its colon\n").expect("a note");
    fs::create_dir(cache.join("keep")).expect("a subfolder");
    fs::write(cache.join(".tmpAbC123"), "another program's\n").expect("a temporary file");
    let outside = sandbox.path("outside.dist");
    fs::copy(cached(cache, "eight.dist"), &outside).expect("a cache file outside the folder");
    std::os::unix::fs::symlink(&outside, cache.join("linked.dist")).expect("a link");
    // The leftovers of interrupted writes: one stale, one being written now.
    fs::write(cache.join(".analyze-partial-Stale1"), "analyze distance ta").expect("a stale write");
    last_used(&cache.join(".analyze-partial-Stale1"), Duration::from_secs(3600));
    fs::write(cache.join(".analyze-partial-Fresh1"), "").expect("a write in progress");

    let listing = ok(&sandbox, &["--cache"]);
    assert!(
        row(&listing, ".analyze-partial-Stale1").contains("(an interrupted write)"),
        "{listing}"
    );
    assert!(
        row(&listing, ".analyze-partial-Fresh1").contains("(an interrupted write)"),
        "{listing}"
    );
    assert!(listing.contains("total: 3 files, "), "{listing}");
    assert!(
        listing.ends_with(
            "left alone: 5 entries that are not cache files (.tmpAbC123, README, keep, linked.dist, notes.txt)\n"
        ),
        "{listing}"
    );

    let cleared = ok(&sandbox, &["--cache-clear"]);
    assert!(cleared.contains("total: 2 files, "), "{cleared}");
    assert!(
        cleared.contains("kept 1 file being written (changed in the last 10 minutes)"),
        "{cleared}"
    );
    assert_eq!(
        sandbox.list("cache").iter().map(|n| unhashed(n)).collect::<Vec<_>>(),
        [
            ".analyze-partial-Fresh1",
            ".tmpAbC123",
            "README",
            "keep",
            "linked.dist",
            "notes.txt"
        ]
    );
    assert!(outside.is_file(), "the link's target is untouched");
    assert_eq!(
        fs::read(&outside).expect("the outside file"),
        fs::read(cache.join("linked.dist")).expect("the link still leads to it")
    );
}

#[test]
fn clearing_by_days_keeps_what_was_used_and_loading_is_a_use() {
    let sandbox = Sandbox::with_own_cache();
    cache_eight(&sandbox);
    let cache = sandbox.cache();
    let header = "analyze split pattern database v1: sliding 2x2, tiles 1 2, goal 2 1 3 0, 12 entries";
    fake_cache_file(&sandbox, "old.pdb", header);
    last_used(&cache.join("old.pdb"), 5 * DAY);
    last_used(&cached(cache, "eight.dist"), 5 * DAY);
    let listing = ok(&sandbox, &["--cache"]);
    let old = row(&listing, "old.pdb");
    assert!(old.contains(" sliding-2x2 ") && old.contains(" 2 1 3 0 "), "{old}");
    // Solving loads the 8-puzzle's table: its time is now.
    cache_eight(&sandbox);
    let listing = ok(&sandbox, &["--cache"]);
    assert!(
        listing.lines().nth(2).is_some_and(|l| l.starts_with("old.pdb ")),
        "{listing}"
    );

    let cleared = ok(&sandbox, &["--cache-clear", "4"]);
    assert!(row(&cleared, "old.pdb").contains(" sliding-2x2 "), "{cleared}");
    assert!(cleared.contains("kept 1 file used in the last 4 days"), "{cleared}");
    assert_eq!(
        sandbox.list("cache").iter().map(|n| unhashed(n)).collect::<Vec<_>>(),
        ["eight.dist"]
    );
    let cleared = ok(&sandbox, &["--cache-clear", "1"]);
    assert!(cleared.starts_with("removed nothing from the cache at "), "{cleared}");
    assert_eq!(
        sandbox.list("cache").iter().map(|n| unhashed(n)).collect::<Vec<_>>(),
        ["eight.dist"]
    );
    ok(&sandbox, &["--cache-clear", "0"]);
    assert_eq!(
        sandbox.list("cache").iter().map(|n| unhashed(n)).collect::<Vec<_>>(),
        Vec::<String>::new()
    );
}

#[test]
fn a_reader_holding_a_cache_file_reads_it_whole_while_it_is_cleared() {
    let sandbox = Sandbox::with_own_cache();
    ok(
        &sandbox,
        &[&SLIDING_2X5[..], &["--quiet", "--solve", "1 2 3 4 5 6 7 8 9 0"]].concat(),
    );
    let path = cached(sandbox.cache(), "sliding-2x5.dist");
    let before = fs::read(&path).expect("the cached table");
    let mut reader = File::open(&path).expect("the table opens");
    let mut read = vec![0; 4096];
    reader.read_exact(&mut read).expect("its start is read");
    let cleared = ok(&sandbox, &["--cache-clear"]);
    assert!(row(&cleared, "sliding-2x5.dist").contains(" 1.7 MiB "), "{cleared}");
    assert!(!path.exists(), "the name is gone");
    reader.read_to_end(&mut read).expect("the rest is read after the clear");
    assert_eq!(read, before, "the open file reads whole and unchanged");
    // And the next run builds and caches the table again.
    ok(
        &sandbox,
        &[&SLIDING_2X5[..], &["--quiet", "--solve", "1 2 3 4 5 6 7 8 9 0"]].concat(),
    );
    assert_eq!(fs::read(&path).expect("cached again"), before);
}

#[test]
fn a_bad_number_of_days_is_refused_with_exit_2() {
    let sandbox = Sandbox::with_own_cache();
    cache_eight(&sandbox);
    for days in ["abc", "-1", "1.5", "", "36501", "99999999999999999999999"] {
        let Ended {
            code, stdout, stderr, ..
        } = sandbox.output(&["--cache-clear", days]);
        assert_eq!(code, Some(2), "--cache-clear {days:?}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("error: --cache-clear ") && stderr.contains("whole number of days"),
            "{stderr}"
        );
    }
    assert_eq!(
        sandbox.list("cache").iter().map(|n| unhashed(n)).collect::<Vec<_>>(),
        ["eight.dist"],
        "nothing was removed"
    );
}

#[test]
fn the_cache_options_stand_alone() {
    let sandbox = Sandbox::with_own_cache();
    for args in [
        &["--cache", "--puzzle", "eight"][..],
        &["--cache-clear", "--list"],
        &["--cache", "--cache-clear"],
        &[
            "--solve",
            "1 2 3 4 5 6 7 0 8",
            "--puzzle",
            "eight",
            "--cache-clear",
            "3",
        ],
    ] {
        let Ended { code, stderr, .. } = sandbox.output(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("cannot be used with"), "{stderr}");
    }
}

#[test]
fn a_cache_path_that_is_not_a_folder_fails_with_one_line_and_exit_1() {
    let sandbox = Sandbox::with_own_cache();
    let file = sandbox.path("a-file");
    fs::write(&file, "not a folder").expect("a file");
    for args in [&["--cache"][..], &["--cache-clear"]] {
        let output = sandbox
            .command(args)
            .env("ANALYZE_CACHE_DIR", &file)
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: cannot read the cache folder "), "{stderr}");
    }
    assert_eq!(fs::read_to_string(&file).expect("the file"), "not a folder");
}

#[test]
fn without_a_cache_folder_it_says_how_to_have_one() {
    let sandbox = Sandbox::new();
    for args in [&["--cache"][..], &["--cache-clear"]] {
        let output = sandbox
            .command(args)
            .env("ANALYZE_CACHE_DIR", "")
            .env_remove("XDG_CACHE_HOME")
            .env_remove("HOME")
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "there is no cache folder: set ANALYZE_CACHE_DIR, XDG_CACHE_HOME or HOME\n"
        );
    }
}
