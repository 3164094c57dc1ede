//! Several processes of the binary sharing one search over loopback TCP (`--hosts`): the
//! report equals a single process's, a killed process fails the others at once with one
//! line, and every bad hostfile or launch is refused with one line. Every process is waited
//! for with a time limit and killed past it, so no test can hang.

use crate::util::{
    EIGHT_AS_PROCESS_0, Ended, Running, SLIDING_2X3, SLIDING_2X5, SLIDING_3X4, Sandbox, example, latest_saved_level,
    resumed_level, signal, summary, wait,
};
use hmac::{Hmac, KeyInit, Mac};
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

/// How long any process of these tests may take.
const LIMIT: Duration = Duration::from_secs(60);

/// `n` free loopback ports as `127.0.0.1:PORT` lines (bound to port 0, then released).
pub(crate) fn hostfile(sandbox: &Sandbox, name: &str, n: usize) -> Vec<String> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let addresses: Vec<String> = listeners
        .iter()
        .map(|l| l.local_addr().expect("an address").to_string())
        .collect();
    std::fs::write(sandbox.path(name), addresses.join("\n") + "\n").expect("the hostfile is written");
    addresses
}

/// Runs the same command as processes `0..n` of `hosts` and waits for all of them.
fn run_all(sandbox: &Sandbox, hosts: &str, n: usize, args: &[&str]) -> Vec<Ended> {
    let children: Vec<Child> = (0..n)
        .map(|i| {
            let index = i.to_string();
            let mut all = args.to_vec();
            all.extend(["--hosts", hosts, "--process", &index, "--quiet"]);
            sandbox.spawn(&all)
        })
        .collect();
    children.into_iter().map(|c| wait(c, LIMIT)).collect()
}

/// The report in `dir` is the single process's in `reference`: the same tables, and the
/// same summary but for the fields that differ between runs.
fn assert_same_report(dir: &Path, reference: &Path, what: &str) {
    for file in ["distances.csv", "classes.csv"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(file)).expect("written"),
            std::fs::read_to_string(reference.join(file)).expect("written"),
            "{file} {what}"
        );
    }
    assert_eq!(
        summary(&dir.join("summary.json")),
        summary(&reference.join("summary.json")),
        "summary {what}"
    );
}

#[test]
fn two_to_four_processes_write_the_single_process_report() {
    // The tiny board leaves some processes no position at all; four processes meet the
    // exchange's odd slices.
    let cases: [(&str, &[&str], &[usize]); 6] = [
        (
            "sliding-2x2",
            &["--puzzle", "sliding", "--rows", "2", "--cols", "2"],
            &[3, 4],
        ),
        ("sliding-2x3", &SLIDING_2X3, &[2, 3, 4]),
        ("sliding-2x5", &SLIDING_2X5, &[3]),
        ("eight", &["--puzzle", "eight"], &[2]),
        ("lights-out-4x3", &["--puzzle", "lights-out"], &[2, 3]),
        ("nine-tails-3x3", &["--puzzle", "nine-tails"], &[2, 3]),
    ];
    // Every other family once, on two processes: a definition's report has the moves to
    // its antipodes, as one process's has.
    let (cube, merlin) = (example("pocket-cube-held.tws"), example("merlins-magic-square.toml"));
    let more: [(&str, &[&str], &[usize]); 4] = [
        ("coin-lines-3x3", &["--puzzle", "coin-lines"], &[2]),
        ("flip-k-7-5", &["--puzzle", "flip-k"], &[2]),
        ("pocket-cube-held", &["--rules", &cube], &[2]),
        ("merlin-s-magic-square", &["--rules", &merlin], &[2]),
    ];
    let sandbox = Sandbox::new();
    for (id, args, counts) in cases.into_iter().chain(more) {
        let mut single = args.to_vec();
        single.extend(["--out", "one", "--quiet", "--threads", "1"]);
        sandbox.run(&single).success();
        let reference = sandbox.path("one").join(id);
        for &n in counts {
            let out = format!("{id}-n{n}");
            let hosts = format!("hosts-{id}-{n}");
            hostfile(&sandbox, &hosts, n);
            let mut shared = args.to_vec();
            shared.extend(["--out", &out, "--threads", "1"]);
            for (i, ended) in run_all(&sandbox, &hosts, n, &shared).into_iter().enumerate() {
                assert_eq!(ended.code, Some(0), "{id}, process {i} of {n}: {}", ended.stderr);
            }
            let dir = sandbox.path(&out).join(id);
            assert_same_report(&dir, &reference, &format!("{id} with {n} processes"));
            // Only process 0 writes: one folder, nothing else.
            assert_eq!(sandbox.list(&out), [id], "{id} with {n} processes");
        }
    }
}

