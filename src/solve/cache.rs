//! Where the solver keeps what it computed once (pattern databases, and distance tables
//! of 65,536 ranks or more), and how.
//!
//! The folder is chosen by the caller (the binary: `$ANALYZE_CACHE_DIR` if set, else
//! `$XDG_CACHE_HOME/analyze`, else `$HOME/.cache/analyze`). A file is a header line naming
//! exactly what it holds (it starts with [`MAGIC`], then the kind of table and its version,
//! then the puzzle: `analyze distance table v1: eight, 181440 ranks, ...`), a checksum
//! line, then the raw bytes. Files are written to a temporary name ([`TEMP_PREFIX`]) and
//! renamed, so a reader never sees half a file; a file whose type, header, length or
//! checksum does not match is treated as missing. Loading a file sets its modification
//! time, so the time says when it was last used (what `--cache-clear DAYS` goes by).

use crate::puzzle::Puzzle;
use std::io::{Read, Write};
use std::path::Path;
use std::time::SystemTime;

/// How every cache file's header line starts: what marks a file as the cache's own.
pub const MAGIC: &str = "analyze ";

/// How the temporary file of a write in progress is named (then random characters): an
/// interrupted run leaves one behind.
pub const TEMP_PREFIX: &str = ".analyze-partial-";

/// The name of the cache file of the puzzle `id` whose search is `identity`, with the
/// extension `kind`: `eight.0123456789ab.dist`. The hash's start keeps puzzles of one id
/// apart (a rules file named like a built-in, an edited file); the header holds the rest.
pub fn file_name(id: &str, identity: &crate::identity::Identity, kind: &str) -> String {
    format!("{id}.{}.{kind}", identity.short())
}

