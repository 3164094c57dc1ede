//! Report files. Each format is a small module with a pure function from an
//! [`Analysis`] to a writer; this module alone decides file names and how a folder of
//! reports appears on disk: built in a hidden staging folder, then renamed into place,
//! so a reader never sees a half-written report.

pub mod atlas;
pub mod atlas_chart;
pub mod bands;
pub mod chart;
pub mod csv;
pub mod index;
pub mod json;
pub mod markdown;
pub mod oeis;

use crate::analysis::Analysis;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::fs::{self, File, TryLockError};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tempfile::TempDir;

/// The files of every analysis, in the order they are written (sliding boards with the
/// heuristic atlas add `heuristics.csv` and `heuristics.png`, with its A* table `astar.csv`
/// and `astar.png`).
pub const FILES: [&str; 8] = [
    "distances.csv",
    "classes.csv",
    "summary.json",
    "run.json",
    "distances.png",
    "distances-log.png",
    "growth.png",
    "report.md",
];

pub use crate::util::thousands;

/// Writes every report file of `analysis` into the folder `dir`. The files are independent,
/// so they are written in parallel: on small puzzles drawing the charts is most of a run.
pub fn write_all(analysis: &Analysis, dir: &Path, oeis: bool, provenance: &json::Provenance) -> Result<()> {
    type Task<'a> = Box<dyn Fn() -> Result<()> + Send + Sync + 'a>;
    let mut tasks: Vec<Task> = vec![
        Box::new(|| draw(dir, "distances.png", |p| chart::distances(analysis, p))),
        Box::new(|| draw(dir, "distances-log.png", |p| chart::distances_log(analysis, p))),
        Box::new(|| draw(dir, "growth.png", |p| chart::growth(analysis, p))),
        Box::new(|| {
            write_file(dir, "distances.csv", |w| Ok(csv::write_distances(analysis, w)?))?;
            if oeis {
                write_file(dir, "oeis-terms.txt", |w| Ok(csv::write_oeis_terms(analysis, w)?))?;
                write_file(dir, "b-file.txt", |w| Ok(csv::write_b_file(analysis, w)?))?;
            }
            write_file(dir, "classes.csv", |w| Ok(csv::write_classes(analysis, w)?))?;
            write_file(dir, "summary.json", |w| Ok(json::write_summary(analysis, w)?))?;
            write_file(dir, "run.json", |w| Ok(json::write_run(analysis, provenance, w)?))?;
            write_file(dir, "report.md", |w| Ok(markdown::write_report(analysis, w)?))
        }),
    ];
    if let Some(atlas) = &analysis.atlas {
        tasks.push(Box::new(move || {
            write_file(dir, "heuristics.csv", |w| Ok(atlas::write_heuristics(atlas, w)?))?;
            write_file(dir, "astar.csv", |w| Ok(atlas::write_astar(atlas, w)?))
        }));
        tasks.push(Box::new(move || {
            draw(dir, "heuristics.png", |p| atlas_chart::heuristics(analysis, atlas, p))
        }));
        tasks.push(Box::new(move || {
            draw(dir, "astar.png", |p| atlas_chart::astar(analysis, atlas, p))
        }));
    }
    tasks.par_iter().try_for_each(|task| task())
}

