//! The binary end to end: [`command`] is the one place that starts it, and a [`Sandbox`]
//! (a fresh temporary folder as its working directory) is how the tests use it; then
//! waiting for a started process with a time limit, and reading what a run wrote.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The options of the sliding boards several tests run.
pub const SLIDING_2X3: [&str; 6] = ["--puzzle", "sliding", "--rows", "2", "--cols", "3"];
pub const SLIDING_2X4: [&str; 6] = ["--puzzle", "sliding", "--rows", "2", "--cols", "4"];
pub const SLIDING_2X5: [&str; 6] = ["--puzzle", "sliding", "--rows", "2", "--cols", "5"];
pub const SLIDING_3X4: [&str; 6] = ["--puzzle", "sliding", "--rows", "3", "--cols", "4"];
pub const SLIDING_4X4: [&str; 6] = ["--puzzle", "sliding", "--rows", "4", "--cols", "4"];
/// The 8-puzzle as process 0 of the sandbox's `hosts` file.
pub const EIGHT_AS_PROCESS_0: [&str; 6] = ["--puzzle", "eight", "--hosts", "hosts", "--process", "0"];

/// The cache folder the tests' runs share (under the build's temporary folder, kept
/// between runs): tables the solver caches, the 4x4 pattern databases among them, are
/// built once per target folder, and never go to the user's cache.
pub fn test_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("test-cache")
}

/// The shared [`test_cache`] once it holds the 4x4 pattern databases for `goal`: the usual
/// goal's 6-6-3 tables (`None`), or the split tables turned to another goal. A set takes
/// seconds to build and several tests use each, so the first test to ask builds it (the
/// binary solving the goal itself) and a lock file makes tests asking at the same time,
/// in threads or in processes, wait for that build instead of repeating it.
pub fn cache_with_4x4_tables(goal: Option<&str>) -> PathBuf {
    let cache = test_cache();
    std::fs::create_dir_all(&cache).expect("the test cache can be created");
    let lock_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("test-cache-4x4.lock");
    let lock = std::fs::File::create(lock_path).expect("the lock file can be created");
    lock.lock().expect("the lock can be taken");
    let usual = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    let mut args = SLIDING_4X4.to_vec();
    if let Some(goal) = goal {
        args.extend(["--goal", goal]);
    }
    args.extend(["--solve", goal.unwrap_or(usual)]);
    let output = command(&cache, &cache, &args).output().expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && first_length(&stdout) == Some("0 moves"),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    cache
}

/// `analyze ARGS` working in `dir`, its tables cached in `cache`, ready to run or spawn:
/// the binary cargo built for these tests. The one place the tests start the binary.
pub fn command(dir: &Path, cache: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_analyze"));
    command.current_dir(dir).env("ANALYZE_CACHE_DIR", cache).args(args);
    command
}

/// A fresh temporary folder to run the binary in; removed when dropped.
pub struct Sandbox {
    dir: TempDir,
    /// Where its runs cache tables.
    cache: PathBuf,
}

