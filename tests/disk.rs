//! The search with its planes on disk (`--disk`): the same report as in memory for every
//! family at memory caps small enough that every level crosses parts, and a run killed,
//! stopped, starved of disk or handed a damaged file.

use crate::util::{Running, Sandbox, committed, example, signal, sliding_board, wait};
use analyze::engine::disk::Config as DiskConfig;
use analyze::engine::{Distances, Options};
use analyze::identity::Identity;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Every file of the report `out/id` but `run.json` (the time and threads): what a run on
/// disk must write byte for byte as the run in memory does.
fn report(sandbox: &Sandbox, out: &str, id: &str) -> Vec<(String, Vec<u8>)> {
    let dir = sandbox.path(&format!("{out}/{id}"));
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.expect("an entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(entry.path()).expect("a report file"))
        })
        .filter(|(name, _)| name != "run.json")
        .collect();
    files.sort();
    files
}

/// Checks two reports have the same files, byte for byte, naming the first that differs.
fn assert_same(a: &[(String, Vec<u8>)], b: &[(String, Vec<u8>)], what: &str) {
    let names = |r: &[(String, Vec<u8>)]| r.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(a), names(b), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!(x.1 == y.1, "{what}: {} differs", x.0);
    }
}

/// Runs `args` in memory and on disk with `memory`, and checks the reports are the same
/// and the disk folder is left empty.
fn same_on_disk(args: &[&str], id: &str, memory: &str) {
    let sandbox = Sandbox::new();
    sandbox.run(&[args, &["--out", "memory", "--quiet"]].concat()).success();
    let output = sandbox
        .run(&[args, &["--out", "disk", "--disk", "planes", "--memory", memory]].concat())
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains("on disk in planes"), "{stderr}");
    // Two parts in memory: one expanded, the one before written and the next read.
    assert!(
        stderr.contains(" 1 part of ") || stderr.contains("(two in memory at a time"),
        "{stderr}"
    );
    assert_same(&report(&sandbox, "memory", id), &report(&sandbox, "disk", id), id);
    assert!(sandbox.list("planes").is_empty(), "{:?}", sandbox.list("planes"));
    resumed_when_kept(&sandbox, args, id, memory);
}

/// Runs `args` on disk keeping the folder, then again from the manifest it kept (its last
/// level, whose classes, multiplicities and late files the reader checks), and checks the
/// resumed run's report is the one in memory `sandbox` holds.
fn resumed_when_kept(sandbox: &Sandbox, args: &[&str], id: &str, memory: &str) {
    let disk = [args, &["--disk", "kept", "--memory", memory]].concat();
    sandbox
        .run(&[&disk[..], &["--keep-disk", "--quiet"]].concat())
        .success();
    let output = sandbox
        .run(&[&disk[..], &["--out", "resumed"]].concat())
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(crate::util::resumed_level(&stderr) > 0, "{stderr}");
    assert_same(&report(sandbox, "memory", id), &report(sandbox, "resumed", id), id);
}

#[test]
fn coin_puzzles_on_disk_write_the_report_they_write_in_memory() {
    same_on_disk(&["--puzzle", "lights-out"], "lights-out-4x3", "256");
    // Directed: moves only from a face-up coin.
    same_on_disk(&["--puzzle", "nine-tails"], "nine-tails-3x3", "64");
    // Most classes unreached.
    same_on_disk(&["--puzzle", "coin-lines", "--size", "4"], "coin-lines-4x4", "1KiB");
    // Ranks standing for many configurations.
    same_on_disk(
        &["--puzzle", "flip-k", "--coins", "40", "--flip", "7"],
        "flip-k-40-7",
        "64",
    );
    let rules = example("merlins-magic-square.toml");
    same_on_disk(&["--rules", &rules], "merlin-s-magic-square", "64");
}

#[test]
fn sliding_boards_on_disk_write_the_report_they_write_in_memory() {
    // Another goal: no heuristic atlas, which reads whole levels in memory.
    same_on_disk(
        &[
            "--puzzle",
            "sliding",
            "--rows",
            "2",
            "--cols",
            "5",
            "--goal",
            "0,1,2,3,4,5,6,7,8,9",
        ],
        "sliding-2x5-goal-0-1-2-3-4-5-6-7-8-9",
        "16KiB",
    );
}

