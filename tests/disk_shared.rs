//! Several processes sharing one search, each with its planes on disk (`--hosts` with
//! `--disk`): the report equals a single process's in memory, and a process killed at any
//! phase of a level (expanding, after its own commit, while another commits) is resumed by
//! running the same commands again, every process from the same level. Processes talk over
//! loopback only, and every one is waited for with a time limit.

use crate::cluster::hostfile;
use crate::util::{Ended, Running, Sandbox, committed, example, resumed_level, summary, wait};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long any process of these tests may take.
const LIMIT: Duration = Duration::from_secs(60);

/// The command of process `i` of `n` with the planes of `args` on disk with `memory`, each
/// process in its own folder `planes-I`.
fn on_disk(args: &[&str], memory: &str, i: usize) -> Vec<String> {
    let own = [
        "--out",
        "out",
        "--threads",
        "1",
        "--disk",
        &format!("planes-{i}"),
        "--memory",
        memory,
        "--hosts",
        "hosts",
        "--process",
        &i.to_string(),
    ];
    args.iter().chain(&own).map(|s| s.to_string()).collect()
}

/// Starts the `n` processes of `args` on disk.
fn start(sandbox: &Sandbox, args: &[&str], memory: &str, n: usize) -> Vec<Running> {
    (0..n)
        .map(|i| {
            let command = on_disk(args, memory, i);
            let command: Vec<&str> = command.iter().map(String::as_str).collect();
            Running(Some(sandbox.spawn(&command)))
        })
        .collect()
}

/// Waits for every process of `runs`.
fn wait_all(runs: Vec<Running>) -> Vec<Ended> {
    runs.into_iter().map(|mut r| wait(r.take(), LIMIT)).collect()
}

/// The report of `id` in `out` is the one in memory, `reference`, and every process's
/// folder is left empty.
fn assert_as_in_memory(sandbox: &Sandbox, id: &str, reference: &Path, n: usize) {
    let dir = sandbox.path("out").join(id);
    for file in ["distances.csv", "classes.csv"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(file)).expect("written"),
            std::fs::read_to_string(reference.join(file)).expect("written"),
            "{id}: {file}"
        );
    }
    assert_eq!(
        summary(&dir.join("summary.json")),
        summary(&reference.join("summary.json")),
        "{id}"
    );
    for i in 0..n {
        let folder = format!("planes-{i}");
        assert!(
            sandbox.list(&folder).is_empty(),
            "{folder}: {:?}",
            sandbox.list(&folder)
        );
    }
}

/// The single process's report of `args` in memory, in `memory/ID`.
fn reference(sandbox: &Sandbox, args: &[&str], id: &str) -> std::path::PathBuf {
    sandbox.run(&[args, &["--out", "memory", "--quiet"]].concat()).success();
    sandbox.path("memory").join(id)
}

#[test]
fn processes_each_on_disk_write_the_single_process_report() {
    let pancakes = example("pancakes-10.tws");
    // Lights out: most moves leave a part; the pancakes at 64 KiB: 57 parts, 19 a process.
    let cases: [(&str, &[&str], &str, usize); 3] = [
        ("lights-out-4x3", &["--puzzle", "lights-out"], "1KiB", 3),
        ("lights-out-4x3", &["--puzzle", "lights-out"], "1KiB", 2),
        ("pancakes-10", &["--rules", &pancakes], "64KiB", 3),
    ];
    for (id, args, memory, n) in cases {
        let sandbox = Sandbox::new();
        let reference = reference(&sandbox, args, id);
        hostfile(&sandbox, "hosts", n);
        for (i, ended) in wait_all(start(&sandbox, args, memory, n)).into_iter().enumerate() {
            assert_eq!(ended.code, Some(0), "{id}, process {i} of {n}: {}", ended.stderr);
            assert!(
                ended.stderr.contains(&format!("this one, process {i}, keeps parts")),
                "{}",
                ended.stderr
            );
        }
        assert_as_in_memory(&sandbox, id, &reference, n);
    }
}

/// When a process is killed.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Once it has committed the level, before or at the barrier after it.
    OwnCommit,
    /// Once process 0 has committed the level: it may not have committed it yet.
    AnothersCommit,
    /// A little after its commit: expanding the next level.
    Expansion,
}

