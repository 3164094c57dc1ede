//! Checkpoints: each process saves its slice at level boundaries and a rerun resumes.
//!
//! Each process writes `slice-<index>.<generation>.ckpt` in the checkpoint folder, the
//! generation alternating with the level (`a` for even levels, `b` for odd), so the two
//! latest saved levels are kept and a save that dies half-way leaves the other intact.
//! A file is written to a temporary name, synced, and renamed over the old generation.
//!
//! Format (little-endian): the magic `ANLZCKPT`, the format version, then a header that
//! identifies the search (puzzle id, its [`Identity`] with every part's hash, states,
//! process count, process index, slice), the
//! level saved, the result so far (levels, reached by class, antipodes, watched
//! distances), the slice's words, and a CRC-32 of everything before it.
//!
//! On resume every process reports the levels of its intact files through
//! [`Exchange::agree`]; all load the latest level every process has. A file of another
//! search (puzzle, its rules or definition edited, size, process layout, format) is
//! refused with the reason. A file too short to hold even its magic, or whose first bytes
//! are zero (what a crash can leave of a file being written), counts as damaged, so the
//! other generation is used.

pub use super::error::CheckpointError;

use super::counts::LevelCounts;
use super::error::EngineError;
use super::exchange::{Exchange, Partition};
use crate::identity::Identity;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Identifies a checkpoint file.
const MAGIC: &[u8; 8] = b"ANLZCKPT";
/// Bumped whenever the layout below, or the meaning of the planes' bits, changes
/// (2: the planes swap roles every level; 3: the header carries the search's identity).
const VERSION: u32 = 4;
/// Words read or written per block (256 KiB): the planes are copied through one block.
const BUFFER: usize = 1 << 15;

/// Where and how often to save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The checkpoint folder (created if missing).
    pub dir: PathBuf,
    /// Least time between two saves; `None` saves every level.
    pub every: Option<Duration>,
}

/// What the checkpoints did, for the caller to tell the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The search goes on after `level` (0-based), loaded from `path`.
    Resumed {
        /// The last level the checkpoint holds.
        level: usize,
        /// The file this process loaded.
        path: PathBuf,
    },
    /// A file was not used: damaged, or of a level not every process has.
    Skipped {
        /// The file.
        path: PathBuf,
        /// Why, in a few words.
        reason: String,
    },
    /// The search on disk in `path` expects its level `level` to write `need` bytes, more
    /// than the `free` bytes its file system has left.
    DiskShort {
        /// The level about to be counted.
        level: usize,
        /// Bytes it is expected to write: the last level's, scaled by the frontier's growth.
        need: u64,
        /// Bytes free there.
        free: u64,
        /// The `--disk` folder.
        path: PathBuf,
    },
    /// This process saved `level` to `path`.
    Saved {
        /// The last level saved.
        level: usize,
        /// The file written.
        path: PathBuf,
    },
}

/// The result so far: what a checkpoint keeps besides the planes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) levels: Vec<u64>,
    pub(crate) classes: Vec<u64>,
    /// The milliseconds of each run of the search up to its last save, this one's last.
    pub(crate) runs: Vec<u64>,
    pub(crate) reached_by_class: Vec<u64>,
    pub(crate) antipodes: Vec<u64>,
    /// This process's view: the distances of the watched ranks it owns.
    pub(crate) watched: Vec<Option<usize>>,
}

impl Run {
    /// A search before its first level is counted, `watched` ranks not yet reached.
    pub(crate) fn new(classes: usize, watched: usize) -> Self {
        Run {
            levels: Vec::new(),
            classes: Vec::new(),
            runs: vec![0],
            reached_by_class: vec![0; classes],
            antipodes: Vec::new(),
            watched: vec![None; watched],
        }
    }

    /// Takes in the next level, counted as `total` (its examples are taken as the
    /// antipodes so far), `millis` into this run of the search.
    pub(super) fn add(&mut self, total: &mut LevelCounts, millis: u64) {
        self.levels.push(total.states);
        self.classes.push(total.classes);
        for (sum, add) in self.reached_by_class.iter_mut().zip(&total.by_class) {
            *sum += add;
        }
        self.antipodes = std::mem::take(&mut total.examples);
        if let Some(last) = self.runs.last_mut() {
            *last = millis;
        }
    }
}