#[test]
fn permutation_puzzles_on_disk_write_the_report_they_write_in_memory() {
    same_on_disk(&["--rules", &example("top-spin-9.tws")], "top-spin-9", "4KiB");
    same_on_disk(&["--rules", &example("3x3x3-squares.tws")], "3x3x3-squares", "8KiB");
}

#[test]
fn pancakes_send_the_flip_of_the_whole_stack_as_bits_and_write_the_same_report() {
    // 10 parts of one bottom pancake, then 5 of two (a part's own bins applied in place);
    // at 64 KiB a part is less than a bottom pancake's stacks, and ranks are sent.
    let file = example("pancakes-10.tws");
    for (memory, parts, bits) in [
        ("400KiB", "10 parts", true),
        ("1MiB", "5 parts", true),
        ("64KiB", "56 parts", false),
    ] {
        let sandbox = Sandbox::new();
        sandbox.run(&["--rules", &file, "--out", "memory", "--quiet"]).success();
        let run = [
            "--rules", &file, "--out", "disk", "--disk", "planes", "--memory", memory,
        ];
        let output = sandbox.run(&run).success().get_output().clone();
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(stderr.contains(parts), "{memory}: {stderr}");
        assert_eq!(
            stderr.contains("the move between parts sent as bits"),
            bits,
            "{memory}: {stderr}"
        );
        assert_same(
            &report(&sandbox, "memory", "pancakes-10"),
            &report(&sandbox, "disk", "pancakes-10"),
            memory,
        );
        assert!(sandbox.list("planes").is_empty());
    }
}

/// Pancakes of 10 at 64 KiB (56 parts): long enough to be stopped mid-search.
fn pancakes(out: &str) -> Vec<String> {
    pancakes_at(out, "64KiB")
}