#[test]
fn killing_a_process_fails_the_other_at_once_with_one_line() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 2);
    let args = |i: &'static str| {
        let process = [
            "--threads",
            "1",
            "--quiet",
            "--out",
            "out",
            "--hosts",
            "hosts",
            "--process",
            i,
        ];
        [&SLIDING_3X4[..], &process].concat()
    };
    let survivor = sandbox.spawn(&args("0"));
    let mut victim = sandbox.spawn(&args("1"));
    // Mid-search: 3x4 takes several seconds on one thread.
    std::thread::sleep(Duration::from_millis(1500));
    victim.kill().expect("the process can be killed");
    let _ = victim.wait();
    let ended = wait(survivor, Duration::from_secs(10));
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    let lines: Vec<&str> = ended.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", ended.stderr);
    assert!(
        lines[0].starts_with("error: ") && lines[0].ends_with(&format!("lost process 1 ({})", addresses[1])),
        "{}",
        ended.stderr
    );
    assert!(sandbox.list("out").is_empty(), "{:?}", sandbox.list("out"));
}

/// Runs one process with `args` and expects one `error:` line containing `message`, the
/// exit status `code`, and nothing written.
fn refused(sandbox: &Sandbox, args: &[&str], code: i32, message: &str) -> Ended {
    let mut all = vec!["--puzzle", "eight", "--out", "out"];
    all.extend(args);
    let ended = wait(sandbox.spawn(&all), LIMIT);
    assert_eq!(ended.code, Some(code), "{args:?}: {}", ended.stderr);
    let lines: Vec<&str> = ended.stderr.lines().filter(|l| !l.starts_with("eight: ")).collect();
    assert_eq!(lines.len(), 1, "{args:?}: {}", ended.stderr);
    assert!(
        lines[0].starts_with("error: ") && lines[0].contains(message),
        "{args:?}: {}",
        ended.stderr
    );
    assert!(
        !sandbox.path("out").exists(),
        "{args:?} wrote {:?}",
        sandbox.list("out")
    );
    ended
}

#[test]
fn refuses_bad_hostfiles_with_one_line_and_exit_2() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("empty"), "# nobody\n\n").expect("written");
    std::fs::write(sandbox.path("bad"), "127.0.0.1:7000\nlocalhost\n").expect("written");
    std::fs::write(sandbox.path("two"), "127.0.0.1:7000\n127.0.0.1:7001\n").expect("written");
    for (args, message) in [
        (
            vec!["--hosts", "missing", "--process", "0"],
            "cannot read --hosts missing",
        ),
        (
            vec!["--hosts", "empty", "--process", "0"],
            "--hosts empty lists no process",
        ),
        (
            vec!["--hosts", "bad", "--process", "0"],
            "line 2: `localhost` is not host:port",
        ),
        (
            vec!["--hosts", "two", "--process", "2"],
            "--process 2 is out of range: two lists 2 processes",
        ),
        (vec!["--hosts", "two"], "--process"),
        (vec!["--process", "0"], "--hosts"),
        (
            vec!["--hosts", "two", "--process", "0", "--level-timeout", "0"],
            "--level-timeout 0",
        ),
    ] {
        refused(&sandbox, &args, 2, message);
    }
}

#[test]
fn refuses_a_port_in_use_and_a_second_process_with_the_same_index() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 2);
    let holder = TcpListener::bind(&addresses[1]).expect("the port can be held");
    refused(
        &sandbox,
        &["--hosts", "hosts", "--process", "1", "--level-timeout", "5"],
        2,
        &format!("cannot listen on {}: the port is in use", addresses[1]),
    );
    drop(holder);
    // Process 0 twice: the second cannot listen on process 0's port, and says why.
    let first = sandbox.spawn(&[
        "--puzzle",
        "eight",
        "--out",
        "first",
        "--hosts",
        "hosts",
        "--process",
        "0",
        "--level-timeout",
        "3",
    ]);
    std::thread::sleep(Duration::from_millis(300));
    refused(
        &sandbox,
        &["--hosts", "hosts", "--process", "0", "--level-timeout", "3"],
        2,
        "or by another process started with --process 0",
    );
    // The first one waits for process 1, which never comes.
    let ended = wait(first, Duration::from_secs(10));
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
}

