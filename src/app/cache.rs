//! The solver's cache folder, the binary's side: where it is ([`cache_dir`]), and
//! `--cache` (what it holds) and `--cache-clear [DAYS]` (emptying it).
//!
//! Only what is recognisably the cache's own is listed or removed: regular files whose
//! first line is a cache header (see [`analyze::solve::cache`]), and the temporary files of
//! interrupted writes, by their name. Anything else in the folder (a note, a subfolder, a
//! symbolic link, wherever it points) is counted and left alone, and no link is followed.
//!
//! Clearing is safe while other runs use the cache. A run that has a file open keeps
//! reading it whole: removing a file unlinks its name, and the data stays until the last
//! reader closes it (Unix). A run that writes one writes a temporary file and renames it
//! into place, so it never sees a half-cleared file either; a temporary file written in
//! the last [`WRITING`] is taken for a write in progress and kept.

use super::STDOUT;
use analyze::solve::cache::{self, Contents};
use analyze::util::human_bytes;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where the solver keeps its tables: `$ANALYZE_CACHE_DIR` if set, else
/// `$XDG_CACHE_HOME/analyze`, else `$HOME/.cache/analyze`; `None` (no cache) if the
/// environment names none of them.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("ANALYZE_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("analyze")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("analyze")))
}

/// A temporary file changed this recently may be another run's write in progress:
/// clearing keeps it. (Tables are built in memory and written in seconds.)
pub const WRITING: Duration = Duration::from_secs(10 * 60);

/// What the cache folder holds.
struct Holdings {
    /// The cache's files, oldest use first.
    files: Vec<Entry>,
    /// Names of the other entries, left alone.
    others: Vec<String>,
}

/// One of the cache's files.
struct Entry {
    name: String,
    path: PathBuf,
    /// What it holds; `None` for the temporary file of a write.
    contents: Option<Contents>,
    bytes: u64,
    /// Its modification time: when it was last written or loaded.
    used: SystemTime,
}

impl Entry {
    fn is_temp(&self) -> bool {
        self.contents.is_none()
    }
}

/// `--cache`: one row per cache file (file, puzzle, goal, size, last use), oldest use
/// first, then the total.
pub fn list() -> Result<()> {
    let Some(dir) = cache_dir() else {
        return say(&no_cache());
    };
    let held = scan(&dir)?;
    let mut out = std::io::stdout().lock();
    if held.files.is_empty() {
        writeln!(out, "the cache at {} is empty", dir.display()).context(STDOUT)?;
    } else {
        writeln!(out, "the cache at {}, oldest use first:", dir.display()).context(STDOUT)?;
        write_table(&held.files, &mut out).context(STDOUT)?;
    }
    if !held.others.is_empty() {
        writeln!(out, "{}", left_alone(&held.others)).context(STDOUT)?;
    }
    out.flush().context(STDOUT)
}