/// Pancakes of 10 with `memory`: at 400 KiB, the flip of the whole stack sent as bits.
fn pancakes_at(out: &str, memory: &str) -> Vec<String> {
    let file = example("pancakes-10.tws");
    [
        "--rules",
        &file,
        "--out",
        out,
        "--disk",
        "planes",
        "--memory",
        memory,
        "--threads",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The bin files the manifest in `dir` lists (its last level's late bins): at least one.
fn committed_bins(dir: &Path) -> Vec<String> {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("manifest")).expect("JSON");
    let depth = manifest["levels"].as_array().expect("levels").len() - 1;
    let names: Vec<String> = manifest["late_bins"]
        .as_array()
        .expect("late bins")
        .iter()
        .enumerate()
        .flat_map(|(to, sent)| {
            let sent = sent.as_array().expect("a part's bins").clone();
            sent.into_iter()
                .map(move |b| format!("bins-{depth}-{to}-{}.bits", b[0].as_u64().expect("a part")))
        })
        .collect();
    assert!(!names.is_empty(), "{manifest}");
    names
}

/// Starts the pancakes on disk and returns the run once `levels` levels are committed.
fn started_until(sandbox: &Sandbox, levels: usize) -> Running {
    started_at_until(sandbox, "64KiB", levels)
}

/// [`started_until`] with `memory`.
fn started_at_until(sandbox: &Sandbox, memory: &str, levels: usize) -> Running {
    let mut run = Running(Some(
        sandbox
            .command(&args(&pancakes_at("out", memory)))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts"),
    ));
    let start = Instant::now();
    while committed(&sandbox.path("planes")) < levels {
        assert!(
            run.child().try_wait().expect("wait").is_none(),
            "the run ended too soon"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "level {levels} not committed in 2 minutes"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    run
}

/// Checks the pancakes' report in `out` is the one in memory, and the disk folder empty.
fn assert_as_in_memory(sandbox: &Sandbox) {
    assert_same(
        &report(sandbox, "out", "pancakes-10"),
        &reference(sandbox),
        "pancakes-10",
    );
    assert!(sandbox.list("planes").is_empty());
}

/// The reference report of the pancakes, in memory.
fn reference(sandbox: &Sandbox) -> Vec<(String, Vec<u8>)> {
    sandbox
        .run(&["--rules", &example("pancakes-10.tws"), "--out", "memory", "--quiet"])
        .success();
    report(sandbox, "memory", "pancakes-10")
}

#[test]
fn a_run_killed_with_sigkill_resumes_from_its_last_level_and_writes_the_same_report() {
    let sandbox = Sandbox::new();
    let run = started_until(&sandbox, 4);
    drop(run); // SIGKILL
    assert!(!sandbox.path("out/pancakes-10").exists(), "a killed run wrote a report");
    // Resumed with a quarter of the memory: too little to hold one of its parts, refused
    // in one line naming the least that does.
    let with_memory = |memory: &str| {
        let mut resume = pancakes("out");
        for arg in resume.iter_mut().filter(|a| *a == "64KiB") {
            *arg = memory.into();
        }
        resume
    };
    let refused = sandbox.output(&args(&with_memory("16KiB")));
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("give --memory 31.7 KiB or more"),
        "{}",
        refused.stderr
    );
    // With half: the parts stay, one in memory at a time.
    let output = sandbox.run(&args(&with_memory("32KiB"))).success().get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains("(one in memory at a time)"), "{stderr}");
    let level = crate::util::resumed_level(&stderr);
    assert!(level >= 3, "{stderr}");
    assert_as_in_memory(&sandbox);
}

#[test]
fn a_run_sending_bits_killed_with_sigkill_resumes_with_the_bits_it_committed() {
    let sandbox = Sandbox::new();
    drop(started_at_until(&sandbox, "400KiB", 5));
    // The level committed holds bins for the parts before those that sent them.
    let bits = committed_bins(&sandbox.path("planes"));
    assert!(
        bits.iter().all(|name| sandbox.path(&format!("planes/{name}")).exists()),
        "{bits:?}"
    );
    let output = sandbox
        .run(&args(&pancakes_at("out", "400KiB")))
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(crate::util::resumed_level(&stderr) >= 4, "{stderr}");
    assert_as_in_memory(&sandbox);
}

#[test]
fn a_damaged_bin_file_is_named_and_refused() {
    let sandbox = Sandbox::new();
    drop(started_at_until(&sandbox, "400KiB", 5));
    let name = committed_bins(&sandbox.path("planes")).remove(0);
    let path = sandbox.path(&format!("planes/{name}"));
    let mut bytes = std::fs::read(&path).expect("the bins");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&path, bytes).expect("written back");
    let output = sandbox
        .run(&args(&pancakes_at("out", "400KiB")))
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains(&name) && stderr.contains("damaged"), "{stderr}");
    assert!(!sandbox.path("out/pancakes-10").exists());
}

#[test]
fn ctrl_c_stops_a_run_on_disk_at_once_and_the_same_command_resumes_it() {
    let sandbox = Sandbox::new();
    let mut run = started_until(&sandbox, 3);
    signal(run.child(), "-INT");
    let ended = wait(run.take(), Duration::from_secs(10));
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert!(ended.stderr.contains(RESUMES), "{}", ended.stderr);
    assert!(!sandbox.path("out/pancakes-10").exists());
    let output = sandbox.run(&args(&pancakes("out"))).success().get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(crate::util::resumed_level(&stderr) >= 2, "{stderr}");
    assert_same(
        &report(&sandbox, "out", "pancakes-10"),
        &reference(&sandbox),
        "pancakes-10",
    );
}

/// Bytes of a block of a part file (both planes, interleaved).
const PART_BLOCK: usize = 2 << 20;

/// The part file holding the first block the manifest in `dir` lists, and the block.
fn first_written_block(dir: &Path) -> (String, usize) {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("manifest")).expect("JSON");
    // The first block written: its part and slot, and where it lies in its file.
    let (part, block, slot) = manifest["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .enumerate()
        .find_map(|(p, blocks)| {
            blocks
                .as_array()
                .expect("a part's blocks")
                .iter()
                .enumerate()
                .find_map(|(b, entry)| entry.as_array().map(|e| (p, b, e[0].as_u64().expect("slot"))))
        })
        .expect("a written block");
    (format!("part-{part}.{}", ["a", "b"][slot as usize]), block)
}