#[test]
fn peers_that_never_come_time_out_with_one_line_and_exit_1() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 3);
    // Process 1 connects to process 0 (absent) and waits for process 2 (absent).
    let ended = refused(
        &sandbox,
        &["--hosts", "hosts", "--process", "1", "--level-timeout", "1"],
        1,
        &format!("process 0 ({}) did not connect within 1 s", addresses[0]),
    );
    assert!(ended.took < Duration::from_secs(5), "{:?}", ended.took);
    let ended = refused(
        &sandbox,
        &["--hosts", "hosts", "--process", "0", "--level-timeout", "1"],
        1,
        &format!("process 1 ({}) did not connect within 1 s", addresses[1]),
    );
    assert!(ended.took < Duration::from_secs(5), "{:?}", ended.took);
}

#[test]
fn a_stuck_process_fails_the_other_after_the_level_timeout() {
    let sandbox = Sandbox::new();
    hostfile(&sandbox, "hosts", 2);
    let args = |i: &'static str| {
        let process = [
            "--threads",
            "1",
            "--quiet",
            "--out",
            "out",
            "--hosts",
            "hosts",
            "--process",
            i,
        ];
        [&SLIDING_3X4[..], &process, &["--level-timeout", "3"]].concat()
    };
    let waiting = sandbox.spawn(&args("0"));
    let mut stuck = sandbox.spawn(&args("1"));
    std::thread::sleep(Duration::from_millis(1500));
    signal(&stuck, "-STOP");
    let ended = wait(waiting, Duration::from_secs(10));
    stuck.kill().expect("the stopped process can be killed");
    let _ = stuck.wait();
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended.stderr.contains("did not finish within 3 s (--level-timeout)"),
        "{}",
        ended.stderr
    );
    assert!(sandbox.list("out").is_empty());
}

#[test]
fn a_process_killed_mid_search_fails_the_other_and_the_rerun_resumes_with_the_same_report() {
    // 2x5 has 56 levels and, saving every level, takes about a second: killed once both
    // processes have saved level 3, the search is well before its end. (3x4, the issue's
    // board, takes half a minute a run: too slow for the suite, checked by hand, see README.)
    const SAVED: u64 = 3;
    let board = [&SLIDING_2X5[..], &["--threads", "1"]].concat();
    let sandbox = Sandbox::new();
    sandbox
        .run(&[&board[..], &["--out", "reference", "--quiet"]].concat())
        .success();
    let reference = sandbox.path("reference/sliding-2x5");
    for victim in [1, 0] {
        let survivor = 1 - victim;
        let (hosts, ck, out) = (
            format!("hosts-{victim}"),
            format!("ck-{victim}"),
            format!("out-{victim}"),
        );
        let addresses = hostfile(&sandbox, &hosts, 2);
        let mut shared = board.to_vec();
        shared.extend(["--checkpoint", &ck, "--out", &out]);
        let mut processes: Vec<Running> = ["0", "1"]
            .iter()
            .map(|i| {
                let mut args = shared.clone();
                args.extend(["--hosts", &hosts, "--process", i, "--quiet"]);
                Running(Some(sandbox.spawn(&args)))
            })
            .collect();
        let start = Instant::now();
        while !(0..2).all(|i| latest_saved_level(&sandbox.path(&ck), i).is_some_and(|l| l >= SAVED)) {
            for (i, process) in processes.iter_mut().enumerate() {
                assert!(
                    process
                        .child()
                        .try_wait()
                        .expect("the process can be waited for")
                        .is_none(),
                    "process {i} ended before level {SAVED} was saved"
                );
            }
            assert!(start.elapsed() < LIMIT, "level {SAVED} not saved within {LIMIT:?}");
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut killed = processes[victim].take();
        let killed_pid = killed.id();
        killed.kill().expect("the process can be killed");
        let _ = killed.wait();
        let ended = wait(processes[survivor].take(), Duration::from_secs(10));
        assert_eq!(ended.code, Some(1), "victim {victim}: {}", ended.stderr);
        let lines: Vec<&str> = ended.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "victim {victim}: {}", ended.stderr);
        let lost = format!("lost process {victim} ({})", addresses[victim]);
        assert!(
            lines[0].starts_with("error: ") && lines[0].ends_with(&lost),
            "victim {victim}: {}",
            ended.stderr
        );
        // No report: at most the hidden staging folder of a killed process 0, which the
        // next run removes (the survivor removes its own).
        let left = if sandbox.path(&out).exists() {
            sandbox.list(&out)
        } else {
            Vec::new()
        };
        let staging = format!(".sliding-2x5.partial-{killed_pid}-");
        assert!(
            left.iter().all(|name| victim == 0 && name.starts_with(&staging)),
            "killing process {victim} left {left:?}"
        );

        // The same command again resumes from the checkpoints and writes the reference.
        for (i, ended) in run_all(&sandbox, &hosts, 2, &shared).into_iter().enumerate() {
            assert_eq!(ended.code, Some(0), "victim {victim}, process {i}: {}", ended.stderr);
            let level = resumed_level(&ended.stderr);
            assert!(
                level >= SAVED as usize,
                "victim {victim}, process {i}: {}",
                ended.stderr
            );
        }
        let dir = sandbox.path(&out).join("sliding-2x5");
        assert_same_report(&dir, &reference, &format!("after killing process {victim}"));
        assert_eq!(sandbox.list(&out), ["sliding-2x5"]);
    }
}

