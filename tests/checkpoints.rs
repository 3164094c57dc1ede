//! Checkpoints: a search stopped after a level resumes from its files and finds exactly
//! what an uninterrupted search finds, in one process and in several; files of another
//! search are refused; a damaged file falls back to the older generation.

use crate::util::bfs;
use crate::util::{
    Running, SLIDING_2X4, SLIDING_2X5, Sandbox, latest_saved_level, resumed_level, search_in_processes, sliding_board,
};
use analyze::engine::checkpoint::{CheckpointError, Config, Note};
use analyze::engine::{Distances, EngineError, Options};
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

/// Notes each process received, shared with the test.
type Notes = Arc<Mutex<Vec<(usize, Note)>>>;

/// Options saving every level of the puzzle `id` in `dir`, the notes of process `i` kept
/// in `notes`.
fn saving(dir: &Path, notes: &Notes, i: usize, id: String) -> Options<'static> {
    let notes = Arc::clone(notes);
    Options {
        identity: Some(analyze::identity::Identity::new([("id", id.as_str())])),
        id,
        checkpoint: Some(Config {
            dir: dir.to_path_buf(),
            every: None,
        }),
        notify: Some(Box::new(move |note: &Note| {
            notes.lock().expect("the notes lock").push((i, note.clone()));
        })),
        ..Options::default()
    }
}

/// Each process's result, the first level each observed, and the notes.
type Outcome = (Vec<Result<Distances, EngineError>>, Vec<usize>, Vec<(usize, Note)>);

