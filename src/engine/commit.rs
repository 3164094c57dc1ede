//! A level's commit on disk, run beside the next level: the files the level wrote synced,
//! the manifest written aside, synced and renamed into place, then the space of the block
//! versions it superseded freed and the update files it consumed removed.
//!
//! The commit waits on the disk (each `fdatasync`, the folder's syncs, and a hole punched in
//! each superseded block, which ext4 journals): on 3x4 at 16 MiB that was a third of the wall
//! time, with the CPU idle. The next level only reads committed blocks and creates files of
//! new names, so it may run meanwhile; what it must not do before the commit is done is write
//! a block to a slot the commit frees (the committed version of the level before, which the
//! manifest in place may still name). [`Pending::frees`] says which, and the search waits for
//! the commit ([`Pending::wait`]) before writing one of them, and before the next commit.
//! A run killed meanwhile resumes from the level before, as one killed during a commit did.

use super::error::{DiskError, EngineError};
use std::collections::{BTreeSet, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// A block superseded by a commit: its part, the slot it leaves, its index.
pub(super) type Superseded = (usize, u8, usize);

/// What a level's commit does, gathered before it starts.
pub(super) struct Commit {
    /// The search's folder.
    pub dir: PathBuf,
    /// The files the level wrote, synced before the manifest is written.
    pub written: BTreeSet<PathBuf>,
    /// The manifest's bytes, sealed.
    pub manifest: Vec<u8>,
    /// The manifest it replaces, kept as [`PREVIOUS`] before it is (a process of a shared
    /// search may have to go back to it), if it is to be kept.
    pub previous: Option<Vec<u8>>,
    /// What is freed once the manifest is in place.
    pub frees: Frees,
}

/// What a commit supersedes: freed once the manifest is in place, or, for a process of a
/// shared search, once every process has committed the level.
#[derive(Default)]
pub(super) struct Frees {
    /// Byte ranges of part files whose space is freed: (file, offset, length),
    /// neighbouring blocks merged into one range.
    pub holes: Vec<(PathBuf, u64, u64)>,
    /// The update files the level consumed, removed.
    pub applied: Vec<PathBuf>,
}

impl Frees {
    /// Frees the superseded blocks' space and removes the consumed update files (one gone
    /// already, after a commit run again, is no error).
    pub fn run(&self) -> Result<(), EngineError> {
        punch(&self.holes);
        for path in &self.applied {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(DiskError::io(path, &e).into()),
                _ => {}
            }
        }
        Ok(())
    }
}

/// A commit under way on its own thread.
pub(super) struct Pending {
    superseded: HashSet<Superseded>,
    thread: JoinHandle<Result<(), EngineError>>,
}

/// Name of the manifest in the folder.
pub(super) const MANIFEST: &str = "manifest.json";
/// Name of the manifest before the last commit, kept by a process of a shared search.
pub(super) const PREVIOUS: &str = "manifest.previous.json";

/// Threads that sync the level's files at once: each `fdatasync` waits on the disk, not on
/// a core, so a few run side by side without taking the expansion's cores.
const SYNC_THREADS: usize = 4;

impl Commit {
    /// Runs the commit here, to its end.
    pub fn run(self) -> Result<(), EngineError> {
        sync_files(&self.written)?;
        sync_dir(&self.dir)?;
        if let Some(previous) = &self.previous {
            self.replace(PREVIOUS, previous)?;
            // In place before the manifest it was is replaced.
            sync_dir(&self.dir)?;
        }
        self.replace(MANIFEST, &self.manifest)?;
        sync_dir(&self.dir)?;
        self.frees.run()
    }

    /// Writes `bytes` as the folder's file `name`, whole or not at all: written aside,
    /// synced and renamed into place.
    fn replace(&self, name: &str, bytes: &[u8]) -> Result<(), EngineError> {
        let path = self.dir.join(name);
        let temporary = self.dir.join(format!("{name}.tmp"));
        let io = |e: io::Error| DiskError::io(&temporary, &e);
        let mut file = create_new(&temporary).map_err(io)?;
        file.write_all(bytes).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&temporary, &path).map_err(|e| DiskError::io(&path, &e).into())
    }

    /// Runs the commit on its own thread; `superseded` are the blocks whose slots it frees.
    pub fn spawn(self, superseded: &[Superseded]) -> Result<Pending, EngineError> {
        let dir = self.dir.clone();
        let thread = std::thread::Builder::new()
            .name("analyze-commit".into())
            .spawn(move || self.run())
            .map_err(|e| DiskError::io(&dir, &e))?;
        Ok(Pending {
            superseded: superseded.iter().copied().collect(),
            thread,
        })
    }
}