impl Sandbox {
    /// A sandbox whose runs cache their tables in the shared [`test_cache`].
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a temporary folder can be created"),
            cache: test_cache(),
        }
    }

    /// A sandbox whose runs cache their tables in its own folder `cache` (created empty),
    /// for tests of what is cached.
    pub fn with_own_cache() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder can be created");
        let cache = dir.path().join("cache");
        std::fs::create_dir(&cache).expect("the cache folder can be created");
        Self { dir, cache }
    }

    /// The folder its runs cache tables in.
    pub fn cache(&self) -> &Path {
        &self.cache
    }

    /// `relative` inside the sandbox.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// `analyze ARGS` with the sandbox as working directory (see [`command`]).
    pub fn command(&self, args: &[&str]) -> Command {
        command(self.dir.path(), &self.cache, args)
    }

    /// Runs `analyze ARGS` in the sandbox to the end, for assert_cmd's checks.
    pub fn run(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        assert_cmd::Command::from_std(self.command(args)).assert()
    }

    /// Runs `analyze ARGS` in the sandbox to the end: what it said.
    pub fn output(&self, args: &[&str]) -> Ended {
        let start = Instant::now();
        let output = self.command(args).output().expect("the binary runs");
        Ended::new(output, start.elapsed())
    }

    /// Starts `analyze ARGS` in the sandbox, without input, its output captured.
    pub fn spawn(&self, args: &[&str]) -> Child {
        self.command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("analyze starts")
    }

    /// Names of everything directly in `relative`, sorted, hidden entries included.
    pub fn list(&self, relative: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.path(relative))
            .expect("the folder exists")
            .map(|e| e.expect("a readable entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The text of the file `relative`.
    pub fn read(&self, relative: &str) -> String {
        read(&self.path(relative))
    }
}

/// Runs `analyze ARGS` in a fresh sandbox.
pub fn analyze(args: &[&str]) -> (Sandbox, assert_cmd::assert::Assert) {
    let sandbox = Sandbox::new();
    let assert = sandbox.run(args);
    (sandbox, assert)
}

/// What a finished process said (its output read as lossy UTF-8).
#[derive(Debug)]
pub struct Ended {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
}

impl Ended {
    fn new(output: Output, took: Duration) -> Self {
        Ended {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            took,
        }
    }
}

/// The length a `--solve` solution line gives: `solution (3 moves): ...` gives `3 moves`,
/// `solution (8 flips, 2 moves): ...` gives `8 flips, 2 moves`; `None` for another line.
pub fn solution_length(line: &str) -> Option<&str> {
    line.strip_prefix("solution (")?
        .split_once("): ")
        .map(|(length, _)| length)
}

/// The length the first line of a `--solve` output gives (see [`solution_length`]).
pub fn first_length(stdout: &str) -> Option<&str> {
    stdout.lines().next().and_then(solution_length)
}

/// Waits for `child` at most `limit` (then kills it and fails the test: a hang is a
/// failure).
pub fn wait(mut child: Child, limit: Duration) -> Ended {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("the process can be waited for").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a process took longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = start.elapsed();
    let output = child.wait_with_output().expect("the output can be read");
    Ended::new(output, took)
}

/// A running process, killed and reaped if the test fails before it ends.
pub struct Running(pub Option<Child>);

impl Running {
    pub fn child(&mut self) -> &mut Child {
        self.0.as_mut().expect("the process is still held")
    }

    /// Hands the process over (to [`wait`]), no longer killed on drop.
    pub fn take(&mut self) -> Child {
        self.0.take().expect("the process is still held")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Sends the signal `name` (`-INT`, `-STOP`) to `child`.
pub fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// A process id that belongs to no running process: one that has just exited.
pub fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("true runs");
    let pid = child.id();
    child.wait().expect("true exits");
    pid
}

/// The folder `relative` of the sandbox, created holding the marker that process `pid`
/// writes in its staging and moved-aside folders in `--out`.
pub fn marked(sandbox: &Sandbox, relative: &str, pid: u32) -> PathBuf {
    let dir = sandbox.path(relative);
    std::fs::create_dir(&dir).expect("the folder can be created");
    std::fs::write(dir.join(analyze::report::MARKER), analyze::report::marker_text(pid))
        .expect("the marker is written");
    dir
}

/// The text of the file at `path`.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The files every analysis writes into its folder.
const REPORT_FILES: [&str; 8] = [
    "classes.csv",
    "distances-log.png",
    "distances.csv",
    "distances.png",
    "growth.png",
    "report.md",
    "run.json",
    "summary.json",
];

/// The files of an analysis of `id`, sorted: sliding boards (up to 10 cells, or with
/// `--heuristics`) add the heuristic atlas and its A* effort table.
pub fn report_files(id: &str) -> Vec<&'static str> {
    let mut files = REPORT_FILES.to_vec();
    if id == "eight" || id.starts_with("sliding-") {
        files.extend(["heuristics.csv", "heuristics.png", "astar.csv", "astar.png"]);
    }
    files.sort_unstable();
    files
}

/// `distances.csv` as written, without its column of classes up to symmetry: what a
/// table of states is compared with (the classes are checked on their own).
pub fn states_csv(written: &str) -> String {
    written
        .lines()
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            if fields.len() == 4 {
                fields.remove(2);
            }
            fields.join(",") + "\n"
        })
        .collect()
}