/// What a file says it is, before its words.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Header {
    id: String,
    identity: Identity,
    states: u64,
    processes: u64,
    index: u64,
    slice: Range<u64>,
    level: u64,
}

/// One process's slice and result at a level boundary, borrowed for saving.
pub(crate) struct Snapshot<'a> {
    pub(crate) words: &'a [AtomicU64],
    pub(crate) run: &'a Run,
}

/// Saves and resumes one process's slice.
pub(crate) struct Saver {
    config: Config,
    expected: Header,
    /// Classes of the puzzle and watched ranks, as the result so far must have.
    classes: usize,
    watched: usize,
    last: Instant,
    /// This process's lock file in the folder, held for the whole search (see `lock`).
    lock: Option<File>,
}

impl Saver {
    pub(crate) fn new(
        config: Config,
        (id, identity): (String, Identity),
        partition: Partition,
        index: usize,
        shape: (usize, usize),
    ) -> Self {
        let expected = Header {
            id,
            identity,
            states: partition.states(),
            processes: partition.processes() as u64,
            index: index as u64,
            slice: partition.slice(index),
            level: 0,
        };
        Self {
            config,
            expected,
            classes: shape.0,
            watched: shape.1,
            last: Instant::now(),
            lock: None,
        }
    }

    /// Takes the lock file `slice-<index>.lock` in the folder, or refuses at once if
    /// another run holds it: two runs resuming one folder would overwrite each other's
    /// files. One lock per process index, as the processes of a `--hosts` run on one
    /// machine may share a folder. The system releases it when the process ends, however.
    fn lock(&mut self) -> Result<(), CheckpointError> {
        let index = self.expected.index;
        let path = self.config.dir.join(format!("slice-{index}.lock"));
        match crate::util::try_lock_file(&path) {
            Ok(Some(file)) => {
                self.lock = Some(file);
                Ok(())
            }
            Ok(None) => Err(CheckpointError::InUse {
                path: self.config.dir.display().to_string(),
                index,
            }),
            Err(e) => Err(CheckpointError::io(&path, &e)),
        }
    }

    fn path(&self, generation: usize) -> PathBuf {
        let name = ["a", "b"][generation % 2];
        self.config
            .dir
            .join(format!("slice-{}.{name}.ckpt", self.expected.index))
    }

    /// Agrees with the other processes on the latest level all of them saved, and loads
    /// it into `words` (this slice's planes); `None` when there is nothing to resume.
    pub(crate) fn resume(
        &mut self,
        exchange: &mut dyn Exchange,
        words: &[AtomicU64],
        notify: &mut dyn FnMut(&Note),
    ) -> Result<Option<Run>, EngineError> {
        let dir = &self.config.dir;
        std::fs::create_dir_all(dir).map_err(|e| CheckpointError::io(dir, &e))?;
        self.lock()?;
        self.remove_temporaries();
        let intact = self.intact(notify)?;
        let mine = intact.iter().map(|(level, _)| *level).collect();
        let all = exchange.agree(mine)?;
        let common = intact
            .iter()
            .filter(|(level, _)| all.iter().all(|theirs| theirs.contains(level)))
            .max_by_key(|(level, _)| *level);
        for (level, path) in &intact {
            if common.is_none_or(|(c, _)| c < level) {
                notify(&Note::Skipped {
                    path: path.clone(),
                    reason: format!("level {level} is not saved by every process"),
                });
            }
        }
        let Some((level, path)) = common else {
            return Ok(None);
        };
        let run = self.load(path, words)?;
        notify(&Note::Resumed {
            level: *level as usize,
            path: path.clone(),
        });
        self.last = Instant::now();
        Ok(Some(run))
    }