/// Creates `dir/name` and lets `body` fill it through a buffer.
pub fn write_file(dir: &Path, name: &str, body: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let path = dir.join(name);
    let file = File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut writer = BufWriter::new(file);
    body(&mut writer).with_context(|| format!("cannot write {}", path.display()))?;
    writer
        .flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Renders one chart to `dir/name`.
pub fn draw(
    dir: &Path,
    name: &str,
    render: impl FnOnce(&Path) -> std::result::Result<(), Box<dyn std::error::Error + Send + Sync>>,
) -> Result<()> {
    let path = dir.join(name);
    render(&path).map_err(|e| anyhow::anyhow!("cannot draw {}: {e}", path.display()))
}

/// A report folder being written: hidden until [`Staged::commit`] renames it into place.
/// The hidden folder holds the [`MARKER`] and the report's files in [`REPORT`], so the
/// marker never reaches the committed report.
pub struct Staged {
    dir: TempDir,
    out: PathBuf,
    name: String,
}

/// The file that marks a hidden folder in an output folder as analyze's own: a staging
/// folder `.X.partial-PID-*` or a previous report moved aside `.X.old-*`. It is written
/// the moment the folder is created, and only folders holding it are ever removed or put
/// back, so a user's `.notes.old-2019/` in `--out` is never touched.
pub const MARKER: &str = ".analyze-staging";
/// The first line of a [`MARKER`] file; the second is `pid N`, the process that wrote it.
pub const MARKER_MAGIC: &str = "analyze: a report being written or moved aside; a later run removes it or puts it back";
/// The subfolder of a marked folder that holds the report's files.
pub const REPORT: &str = "report";

/// The text of the [`MARKER`] written by process `pid`.
pub fn marker_text(pid: u32) -> String {
    format!("{MARKER_MAGIC}\npid {pid}\n")
}

/// The process named by the [`MARKER`] in `dir`, if `dir` is a folder analyze marked.
fn marker_pid(dir: &Path) -> Option<u32> {
    let path = dir.join(MARKER);
    let meta = fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > 1024 {
        return None;
    }
    let text = fs::read_to_string(&path).ok()?;
    let mut lines = text.lines();
    if lines.next()? != MARKER_MAGIC {
        return None;
    }
    lines.next()?.strip_prefix("pid ")?.parse().ok()
}

/// The process that made a hidden folder named exactly as [`marked_folder`] names them
/// (`NAME.partial-PID-XXXXXX` or `NAME.old-PID-XXXXXX`, without the leading dot), or `None`.
fn unmarked_owner(hidden: &str) -> Option<u32> {
    let (_, rest) = hidden.split_once(".partial-").or_else(|| hidden.split_once(".old-"))?;
    let (pid, suffix) = rest.split_once('-')?;
    let random = suffix.len() == TEMP_SUFFIX && suffix.bytes().all(|b| b.is_ascii_alphanumeric());
    (random && pid.bytes().all(|b| b.is_ascii_digit())).then(|| pid.parse().ok())?
}

/// The random characters `tempfile` ends a folder's name with (its default, set here).
const TEMP_SUFFIX: usize = 6;

/// A new hidden folder `out/{prefix}*`, marked as analyze's own before anything else is
/// done with it (a run killed before the marker is written leaves it empty, and `tidy`
/// removes it by its name's exact shape).
fn marked_folder(out: &Path, prefix: &str) -> std::io::Result<TempDir> {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .rand_bytes(TEMP_SUFFIX)
        .tempdir_in(out)?;
    fs::write(dir.path().join(MARKER), marker_text(std::process::id()))?;
    Ok(dir)
}

/// How a run waits while another holds the lock on its output folder.
pub struct Waiting<'a> {
    /// Called once, with the folder, when the lock is found taken.
    pub on_wait: &'a dyn Fn(&Path),
    /// Waiting ends with [`Stopped`] once this is set (Ctrl-C, SIGTERM).
    pub stop: &'a AtomicBool,
}

/// Waiting for the lock on the output folder was stopped: nothing was written.
#[derive(Debug, thiserror::Error)]
#[error("stopped while waiting for the output folder {0}, locked by another analyze run")]
pub struct Stopped(pub PathBuf);

/// How often a locked output folder is tried again.
const LOCK_RETRY: Duration = Duration::from_millis(100);

/// Starts the folder `out/name`, creating `out` if needed. Fails now, before any long
/// search, if `out` cannot be written or `out/name` exists and is not a folder. First
/// tidies `out` after runs that were killed outright (SIGKILL, power loss): see `tidy`.
pub fn stage(out: &Path, name: &str, waiting: &Waiting) -> Result<Staged> {
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} is a file, not a folder", out.display());
    }
    fs::create_dir_all(out).with_context(|| format!("cannot create the output folder {}", out.display()))?;
    if let Some(_lock) = lock(out, waiting)? {
        tidy(out);
    }
    check_target(&out.join(name))?;
    let dir = marked_folder(out, &format!(".{name}.partial-{}-", std::process::id()))
        .and_then(|dir| fs::create_dir(dir.path().join(REPORT)).map(|()| dir))
        .with_context(|| format!("cannot write in the output folder {}", out.display()))?;
    Ok(Staged {
        dir,
        out: out.to_path_buf(),
        name: name.to_string(),
    })
}

/// Swaps the folders `a` and `b` in one step (Linux `renameat2` with `RENAME_EXCHANGE`),
/// so no moment exists without a report; false where the system or file system cannot,
/// and the caller falls back to two renames.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> bool {
    false
}

/// `out/name` must be a folder (a previous report) or absent.
fn check_target(target: &Path) -> Result<()> {
    match fs::symlink_metadata(target) {
        Ok(meta) if !meta.is_dir() => anyhow::bail!(
            "{} exists and is not a folder ({}), so the report cannot replace it: move it away or choose another --out",
            target.display(),
            if meta.is_symlink() { "a symbolic link" } else { "a file" }
        ),
        _ => Ok(()),
    }
}

