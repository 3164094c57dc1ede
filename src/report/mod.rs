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

use crate::analysis::Analysis;
use anyhow::{Context, Result};
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
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

/// Writes every report file of `analysis` into the folder `dir`.
pub fn write_all(analysis: &Analysis, dir: &Path) -> Result<()> {
    write_file(dir, "distances.csv", |w| Ok(csv::write_distances(analysis, w)?))?;
    write_file(dir, "classes.csv", |w| Ok(csv::write_classes(analysis, w)?))?;
    write_file(dir, "summary.json", |w| Ok(json::write_summary(analysis, w)?))?;
    write_file(dir, "run.json", |w| Ok(json::write_run(analysis, w)?))?;
    draw(dir, "distances.png", |p| chart::distances(analysis, p))?;
    draw(dir, "distances-log.png", |p| chart::distances_log(analysis, p))?;
    draw(dir, "growth.png", |p| chart::growth(analysis, p))?;
    if let Some(atlas) = &analysis.atlas {
        write_file(dir, "heuristics.csv", |w| Ok(atlas::write_heuristics(atlas, w)?))?;
        draw(dir, "heuristics.png", |p| atlas_chart::heuristics(analysis, atlas, p))?;
        write_file(dir, "astar.csv", |w| Ok(atlas::write_astar(atlas, w)?))?;
        draw(dir, "astar.png", |p| atlas_chart::astar(analysis, atlas, p))?;
    }
    write_file(dir, "report.md", |w| Ok(markdown::write_report(analysis, w)?))?;
    Ok(())
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
pub struct Staged {
    dir: TempDir,
    out: PathBuf,
    name: String,
}

/// Starts the folder `out/name`, creating `out` if needed. Fails now, before any long
/// search, if `out` cannot be written or `out/name` exists and is not a folder. First
/// tidies `out` after runs that were killed outright (SIGKILL, power loss): see `tidy`.
pub fn stage(out: &Path, name: &str) -> Result<Staged> {
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} is a file, not a folder", out.display());
    }
    fs::create_dir_all(out).with_context(|| format!("cannot create the output folder {}", out.display()))?;
    if let Some(_lock) = lock(out)? {
        tidy(out);
    }
    check_target(&out.join(name))?;
    let dir = tempfile::Builder::new()
        .prefix(&format!(".{name}.partial-{}-", std::process::id()))
        .tempdir_in(out)
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
/// releases it when the process dies, however it dies. Where a folder cannot be opened
/// as a file (not on Linux or macOS), runs are not serialised and nothing is tidied.
fn lock(out: &Path) -> Result<Option<File>> {
    let Ok(folder) = File::open(out) else {
        return Ok(None);
    };
    folder
        .lock()
        .with_context(|| format!("cannot lock the output folder {}", out.display()))?;
    Ok(Some(folder))
}

/// Cleans up after runs killed outright; called with the lock held. A commit moves the
/// previous report `X` aside to `.X.old-*` and the new one into `X` under the lock, so
/// under the lock an `.X.old-*` folder is always a leftover: if `X` is missing, the
/// run died between the two renames and the old folder is the report, so it is put
/// back; otherwise it is removed. A staging folder `.X.partial-PID-*` is removed once
/// process PID is gone (where `/proc` shows processes). Best effort: a leftover that
/// cannot be removed is harmless, being hidden and named as incomplete.
fn tidy(out: &Path) {
    let own_processes = Path::new("/proc/self").exists();
    for entry in fs::read_dir(out).into_iter().flatten().flatten() {
        let file_name = entry.file_name();
        let Some(hidden) = file_name.to_str().and_then(|n| n.strip_prefix('.')) else {
            continue;
        };
        if let Some((name, _)) = hidden.split_once(".old-") {
            let report = out.join(name);
            if fs::symlink_metadata(&report).is_err() {
                let _ = fs::rename(entry.path(), report);
            } else {
                let _ = fs::remove_dir_all(entry.path());
            }
        } else if let Some((_, rest)) = hidden.split_once(".partial-") {
            let owner = rest.split('-').next().unwrap_or_default();
            if own_processes && !Path::new("/proc").join(owner).exists() {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
}

impl Staged {
    /// Where the files go until the commit.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Replaces `out/name` with the staged folder; returns the final path. Under the
    /// folder lock, the two folders are exchanged in one step where the system can; else
    /// the swap is two renames, and a run killed between them leaves the previous report
    /// in `.name.old-*`, which the next run puts back (see `tidy`).
    pub fn commit(self) -> Result<PathBuf> {
        let target = self.out.join(&self.name);
        let fail = |e: std::io::Error| anyhow::anyhow!("cannot move the report into {}: {e}", target.display());
        let _lock = lock(&self.out)?;
        check_target(&target)?;
        let exists = fs::symlink_metadata(&target).is_ok();
        if exists && exchange(self.dir.path(), &target) {
            // The staging folder now holds the previous report: dropping it deletes it.
            return Ok(target);
        }
        let old = if exists {
            // A folder cannot be renamed over a non-empty one: move the previous report
            // aside (over an empty folder of a unique name) first.
            let aside = tempfile::Builder::new()
                .prefix(&format!(".{}.old-{}-", self.name, std::process::id()))
                .tempdir_in(&self.out)
                .map_err(fail)?
                .keep();
            if let Err(e) = fs::rename(&target, &aside) {
                let _ = fs::remove_dir(&aside);
                return Err(fail(e));
            }
            Some(aside)
        } else {
            None
        };
        let staged = self.dir.keep();
        if let Err(e) = fs::rename(&staged, &target) {
            if let Some(old) = &old {
                let _ = fs::rename(old, &target);
            }
            let _ = fs::remove_dir_all(&staged);
            return Err(fail(e));
        }
        if let Some(old) = old {
            // The new report is in place; a copy left here is removed by the next run.
            let _ = fs::remove_dir_all(&old);
        }
        Ok(target)
    }
}
