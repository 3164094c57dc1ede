//! Where the solver keeps what it computed once (pattern databases, and distance tables
//! of 65,536 ranks or more), and how.
//!
//! The folder is chosen by the caller (the binary: `$ANALYZE_CACHE_DIR` if set, else
//! `$XDG_CACHE_HOME/analyze`, else `$HOME/.cache/analyze`). A file is a header line naming
//! exactly what it holds, a checksum line, then the raw bytes. Files are written to a
//! temporary name and renamed, so a reader never sees half a file; a file whose type,
//! header, length or checksum does not match is treated as missing.

use std::io::{Read, Write};
use std::path::Path;

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
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(expected + 1).read_to_end(&mut bytes))
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
    Ok(data)
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
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
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