/// Writes a secret file `name` of the sandbox holding `bytes`.
fn secret(sandbox: &Sandbox, name: &str, bytes: impl AsRef<[u8]>) -> String {
    std::fs::write(sandbox.path(name), bytes).expect("the secret is written");
    name.to_string()
}

#[test]
fn processes_with_the_same_secret_connect_and_another_secret_is_refused_by_address() {
    let sandbox = Sandbox::new();
    let good = secret(&sandbox, "good", "a shared secret of this run, 32 b\n");
    let other = secret(&sandbox, "other", "another secret entirely, 32 bytes\n");
    hostfile(&sandbox, "hosts", 2);
    let args = ["--puzzle", "eight", "--out", "shared", "--secret-file", &good];
    let ended = run_all(&sandbox, "hosts", 2, &args);
    assert!(ended.iter().all(|e| e.code == Some(0)), "{ended:?}");
    assert!(sandbox.path("shared/eight/distances.csv").exists());

    // Process 1 holds another secret: process 0 refuses it, naming its address, and
    // process 1 refuses process 0 in turn; neither writes a report.
    let addresses = hostfile(&sandbox, "hosts2", 2);
    let zero = sandbox.spawn(&[
        "--puzzle",
        "eight",
        "--out",
        "refused",
        "--secret-file",
        &good,
        "--hosts",
        "hosts2",
        "--process",
        "0",
        "--level-timeout",
        "6",
    ]);
    let one = sandbox.spawn(&[
        "--puzzle",
        "eight",
        "--out",
        "refused",
        "--secret-file",
        &other,
        "--hosts",
        "hosts2",
        "--process",
        "1",
        "--level-timeout",
        "6",
    ]);
    let (zero, one) = (wait(zero, LIMIT), wait(one, LIMIT));
    assert_ne!(zero.code, Some(0), "{zero:?}");
    assert_ne!(one.code, Some(0), "{one:?}");
    assert!(
        zero.stderr.contains("refused the connection from 127.0.0.1:") && zero.stderr.contains("secret"),
        "{}",
        zero.stderr
    );
    assert!(
        one.stderr
            .contains(&format!("process 0 ({}) did not prove this run's secret", addresses[0])),
        "{}",
        one.stderr
    );
    assert!(!sandbox.path("refused/eight").exists());
}

#[test]
fn a_silent_connection_does_not_delay_the_real_processes() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 2);
    let args = [
        "--puzzle",
        "eight",
        "--out",
        "out",
        "--quiet",
        "--hosts",
        "hosts",
        "--process",
        "0",
        "--level-timeout",
        "30",
    ];
    let zero = sandbox.spawn(&args);
    // A stranger connects to process 0 first and says nothing.
    let deadline = Instant::now() + Duration::from_secs(10);
    let stranger = loop {
        match std::net::TcpStream::connect(&addresses[0]) {
            Ok(stream) => break stream,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("process 0 never listened: {e}"),
        }
    };
    let started = Instant::now();
    let mut one_args = args;
    one_args[8] = "1";
    let one = wait(sandbox.spawn(&one_args), LIMIT);
    let zero = wait(zero, LIMIT);
    assert_eq!((zero.code, one.code), (Some(0), Some(0)), "{zero:?} {one:?}");
    // The stranger is given 5 s to greet; the real process is taken meanwhile.
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    drop(stranger);
}