/// The `distances.csv` of a per-distance table, without its classes (see [`states_csv`]):
/// each level with its running total.
pub fn distances_csv(levels: &[u64]) -> String {
    let mut text = String::from("distance,states,cumulative\n");
    let mut cumulative = 0;
    for (d, n) in levels.iter().enumerate() {
        cumulative += n;
        text.push_str(&format!("{d},{n},{cumulative}\n"));
    }
    text
}

/// The `summary.json` at `path`, parsed.
pub fn summary(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).expect("summary.json is JSON")
}

/// The level after which a rerun said it resumed, from its `resuming after level N` note.
pub fn resumed_level(stderr: &str) -> usize {
    let line = stderr
        .lines()
        .find(|l| l.contains("resuming after level "))
        .unwrap_or_else(|| panic!("no resume note in:\n{stderr}"));
    line.split("resuming after level ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no level in: {line}"))
}

/// The level saved in the checkpoint file at `path`, read from its header as the format
/// documents it (magic, version, puzzle id and search identity each as a length and one u64
/// a byte, five u64s, the level); `None` while the file does not exist or is not a checkpoint. Files are renamed
/// into place whole, so a file that exists is complete.
pub fn saved_level(path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let u64_at = |at: usize| -> Option<u64> {
        let field: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(field))
    };
    if bytes.get(..8)? != b"ANLZCKPT" {
        return None;
    }
    let id_len = usize::try_from(u64_at(12)?).ok()?;
    let identity_at = 20 + 8 * id_len;
    let identity_len = usize::try_from(u64_at(identity_at)?).ok()?;
    u64_at(identity_at + 8 + 8 * identity_len + 5 * 8)
}

/// The latest level process `index` saved in the checkpoint folder `dir` (either generation).
pub fn latest_saved_level(dir: &Path, index: usize) -> Option<u64> {
    ["a", "b"]
        .iter()
        .filter_map(|g| saved_level(&dir.join(format!("slice-{index}.{g}.ckpt"))))
        .max()
}

/// A cache file's name without the search identity it carries:
/// `eight.0123456789ab.dist` is `eight.dist`; other names are unchanged.
pub fn unhashed(name: &str) -> String {
    let parts: Vec<&str> = name.split('.').collect();
    match parts.as_slice() {
        [stem @ .., hash, kind]
            if !stem.is_empty() && hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            format!("{}.{kind}", stem.join("."))
        }
        _ => name.to_string(),
    }
}

/// The cache file in `dir` whose name is `name` once [`unhashed`]; panics unless there is
/// exactly one.
pub fn cached(dir: &Path, name: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the cache folder exists")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.file_name().is_some_and(|n| unhashed(&n.to_string_lossy()) == name))
        .collect();
    match found.as_slice() {
        [one] => one.clone(),
        _ => panic!("{} files named {name} in {}: {found:?}", found.len(), dir.display()),
    }
}

/// The name of the cache file of kind `kind` (`dist`, `dist3`) for the puzzle that `args`
/// (`--puzzle NAME` and its size options) choose: the id and the search identity's start.
pub fn cache_name(args: &[&str], kind: &str) -> String {
    use clap::Parser;
    let cli = analyze::cli::Cli::try_parse_from([&["analyze"], args].concat()).expect("a puzzle's arguments");
    let command = cli
        .into_command(None, &|path| std::fs::read(path))
        .expect("a valid command");
    match command {
        analyze::cli::Command::Analyze { jobs, .. } => {
            analyze::solve::cache::file_name(&jobs[0].to_string(), &jobs[0].identity(), kind)
        }
        _ => panic!("{args:?} is not an analysis"),
    }
}

/// The shipped file `name` under `examples/`, as a path to give the binary.
pub fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The `states` column of a `distances.csv`.
pub fn states(csv: &str) -> Vec<u64> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).expect("a states column").parse().expect("a count"))
        .collect()
}

/// Levels the `--disk` manifest in `dir` has committed (0 while there is none): it is
/// renamed into place whole, so one that exists is complete.
pub fn committed(dir: &Path) -> usize {
    std::fs::read(dir.join("manifest.json"))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .and_then(|m| m["levels"].as_array().map(Vec::len))
        .unwrap_or(0)
}
