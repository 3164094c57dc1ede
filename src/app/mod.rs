//! The binary's glue: what `main` calls. The library ([`analyze`]) computes and returns
//! values; these modules read files, print, draw progress bars, handle signals and connect
//! processes.
//!
//! - [`analyze`]: analysing jobs and writing their reports (and the `--all` index).
//! - [`cache`]: the solver's cache folder: where it is, `--cache` and `--cache-clear`.
//! - [`solve`]: `--solve`, positions read and their solutions printed.
//! - [`connect`]: the connections between the processes of a `--hosts` run, and their
//!   greeting with its proof of the run's secret.
//! - [`timely`]: the exchange between processes of a `--hosts` run, over timely.

pub mod analyze;
pub mod cache;
pub mod connect;
pub mod solve;
pub mod timely;

use std::fmt::Display;
use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// When this process started: the first call fixes it, made first thing in `main`.
pub fn started() -> std::time::SystemTime {
    static AT: std::sync::OnceLock<std::time::SystemTime> = std::sync::OnceLock::new();
    *AT.get_or_init(std::time::SystemTime::now)
}

/// What `run.json` says of this run beside its figures, the search's `mode` given.
/// Unreadable facts of the machine are `unknown`, never an error: the report matters more.
pub fn provenance(mode: String) -> ::analyze::report::json::Provenance {
    let first_line = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|text| text.lines().next().map(str::trim).map(str::to_string))
            .filter(|line| !line.is_empty())
    };
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines().find_map(|line| {
            line.strip_prefix("model name")?
                .split_once(':')
                .map(|(_, model)| model.trim().to_string())
        })
    });
    ::analyze::report::json::Provenance {
        version: env!("CARGO_PKG_VERSION"),
        commit: env!("ANALYZE_COMMIT"),
        command: std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect(),
        started: ::analyze::util::utc_iso(started()),
        host: first_line("/proc/sys/kernel/hostname").unwrap_or_else(|| "unknown".into()),
        cpu: cpu.unwrap_or_else(|| "unknown".into()),
        cores: std::thread::available_parallelism().map_or(0, usize::from),
        mode,
    }
}

/// The most read from a file the command line names (rules and definition files,
/// hostfiles, secrets): far more than any of them needs.
pub const MAX_INPUT: u64 = 1 << 20;

/// Reads a file the user named, refusing at once what is not a regular file (a FIFO
/// would block, a device never end) and anything over `limit` bytes (checked on the open
/// file, so one that grows meanwhile is still cut off).
pub fn read_bytes(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let kind = std::fs::metadata(path)?.file_type();
    if !kind.is_file() {
        return Err(std::io::Error::other(format!(
            "it is {}, not a regular file",
            file_kind(&kind)
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "it is over {}, the most read from such a file",
            ::analyze::util::human_bytes(u128::from(limit))
        )));
    }
    Ok(bytes)
}

/// Reads a text file the user named, as [`read_bytes`] does; text that is not UTF-8 is
/// refused.
pub fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    ::analyze::cli::utf8(read_bytes(path, limit)?)
}

/// What a path that is not a regular file is, for messages: `a folder`, `a FIFO`, ...
pub fn file_kind(kind: &std::fs::FileType) -> &'static str {
    if kind.is_file() {
        "a regular file"
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "something else"
    }
}

/// MemAvailable from /proc/meminfo, if the system reports it.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// clap's multi-line message folded onto one line, without the `--help` tip.
/// A word longer than 60 characters (a huge value clap quotes back) is cut to its start.
pub fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:"))
        .flat_map(str::split_whitespace)
        .map(|word| match word.char_indices().nth(60) {
            Some(_) => format!(
                "{}... ({} characters)",
                word.chars().take(40).collect::<String>(),
                ::analyze::util::thousands(word.chars().count() as u64)
            ),
            None => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// Set by the Ctrl-C / SIGTERM handler.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Context for a failed write to stdout (a run failure, exit 1; a closed pipe is not).
pub const STDOUT: &str = "cannot write to stdout";

/// The run stopped on Ctrl-C or SIGTERM; exits 130 like a shell does for SIGINT.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.describe())]
pub struct Interrupted {
    /// Reports already replaced (and listed on stdout).
    pub written: Vec<String>,
    /// Reports not written: their previous versions, if any, are untouched.
    pub not_written: Vec<String>,
    /// Whether the `--all` index was due (it is written last, so it was not).
    pub index: bool,
    /// What stopped, when it is not plain Ctrl-C here: what was waited for, or which other
    /// process of a `--hosts` run was interrupted.
    pub cause: Option<String>,
}

impl Interrupted {
    fn describe(&self) -> String {
        let mut missing = self.not_written.clone();
        if self.index {
            missing.push("the index (README.md, overview.png)".into());
        }
        let untouched = "previous versions, if any, are untouched";
        if let Some(cause) = &self.cause {
            format!("{cause}; no report was written (the {untouched})")
        } else if self.written.is_empty() {
            format!("interrupted: no report was written (the {untouched})")
        } else {
            format!(
                "interrupted: wrote {} (listed above); not written: {} (their {untouched})",
                self.written.join(", "),
                missing.join(", ")
            )
        }
    }
}

/// Input that cannot be used: a position given to `--solve` (exit 2, like a bad option).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Writes `message` as one line on stderr. A stderr that cannot be written (full, closed)
/// is ignored: notes and the error line are a courtesy, the exit status is the answer.
pub fn note(message: impl Display) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

pub fn fail(message: &str, code: u8) -> ExitCode {
    note(format_args!("error: {message}"));
    ExitCode::from(code)
}

pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
