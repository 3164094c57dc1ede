//! The output and checkpoint folders shared with the user's own files and with other runs:
//! only analyze's own leftovers are tidied, a locked output folder is waited for with a
//! line and Ctrl-C stops the wait, one run at a time uses a checkpoint folder, and folders
//! named by dangling symbolic links are refused before any search.

use crate::util::{
    Running, SLIDING_2X3, SLIDING_2X5, Sandbox, dead_pid, example, latest_saved_level, marked, report_files, signal,
    wait,
};
use analyze::report::{MARKER, REPORT};
use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Writes `file` holding "mine" in the new folder `relative` of the sandbox.
fn user_folder(sandbox: &Sandbox, relative: &str) {
    fs::create_dir(sandbox.path(relative)).expect("mkdir");
    fs::write(sandbox.path(&format!("{relative}/file")), "mine").expect("write");
}

#[test]
fn user_folders_with_look_alike_names_survive_and_marked_leftovers_are_tidied() {
    let sandbox = Sandbox::new();
    sandbox.run(&["--puzzle", "eight", "--out", "out", "--quiet"]).success();
    let before = fs::read(sandbox.path("out/eight/distances.csv")).expect("written");
    // The user's own folders, named as analyze names its leftovers, without its marker
    // (one with a marker file of other text).
    let dead = dead_pid();
    fs::create_dir(sandbox.path("out/notes")).expect("mkdir");
    let mine = [
        ".notes.old-2019".to_string(),
        ".photos.partial-99999-summer".to_string(),
        ".thesis.old-draft".to_string(),
        format!(".eight.partial-{dead}-mine"),
        ".eight.old-fake".to_string(),
    ];
    for name in &mine {
        user_folder(&sandbox, &format!("out/{name}"));
    }
    fs::write(
        sandbox.path(&format!("out/.eight.old-fake/{MARKER}")),
        "not analyze's\npid 1\n",
    )
    .expect("write");
    // analyze's own leftovers of a killed run: the report moved aside, the new one staged.
    let aside = marked(&sandbox, &format!("out/.eight.old-{dead}-abc"), dead);
    fs::rename(sandbox.path("out/eight"), aside.join(REPORT)).expect("rename");
    let staged = marked(&sandbox, &format!("out/.eight.partial-{dead}-def"), dead);
    fs::create_dir(staged.join(REPORT)).expect("mkdir");
    fs::write(staged.join(REPORT).join("distances.csv"), "half").expect("write");
    // A run killed between making its folder and marking it left it empty: removed. An
    // empty folder of the user's, of another shape, stays.
    fs::create_dir(sandbox.path(&format!("out/.eight.partial-{dead}-k3Xz9q"))).expect("mkdir");
    fs::create_dir(sandbox.path("out/.music.partial-2019")).expect("mkdir");

    sandbox
        .run(&[&SLIDING_2X3[..], &["--out", "out", "--quiet"]].concat())
        .success();
    let mut expected: Vec<String> = mine.to_vec();
    expected.extend([".music.partial-2019", "eight", "notes", "sliding-2x3"].map(String::from));
    expected.sort();
    assert_eq!(sandbox.list("out"), expected);
    for name in &mine {
        assert_eq!(sandbox.read(&format!("out/{name}/file")), "mine", "{name}");
    }
    assert_eq!(sandbox.list("out/.thesis.old-draft"), ["file"]);
    // The report put back whole, and neither report holds the marker.
    assert_eq!(
        fs::read(sandbox.path("out/eight/distances.csv")).expect("restored"),
        before
    );
    assert_eq!(sandbox.list("out/eight"), report_files("eight"));
    assert_eq!(sandbox.list("out/sliding-2x3"), report_files("sliding-2x3"));
}

