//! Why a search stops short: every error the engine returns, and the errors of its routes
//! (checkpoints, the disk, the sparse search) that it wraps. They live together, below the
//! routes, so that each route imports its errors from here and no route imports another
//! for them.

use super::bitset::TooLarge;
use super::exchange::ExchangeError;
use crate::util::human_bytes;
use std::io;
use std::path::Path;
use thiserror::Error;

/// Why a search could not produce a result.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EngineError {
    /// A move led outside the ranked class: the puzzle's invariant does not hold.
    #[error("invariant violated: a move from rank {} leaves the class the invariant predicts ({count} such moves)", from.map_or_else(String::new, |r| r.to_string()))]
    InvariantViolated {
        /// Example rank the escaping move starts from.
        from: Option<u64>,
        /// How many escaping moves were seen in that level.
        count: u64,
    },
    /// A goal rank is not a valid rank (a bug in the puzzle).
    #[error("goal rank {0} is outside the rank space")]
    BadGoal(u64),
    /// The observer asked to stop.
    #[error("interrupted")]
    Interrupted,
    /// The bit planes do not fit in memory.
    #[error(transparent)]
    Memory(#[from] TooLarge),
    /// The sparse search's sorted levels outgrew the memory it may take.
    #[error(transparent)]
    SparseMemory(OutOfMemory),
    /// The processes could not go on together.
    #[error(transparent)]
    Exchange(#[from] ExchangeError),
    /// A checkpoint could not be written, or the one asked for cannot be used.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// Moves of several costs are searched by Dial's buckets, in one process, unsaved.
    #[error("moves of different costs are searched in one process in memory, without checkpoints")]
    Weighted,
    /// The planes on disk are their own checkpoint.
    #[error("a search with its planes on disk is its own checkpoint")]
    DiskAlone,
    /// The planes on disk could not be used.
    #[error(transparent)]
    Disk(#[from] DiskError),
    /// A search to be saved was given no puzzle id or identity (a bug in the caller): the
    /// header names the puzzle and carries its identity, so that another's checkpoint is
    /// never resumed.
    #[error("a saved search needs its puzzle's id and identity (Options::id, Options::identity)")]
    Unnamed,
}

impl From<OutOfMemory> for EngineError {
    fn from(e: OutOfMemory) -> Self {
        EngineError::SparseMemory(e)
    }
}

/// Why checkpoints could not be used or written.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// A checkpoint in the folder belongs to another search: refused, nothing resumed.
    #[error("checkpoint {path} cannot be resumed: {reason}; use another --checkpoint folder or delete it")]
    Mismatch {
        /// The file.
        path: String,
        /// What differs.
        reason: String,
    },
    /// Every file of this process is damaged.
    #[error(
        "checkpoint {path} is damaged ({reason}) and no intact generation is left; delete the folder to start over"
    )]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Another run holds this process's lock in the folder: one run at a time resumes it.
    #[error(
        "checkpoint folder {path} is in use by another analyze run (process {index}): wait for it to end or use another --checkpoint folder"
    )]
    InUse {
        /// The folder.
        path: String,
        /// The process index whose files the other run holds.
        index: u64,
    },
    /// Reading or writing failed.
    #[error("checkpoint {path}: {message}")]
    Io {
        /// The file or folder.
        path: String,
        /// The system's message.
        message: String,
    },
}

impl CheckpointError {
    pub(super) fn io(path: &Path, e: &io::Error) -> Self {
        CheckpointError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }

    /// Whether the user asked for something that cannot be (exit 2), rather than the
    /// system failing (exit 1).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, CheckpointError::Io { .. })
    }
}

/// Why the search on disk could not go on.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DiskError {
    /// Reading or writing failed (a full disk, a removed folder...).
    #[error("--disk {path}: {message}")]
    Io {
        /// The file or folder.
        path: String,
        /// The system's message.
        message: String,
    },
    /// A file's contents differ from what the manifest says was written, or the manifest
    /// contradicts itself.
    #[error(
        "--disk: {path} is damaged ({reason}); the search cannot resume from this folder: choose another --disk folder to search from the start"
    )]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The manifest is of another format: written by another version of analyze, or damaged
    /// where it says which.
    #[error(
        "--disk: {path} is of format {found}, not the format {reads} this analyze reads: it was written by another version of analyze, or is damaged; resume with the version that began the search, or choose another --disk folder"
    )]
    Format {
        /// The manifest.
        path: String,
        /// The format it says it is.
        found: u32,
        /// The format this analyze reads.
        reads: u32,
    },
    /// The folder holds another search, or files that are not a search's.
    #[error("--disk {path}: {reason}; use another folder")]
    Foreign {
        /// The folder.
        path: String,
        /// What is there.
        reason: String,
    },
    /// Another run uses the folder.
    #[error("--disk folder {0} is in use by another analyze run: wait for it to end or use another folder")]
    InUse(String),
}

impl DiskError {
    pub(super) fn io(path: &Path, e: &io::Error) -> Self {
        DiskError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }

    /// Whether the user asked for something that cannot be (exit 2), rather than the system
    /// failing (exit 1).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, DiskError::Io { .. })
    }
}

/// The sparse search ran out of the memory it was allowed.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error(
    "the sparse search needs more than {} at level {level} ({} bytes a state plus a chunk's sort buffer), the most it may take",
    human_bytes(*budget),
    bytes_per_key
)]
pub struct OutOfMemory {
    /// The level being found when the memory ran out.
    pub level: usize,
    /// Bytes of one key.
    pub bytes_per_key: usize,
    /// The bytes the search was allowed (or what the allocator refused).
    pub budget: u128,
}