#[test]
fn a_damaged_part_is_named_and_refused() {
    let sandbox = Sandbox::new();
    drop(started_until(&sandbox, 3));
    let (name, block) = first_written_block(&sandbox.path("planes"));
    let path = sandbox.path(&format!("planes/{name}"));
    let mut bytes = std::fs::read(&path).expect("the part");
    bytes[block * PART_BLOCK] ^= 0x10;
    std::fs::write(&path, bytes).expect("written back");
    let output = sandbox.run(&args(&pancakes("out"))).code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains(&name) && stderr.contains("damaged"), "{stderr}");
    assert!(!sandbox.path("out/pancakes-10").exists());
}

#[test]
fn a_full_disk_is_an_error_naming_the_file_and_the_run_resumes_once_there_is_room() {
    let sandbox = Sandbox::new();
    // Files of at most 4 KiB (8 where `ulimit` counts KiB): a part's plane (16 KiB) does not
    // fit. The signal a process gets for a file past the limit is ignored, so its write fails
    // as on a full disk.
    let command = format!("trap '' XFSZ; ulimit -f 8; exec \"$0\" {}", pancakes("out").join(" "));
    let output = std::process::Command::new("sh")
        .args(["-c", &command, env!("CARGO_BIN_EXE_analyze")])
        .current_dir(sandbox.path("."))
        .env("ANALYZE_CACHE_DIR", sandbox.cache())
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("planes/part-") && errors[0].contains("too large"),
        "{stderr}"
    );
    assert!(stderr.contains(RESUMES), "{stderr}");
    assert!(!sandbox.path("out/pancakes-10").exists());
    sandbox.run(&args(&pancakes("out"))).success();
    assert_same(
        &report(&sandbox, "out", "pancakes-10"),
        &reference(&sandbox),
        "pancakes-10",
    );
}

#[test]
fn what_a_search_on_disk_cannot_do_is_refused_in_one_line() {
    let sandbox = Sandbox::new();
    let refused = |args: &[&str], expected: &str| {
        let output = sandbox.run(args).code(2).get_output().clone();
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    };
    // The atlas reads whole levels.
    refused(&["--puzzle", "eight", "--disk", "d"], "heuristic atlas");
    refused(&["--puzzle", "lights-out", "--memory", "1MiB"], "--disk");
    refused(
        &["--puzzle", "lights-out", "--disk", "d", "--checkpoint", "c"],
        "--checkpoint",
    );
    refused(&["--puzzle", "lights-out", "--disk", "d", "--memory", "lots"], "6GiB");
    let pocket_cube = example("pocket-cube.tws");
    refused(
        &[
            "--rules",
            &pocket_cube,
            "--symmetry",
            "none",
            "--disk",
            "d",
            "--memory",
            "8KiB",
        ],
        "21.0 MiB of planes into more than 1024 parts: give --memory 85.0 KiB or more",
    );
    // Searched one rank per class, its planes are the classes' (96 symmetries).
    refused(
        &["--rules", &pocket_cube, "--disk", "d", "--memory", "2KiB"],
        "525.4 KiB of planes into more than 1024 parts: give --memory 3.0 KiB or more",
    );
    std::fs::create_dir(sandbox.path("mine")).expect("a folder");
    std::fs::write(sandbox.path("mine/notes.txt"), "mine").expect("a file");
    refused(&["--puzzle", "lights-out", "--disk", "mine"], "notes.txt");
    assert_eq!(sandbox.read("mine/notes.txt"), "mine");
    // Another search's folder.
    sandbox
        .run(&["--puzzle", "lights-out", "--disk", "kept", "--keep-disk", "--quiet"])
        .success();
    refused(
        &["--puzzle", "nine-tails", "--disk", "kept"],
        "it holds the search of lights-out-4x3, not of nine-tails-3x3; use another folder",
    );
    // A folder of another version's format, in one line that neither resumes it nor
    // deletes it.
    std::fs::create_dir(sandbox.path("old")).expect("a folder");
    std::fs::write(
        sandbox.path("old/manifest.json"),
        r#"{"format":1,"id":"lights-out-4x3"}"#,
    )
    .expect("written");
    refused(
        &["--puzzle", "lights-out", "--disk", "old"],
        "old/manifest.json is of format 1, not the format 4",
    );
    assert!(sandbox.path("old/manifest.json").exists());
}