#[test]
fn a_short_secret_file_is_refused() {
    let sandbox = Sandbox::new();
    let short = secret(&sandbox, "short", "tiny\n");
    hostfile(&sandbox, "hosts", 2);
    let ended = sandbox.output(&[&EIGHT_AS_PROCESS_0[..], &["--secret-file", &short]].concat());
    assert_eq!(ended.code, Some(2));
    assert!(
        ended.stderr.contains("--secret-file short holds 4 bytes"),
        "{}",
        ended.stderr
    );
}

#[test]
fn a_raw_binary_secret_is_taken_and_one_of_white_space_refused() {
    let sandbox = Sandbox::new();
    // Raw random bytes, as `head -c 32 /dev/urandom > FILE` writes: not UTF-8.
    let raw: Vec<u8> = (0..32u32).map(|i| (i * 151 + 7) as u8 | 0x80).collect();
    assert!(String::from_utf8(raw.clone()).is_err());
    let binary = secret(&sandbox, "binary", &raw);
    hostfile(&sandbox, "hosts", 2);
    let args = [
        &SLIDING_2X3[..],
        &["--out", "shared", "--secret-file", &binary, "--level-timeout", "20"],
    ]
    .concat();
    let ended = run_all(&sandbox, "hosts", 2, &args);
    assert!(ended.iter().all(|e| e.code == Some(0)), "{ended:?}");
    assert!(sandbox.path("shared/sliding-2x3/distances.csv").exists());

    let blank = secret(&sandbox, "blank", " ".repeat(16) + "\n");
    let ended = sandbox.output(&[&EIGHT_AS_PROCESS_0[..], &["--secret-file", &blank]].concat());
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended
            .stderr
            .starts_with("error: --secret-file blank holds only white space: a secret needs at least 16 bytes"),
        "{}",
        ended.stderr
    );
}

#[test]
fn a_hostfile_may_end_lines_with_comments() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "plain", 2);
    let text = format!(
        "# the run's processes\n\n{}   # process 0, this machine\n\t# a spare line\n{}\t#process 1\n",
        addresses[0], addresses[1]
    );
    std::fs::write(sandbox.path("hosts"), text).expect("written");
    let args = [&SLIDING_2X3[..], &["--out", "shared", "--level-timeout", "20"]].concat();
    let ended = run_all(&sandbox, "hosts", 2, &args);
    assert!(ended.iter().all(|e| e.code == Some(0)), "{ended:?}");
    assert!(sandbox.path("shared/sliding-2x3/distances.csv").exists());
}

#[test]
fn without_a_secret_a_hostfile_naming_other_machines_is_warned_about() {
    let sandbox = Sandbox::new();
    // 192.0.2.1 (TEST-NET-1) is never this machine: process 1 is never reached, and
    // process 0 gives up after --level-timeout; the warning comes first.
    let addresses = hostfile(&sandbox, "hosts", 1);
    std::fs::write(sandbox.path("hosts"), format!("{}\n192.0.2.1:7000\n", addresses[0])).expect("written");
    let ended = wait(
        sandbox.spawn(&[&EIGHT_AS_PROCESS_0[..], &["--level-timeout", "2"]].concat()),
        LIMIT,
    );
    assert!(
        ended
            .stderr
            .contains("warning: hosts names other machines and no --secret-file"),
        "{}",
        ended.stderr
    );
}