impl Pending {
    /// Whether the commit frees the slot `slot` of block `b` of part `p`: a write there must
    /// wait for it.
    pub fn frees(&self, p: usize, slot: u8, b: usize) -> bool {
        self.superseded.contains(&(p, slot, b))
    }

    /// Waits for the commit to end; its error, if it failed.
    pub fn wait(self) -> Result<(), EngineError> {
        self.thread.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
    }
}

/// The ranges of part files to free for the blocks `superseded` (blocks of `block` bytes,
/// each file named by `path`), neighbouring blocks of a file as one range: ext4 journals
/// each punch, so one call a run of blocks rather than one a block.
pub(super) fn holes(
    superseded: &[Superseded],
    block: u64,
    path: impl Fn(usize, u8) -> PathBuf,
) -> Vec<(PathBuf, u64, u64)> {
    let mut sorted = superseded.to_vec();
    sorted.sort_unstable();
    let mut ranges: Vec<((usize, u8), u64, u64)> = Vec::new();
    for (p, slot, b) in sorted {
        let (key, start) = ((p, slot), b as u64 * block);
        match ranges.last_mut() {
            Some((k, from, len)) if *k == key && *from + *len == start => *len += block,
            _ => ranges.push((key, start, block)),
        }
    }
    ranges
        .into_iter()
        .map(|((p, slot), from, len)| (path(p, slot), from, len))
        .collect()
}

/// Syncs `written`, [`SYNC_THREADS`] at a time; a file gone (an early update file, consumed
/// within its level) needs no sync.
fn sync_files(written: &BTreeSet<PathBuf>) -> Result<(), EngineError> {
    let files: Vec<&PathBuf> = written.iter().collect();
    let share = files.len().div_ceil(SYNC_THREADS).max(1);
    std::thread::scope(|s| {
        let threads: Vec<_> = files
            .chunks(share)
            .map(|paths| {
                s.spawn(move || {
                    for path in paths {
                        match open_read(path).and_then(|f| f.sync_data()) {
                            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                            other => other.map_err(|e| EngineError::from(DiskError::io(path, &e)))?,
                        }
                    }
                    Ok::<(), EngineError>(())
                })
            })
            .collect();
        threads
            .into_iter()
            .try_for_each(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    })
}

/// Frees the space of `holes` (`fallocate` with `PUNCH_HOLE`). Where the file system cannot
/// (or off Linux), the blocks stay until written over two levels on: only space is at stake,
/// as the manifest no longer names them.
fn punch(holes: &[(PathBuf, u64, u64)]) {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{FallocateFlags, fallocate};
        let mut open: Option<(&PathBuf, File)> = None;
        for (path, from, len) in holes {
            if open.as_ref().is_none_or(|(p, _)| *p != path) {
                open = no_follow().write(true).open(path).ok().map(|f| (path, f));
            }
            if let Some((_, file)) = &open {
                let _ = fallocate(
                    file,
                    FallocateFlags::PUNCH_HOLE | FallocateFlags::KEEP_SIZE,
                    *from,
                    *len,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = holes;
}

/// Options to open a file of the folder that never follow a symbolic link: a link planted
/// in the folder (`part-0-0.a -> ~/thesis.pdf`) makes the open fail, naming the file,
/// instead of letting the search write its planes through it.
pub(super) fn no_follow() -> OpenOptions {
    let mut options = File::options();
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    options
}

/// Opens `path` of the folder to read, without following a link.
pub(super) fn open_read(path: &Path) -> io::Result<File> {
    no_follow().read(true).open(path)
}

/// Creates `path` in the folder, new: an older file of that name is removed first (only
/// the search's own names are ever given), and a link planted meanwhile is not followed.
pub(super) fn create_new(path: &Path) -> io::Result<File> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    no_follow().write(true).create_new(true).open(path)
}

/// Syncs the folder's entries (renames and new files), where the system allows it.
pub(super) fn sync_dir(dir: &Path) -> Result<(), EngineError> {
    match File::open(dir).and_then(|d| d.sync_all()) {
        Ok(()) => Ok(()),
        // Some systems cannot sync a folder; the files themselves are synced.
        Err(e) if e.kind() == io::ErrorKind::InvalidInput || e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
        Err(e) => Err(DiskError::io(dir, &e).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_superseded_blocks_are_freed_as_one_range() {
        let path = |p: usize, slot: u8| PathBuf::from(format!("{p}-{slot}"));
        let superseded = [(0, 0, 2), (0, 0, 0), (0, 0, 1), (0, 1, 3), (2, 0, 4), (0, 0, 5)];
        let got = holes(&superseded, 10, path);
        assert_eq!(
            got,
            vec![
                (PathBuf::from("0-0"), 0, 30),
                (PathBuf::from("0-0"), 50, 10),
                (PathBuf::from("0-1"), 30, 10),
                (PathBuf::from("2-0"), 40, 10),
            ]
        );
    }
}