    /// This process's checkpoints that are whole and belong to this search, as (level,
    /// path); an error if one is another search's, or if every one there is damaged.
    fn intact(&self, notify: &mut dyn FnMut(&Note)) -> Result<Vec<(u64, PathBuf)>, EngineError> {
        let mut intact = Vec::new();
        let mut damaged = None;
        for generation in 0..2 {
            let path = self.path(generation);
            match read(&path, None) {
                Ok(None) => {}
                Ok(Some((header, _))) => {
                    self.check(&path, &header)?;
                    intact.push((header.level, path));
                }
                Err(Problem::Damaged(reason)) => {
                    notify(&Note::Skipped {
                        path: path.clone(),
                        reason: format!("damaged: {reason}"),
                    });
                    damaged = Some((path, reason));
                }
                Err(Problem::Foreign(reason)) => {
                    return Err(CheckpointError::Mismatch {
                        path: path.display().to_string(),
                        reason,
                    }
                    .into());
                }
                Err(Problem::Io(e)) => return Err(CheckpointError::io(&path, &e).into()),
            }
        }
        if intact.is_empty()
            && let Some((path, reason)) = damaged
        {
            return Err(CheckpointError::Damaged {
                path: path.display().to_string(),
                reason,
            }
            .into());
        }
        Ok(intact)
    }

    /// Loads the checkpoint at `path` into `words` and returns the result it keeps.
    fn load(&self, path: &Path, words: &[AtomicU64]) -> Result<Run, EngineError> {
        match read(path, Some(words)) {
            Ok(Some((_, Some(run))))
                if run.reached_by_class.len() != self.classes || run.watched.len() != self.watched =>
            {
                Err(CheckpointError::Mismatch {
                    path: path.display().to_string(),
                    reason: "it was written with other options of this search".into(),
                }
                .into())
            }
            Ok(Some((_, Some(run)))) => Ok(run),
            Ok(_) => Err(CheckpointError::Io {
                path: path.display().to_string(),
                message: "disappeared while resuming".into(),
            }
            .into()),
            Err(Problem::Io(e)) => Err(CheckpointError::io(path, &e).into()),
            Err(Problem::Damaged(reason) | Problem::Foreign(reason)) => Err(CheckpointError::Damaged {
                path: path.display().to_string(),
                reason,
            }
            .into()),
        }
    }

    /// Prefix of this process's temporary files.
    fn temporary_prefix(&self) -> String {
        format!(".slice-{}.", self.expected.index)
    }

    /// Deletes the temporary files a killed save left behind.
    fn remove_temporaries(&self) {
        let prefix = self.temporary_prefix();
        let Ok(entries) = std::fs::read_dir(&self.config.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(&prefix) && name.ends_with(".tmp") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Refuses a file of another search.
    fn check(&self, path: &Path, found: &Header) -> Result<(), CheckpointError> {
        let want = &self.expected;
        let differences = found.identity.differences(&want.identity);
        let reason = if found.id != want.id {
            format!("it is a search of {}, not {}", found.id, want.id)
        } else if !differences.is_empty() {
            format!(
                "it is another search of {}, differing in {} (was its rules or definition file edited, or another option given?)",
                want.id,
                crate::identity::describe(&differences)
            )
        } else if found.states != want.states {
            format!("it covers {} ranks, this search {}", found.states, want.states)
        } else if found.processes != want.processes {
            format!(
                "it was written by {} processes, this search runs {}",
                found.processes, want.processes
            )
        } else if found.index != want.index || found.slice != want.slice {
            format!(
                "it holds process {}'s slice {:?}, this is process {} with slice {:?}",
                found.index, found.slice, want.index, want.slice
            )
        } else {
            return Ok(());
        };
        Err(CheckpointError::Mismatch {
            path: path.display().to_string(),
            reason,
        })
    }

    /// Whether a save is due at this level boundary.
    pub(crate) fn due(&self) -> bool {
        self.config.every.is_none_or(|every| self.last.elapsed() >= every)
    }

    /// Writes `snapshot` as the generation of its level: a temporary file, synced, then
    /// renamed over the generation two levels older, and the folder synced.
    pub(crate) fn save(&mut self, snapshot: &Snapshot, notify: &mut dyn FnMut(&Note)) -> Result<(), CheckpointError> {
        let level = snapshot.run.levels.len() - 1;
        let path = self.path(level);
        let dir = &self.config.dir;
        let temp = tempfile::Builder::new()
            .prefix(&self.temporary_prefix())
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| CheckpointError::io(dir, &e))?;
        let header = Header {
            level: level as u64,
            ..self.expected.clone()
        };
        write(temp.as_file(), &header, snapshot).map_err(|e| CheckpointError::io(temp.path(), &e))?;
        temp.as_file()
            .sync_all()
            .map_err(|e| CheckpointError::io(temp.path(), &e))?;
        temp.persist(&path).map_err(|e| CheckpointError::io(&path, &e.error))?;
        // The rename is durable once the folder is synced (not possible everywhere).
        if let Ok(folder) = File::open(dir) {
            let _ = folder.sync_all();
        }
        self.last = Instant::now();
        notify(&Note::Saved { level, path });
        Ok(())
    }
}

/// A writer that keeps the CRC-32 of what went through it.
struct Summed<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.crc.update(bytes);
        self.inner.write_all(bytes)
    }

    fn u64(&mut self, v: u64) -> io::Result<()> {
        self.put(&v.to_le_bytes())
    }

    fn list(&mut self, values: impl ExactSizeIterator<Item = u64>) -> io::Result<()> {
        self.u64(values.len() as u64)?;
        values.into_iter().try_for_each(|v| self.u64(v))
    }
}

