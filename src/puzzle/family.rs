//! Puzzle families as the command line knows them. A [`Family`] describes one family once:
//! its name after `--puzzle`, its `--list` line, the size options it takes and their
//! limits, its state count, how one size is built, and which sizes `--all` analyses. The
//! registry (`crate::registry`) lists the families; nothing else does.

use super::Puzzle;
use std::fmt::Debug;
use std::path::Path;

/// The size options of the command line as given: syntax checked, not yet validated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SizeArgs {
    /// `--rows`.
    pub rows: Option<u64>,
    /// `--cols`.
    pub cols: Option<u64>,
    /// `--size`.
    pub size: Option<u64>,
    /// `--coins`.
    pub coins: Option<u64>,
    /// `--flip`.
    pub flip: Option<u64>,
    /// `--metric`.
    pub metric: Option<String>,
}

impl SizeArgs {
    /// The size flags given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--rows", self.rows),
            ("--cols", self.cols),
            ("--size", self.size),
            ("--coins", self.coins),
            ("--flip", self.flip),
            ("--metric", self.metric.as_ref().map(|_| 0)),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.map(|_| name))
        .collect()
    }

    /// `--rows` and `--cols`: both, or neither for `default` (one alone is refused rather
    /// than completed with a side the user never typed). `what` names the puzzle.
    pub fn board(&self, what: &str, default: Option<(usize, usize)>) -> Result<(usize, usize), String> {
        let or_default = default.map_or_else(String::new, |(r, c)| {
            format!(", or neither for the default {r}x{c} board")
        });
        match (self.rows, self.cols, default) {
            (None, None, Some(board)) => Ok(board),
            (None, None, None) => Err(format!("{what} needs the board size: give --rows R and --cols C")),
            (Some(rows), None, _) => Err(format!("--rows {rows} is given without --cols: give both{or_default}")),
            (None, Some(cols), _) => Err(format!("--cols {cols} is given without --rows: give both{or_default}")),
            (Some(rows), Some(cols), _) => Ok((dimension("--rows", rows)?, dimension("--cols", cols)?)),
        }
    }
}

/// A board side: at least 2, and not absurd (each family's limit follows with its reason).
pub fn dimension(flag: &str, value: u64) -> Result<usize, String> {
    match value {
        v if v < 2 => Err(format!(
            "{flag} {v} is too small: a board needs at least 2 rows and 2 columns"
        )),
        v if v > 64 => Err(format!(
            "{flag} {v} is too large: boards up to 64 on a side are considered at all"
        )),
        v => Ok(v as usize),
    }
}

/// A file's first line that is neither blank nor a `#` comment, trimmed: what
/// [`Family::recognises`] reads.
pub fn first_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
}

/// One puzzle family, described once.
pub trait Family: Sync + 'static {
    /// A validated size (or, for families read from a file, the file's contents).
    type Size: Clone + Debug + PartialEq + Send + Sync + 'static;
    /// The puzzle one size builds.
    type Puzzle: Puzzle + Send + Sync + 'static;

    /// The family's name: the value of `--puzzle`, and `family` in the summary.
    fn name(&self) -> &'static str;
    /// The line `--list` prints; `None` for a family chosen by a file (`--rules`).
    fn about(&self) -> Option<&'static str>;
    /// The size flags `--puzzle NAME` takes, and a hint added when another is given.
    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&[], "")
    }
    /// Checks the size flags (only those of [`Family::flags`] are given).
    fn choose(&self, args: &SizeArgs) -> Result<Self::Size, String> {
        let _ = args;
        Err(format!("{} is read from a file: give --rules FILE", self.name()))
    }
    /// Extensions (lower case, without the dot) of the files `--rules` reads as this
    /// family's. A file's extension decides first; see [`Family::recognises`].
    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }
    /// Whether a file whose extension no family claims is of this family's kind, from its
    /// first line that is neither blank nor a `#` comment ([`first_line`]).
    fn recognises(&self, first_line: &str) -> bool {
        let _ = first_line;
        false
    }
    /// Reads a file given to `--rules` that is of this family's kind, with the size flags
    /// given (only those of [`Family::flags`] are accepted); the error is one line, without
    /// the file's name.
    fn read(&self, path: &Path, text: &str, args: &SizeArgs) -> Result<Self::Size, String> {
        let _ = (path, text, args);
        Err(format!("{} is not read from a file", self.name()))
    }
    /// The sizes `--all` analyses.
    fn all(&self) -> Vec<Self::Size> {
        Vec::new()
    }
    /// The report id of a size, e.g. `sliding-2x5`.
    fn id(&self, size: &Self::Size) -> String;
    /// What decides a size's search and report, as named parts of a canonical text (see
    /// `crate::identity`): by default the size as debugged, which is the whole of a
    /// built-in's size. Families read from files name the file's content part by part
    /// (`moves`, `goals`, ...), leaving out what does not matter (comments, line numbers),
    /// so a mismatch can say what differs.
    fn canonical(&self, size: &Self::Size) -> Vec<(&'static str, String)> {
        vec![("size", format!("{size:?}"))]
    }
    /// What reading the size chose that the user should hear, one line for stderr (e.g.
    /// which moves of a definition file are searched with).
    fn note(&self, size: &Self::Size) -> Option<String> {
        let _ = size;
        None
    }
    /// Size parameters the summary lists beyond the board's shape, in order.
    fn parameters(&self, size: &Self::Size) -> Vec<(String, u64)> {
        let _ = size;
        Vec::new()
    }
    /// Ranks the search covers, without building the puzzle (may be huge).
    fn states(&self, size: &Self::Size) -> u128;
    /// Largest cost of one move (1: a plain breadth-first search).
    fn max_move_cost(&self, size: &Self::Size) -> u32 {
        let _ = size;
        1
    }
    /// Why a size cannot be enumerated at all, whatever the memory (`None`: it can).
    fn beyond(&self, size: &Self::Size) -> Option<String> {
        let _ = size;
        None
    }
    /// Builds the puzzle; fails (why, one line) only where [`Family::beyond`] says so.
    fn build(&self, size: &Self::Size) -> Result<Self::Puzzle, String>;
    /// The rows and columns of a sliding board, whose positions the solver can also take
    /// by heuristic search beyond what can be enumerated.
    fn tiles(&self, size: &Self::Size) -> Option<(usize, usize)> {
        let _ = size;
        None
    }
}