#[test]
fn a_signal_to_one_process_stops_every_process_with_130() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 2);
    let children: Vec<Child> = (0..2)
        .map(|i| {
            let index = i.to_string();
            let mut args = SLIDING_3X4.to_vec();
            args.extend(["--out", "out", "--quiet", "--threads", "1"]);
            args.extend(["--hosts", "hosts", "--process", &index]);
            sandbox.spawn(&args)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    signal(&children[1], "-INT");
    let signalled = Instant::now();
    let ended: Vec<Ended> = children.into_iter().map(|c| wait(c, LIMIT)).collect();
    for e in &ended {
        assert_eq!(e.code, Some(130), "{}", e.stderr);
        assert_eq!(e.stderr.lines().count(), 1, "{}", e.stderr);
    }
    // The signalled process says it was interrupted; the other says which process was.
    assert!(
        ended[1].stderr.starts_with("error: interrupted: no report was written"),
        "{}",
        ended[1].stderr
    );
    let by = format!(
        "error: process 1 ({}) was interrupted (Ctrl-C or SIGTERM); the run stopped at level ",
        addresses[1]
    );
    assert!(ended[0].stderr.starts_with(&by), "{}", ended[0].stderr);
    // Process 0 stops at the level's barrier, where it learns of the stop.
    assert!(
        signalled.elapsed() < Duration::from_secs(10),
        "{:?}",
        signalled.elapsed()
    );
    assert!(!sandbox.path("out/sliding-3x4").exists());
}

/// Whether something listens on `address` (it cannot be bound), without connecting to it.
fn listening(address: &str) -> bool {
    TcpListener::bind(address).is_err()
}

/// Waits (at most 10 s) until something listens on `address`.
fn wait_listening(address: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !listening(address) {
        assert!(Instant::now() < deadline, "nothing listens on {address}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Connects to `address`, retrying for at most 10 s while nothing listens there.
fn connect(address: &str) -> TcpStream {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpStream::connect(address) {
            Ok(stream) => {
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .expect("a read timeout");
                return stream;
            }
            Err(e) => assert!(Instant::now() < deadline, "{address} never listened: {e}"),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The connection `child` makes to `listener` (at most 10 s, and only while it runs).
fn accept(listener: &TcpListener, child: &mut Child) -> TcpStream {
    listener.set_nonblocking(true).expect("a non-blocking listener");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).expect("a blocking stream");
                return stream;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("cannot accept: {e}"),
        }
        let ended = child.try_wait().expect("the process can be waited for");
        assert!(ended.is_none(), "the process ended ({ended:?}) before it connected");
        assert!(Instant::now() < deadline, "the process did not connect within 10 s");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Reads the greeting of an analyze process: its job text and nonce.
fn read_greeting(stream: &mut TcpStream) -> (Vec<u8>, Vec<u8>) {
    let mut head = [0u8; 20];
    stream.read_exact(&mut head).expect("a greeting");
    assert_eq!(&head[..8], b"analyze3");
    let length = u32::from_be_bytes([head[16], head[17], head[18], head[19]]) as usize;
    let mut job = vec![0; length];
    stream.read_exact(&mut job).expect("the greeting's job");
    let mut nonce = vec![0; 32];
    stream.read_exact(&mut nonce).expect("the greeting's nonce");
    (job, nonce)
}

/// A stranger's greeting to process 0 on `stream` after the process's own (read here):
/// process `from` of `processes`, running `job`; with a proof keyed by `secret` (anyone can
/// make one for an empty secret), or, without one, none at all and the stranger stops
/// sending.
fn greet_as(stream: &mut TcpStream, from: u32, processes: u32, job: &[u8], secret: Option<&[u8]>) {
    let (_, theirs) = read_greeting(stream);
    let nonce = [7u8; 32];
    let mut bytes = b"analyze3".to_vec();
    for n in [from, processes, job.len() as u32] {
        bytes.extend(n.to_be_bytes());
    }
    bytes.extend(job);
    bytes.extend(nonce);
    stream.write_all(&bytes).expect("the greeting is sent");
    let Some(secret) = secret else {
        // The process may have refused on reading the greeting and hung up already.
        let _ = stream.shutdown(Shutdown::Write);
        return;
    };
    let mut mac = <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret).expect("any key");
    mac.update(b"analyze proof");
    mac.update(&from.to_be_bytes());
    mac.update(&0u32.to_be_bytes());
    mac.update(&theirs);
    mac.update(&nonce);
    mac.update(job);
    stream
        .write_all(&mac.finalize().into_bytes())
        .expect("the proof is sent");
    let mut proof = [0u8; 32];
    stream.read_exact(&mut proof).expect("the process's proof");
}

/// The job text a real process `process` of `hosts` greets with: caught by listening on
/// process 0's address in its place (the process is killed afterwards).
fn real_job(sandbox: &Sandbox, hosts: &str, zero: &str, process: &str, args: &[&str]) -> Vec<u8> {
    let listener = TcpListener::bind(zero).expect("process 0's port is free");
    let mut all = args.to_vec();
    all.extend(["--hosts", hosts, "--process", process, "--quiet"]);
    let mut caught = Running(Some(sandbox.spawn(&all)));
    let mut stream = accept(&listener, caught.child());
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a read timeout");
    let (job, _) = read_greeting(&mut stream);
    let _ = caught.child().kill();
    let _ = caught.child().wait();
    job
}

#[test]
fn a_strangers_greeting_is_shown_escaped_on_one_short_line_naming_its_address() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 2);
    let zero = sandbox.spawn(
        &[
            &EIGHT_AS_PROCESS_0[..],
            &["--out", "out", "--quiet", "--level-timeout", "10"],
        ]
        .concat(),
    );
    // 64 KiB of terminal escapes and fake error lines, as process 1 with an empty secret.
    let mut job = b"\x1b[2J\x1b[31m".to_vec();
    while job.len() < 1 << 16 {
        job.extend(b"\nerror: fake line\r\x07");
    }
    job.truncate(1 << 16);
    let mut stranger = connect(&addresses[0]);
    let from: SocketAddr = stranger.local_addr().expect("an address");
    greet_as(&mut stranger, 1, 2, &job, Some(b""));
    let ended = wait(zero, LIMIT);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        !ended.stderr.contains('\x1b') && !ended.stderr.contains('\r'),
        "{}",
        ended.stderr
    );
    assert!(
        ended.stderr.len() < 400,
        "{} bytes: {}",
        ended.stderr.len(),
        ended.stderr
    );
    let named = format!(
        "error: the connection from {from} (claiming to be process 1) runs another search: `\\u{{1b}}[2J\\u{{1b}}[31m\\nerror: fake line\\r\\u{{7}}"
    );
    assert!(ended.stderr.starts_with(&named), "{}", ended.stderr);
    assert!(ended.stderr.contains("...` there"), "{}", ended.stderr);
    drop(stranger);
}

#[test]
fn a_stranger_replaying_a_real_greeting_and_leaving_does_not_fail_the_run() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 3);
    let args = [&SLIDING_2X3[..], &["--out", "out", "--level-timeout", "20"]].concat();
    // What a real process 1 says, replayed by a stranger to process 0 before process 1
    // starts; then the stranger leaves.
    let job = real_job(&sandbox, "hosts", &addresses[0], "1", &args);
    let zero = Running(Some(
        sandbox.spawn(&[&args[..], &["--hosts", "hosts", "--process", "0", "--quiet"]].concat()),
    ));
    let mut stranger = connect(&addresses[0]);
    let from: SocketAddr = stranger.local_addr().expect("an address");
    greet_as(&mut stranger, 1, 3, &job, Some(b""));
    drop(stranger);
    std::thread::sleep(Duration::from_millis(300));
    let others: Vec<Running> = ["1", "2"]
        .iter()
        .map(|i| {
            Running(Some(sandbox.spawn(
                &[&args[..], &["--hosts", "hosts", "--process", i, "--quiet"]].concat(),
            )))
        })
        .collect();
    let ended: Vec<Ended> = [zero]
        .into_iter()
        .chain(others)
        .map(|mut p| wait(p.take(), LIMIT))
        .collect();
    for (i, e) in ended.iter().enumerate() {
        assert_eq!(e.code, Some(0), "process {i}: {}", e.stderr);
    }
    assert!(
        ended[0].stderr.contains(&format!(
            "the connection from {from} as process 1 closed before the run started"
        )),
        "{}",
        ended[0].stderr
    );
    assert!(sandbox.path("out/sliding-2x3/distances.csv").exists());
}