fn write(file: &File, header: &Header, snapshot: &Snapshot) -> io::Result<()> {
    let mut out = Summed {
        inner: BufWriter::new(file),
        crc: crc32fast::Hasher::new(),
    };
    out.put(MAGIC)?;
    out.put(&VERSION.to_le_bytes())?;
    out.list(header.id.bytes().map(u64::from))?;
    out.list(header.identity.to_bytes().into_iter().map(u64::from))?;
    for v in [
        header.states,
        header.processes,
        header.index,
        header.slice.start,
        header.slice.end,
        header.level,
    ] {
        out.u64(v)?;
    }
    let run = snapshot.run;
    out.list(run.levels.iter().copied())?;
    out.list(run.classes.iter().copied())?;
    out.list(run.runs.iter().copied())?;
    out.list(run.reached_by_class.iter().copied())?;
    out.list(run.antipodes.iter().copied())?;
    out.list(run.watched.iter().map(|d| d.map_or(u64::MAX, |d| d as u64)))?;
    out.u64(snapshot.words.len() as u64)?;
    let mut bytes = Vec::with_capacity(8 * BUFFER);
    for block in snapshot.words.chunks(BUFFER) {
        bytes.clear();
        bytes.extend(block.iter().flat_map(|w| w.load(Relaxed).to_le_bytes()));
        out.put(&bytes)?;
    }
    let crc = out.crc.clone().finalize();
    out.inner.write_all(&crc.to_le_bytes())?;
    out.inner.flush()
}

/// Why a file could not be read.
enum Problem {
    /// Truncated, garbled or failing its checksum.
    Damaged(String),
    /// Not a checkpoint of this program's format.
    Foreign(String),
    Io(io::Error),
}

impl From<io::Error> for Problem {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            Problem::Damaged("the file is truncated".into())
        } else {
            Problem::Io(e)
        }
    }
}

/// A reader that keeps the CRC-32 of what went through it.
struct Checked<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Checked<R> {
    fn take(&mut self, bytes: &mut [u8]) -> Result<(), Problem> {
        self.inner.read_exact(bytes)?;
        self.crc.update(bytes);
        Ok(())
    }

    fn u64(&mut self) -> Result<u64, Problem> {
        let mut b = [0; 8];
        self.take(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// A length-prefixed list of at most `limit` values.
    fn list(&mut self, limit: u64) -> Result<Vec<u64>, Problem> {
        let len = self.u64()?;
        if len > limit {
            return Err(Problem::Damaged(format!("a list of {len} entries")));
        }
        (0..len).map(|_| self.u64()).collect()
    }
}

/// Reads and verifies the file at `path` (`None` if there is none). With `into`, loads
/// its words there and returns the result so far; without, only checks the whole file.
fn read(path: &Path, into: Option<&[AtomicU64]>) -> Result<Option<(Header, Option<Run>)>, Problem> {
    // The type first, without opening: opening a FIFO would wait for a writer for ever.
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err(Problem::Foreign("it is not a regular file".into())),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Problem::Io(e)),
    }
    let file = File::open(path)?;
    let mut input = Checked {
        inner: BufReader::new(file),
        crc: crc32fast::Hasher::new(),
    };
    let header = read_header(&mut input)?;
    let (start, end, level) = (header.slice.start, header.slice.end, header.level);
    let levels = input.list(1 << 20)?;
    let classes = input.list(1 << 20)?;
    let mut runs = input.list(1 << 20)?;
    let reached_by_class = input.list(1 << 20)?;
    let antipodes = input.list(1 << 20)?;
    let watched = input.list(1 << 20)?;
    let words = input.u64()?;
    if start > end
        || words != 2 * (end - start).div_ceil(64)
        || levels.len() as u64 != level + 1
        || classes.len() != levels.len()
    {
        return Err(Problem::Damaged("its header contradicts itself".into()));
    }
    if let Some(into) = into
        && into.len() as u64 != words
    {
        return Err(Problem::Foreign(format!(
            "it holds {words} words, this slice {}",
            into.len()
        )));
    }
    read_words(&mut input, words, into)?;
    // This run's time follows the saved ones'.
    runs.push(0);
    let run = into.map(|_| Run {
        levels,
        classes,
        runs,
        reached_by_class,
        antipodes,
        watched: watched
            .into_iter()
            .map(|d| usize::try_from(d).ok().filter(|_| d != u64::MAX))
            .collect(),
    });
    Ok(Some((header, run)))
}