/// An exclusive lock on the folder `out`, held while report folders are swapped, so
/// that concurrent runs writing the same `out` commit one after the other. The system
/// releases it when the process dies, however it dies. Taken without blocking, tried again
/// every 100 ms: `waiting` is told once that another run holds it, and its flag stops the
/// wait. Where a folder cannot be opened as a file (not on Linux or macOS), runs are not
/// serialised and nothing is tidied.
fn lock(out: &Path, waiting: &Waiting) -> Result<Option<File>> {
    let Ok(folder) = File::open(out) else {
        return Ok(None);
    };
    let mut told = false;
    loop {
        match folder.try_lock() {
            Ok(()) => return Ok(Some(folder)),
            Err(TryLockError::WouldBlock) => {
                if !told {
                    (waiting.on_wait)(out);
                    told = true;
                }
                if waiting.stop.load(Ordering::Relaxed) {
                    return Err(Stopped(out.to_path_buf()).into());
                }
                std::thread::sleep(LOCK_RETRY);
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock the output folder {}", out.display()));
            }
        }
    }
}

/// Cleans up after runs killed outright; called with the lock held. Only hidden folders
/// holding analyze's [`MARKER`] are touched: a user's folder of a look-alike name never
/// is. A commit moves the previous report `X` aside into `.X.old-*/report` and the new one
/// into `X` under the lock, so under the lock a marked `.X.old-*` folder is always a
/// leftover: if `X` is missing, the run died between the two renames and the folder
/// holds the report, so it is put back; then the folder is removed. A marked staging
/// folder `.X.partial-*` is removed once the process its marker names is gone (where
/// `/proc` shows processes). Best effort: a leftover that cannot be removed is harmless,
/// being hidden and named as incomplete.
fn tidy(out: &Path) {
    let processes = Path::new("/proc/self").exists();
    for entry in fs::read_dir(out).into_iter().flatten().flatten() {
        if !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            continue;
        }
        let file_name = entry.file_name();
        let Some(hidden) = file_name.to_str().and_then(|n| n.strip_prefix('.')) else {
            continue;
        };
        let folder = entry.path();
        let Some(owner) = marker_pid(&folder) else {
            // Killed between creating one of its folders and marking it: that folder is
            // empty, and `remove_dir` removes nothing else.
            if let Some(pid) = unmarked_owner(hidden)
                && processes
                && !Path::new("/proc").join(pid.to_string()).exists()
            {
                let _ = fs::remove_dir(&folder);
            }
            continue;
        };
        if let Some((name, _)) = hidden.split_once(".old-") {
            let report = out.join(name);
            let kept = folder.join(REPORT);
            if fs::symlink_metadata(&report).is_err()
                && fs::symlink_metadata(&kept).is_ok_and(|m| m.is_dir())
                && fs::rename(&kept, &report).is_err()
            {
                continue;
            }
            let _ = fs::remove_dir_all(&folder);
        } else if hidden.contains(".partial-") && processes && !Path::new("/proc").join(owner.to_string()).exists() {
            let _ = fs::remove_dir_all(&folder);
        }
    }
}

impl Staged {
    /// Where the files go until the commit.
    pub fn path(&self) -> PathBuf {
        self.dir.path().join(REPORT)
    }

    /// Replaces `out/name` with the staged report; returns the final path. Under the
    /// folder lock (waited for as `waiting` says), the two folders are exchanged in one
    /// step where the system can; else the swap is two renames, and a run killed between
    /// them leaves the previous report in a marked `.name.old-*` folder, which the next
    /// run puts back (see `tidy`).
    pub fn commit(self, waiting: &Waiting) -> Result<PathBuf> {
        let target = self.out.join(&self.name);
        let fail = |e: std::io::Error| anyhow::anyhow!("cannot move the report into {}: {e}", target.display());
        let _lock = lock(&self.out, waiting)?;
        check_target(&target)?;
        let report = self.path();
        let exists = fs::symlink_metadata(&target).is_ok();
        if exists && exchange(&report, &target) {
            // The staging folder now holds the previous report: dropping it deletes it.
            return Ok(target);
        }
        let old = if exists {
            // A folder cannot be renamed over a non-empty one: move the previous report
            // aside (into a marked folder of a unique name) first.
            let aside = marked_folder(&self.out, &format!(".{}.old-{}-", self.name, std::process::id()))
                .map_err(fail)?
                .keep();
            if let Err(e) = fs::rename(&target, aside.join(REPORT)) {
                let _ = fs::remove_dir_all(&aside);
                return Err(fail(e));
            }
            Some(aside)
        } else {
            None
        };
        if let Err(e) = fs::rename(&report, &target) {
            // Put the previous report back; if that fails too, the next run does.
            if let Some(old) = &old
                && fs::rename(old.join(REPORT), &target).is_ok()
            {
                let _ = fs::remove_dir_all(old);
            }
            return Err(fail(e));
        }
        if let Some(old) = old {
            // The new report is in place; a copy left here is removed by the next run.
            let _ = fs::remove_dir_all(&old);
        }
        // Dropping the staging folder removes what is left of it: the marker.
        Ok(target)
    }
}