/// A folder as the format before this one wrote it: each plane of a part its own file
/// (`part-P-K.a`), the manifest listing each plane's blocks, sealed.
fn as_format_3(dir: &Path) {
    let path = dir.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("manifest")).expect("JSON");
    m["format"] = 3.into();
    for blocks in m["blocks"].as_array_mut().expect("blocks") {
        *blocks = serde_json::json!([blocks.clone(), blocks.clone()]);
    }
    std::fs::write(&path, sealed(&m)).expect("written");
    for entry in std::fs::read_dir(dir).expect("the folder") {
        let name = entry.expect("an entry").file_name().to_string_lossy().into_owned();
        if let Some((part, slot)) = name.strip_prefix("part-").and_then(|rest| rest.split_once('.')) {
            let from = dir.join(&name);
            std::fs::copy(&from, dir.join(format!("part-{part}-1.{slot}"))).expect("copied");
            std::fs::rename(&from, dir.join(format!("part-{part}-0.{slot}"))).expect("renamed");
        }
    }
}

/// Lights out 4x3 on disk in `planes`, in parts of 256 bytes (a manifest of several parts).
const LIGHTS_OUT_ON_DISK: [&str; 7] = [
    "--puzzle",
    "lights-out",
    "--disk",
    "planes",
    "--memory",
    "256",
    "--quiet",
];

#[test]
fn a_folder_of_the_format_before_is_refused_in_one_line_and_left_as_it_was() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&[&LIGHTS_OUT_ON_DISK[..], &["--keep-disk", "--out", "kept"]].concat())
        .success();
    let dir = sandbox.path("planes");
    as_format_3(&dir);
    let listing = || {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .expect("the folder")
            .map(|e| e.expect("an entry").path())
            .map(|path| (path.display().to_string(), std::fs::read(&path).expect("a file")))
            .collect();
        files.sort();
        files
    };
    let before = listing();
    assert!(
        before.iter().any(|(name, _)| name.ends_with("part-0-1.a")),
        "{before:?}"
    );
    let output = sandbox
        .run(&[&LIGHTS_OUT_ON_DISK[..], &["--out", "out"]].concat())
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("planes/manifest.json is of format 3, not the format 4 this analyze reads")
            && stderr.contains("resume with the version that began the search, or choose another --disk folder"),
        "{stderr}"
    );
    assert_eq!(listing(), before);
    assert!(!sandbox.path("out/lights-out-4x3").exists());
}

/// What a run on disk stopped by a signal or a failed write says on how to go on.
const RESUMES: &str = "running the same command again resumes the search from the last level committed in planes";

/// Runs the pancakes on a folder whose file `name` was changed or removed, and checks it is
/// refused as damaged in one line naming that file, and writes no report.
fn refused_as_damaged(sandbox: &Sandbox, memory: &str, name: &str, what: &str) -> String {
    let output = sandbox.run(&args(&pancakes_at("out", memory))).get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{what}: {stderr}");
    assert!(
        errors[0].contains(&format!("planes/{name} is damaged")) && !errors[0].contains("delete"),
        "{what}: {stderr}"
    );
    assert!(!sandbox.path("out/pancakes-10").exists(), "{what}");
    stderr
}