#[test]
fn a_stranger_without_the_secret_is_named_on_both_sides() {
    let sandbox = Sandbox::new();
    let good = secret(&sandbox, "good", "a shared secret of this run, 32 b\n");
    let addresses = hostfile(&sandbox, "hosts", 2);
    let args = [
        &SLIDING_2X3[..],
        &["--out", "out", "--secret-file", &good, "--level-timeout", "20"],
    ]
    .concat();
    let process = |i: &str| sandbox.spawn(&[&args[..], &["--hosts", "hosts", "--process", i, "--quiet"]].concat());

    // Dialling: a stranger in process 0's place greets process 1, proves nothing, leaves.
    let job = {
        let listener = TcpListener::bind(&addresses[0]).expect("process 0's port is free");
        let mut one = Running(Some(process("1")));
        let mut stream = accept(&listener, one.child());
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("a read timeout");
        let (job, _) = read_greeting(&mut stream);
        let mut greeting = b"analyze2".to_vec();
        for n in [0u32, 2, job.len() as u32] {
            greeting.extend(n.to_be_bytes());
        }
        greeting.extend(&job);
        greeting.extend([9u8; 32]);
        stream.write_all(&greeting).expect("the greeting is sent");
        // Process 1 may have read the greeting and hung up already: nothing to stop then.
        let _ = stream.shutdown(Shutdown::Write);
        let ended = wait(one.take(), LIMIT);
        assert_eq!(ended.code, Some(1), "{}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        let named = format!(
            "error: process 0 ({}) did not greet back and did not prove this run's secret (--secret-file)",
            addresses[0]
        );
        assert!(ended.stderr.starts_with(&named), "{}", ended.stderr);
        job
    };

    // Accepting: a stranger greets process 0 as process 1 without a proof and leaves; it is
    // named, and the real process 1 is still taken.
    let zero = Running(Some(process("0")));
    let mut stranger = connect(&addresses[0]);
    let from: SocketAddr = stranger.local_addr().expect("an address");
    greet_as(&mut stranger, 1, 2, &job, None);
    let mut rest = Vec::new();
    let _ = stranger.read_to_end(&mut rest);
    drop(stranger);
    let one = Running(Some(process("1")));
    let ended: Vec<Ended> = [zero, one].into_iter().map(|mut p| wait(p.take(), LIMIT)).collect();
    for (i, e) in ended.iter().enumerate() {
        assert_eq!(e.code, Some(0), "process {i}: {}", e.stderr);
    }
    assert!(
        ended[0].stderr.contains(&format!(
            "refused the connection from {from}: it did not greet and did not prove this run's secret (--secret-file)"
        )),
        "{}",
        ended[0].stderr
    );
}