/// `--cache-clear [DAYS]`: removes the cache files not used in the last `days` days (all
/// of them without), and the temporary files of interrupted writes; says what went and
/// what is left.
pub fn clear(days: Option<u64>) -> Result<()> {
    let Some(dir) = cache_dir() else {
        return say(&no_cache());
    };
    let held = scan(&dir)?;
    let now = SystemTime::now();
    let age = |e: &Entry| now.duration_since(e.used).unwrap_or_default();
    let cutoff = days.map(|d| Duration::from_secs(d.saturating_mul(24 * 3600)));
    let (mut gone, mut kept, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for entry in held.files {
        let remove = if entry.is_temp() {
            age(&entry) >= WRITING
        } else {
            cutoff.is_none_or(|cutoff| age(&entry) >= cutoff)
        };
        if !remove {
            kept.push(entry);
            continue;
        }
        match std::fs::remove_file(&entry.path) {
            Ok(()) => gone.push(entry),
            // Another clear took it first.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => failed.push(format!("{}: {e}", entry.name)),
        }
    }
    let mut out = std::io::stdout().lock();
    let shown = dir.display();
    if gone.is_empty() {
        writeln!(out, "removed nothing from the cache at {shown}").context(STDOUT)?;
    } else {
        writeln!(out, "removed from the cache at {shown}:").context(STDOUT)?;
        write_table(&gone, &mut out).context(STDOUT)?;
    }
    let (writing, used): (Vec<&Entry>, Vec<&Entry>) = kept.iter().partition(|e| e.is_temp());
    if !used.is_empty() {
        let days = days.unwrap_or_default();
        writeln!(
            out,
            "kept {} used in the last {days} day{} ({})",
            files(used.len()),
            if days == 1 { "" } else { "s" },
            human_bytes(u128::from(used.iter().map(|e| e.bytes).sum::<u64>()))
        )
        .context(STDOUT)?;
    }
    if !writing.is_empty() {
        writeln!(
            out,
            "kept {} being written (changed in the last {} minutes)",
            files(writing.len()),
            WRITING.as_secs() / 60
        )
        .context(STDOUT)?;
    }
    if !held.others.is_empty() {
        writeln!(out, "{}", left_alone(&held.others)).context(STDOUT)?;
    }
    out.flush().context(STDOUT)?;
    match failed.as_slice() {
        [] => Ok(()),
        [one] => anyhow::bail!("cannot remove {one} from the cache at {shown}"),
        [first, ..] => anyhow::bail!(
            "cannot remove {} files from the cache at {shown}, the first {first}",
            failed.len()
        ),
    }
}

/// Reads the folder `dir`: its cache files, oldest use first, and the names of the rest.
/// A folder that does not exist holds nothing.
fn scan(dir: &Path) -> Result<Holdings> {
    let shown = dir.display();
    let mut held = Holdings {
        files: Vec::new(),
        others: Vec::new(),
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(held),
        Err(e) => return Err(e).with_context(|| format!("cannot read the cache folder {shown}")),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read the cache folder {shown}"))?;
        // Shown on the terminal: a planted name's controls are escaped, never sent.
        let name = analyze::util::terminal_text(&entry.file_name().to_string_lossy());
        let path = entry.path();
        let header = match cache::header_of(&path) {
            Ok(header) => header,
            // Removed meanwhile (another clear, a writer's rename).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read the cache file {}", path.display())),
        };
        let contents = header.as_deref().and_then(cache::contents);
        // A temporary file is recognised by its name: an interrupted write may not have
        // reached the end of its header line.
        let temp = cache::is_temp_name(&name);
        if contents.is_none() && !(temp && is_plain_file(&path)) {
            held.others.push(name);
            continue;
        }
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read the cache file {}", path.display())),
        };
        held.files.push(Entry {
            name,
            path,
            contents: if temp { None } else { contents },
            bytes: meta.len(),
            used: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        });
    }
    held.files
        .sort_by(|a, b| a.used.cmp(&b.used).then_with(|| a.name.cmp(&b.name)));
    held.others.sort();
    Ok(held)
}

/// Whether `path` is a regular file itself (not a link to one).
fn is_plain_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// The rows of `entries` under a heading line, then their total.
fn write_table(entries: &[Entry], out: &mut impl Write) -> std::io::Result<()> {
    let rows: Vec<[String; 5]> = entries
        .iter()
        .map(|e| {
            let (puzzle, goal) = match &e.contents {
                Some(c) => (
                    analyze::util::terminal_text(&c.puzzle),
                    c.goal
                        .as_deref()
                        .map_or_else(|| "usual".into(), analyze::util::terminal_text),
                ),
                None => ("(an interrupted write)".into(), "-".into()),
            };
            [
                e.name.clone(),
                puzzle,
                goal,
                human_bytes(u128::from(e.bytes)),
                analyze::util::utc_minute(e.used),
            ]
        })
        .collect();
    let heading = ["file", "puzzle", "goal", "size", "last use (UTC)"];
    let mut widths = heading.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        let [file, puzzle, goal, size, used] = cells;
        let [w0, w1, w2, w3, _] = widths;
        format!("{file:w0$}  {puzzle:w1$}  {goal:w2$}  {size:>w3$}  {used}")
    };
    writeln!(out, "{}", line(heading))?;
    for row in &rows {
        writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
    }
    let bytes: u64 = entries.iter().map(|e| e.bytes).sum();
    writeln!(
        out,
        "total: {}, {}",
        files(entries.len()),
        human_bytes(u128::from(bytes))
    )
}

/// `1 file`, `2 files`.
fn files(n: usize) -> String {
    format!("{n} file{}", if n == 1 { "" } else { "s" })
}

/// The line about entries that are not the cache's: how many, and the first few names.
fn left_alone(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
    let more = if names.len() > shown.len() { ", ..." } else { "" };
    match names.len() {
        1 => format!(
            "left alone: 1 entry that is not a cache file ({}{more})",
            shown.join(", ")
        ),
        n => format!(
            "left alone: {n} entries that are not cache files ({}{more})",
            shown.join(", ")
        ),
    }
}

fn no_cache() -> String {
    "there is no cache folder: set ANALYZE_CACHE_DIR, XDG_CACHE_HOME or HOME".into()
}

fn say(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).context(STDOUT)
}