#[test]
fn a_changed_manifest_is_refused_as_damaged_and_never_resumed() {
    let sandbox = Sandbox::new();
    drop(started_until(&sandbox, 3));
    let path = sandbox.path("planes/manifest.json");
    let original = std::fs::read(&path).expect("the manifest");
    let mut changes: Vec<(String, Vec<u8>)> = (0..original.len())
        .step_by(37)
        .map(|i| {
            let mut bytes = original.clone();
            bytes[i] ^= 0x01;
            (format!("byte {i} flipped"), bytes)
        })
        .collect();
    let json: serde_json::Value = serde_json::from_slice(&original).expect("JSON");
    let changed = |what: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut json = json.clone();
        change(&mut json);
        (what.to_string(), serde_json::to_vec(&json).expect("JSON"))
    };
    changes.push(changed("5 states moved between levels", &|m| {
        let levels = m["levels"].as_array_mut().expect("levels");
        let from = levels[1].as_u64().expect("a count");
        let moved = from.min(6) - 1;
        levels[1] = (from - moved).into();
        levels[2] = (levels[2].as_u64().expect("a count") + moved).into();
    }));
    changes.push(changed("a late entry dropped or added", &|m| {
        let late = m["late"].as_array_mut().expect("late");
        match late.iter_mut().find(|entry| !entry.is_null()) {
            Some(entry) => *entry = serde_json::Value::Null,
            None => late[0] = serde_json::json!([0, 8]),
        }
    }));
    changes.push(changed("a part's blocks dropped", &|m| {
        m["blocks"].as_array_mut().expect("blocks").pop();
    }));
    changes.push(changed("the parts multiplied", &|m| m["parts"] = (1u64 << 40).into()));
    let text = String::from_utf8(original.clone()).expect("UTF-8");
    let levels = text.find("\"levels\"").expect("levels");
    let digit = levels
        + text[levels..]
            .find(|c: char| c.is_ascii_digit() && c != '9')
            .expect("a digit");
    let mut bytes = original.clone();
    bytes[digit] += 1;
    changes.push(("one digit changed".into(), bytes));
    for (what, bytes) in changes {
        std::fs::write(&path, &bytes).expect("written");
        let stderr = refused_as_damaged(&sandbox, "64KiB", "manifest.json", &what);
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    }
    // The manifest as it was resumes, to the report in memory.
    std::fs::write(&path, &original).expect("written back");
    sandbox.run(&args(&pancakes("out"))).success();
    assert_as_in_memory(&sandbox);
}

#[test]
fn a_missing_file_the_manifest_lists_is_named_as_damaged() {
    let sandbox = Sandbox::new();
    drop(started_at_until(&sandbox, "400KiB", 5));
    let dir = sandbox.path("planes");
    let bins = committed_bins(&dir).remove(0);
    let (part, _) = first_written_block(&dir);
    for name in [bins, part] {
        let path = dir.join(&name);
        let bytes = std::fs::read(&path).expect("the file");
        std::fs::remove_file(&path).expect("removed");
        let stderr = refused_as_damaged(&sandbox, "400KiB", &name, "a file removed");
        assert!(stderr.contains("it is missing"), "{stderr}");
        std::fs::write(&path, bytes).expect("put back");
    }
}

/// `manifest` as the search writes it: its CRC-32 that of its JSON with 0 in its place.
fn sealed(manifest: &serde_json::Value) -> Vec<u8> {
    let mut manifest = manifest.clone();
    manifest["crc32"] = 0.into();
    manifest["crc32"] = crc32fast::hash(&serde_json::to_vec(&manifest).expect("JSON")).into();
    serde_json::to_vec(&manifest).expect("JSON")
}