#[test]
fn ctrl_c_while_waiting_for_the_others_exits_130_at_once_naming_the_one_waited_for() {
    let sandbox = Sandbox::new();
    // Process 0 waits for process 1 to dial it; process 1 (of another hostfile) dials its
    // process 0, which never comes.
    let accepting = hostfile(&sandbox, "accepting", 2);
    let dialling = hostfile(&sandbox, "dialling", 2);
    let spawn = |hosts: &str, i: &str| {
        sandbox.spawn(&[
            "--puzzle",
            "eight",
            "--out",
            "out",
            "--quiet",
            "--hosts",
            hosts,
            "--process",
            i,
            "--level-timeout",
            "60",
        ])
    };
    let waiting = [
        (spawn("accepting", "0"), &accepting[0], 1, &accepting[1]),
        (spawn("dialling", "1"), &dialling[1], 0, &dialling[0]),
    ];
    for (child, listens, _, _) in &waiting {
        wait_listening(listens);
        std::thread::sleep(Duration::from_millis(200));
        signal(child, "-INT");
    }
    for (child, _, peer, address) in waiting {
        let ended = wait(child, Duration::from_secs(10));
        assert_eq!(ended.code, Some(130), "{}", ended.stderr);
        assert!(
            ended.took < Duration::from_secs(3),
            "{:?}: {}",
            ended.took,
            ended.stderr
        );
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        let named = format!(
            "error: interrupted (Ctrl-C or SIGTERM): stopped waiting for process {peer} ({address}) to connect; no report was written"
        );
        assert!(ended.stderr.starts_with(&named), "{}", ended.stderr);
    }
    assert!(!sandbox.path("out").exists());
}

#[test]
fn a_flood_of_strangers_is_named_ten_times_then_counted() {
    let sandbox = Sandbox::new();
    let addresses = hostfile(&sandbox, "hosts", 2);
    let args = [
        "--puzzle",
        "eight",
        "--out",
        "out",
        "--quiet",
        "--hosts",
        "hosts",
        "--process",
        "0",
        "--level-timeout",
        "30",
    ];
    let zero = sandbox.spawn(&args);
    // Fifteen strangers each send a line of junk and hang up.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut sent = 0;
    while sent < 15 {
        match std::net::TcpStream::connect(&addresses[0]) {
            Ok(mut stream) => {
                let _ = std::io::Write::write_all(&mut stream, b"GET / HTTP/1.0\r\n\r\n");
                sent += 1;
            }
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("process 0 never listened: {e}"),
        }
    }
    // Process 0 names each refusal as it comes: give it time to take them all.
    std::thread::sleep(Duration::from_secs(2));
    let mut one_args = args;
    one_args[8] = "1";
    let one = wait(sandbox.spawn(&one_args), LIMIT);
    let zero = wait(zero, LIMIT);
    assert_eq!((zero.code, one.code), (Some(0), Some(0)), "{zero:?} {one:?}");
    let named = zero.stderr.matches("refused the connection from 127.0.0.1:").count();
    assert_eq!(named, 10, "{}", zero.stderr);
    assert!(
        zero.stderr.contains("10 named above, the others are not"),
        "{}",
        zero.stderr
    );
}