/// Waits until the folder `dir` has committed `level` levels, while `run` goes on
/// (`what` names the case in a failure).
fn wait_committed(run: &mut Running, dir: &Path, level: usize, what: &str) {
    let begun = Instant::now();
    while committed(dir) < level {
        let ended = run.child().try_wait().expect("wait");
        assert!(ended.is_none(), "{what} {level}: the run ended too soon");
        assert!(begun.elapsed() < LIMIT, "{what}: level {level} not committed in time");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs the pancakes over three processes on disk, kills `victim` with SIGKILL at `phase`
/// of level `level`, checks the others fail, then runs the same commands again and checks
/// every process resumes from the same level and the report is the one in memory.
fn killed_and_resumed(victim: usize, level: usize, phase: Phase) {
    let pancakes = example("pancakes-10.tws");
    let args = ["--rules", pancakes.as_str()];
    let sandbox = Sandbox::new();
    let reference = reference(&sandbox, &args, "pancakes-10");
    hostfile(&sandbox, "hosts", 3);
    let mut runs = start(&sandbox, &args, "64KiB", 3);
    let watched = match phase {
        Phase::AnothersCommit => sandbox.path("planes-0"),
        Phase::OwnCommit | Phase::Expansion => sandbox.path(&format!("planes-{victim}")),
    };
    wait_committed(&mut runs[victim], &watched, level, &format!("{phase:?}"));
    if let Phase::Expansion = phase {
        std::thread::sleep(Duration::from_millis(30));
    }
    runs[victim].child().kill().expect("the process can be killed");
    for (i, ended) in wait_all(runs).into_iter().enumerate() {
        assert_ne!(
            ended.code,
            Some(0),
            "{phase:?} {level}: process {i} finished: {}",
            ended.stderr
        );
    }
    let rerun = wait_all(start(&sandbox, &args, "64KiB", 3));
    for (i, ended) in rerun.iter().enumerate() {
        assert_eq!(ended.code, Some(0), "{phase:?} {level}, process {i}: {}", ended.stderr);
    }
    let levels: Vec<usize> = rerun.iter().map(|e| resumed_level(&e.stderr)).collect();
    assert!(
        levels.iter().all(|&l| l == levels[0]),
        "{phase:?} {level}: resumed at {levels:?}"
    );
    assert!(levels[0] + 2 >= level, "{phase:?} {level}: resumed at {levels:?}");
    assert_as_in_memory(&sandbox, "pancakes-10", &reference, 3);
}

#[test]
fn a_process_on_disk_killed_after_its_commit_is_resumed_by_the_same_commands() {
    killed_and_resumed(1, 3, Phase::OwnCommit);
    killed_and_resumed(0, 7, Phase::OwnCommit);
}

#[test]
fn a_process_on_disk_killed_while_another_commits_is_resumed_by_the_same_commands() {
    killed_and_resumed(2, 4, Phase::AnothersCommit);
    killed_and_resumed(1, 8, Phase::AnothersCommit);
}

#[test]
fn a_process_on_disk_killed_while_expanding_is_resumed_by_the_same_commands() {
    killed_and_resumed(2, 5, Phase::Expansion);
}

/// Process 0 fails to write the report once the search is over everywhere (a file stands
/// where the report's folder goes): the others keep their parts rather than let them go,
/// and the same commands, once the file is gone, resume at the last level and write the
/// report.
#[test]
fn a_report_not_written_keeps_every_process_parts_for_the_same_commands() {
    let pancakes = example("pancakes-10.tws");
    let args = ["--rules", pancakes.as_str()];
    let sandbox = Sandbox::new();
    let reference = reference(&sandbox, &args, "pancakes-10");
    hostfile(&sandbox, "hosts", 3);
    let mut runs = start(&sandbox, &args, "64KiB", 3);
    wait_committed(&mut runs[0], &sandbox.path("planes-0"), 1, "the report");
    let blocker = sandbox.path("out").join("pancakes-10");
    std::fs::write(&blocker, "in the way").expect("a file where the report goes");
    for (i, ended) in wait_all(runs).into_iter().enumerate() {
        assert_ne!(ended.code, Some(0), "process {i} finished: {}", ended.stderr);
    }
    for i in 1..3 {
        assert!(
            committed(&sandbox.path(&format!("planes-{i}"))) > 1,
            "process {i} let its parts go"
        );
    }
    std::fs::remove_file(&blocker).expect("the file removed");
    for (i, ended) in wait_all(start(&sandbox, &args, "64KiB", 3)).into_iter().enumerate() {
        assert_eq!(ended.code, Some(0), "process {i}: {}", ended.stderr);
    }
    assert_as_in_memory(&sandbox, "pancakes-10", &reference, 3);
}