#[test]
fn a_manifest_sealed_anew_with_contradictions_is_refused_as_damaged() {
    let sandbox = Sandbox::new();
    let kept = [&LIGHTS_OUT_ON_DISK[..], &["--keep-disk", "--out", "memory"]].concat();
    sandbox.run(&kept).success();
    let path = sandbox.path("planes/manifest.json");
    let original = std::fs::read(&path).expect("the manifest");
    let json: serde_json::Value = serde_json::from_slice(&original).expect("JSON");
    // Sealed as the search seals it: what follows is refused for what it says, not its CRC.
    assert_eq!(sealed(&json), original);
    let late = json["late"].as_array().expect("late").iter().position(|l| !l.is_null());
    let late = late.expect("a late file at the last level");
    let depth = json["levels"].as_array().expect("levels").len() - 1;
    type Change = fn(&mut serde_json::Value);
    let cases: [(&str, Change); 7] = [
        ("into 1099511627776 parts", |m| m["parts"] = (1u64 << 40).into()),
        ("part 3 has 0 blocks, not 1", |m| m["blocks"][3] = serde_json::json!([])),
        ("levels add up to more than 2^64", |m| m["levels"][0] = u64::MAX.into()),
        ("classes do not add up", |m| m["reached_by_class"][0] = 4095.into()),
        ("examples are not ranks", |m| m["antipodes"][0] = 4096.into()),
        ("an empty level", |m| {
            m["levels"].as_array_mut().expect("levels").push(0.into())
        }),
        ("late bins name parts", |m| {
            m["late_bins"][1] = serde_json::json!([[0, 1, 8]])
        }),
    ];
    let mut changes: Vec<(String, serde_json::Value)> = cases
        .into_iter()
        .map(|(reason, change)| {
            let mut m = json.clone();
            change(&mut m);
            (reason.to_string(), m)
        })
        .collect();
    let mut dropped = json.clone();
    dropped["late"][late] = serde_json::Value::Null;
    changes.push((format!("it does not list late-{depth}-{late}.updates"), dropped));
    for (reason, manifest) in changes {
        std::fs::write(&path, sealed(&manifest)).expect("written");
        let output = sandbox
            .run(&[&LIGHTS_OUT_ON_DISK[..], &["--out", "out"]].concat())
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(output.status.code(), Some(2), "{reason}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{reason}: {stderr}");
        assert!(
            stderr.contains("planes/manifest.json is damaged") && stderr.contains(&reason),
            "{reason}: {stderr}"
        );
        assert!(!sandbox.path("out/lights-out-4x3").exists(), "{reason}");
    }
    // As it was, it resumes to the report in memory.
    std::fs::write(&path, &original).expect("written back");
    sandbox
        .run(&[&LIGHTS_OUT_ON_DISK[..], &["--out", "out"]].concat())
        .success();
    assert_same(
        &report(&sandbox, "out", "lights-out-4x3"),
        &report(&sandbox, "memory", "lights-out-4x3"),
        "lights-out-4x3",
    );
}

// The folder is a database: nothing unchecked is trusted, nothing not ours is touched ----

/// Lights out 4x3 in 4 parts, kept on disk in `planes` once finished.
const KEPT: [&str; 10] = [
    "--puzzle",
    "lights-out",
    "--disk",
    "planes",
    "--memory",
    "1KiB",
    "--keep-disk",
    "--out",
    "out",
    "--quiet",
];

#[test]
fn a_folder_holding_links_or_files_not_of_a_search_is_refused_and_left_alone() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("thesis.pdf"), "my thesis").expect("a file");
    type Plant<'a> = &'a dyn Fn(&Path);
    let planted: [(&str, Plant); 4] = [
        ("part-0-0.a", &|at| {
            std::os::unix::fs::symlink(sandbox.path("thesis.pdf"), at).expect("a link")
        }),
        ("part-1-of-my-thesis.pdf", &|at| {
            std::fs::write(at, "mine").expect("a file")
        }),
        ("part-photos", &|at| std::fs::create_dir(at).expect("a folder")),
        ("late-1-2.updates.bak", &|at| {
            std::fs::write(at, "mine").expect("a file")
        }),
    ];
    for (name, plant) in planted {
        for finished in [false, true] {
            let _ = std::fs::remove_dir_all(sandbox.path("planes"));
            if finished {
                // A search's own folder, with the stranger added after it.
                sandbox.run(&KEPT).success();
            } else {
                std::fs::create_dir(sandbox.path("planes")).expect("a folder");
            }
            // In a search's folder the link replaces its own part file.
            let _ = std::fs::remove_file(sandbox.path(&format!("planes/{name}")));
            plant(&sandbox.path(&format!("planes/{name}")));
            let ended = sandbox.output(&KEPT[..KEPT.len() - 1]);
            assert_eq!(ended.code, Some(2), "{name}: {}", ended.stderr);
            assert!(ended.stderr.contains(name), "{name}: {}", ended.stderr);
            assert!(sandbox.path(&format!("planes/{name}")).exists(), "{name}");
            assert_eq!(sandbox.read("thesis.pdf"), "my thesis");
        }
    }
}