/// Reads `path` if it holds exactly `len` bytes described by `header`; otherwise says why not.
/// The type and size are checked before anything is read, so an entry that is a FIFO,
/// a device (a link to `/dev/zero`) or a huge file is rejected at once.
pub fn load(path: &Path, header: &str, len: usize) -> Result<Vec<u8>, String> {
    let start = header.len() + 1 + "checksum ".len() + 16 + 1;
    let expected = (start + len) as u64;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() != expected {
        return Err(format!("{} bytes instead of {expected}", meta.len()));
    }
    // Random look-ups into hundreds of MiB (the pattern databases) miss the TLB on every
    // 4 KiB page: ask for huge pages before the bytes arrive.
    let mut bytes = Vec::with_capacity(expected as usize + 1);
    crate::engine::bitset::advise_huge_pages(bytes.spare_capacity_mut());
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    (&file)
        .take(expected + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    let (Some(found), Some(sum)) = (lines.next(), lines.next()) else {
        return Err("no header".into());
    };
    if found != header.as_bytes() {
        return Err("written for another table or version".into());
    }
    let sum = std::str::from_utf8(sum)
        .ok()
        .and_then(|s| s.strip_prefix("checksum "))
        .and_then(|s| u64::from_str_radix(s, 16).ok());
    if bytes.len() != start + len {
        return Err(format!(
            "{} bytes of data instead of {len}",
            bytes.len().saturating_sub(start)
        ));
    }
    // Drop the header in place: a copy of the data would double the memory of the
    // 519 MB 7-8 table for a moment.
    bytes.drain(..start);
    let data = bytes;
    if sum != Some(checksum(&data)) {
        return Err("checksum mismatch".into());
    }
    // The file's time is its last use. Setting it takes no write access, only ownership:
    // a shared read-only cache keeps its times, which is no reason to fail the load.
    let _ = file.set_modified(SystemTime::now());
    Ok(data)
}

/// Held by [`store`] from creating its temporary file to renaming it.
static WRITES: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Waits for a [`store`] under way in this process to finish and keeps any other from
/// starting while the guard lives: the binary holds it to end a run on a signal without
/// leaving a temporary file behind.
pub fn hold_writes() -> std::sync::MutexGuard<'static, ()> {
    // A store that panicked left no file to finish: the lock is still good.
    WRITES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Stores a freshly built table as `name` in the cache folder `dir`, if there is one, and
/// says where it went (or why not) as the end of the "built in" line.
pub fn store_in(dir: Option<&Path>, name: &str, header: &str, data: &[u8]) -> String {
    match dir {
        Some(dir) => {
            let path = dir.join(name);
            match store(&path, header, data) {
                Ok(()) => format!("; cached in {}", path.display()),
                Err(e) => format!("; cannot cache it in {}: {e}", dir.display()),
            }
        }
        None => "; not cached: set ANALYZE_CACHE_DIR or HOME to keep it".into(),
    }
}

/// Writes `data` under `header` to `path`, creating the folder; atomically replaces any
/// existing file.
pub fn store(path: &Path, header: &str, data: &[u8]) -> std::io::Result<()> {
    let _writing = hold_writes();
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::Builder::new().prefix(TEMP_PREFIX).tempfile_in(dir)?;
    {
        let mut out = std::io::BufWriter::new(file.as_file_mut());
        write!(out, "{header}\nchecksum {:016x}\n", checksum(data))?;
        out.write_all(data)?;
        out.flush()?;
    }
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The header line of the file at `path` if it is one of the cache's (a regular file whose
/// first line starts with [`MAGIC`]), else `None`. A symbolic link is never followed (it is
/// `None`), so nothing outside the folder is taken for a cache file; only the first line is
/// read.
pub fn header_of(path: &Path) -> std::io::Result<Option<String>> {
    if !std::fs::symlink_metadata(path)?.is_file() {
        return Ok(None);
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Closes the gap between the check above and the open: a link put there meanwhile
        // fails to open, and a FIFO does not block.
        options.custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Ok(None);
    }
    let mut start = Vec::new();
    file.take(MAX_HEADER).read_to_end(&mut start)?;
    let line = start.split(|&b| b == b'\n').next().unwrap_or_default();
    Ok(std::str::from_utf8(line)
        .ok()
        .filter(|line| line.starts_with(MAGIC))
        .map(str::to_string))
}

/// The longest header line read: the longest, a split database's for a goal on 5x5, is
/// under 200 bytes.
const MAX_HEADER: u64 = 1024;

/// Whether `name` is the temporary name of a write ([`TEMP_PREFIX`] and six random
/// characters, as `store` makes them).
pub fn is_temp_name(name: &str) -> bool {
    name.strip_prefix(TEMP_PREFIX)
        .is_some_and(|rest| rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// What a cache file holds, read from its header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contents {
    /// The kind of table with its format version, e.g. `distance table v1`.
    pub kind: String,
    /// The puzzle's id without its goal, e.g. `eight`, `sliding-4x4`.
    pub puzzle: String,
    /// The goal the distances are measured to, if not the puzzle's usual one (tiles or
    /// coins as the command line takes them, e.g. `1 2 3 4 5 6 7 0 8`).
    pub goal: Option<String>,
}

/// What the cache file whose header line is `header` holds; `None` for a line that is not
/// a header (it does not start with [`MAGIC`] and name its kind and version).
///
/// The headers: distance tables (`.dist`, `.dist3`) name the puzzle's id, which carries
/// `-goal-...` for another goal; pattern databases name `sliding RxC`, and split ones their
/// goal too (`goal 1 2 ... 0`).
pub fn contents(header: &str) -> Option<Contents> {
    let (kind, rest) = header.strip_prefix(MAGIC)?.split_once(": ")?;
    let version = kind.rsplit(' ').next()?;
    if !version
        .strip_prefix('v')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let mut fields = rest.split(", ");
    let first = fields.next()?;
    let (puzzle, goal) = match first.strip_prefix("sliding ") {
        // A pattern database: `sliding 4x4, tiles ..., [goal ...,] N entries`.
        Some(shape) => {
            let goal = fields.find_map(|f| f.strip_prefix("goal ")).map(str::to_string);
            let cells = shape
                .split_once('x')
                .and_then(|(r, c)| Some(r.parse::<usize>().ok()? * c.parse::<usize>().ok()?));
            let usual = cells.map(|n| (1..n).chain([0]).map(|t| t.to_string()).collect::<Vec<_>>().join(" "));
            (format!("sliding-{shape}"), goal.filter(|g| Some(g) != usual.as_ref()))
        }
        // A distance table: the puzzle's id, with `-goal-` and the goal for another goal.
        None => match first.split_once("-goal-") {
            Some((puzzle, goal)) => (puzzle.to_string(), Some(goal.replace('-', " "))),
            None => (first.to_string(), None),
        },
    };
    (!puzzle.is_empty()).then(|| Contents {
        kind: kind.to_string(),
        puzzle,
        goal,
    })
}

/// FNV-1a over 8-byte words: cheap (a few ms for the 4x4 tables) and enough to catch a
/// truncated or damaged file.
pub fn checksum(data: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut words = data.chunks_exact(8);
    for word in &mut words {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(word);
        hash = (hash ^ u64::from_le_bytes(bytes)).wrapping_mul(0x0100_0000_01b3);
    }
    for &b in words.remainder() {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A hash of how `puzzle` ranks configurations: its goals, and 64 ranks spread over the
/// rank space, each with its rendering and its successors (with their costs, if not 1).
pub(crate) fn fingerprint<P: Puzzle>(puzzle: &P) -> u64 {
    let states = puzzle.states();
    // The goals too: puzzles with the same id and moves may differ in their goals.
    let mut text = format!("goals {:?}\n", puzzle.goals());
    for i in 0..64 {
        // Below 64 * 64 ranks the step and the offset can pass the last rank: wrapped.
        let rank = (states / 64 * i + i % states) % states;
        text.push_str(&puzzle.render(rank));
        puzzle.for_each_weighted_successor(rank, |next, cost| match cost {
            1 => text.push_str(&format!(" {next}")),
            _ => text.push_str(&format!(" {next}:{cost}")),
        });
        text.push('\n');
    }
    checksum(text.as_bytes())
}