/// Runs `puzzle` in `processes` thread-processes saving in `dir`, stopping after level
/// `stop` if given; returns each process's result, the first level each observed, and
/// the notes.
fn run(puzzle: &Sliding, processes: usize, dir: &Path, stop: Option<usize>) -> Outcome {
    let notes: Notes = Arc::default();
    let first: Vec<Mutex<Option<usize>>> = (0..processes).map(|_| Mutex::new(None)).collect();
    let results = search_in_processes(
        puzzle,
        processes,
        |i| saving(dir, &notes, i, puzzle.id()),
        |i, level| {
            first[i].lock().expect("lock").get_or_insert(level.depth);
            if Some(level.depth) == stop {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    let first = first
        .into_iter()
        .map(|m| m.into_inner().expect("lock").unwrap_or(usize::MAX))
        .collect();
    let notes = notes.lock().expect("lock").clone();
    // The result, less the times of earlier runs (which only a resumed search has).
    let result = |r: Result<Distances, EngineError>| {
        r.map(|mut d| {
            d.earlier_millis.clear();
            d
        })
    };
    (results.into_iter().map(|(r, _)| result(r)).collect(), first, notes)
}

fn resumed_levels(notes: &[(usize, Note)]) -> Vec<(usize, usize)> {
    notes
        .iter()
        .filter_map(|(i, n)| match n {
            Note::Resumed { level, .. } => Some((*i, *level)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_stopped_search_resumes_after_its_last_level_with_the_same_result() {
    let puzzle = sliding_board(2, 5);
    let reference = bfs(&puzzle, |_| ControlFlow::Continue(())).expect("the search succeeds");
    for processes in [1, 2, 3] {
        let sandbox = Sandbox::new();
        let dir = sandbox.path("checkpoint");
        let (stopped, _, notes) = run(&puzzle, processes, &dir, Some(20));
        assert!(stopped.iter().all(|r| *r == Err(EngineError::Interrupted)));
        assert!(
            resumed_levels(&notes).is_empty(),
            "a fresh folder has nothing to resume"
        );
        let (results, first, notes) = run(&puzzle, processes, &dir, None);
        for result in results {
            assert_eq!(
                result.expect("the resumed search succeeds"),
                reference,
                "{processes} processes"
            );
        }
        let expected: Vec<(usize, usize)> = (0..processes).map(|i| (i, 20)).collect();
        let mut resumed = resumed_levels(&notes);
        resumed.sort_unstable();
        assert_eq!(resumed, expected, "{processes} processes");
        assert!(first.iter().all(|&d| d == 21), "levels observed again: {first:?}");
    }
}

#[test]
fn checkpoints_of_another_puzzle_or_process_layout_are_refused() {
    let sandbox = Sandbox::new();
    let dir = sandbox.path("checkpoint");
    let (stopped, _, _) = run(&sliding_board(2, 5), 3, &dir, Some(4));
    assert!(stopped.iter().all(|r| *r == Err(EngineError::Interrupted)));
    let refusal = |results: Vec<Result<Distances, EngineError>>| -> Vec<String> {
        results
            .into_iter()
            .map(|r| match r {
                Err(EngineError::Checkpoint(e @ CheckpointError::Mismatch { .. })) => {
                    assert!(e.is_refusal());
                    e.to_string()
                }
                other => panic!("expected a refusal, got {other:?}"),
            })
            .collect()
    };
    let (other_puzzle, _, _) = run(&sliding_board(5, 2), 3, &dir, None);
    for message in refusal(other_puzzle) {
        assert!(message.contains("sliding-2x5, not sliding-5x2"), "{message}");
    }
    for processes in [1, 2] {
        let (other_layout, _, _) = run(&sliding_board(2, 5), processes, &dir, None);
        for message in refusal(other_layout) {
            assert!(
                message.contains(&format!("written by 3 processes, this search runs {processes}")),
                "{message}"
            );
        }
    }
    // A file that is not a checkpoint at all.
    let sandbox = Sandbox::new();
    let dir = sandbox.path("checkpoint");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("slice-0.a.ckpt"), "hello").expect("write");
    let (results, _, _) = run(&sliding_board(2, 4), 1, &dir, None);
    assert!(refusal(results)[0].contains("not a checkpoint file"));
}

/// The file of generation `generation` (`a` or `b`) of process 0.
fn file(dir: &Path, generation: &str) -> PathBuf {
    dir.join(format!("slice-0.{generation}.ckpt"))
}

#[test]
fn a_damaged_file_falls_back_to_the_older_generation_and_two_are_refused() {
    let puzzle = sliding_board(2, 5);
    let reference = bfs(&puzzle, |_| ControlFlow::Continue(())).expect("the search succeeds");
    type Damage = fn(&Path);
    let damages: [(&str, Damage); 2] = [
        ("checksum", |path| {
            let mut bytes = std::fs::read(path).expect("read");
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x10;
            std::fs::write(path, bytes).expect("write");
        }),
        ("truncated", |path| {
            let bytes = std::fs::read(path).expect("read");
            std::fs::write(path, &bytes[..bytes.len() - 100]).expect("write");
        }),
    ];
    for (what, damage) in damages {
        let sandbox = Sandbox::new();
        let dir = sandbox.path("checkpoint");
        // Level 12 is saved as generation `a`, level 11 as `b`.
        let (stopped, _, _) = run(&puzzle, 1, &dir, Some(12));
        assert_eq!(stopped[0], Err(EngineError::Interrupted));
        damage(&file(&dir, "a"));
        let (results, first, notes) = run(&puzzle, 1, &dir, None);
        assert_eq!(results[0].as_ref().expect("resumes from the older file"), &reference);
        assert_eq!(resumed_levels(&notes), vec![(0, 11)], "{what}");
        assert_eq!(first, vec![12]);
        let skipped = notes.iter().any(
            |(_, n)| matches!(n, Note::Skipped { path, reason } if *path == file(&dir, "a") && reason.contains(what)),
        );
        assert!(skipped, "{what}: {notes:?}");

        // Both generations damaged: refused, nothing silently restarted.
        let sandbox = Sandbox::new();
        let dir = sandbox.path("checkpoint");
        let (stopped, _, _) = run(&puzzle, 1, &dir, Some(14));
        assert_eq!(stopped[0], Err(EngineError::Interrupted));
        damage(&file(&dir, "a"));
        damage(&file(&dir, "b"));
        let (results, _, _) = run(&puzzle, 1, &dir, None);
        match &results[0] {
            Err(EngineError::Checkpoint(e @ CheckpointError::Damaged { .. })) => assert!(e.is_refusal()),
            other => panic!("{what}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn the_checkpoint_of_a_finished_search_gives_its_result_again() {
    let puzzle = sliding_board(2, 4);
    let sandbox = Sandbox::new();
    let dir = sandbox.path("checkpoint");
    let (first_run, _, _) = run(&puzzle, 2, &dir, None);
    let (second_run, _, notes) = run(&puzzle, 2, &dir, None);
    assert_eq!(first_run, second_run);
    let last = first_run[0].as_ref().expect("the search succeeds").levels.len() - 1;
    assert!(resumed_levels(&notes).iter().all(|&(_, level)| level == last));
    assert_eq!(puzzle.states(), 20_160);
}

// ---------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------

/// `analyze` on the 2x5 board, one thread, saving every level in `ck`; then `more`.
fn run_2x5(more: &[&'static str]) -> Vec<&'static str> {
    [&SLIDING_2X5[..], &["--threads", "1", "--checkpoint", "ck"], more].concat()
}

/// The report files a resumed run must reproduce, `summary.json` without its timing.
fn report(sandbox: &Sandbox, out: &str) -> Vec<String> {
    ["distances.csv", "classes.csv", "summary.json"]
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(sandbox.path(&format!("{out}/sliding-2x5/{f}"))).expect("report file");
            text.lines()
                .filter(|l| !l.trim_start().starts_with("\"seconds\""))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

#[test]
fn a_run_killed_with_sigkill_resumes_from_a_later_level_and_writes_the_same_report() {
    // Killed once level 3 of 56 is saved: mid-search, however slow the machine.
    const SAVED: u64 = 3;
    let sandbox = Sandbox::new();
    let mut run = Running(Some(
        sandbox
            .command(&run_2x5(&["--out", "out", "--quiet"]))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts"),
    ));
    let start = std::time::Instant::now();
    while latest_saved_level(&sandbox.path("ck"), 0).is_none_or(|l| l < SAVED) {
        assert!(
            run.child().try_wait().expect("wait").is_none(),
            "the run ended before it could be killed"
        );
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "level {SAVED} not saved within a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    drop(run); // SIGKILL
    assert!(!sandbox.path("out/sliding-2x5").exists(), "a killed run wrote a report");

    let output = sandbox.run(&run_2x5(&["--out", "out"])).success().get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let level = resumed_level(&stderr);
    assert!(level >= SAVED as usize, "{stderr}");

    sandbox
        .run(&[&SLIDING_2X5[..], &["--threads", "1", "--out", "reference", "--quiet"]].concat())
        .success();
    assert_eq!(report(&sandbox, "out"), report(&sandbox, "reference"));
    // The killed run's hidden staging folder was removed by the rerun.
    assert_eq!(sandbox.list("out"), ["sliding-2x5"]);
}

/// Runs `args` expecting exit 2 with one `error:` line and no report; returns the line.
fn refused(sandbox: &Sandbox, args: &[&str]) -> String {
    let output = sandbox.run(args).code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(output.stdout.is_empty());
    lines[0].to_string()
}

#[test]
fn a_checkpoint_of_another_puzzle_is_refused_by_the_command_line() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&[&SLIDING_2X4[..], &["--checkpoint", "ck", "--out", "a", "--quiet"]].concat())
        .success();
    let message = refused(&sandbox, &run_2x5(&["--out", "b", "--quiet"]));
    assert!(
        message.contains("it is a search of sliding-2x4, not sliding-2x5"),
        "{message}"
    );
    assert!(!sandbox.path("b/sliding-2x5").exists());
}

#[test]
fn checkpoint_options_are_checked() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("file"), "x").expect("write");
    let cases: [(&[&str], &str); 5] = [
        (&["--puzzle", "eight", "--checkpoint-minutes", "5"], "--checkpoint"),
        (
            &["--puzzle", "eight", "--checkpoint", "ck", "--checkpoint-minutes", "0"],
            "1 to 10080",
        ),
        (&["--all", "--checkpoint", "ck"], "one --puzzle"),
        (&["--puzzle", "eight", "--checkpoint", "file"], "not a folder"),
        (
            &[
                "--puzzle",
                "eight",
                "--checkpoint",
                "ck",
                "--solve",
                "1 2 3 4 5 6 7 0 8",
            ],
            "--solve",
        ),
    ];
    for (args, mention) in cases {
        let message = refused(&sandbox, &[args, &["--out", "out"]].concat());
        assert!(message.contains(mention), "{args:?}: {message}");
    }
    assert!(!sandbox.path("out").exists());
    assert!(!sandbox.path("ck").exists());
}

#[test]
fn processes_resume_from_the_latest_level_all_of_them_saved() {
    // Process 1 died before saving level 10: both resume after level 9, and process 0
    // names the newer file it does not use.
    let puzzle = sliding_board(2, 5);
    let reference = bfs(&puzzle, |_| ControlFlow::Continue(())).expect("the search succeeds");
    let sandbox = Sandbox::new();
    let dir = sandbox.path("checkpoint");
    let (stopped, _, _) = run(&puzzle, 2, &dir, Some(10));
    assert!(stopped.iter().all(|r| *r == Err(EngineError::Interrupted)));
    std::fs::remove_file(dir.join("slice-1.a.ckpt")).expect("remove");
    let (results, first, notes) = run(&puzzle, 2, &dir, None);
    for result in results {
        assert_eq!(result.expect("the resumed search succeeds"), reference);
    }
    let mut resumed = resumed_levels(&notes);
    resumed.sort_unstable();
    assert_eq!(resumed, vec![(0, 9), (1, 9)]);
    assert_eq!(first, vec![10, 10]);
    assert!(notes.iter().any(|(i, n)| *i == 0
        && matches!(n, Note::Skipped { path, reason } if *path == file(&dir, "a") && reason.contains("level 10"))));
}

#[test]
fn a_search_resumed_after_its_last_level_writes_the_whole_report_again() {
    // The second run resumes after the last level and observes none: the heuristic
    // atlas is then measured in a search of its own, not left empty.
    let sandbox = Sandbox::new();
    let args = |out| [&SLIDING_2X4[..], &["--checkpoint", "ck", "--quiet", "--out", out]].concat();
    sandbox.run(&args("first")).success();
    sandbox.run(&args("again")).success();
    let files = sandbox.list("first/sliding-2x4");
    assert!(files.iter().any(|f| f == "astar.csv"), "{files:?}");
    assert_eq!(sandbox.list("again/sliding-2x4"), files);
    for file in files.iter().filter(|f| *f != "run.json") {
        let read = |out| std::fs::read(sandbox.path(&format!("{out}/sliding-2x4/{file}"))).expect("report file");
        assert!(read("first") == read("again"), "{file} differs");
    }
}

#[test]
fn a_saved_search_without_a_puzzle_id_is_refused_before_it_starts() {
    let sandbox = Sandbox::new();
    let notes: Notes = Arc::default();
    let puzzle = sliding_board(2, 3);
    let result = analyze::engine::search(&puzzle, saving(&sandbox.path("cp"), &notes, 0, String::new()), |_| {
        ControlFlow::Continue(())
    });
    assert!(matches!(result, Err(EngineError::Unnamed)), "{result:?}");
    assert!(!sandbox.path("cp").exists(), "nothing written");
}
