//! Report files. Each format is a small module with a pure function from an
//! [`Analysis`] to a writer; this module alone decides file names and how a folder of
//! reports appears on disk: built in a hidden staging folder, then renamed into place,
//! so a reader never sees a half-written report.

pub mod atlas;
pub mod atlas_chart;
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
pub const FILES: [&str; 7] = [
    "distances.csv",
    "classes.csv",
    "summary.json",
    "distances.png",
    "distances-log.png",
    "growth.png",
    "report.md",
];

/// `1234567` as `1,234,567`.
pub fn thousands(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Writes every report file of `analysis` into the folder `dir`.
pub fn write_all(analysis: &Analysis, dir: &Path) -> Result<()> {
    write_file(dir, "distances.csv", |w| Ok(csv::write_distances(analysis, w)?))?;
    write_file(dir, "classes.csv", |w| Ok(csv::write_classes(analysis, w)?))?;
    write_file(dir, "summary.json", |w| Ok(json::write_summary(analysis, w)?))?;
    draw(dir, "distances.png", |p| chart::distances(analysis, p))?;
    draw(dir, "distances-log.png", |p| chart::distances_log(analysis, p))?;
    draw(dir, "growth.png", |p| chart::growth(analysis, p))?;
    if let Some(atlas) = &analysis.atlas {
        write_file(dir, "heuristics.csv", |w| Ok(atlas::write_heuristics(atlas, w)?))?;
        draw(dir, "heuristics.png", |p| atlas_chart::heuristics(analysis, atlas, p))?;
        if atlas.effort.is_some() {
            write_file(dir, "astar.csv", |w| Ok(atlas::write_astar(atlas, w)?))?;
            draw(dir, "astar.png", |p| atlas_chart::astar(analysis, atlas, p))?;
        }
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
/// search, if `out` cannot be written. Staging folders for the same name left by a run
/// that was killed outright (SIGKILL, power loss) are removed first; a staging folder
/// carries its process id, so one of a run still going is left alone.
pub fn stage(out: &Path, name: &str) -> Result<Staged> {
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} is a file, not a folder", out.display());
    }
    fs::create_dir_all(out).with_context(|| format!("cannot create the output folder {}", out.display()))?;
    remove_stale(out, name);
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

/// Best effort: a leftover that cannot be removed is harmless, being hidden and named
/// as incomplete. Where the system does not show processes under `/proc`, nothing is
/// removed.
fn remove_stale(out: &Path, name: &str) {
    let prefixes = [format!(".{name}.partial-"), format!(".{name}.old-")];
    for entry in fs::read_dir(out).into_iter().flatten().flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let Some(rest) = prefixes.iter().find_map(|p| file_name.strip_prefix(p.as_str())) else {
            continue;
        };
        let owner = rest.split('-').next().unwrap_or_default();
        let alive = Path::new("/proc").join(owner).exists() || !Path::new("/proc/self").exists();
        if !alive && entry.path().is_dir() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

impl Staged {
    /// Where the files go until the commit.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Replaces `out/name` with the staged folder; returns the final path.
    pub fn commit(self) -> Result<PathBuf> {
        let target = self.out.join(&self.name);
        let fail = |e: std::io::Error| anyhow::anyhow!("cannot move the report into {}: {e}", target.display());
        let old = if target.exists() {
            // Move the previous report aside first: a directory cannot be renamed over a
            // non-empty one, and the old copy must survive until the new one is in place.
            let aside = tempfile::Builder::new()
                .prefix(&format!(".{}.old-{}-", self.name, std::process::id()))
                .tempdir_in(&self.out)
                .map_err(fail)?;
            let aside = aside.keep();
            fs::rename(&target, &aside).map_err(fail)?;
            Some(aside)
        } else {
            None
        };
        let staged = self.dir.keep();
        fs::rename(&staged, &target).map_err(fail)?;
        if let Some(old) = old {
            fs::remove_dir_all(&old).map_err(fail)?;
        }
        Ok(target)
    }
}