/// The header of a checkpoint file after its magic bytes and version, both checked.
fn read_header<R: Read>(input: &mut Checked<R>) -> Result<Header, Problem> {
    let mut magic = [0; 8];
    // An empty file named as ours, or zeros where the magic goes, is what a crash or a
    // failing disk can leave of a save: damaged (the other generation is used), not
    // another program's file.
    let mut got = 0;
    while got < magic.len() {
        match input.inner.read(&mut magic[got..])? {
            0 => break,
            n => got += n,
        }
    }
    input.crc.update(&magic[..got]);
    if got == 0 {
        return Err(Problem::Damaged("it is empty".into()));
    }
    if got == magic.len() && magic == [0; 8] {
        return Err(Problem::Damaged("it holds zeros where a checkpoint starts".into()));
    }
    if got < magic.len() || &magic != MAGIC {
        return Err(Problem::Foreign("it is not a checkpoint file".into()));
    }
    let mut version = [0; 4];
    input.take(&mut version)?;
    let version = u32::from_le_bytes(version);
    if version != VERSION {
        return Err(Problem::Foreign(format!(
            "it has format version {version}, this program reads version {VERSION}"
        )));
    }
    let id = input.list(256)?;
    let id: String = id
        .into_iter()
        .filter_map(|b| u8::try_from(b).ok())
        .map(char::from)
        .collect();
    let identity = input.list(4096)?;
    let bytes: Vec<u8> = identity.into_iter().filter_map(|b| u8::try_from(b).ok()).collect();
    let identity = match Identity::from_bytes(&bytes) {
        Ok((identity, used)) if used == bytes.len() => identity,
        _ => return Err(Problem::Damaged("its search identity is unreadable".into())),
    };
    let mut fields = [0; 6];
    for f in &mut fields {
        *f = input.u64()?;
    }
    let [states, processes, index, start, end, level] = fields;
    Ok(Header {
        id,
        identity,
        states,
        processes,
        index,
        slice: start..end,
        level,
    })
}

/// Reads the `words` words of the planes (into `into`, if given) and checks the checksum
/// and the end of the file.
fn read_words<R: Read>(input: &mut Checked<R>, words: u64, into: Option<&[AtomicU64]>) -> Result<(), Problem> {
    let mut bytes = vec![0; 8 * BUFFER];
    let mut done = 0;
    while done < words {
        let n = (words - done).min(BUFFER as u64) as usize;
        input.take(&mut bytes[..8 * n])?;
        if let Some(into) = into {
            for (to, b) in into[done as usize..][..n].iter().zip(bytes.chunks_exact(8)) {
                to.store(u64::from_le_bytes(b.try_into().unwrap_or_default()), Relaxed);
            }
        }
        done += n as u64;
    }
    let computed = input.crc.clone().finalize();
    let mut stored = [0; 4];
    input.inner.read_exact(&mut stored)?;
    if u32::from_le_bytes(stored) != computed {
        return Err(Problem::Damaged("its checksum does not match".into()));
    }
    if input.inner.read(&mut [0; 1])? != 0 {
        return Err(Problem::Damaged("it has bytes after its checksum".into()));
    }
    Ok(())
}