#[test]
fn the_planes_are_removed_only_once_the_report_is_written() {
    let sandbox = Sandbox::new();
    // Files of at most 16 KiB: the planes fit, the report's charts do not.
    let run: Vec<&str> = KEPT
        .iter()
        .copied()
        .filter(|a| !["--keep-disk", "--quiet"].contains(a))
        .collect();
    let command = format!("trap '' XFSZ; ulimit -f 16; exec \"$0\" {}", run.join(" "));
    let output = std::process::Command::new("sh")
        .args(["-c", &command, env!("CARGO_BIN_EXE_analyze")])
        .current_dir(sandbox.path("."))
        .env("ANALYZE_CACHE_DIR", sandbox.cache())
        .output()
        .expect("sh runs");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(committed(&sandbox.path("planes")) > 10, "the finished search is kept");
    // The same command writes the report from the finished search, then empties the folder.
    let ended = sandbox.output(&run);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(sandbox.list("planes").is_empty(), "{:?}", sandbox.list("planes"));
    sandbox
        .run(&["--puzzle", "lights-out", "--out", "memory", "--quiet"])
        .success();
    assert_same(
        &report(&sandbox, "out", "lights-out-4x3"),
        &report(&sandbox, "memory", "lights-out-4x3"),
        "lights-out-4x3",
    );
}

#[test]
fn planes_kept_among_the_reports_are_refused() {
    let sandbox = Sandbox::new();
    for (args, says) in [
        (
            &[
                "--puzzle",
                "lights-out",
                "--disk",
                "out/planes",
                "--keep-disk",
                "--out",
                "out",
            ][..],
            "--keep-disk",
        ),
        (
            &["--puzzle", "lights-out", "--disk", "reports/lights-out-4x3/planes"][..],
            "inside the report folder",
        ),
    ] {
        let ended = sandbox.output(args);
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert!(ended.stderr.contains(says), "{args:?}: {}", ended.stderr);
    }
    // Beside the reports, or inside --out without --keep-disk, is fine.
    sandbox
        .run(&[
            "--puzzle",
            "lights-out",
            "--disk",
            "out/../planes",
            "--keep-disk",
            "--out",
            "out",
            "--quiet",
        ])
        .success();
    sandbox
        .run(&[
            "--puzzle",
            "nine-tails",
            "--disk",
            "out/planes2",
            "--out",
            "out",
            "--quiet",
        ])
        .success();
}

/// What the observer is told of each level (depth, states, classes, reached) and the
/// result, the earlier runs' times aside, of the search of `puzzle` watching `watch`,
/// in memory or with its planes in `disk`.
fn observed<P: Puzzle>(puzzle: &P, watch: &[u64], disk: Option<DiskConfig>) -> (Vec<[u64; 4]>, Distances) {
    let mut levels = Vec::new();
    let options = Options {
        watch: watch.to_vec(),
        id: "test".into(),
        identity: Some(Identity::new([("puzzle", puzzle.id())])),
        disk,
        ..Options::default()
    };
    let mut distances = analyze::engine::search(puzzle, options, |level| {
        levels.push([level.depth as u64, level.states, level.classes, level.reached]);
        ControlFlow::Continue(())
    })
    .expect("the search succeeds");
    distances.earlier_millis.clear();
    (levels, distances)
}

/// Asserts that the search of `puzzle` with its planes in `dir`, cut into about six parts,
/// tells the observer and returns what the search in memory does, watched ranks across the
/// space included.
fn assert_observed_alike<P: Puzzle>(puzzle: &P, dir: std::path::PathBuf) {
    let states = puzzle.states();
    let watch: Vec<u64> = (0..9).map(|k| k * states / 9).collect();
    let in_memory = observed(puzzle, &watch, None);
    let disk = DiskConfig {
        dir,
        memory: analyze::engine::memory::memory_for_part(states.div_ceil(6)),
        keep: false,
    };
    let on_disk = observed(puzzle, &watch, Some(disk));
    assert!(in_memory.0.len() > 5, "{:?}", in_memory.0);
    assert!(
        in_memory.1.watched.iter().all(Option::is_some),
        "{:?}",
        in_memory.1.watched
    );
    assert_eq!(on_disk, in_memory, "{}", puzzle.id());
}

#[test]
fn the_observer_and_the_result_are_the_same_on_disk_as_in_memory() {
    let sandbox = Sandbox::new();
    assert_observed_alike(&sliding_board(3, 3), sandbox.path("sliding"));
    assert_observed_alike(&nine_tails(3, 3), sandbox.path("coins"));
}