/// Lines of `stderr` as they come, through a channel.
fn lines(stderr: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

#[test]
fn a_locked_output_folder_is_waited_for_with_a_line_and_a_signal_stops_the_wait() {
    for name in ["-TERM", "-INT"] {
        let sandbox = Sandbox::new();
        fs::create_dir(sandbox.path("out")).expect("mkdir");
        // Another run holds the output folder.
        let folder = File::open(sandbox.path("out")).expect("the folder opens");
        folder.lock().expect("the folder can be locked");
        let mut run = Running(Some(
            sandbox
                .command(&["--puzzle", "eight", "--out", "out"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("analyze starts"),
        ));
        let stderr = lines(run.child().stderr.take().expect("piped"));
        let line = stderr
            .recv_timeout(Duration::from_secs(10))
            .expect("a line while waiting");
        assert_eq!(
            line,
            "the output folder out is locked by another analyze run: waiting until it is done (Ctrl-C stops waiting)"
        );
        signal(run.child(), name);
        let start = Instant::now();
        let status = loop {
            if let Some(status) = run.child().try_wait().expect("wait") {
                break status;
            }
            assert!(start.elapsed() < Duration::from_secs(5), "{name}: still waiting");
            std::thread::sleep(Duration::from_millis(10));
        };
        assert_eq!(status.code(), Some(130), "{name}");
        let rest: Vec<String> = stderr.iter().collect();
        assert_eq!(
            rest,
            ["error: interrupted: no report was written (the previous versions, if any, are untouched)"],
            "{name}"
        );
        assert!(sandbox.list("out").is_empty(), "{name}: {:?}", sandbox.list("out"));
        drop(folder);
    }
}

#[test]
fn a_second_run_on_a_checkpoint_folder_in_use_is_refused_at_once_and_the_first_finishes() {
    let sandbox = Sandbox::new();
    let args = |out| {
        [
            &SLIDING_2X5[..],
            &["--threads", "1", "--checkpoint", "ck", "--quiet", "--out", out],
        ]
        .concat()
    };
    let mut first = Running(Some(sandbox.spawn(&args("first"))));
    // Once it saved a level it holds the folder; stopped there, it is surely still running.
    let start = Instant::now();
    while latest_saved_level(&sandbox.path("ck"), 0).is_none() {
        assert!(
            first.child().try_wait().expect("wait").is_none(),
            "the first run ended early"
        );
        assert!(start.elapsed() < Duration::from_secs(30), "no level saved within 30 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal(first.child(), "-STOP");
    let second = sandbox.output(&args("second"));
    signal(first.child(), "-CONT");
    assert_eq!(second.code, Some(2), "{}", second.stderr);
    assert_eq!(
        second.stderr,
        "error: checkpoint folder ck is in use by another analyze run (process 0): wait for it to end or use another --checkpoint folder\n"
    );
    assert!(second.took < Duration::from_secs(5), "{:?}", second.took);
    assert!(!sandbox.path("second/sliding-2x5").exists());
    let ended = wait(first.take(), Duration::from_secs(60));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(sandbox.list("first/sliding-2x5"), report_files("sliding-2x5"));
}

#[test]
fn out_or_checkpoint_on_a_dangling_symbolic_link_is_refused_before_the_search() {
    let sandbox = Sandbox::new();
    std::os::unix::fs::symlink("missing", sandbox.path("gone")).expect("a link can be made");
    let refusal = |flag: &str, under: &str| {
        format!(
            "error: {flag}: gone{under} is a symbolic link to missing, which does not exist: create the folder it points to or give another path\n"
        )
    };
    for (args, expected) in [
        (["--out", "gone"], refusal("--out", "")),
        (["--out", "gone/reports"], refusal("--out", " (in gone/reports)")),
        (["--checkpoint", "gone"], refusal("--checkpoint", "")),
    ] {
        let ended = sandbox.output(&[&SLIDING_2X5[..], &args].concat());
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert_eq!(ended.stderr, expected, "{args:?}");
        assert!(ended.stdout.is_empty(), "{args:?}");
        // Refused before anything was created or searched.
        assert_eq!(sandbox.list("."), ["gone"], "{args:?}");
    }
}

#[test]
fn a_report_of_another_family_under_the_same_id_is_never_replaced_nor_another_search_silently() {
    let sandbox = Sandbox::new();
    // A rules file whose title makes the built-in's id; the built-in's report is first.
    let rules = crate::util::read(std::path::Path::new(&example("nine-tails.toml")));
    std::fs::write(
        sandbox.path("mine.toml"),
        rules.replacen("name = \"Nine tails\"", "name = \"Nine tails 3x3\"", 1),
    )
    .expect("written");
    sandbox
        .run(&["--puzzle", "nine-tails", "--out", "out", "--quiet"])
        .success();
    let before = sandbox.read("out/nine-tails-3x3/summary.json");
    // Two definitions both named `2x2x2`, in two folders, one without the move F.
    let cube = crate::util::read(std::path::Path::new(&example("pocket-cube-held.tws")));
    let without_f = &cube[..cube.find("Move F").expect("a move F")];
    for (dir, text) in [("main", cube.as_str()), ("symm", without_f)] {
        std::fs::create_dir(sandbox.path(dir)).expect("a folder");
        let named = text.replacen("Name PocketCubeHeld", "Name 2x2x2", 1);
        std::fs::write(sandbox.path(&format!("{dir}/2x2x2.tws")), named).expect("written");
    }
    sandbox
        .run(&["--rules", "main/2x2x2.tws", "--out", "out", "--quiet"])
        .success();
    let ended = sandbox.output(&["--rules", "mine.toml", "--out", "out"]);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended.stderr.contains("holds the report of another puzzle"),
        "{}",
        ended.stderr
    );
    // Another file of the same family and name replaces it, saying so.
    let ended = sandbox.output(&["--rules", "symm/2x2x2.tws", "--out", "out"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(
        ended.stderr.contains("warning: ")
            && ended.stderr.contains("replaces it")
            && ended.stderr.contains("made by `")
            && ended.stderr.contains("--rules main/2x2x2.tws --out out --quiet`"),
        "{}",
        ended.stderr
    );
    assert_eq!(sandbox.read("out/nine-tails-3x3/summary.json"), before);
    // The same search again replaces its own report.
    sandbox
        .run(&["--rules", "main/2x2x2.tws", "--out", "out", "--quiet"])
        .success();
}

#[test]
fn moves_that_differ_only_in_case_keep_two_report_folders() {
    let sandbox = Sandbox::new();
    let twins = "Name Twins\nSet A 4 1\nMove R\nA\n2 1 3 4\nEnd\nMove r\nA\n1 3 2 4\nEnd\n";
    std::fs::write(sandbox.path("twins.tws"), twins).expect("written");
    for moves in ["R", "r", "R,r"] {
        sandbox
            .run(&["--rules", "twins.tws", "--moves", moves, "--out", "out", "--quiet"])
            .success();
    }
    assert_eq!(
        sandbox.list("out"),
        ["twins-moves-r", "twins-moves-r-upper", "twins-moves-r-upper-r"]
    );
}
