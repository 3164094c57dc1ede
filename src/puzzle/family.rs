//! Puzzle families as the command line knows them. A [`Family`] describes one family once:
//! its name after `--puzzle`, its `--list` line, the size options it takes and their
//! limits, its state count, how one size is built, and which sizes `--all` analyses. The
//! registry (`crate::registry`) lists the families; nothing else does.

use super::Puzzle;
use std::fmt::Debug;
use std::path::Path;

/// The size options of the command line as given: syntax checked, not yet validated. The
/// struct is their one table: clap reads it (help, completions, parsing), and [`given`]
/// and [`with_value`] read clap's description of it back, so a new size option is one
/// field here.
///
/// [`given`]: SizeArgs::given
/// [`with_value`]: SizeArgs::with_value
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args, serde::Serialize)]
pub struct SizeArgs {
    /// Board rows, for the puzzles on a board (--list says which take which size options).
    /// Give --rows and --cols together, or neither for the default board of the puzzle.
    #[arg(long, value_name = "R", value_parser = count)]
    pub rows: Option<u64>,
    /// Board columns; see --rows.
    #[arg(long, value_name = "C", value_parser = count)]
    pub cols: Option<u64>,
    /// Side of a square board.
    #[arg(long, value_name = "N", value_parser = count)]
    pub size: Option<u64>,
    /// Number of coins N in a row.
    #[arg(long, value_name = "N", value_parser = count)]
    pub coins: Option<u64>,
    /// Coins flipped per move K.
    #[arg(long, value_name = "K", value_parser = count)]
    pub flip: Option<u64>,
    /// What one move is, for a permutation puzzle's definition file (--rules FILE.tws):
    /// face (every power of a move is one move, the default) or quarter (only a move and
    /// its inverse).
    #[arg(long, value_name = "METRIC", value_parser = MetricParser)]
    pub metric: Option<String>,
    /// The moves that turn, chosen from a definition file's moves and sequences by name
    /// (--rules FILE.tws --moves U,R), each with its powers as the metric says; the
    /// others stay still.
    #[arg(long, value_name = "A,B,...")]
    pub moves: Option<String>,
    /// Sets of pieces a definition file's search leaves out, by name (--rules FILE.tws
    /// --omit CENTERS): as if they were not there, as twsearch's --omit.
    #[arg(long, value_name = "SET,...")]
    pub omit: Option<String>,
}

impl SizeArgs {
    /// The size options given, as the command line names them (`--rows`), in `--help`'s
    /// order: the fields set, named by clap's own table of them.
    pub fn given(&self) -> Vec<String> {
        let set = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(fields)) => fields,
            _ => return Vec::new(),
        };
        Self::options()
            .filter(|arg| set.get(arg.get_id().as_str()).is_some_and(|v| !v.is_null()))
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect()
    }

    /// A size option with its value as `--help` names it: `--rows R`, `--metric face|quarter`.
    pub fn with_value(flag: &str) -> String {
        let value = Self::options()
            .find(|arg| arg.get_long().is_some_and(|long| flag.strip_prefix("--") == Some(long)))
            .map(|arg| {
                let choices: Vec<String> = arg
                    .get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_string())
                    .collect();
                match choices.is_empty() {
                    true => arg
                        .get_value_names()
                        .and_then(|v| v.first())
                        .map_or("VALUE".into(), |v| v.to_string()),
                    false => choices.join("|"),
                }
            })
            .unwrap_or_else(|| "VALUE".into());
        format!("{flag} {value}")
    }

    /// clap's description of the size options.
    fn options() -> impl Iterator<Item = clap::Arg> {
        use clap::Args;
        Self::augment_args(clap::Command::new("size"))
            .get_arguments()
            .cloned()
            .collect::<Vec<_>>()
            .into_iter()
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

/// Reads a count (a board side, a number of coins ...), naming what is accepted where it
/// is not one: without it a negative number would be taken for an unknown option.
pub fn count(text: &str) -> Result<u64, String> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    text.parse().map_err(|_| {
        if digits(text) {
            format!("too large: at most {}", u64::MAX)
        } else if text.strip_prefix('-').is_some_and(digits) {
            "a count is never negative: use a whole number, 0 or more".to_string()
        } else {
            "use a whole number, 0 or more".to_string()
        }
    })
}

/// `--metric`: any word is taken here and checked by the puzzle it is given to, whose
/// refusal names its own metrics; face and quarter, the metrics of definition files, are
/// listed for `--help` and for shell completion.
#[derive(Debug, Clone, Copy)]
struct MetricParser;

impl clap::builder::TypedValueParser for MetricParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        use clap::builder::PossibleValue;
        Some(Box::new(
            [
                PossibleValue::new("face").help("every power of a move is one move (the default)"),
                PossibleValue::new("quarter").help("only a move and its inverse"),
            ]
            .into_iter(),
        ))
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
    /// Whether the built puzzle may search fewer ranks than [`Family::states`]: one rank a
    /// class up to its symmetries, found only by building it. The checks of memory and disk
    /// then build it to count what the search will hold.
    fn by_class(&self, size: &Self::Size) -> bool {
        let _ = size;
        false
    }
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
    /// Why a size cannot be ranked (`None`: it can): it is then searched as packed states
    /// only, if [`Family::packed_bits`] allows.
    fn unranked(&self, size: &Self::Size) -> Option<String> {
        let _ = size;
        None
    }
    /// Bits of a packed state, where the size can be searched as packed states (the sparse
    /// route; permutation puzzles only).
    fn packed_bits(&self, size: &Self::Size) -> Option<u32> {
        let _ = size;
        None
    }
    /// The states the moves reach, where known before the search (a permutation puzzle's
    /// group order): the route rule weighs it against the rank space.
    fn reach(&self, size: &Self::Size) -> Option<u128> {
        let _ = size;
        None
    }
    /// Builds the size's packed form for the sparse route (with its ranked form where it
    /// has one), measured to `goal` (`--goal`, as the puzzle renders it) if given.
    fn build_sparse(&self, size: &Self::Size, goal: Option<&str>) -> Result<super::perm::packed::Sparse, String> {
        let _ = (size, goal);
        Err(format!("{} is not searched as packed states", self.name()))
    }
    /// A permutation puzzle's definition, for the solver's heuristic search (`None`: the
    /// size is no definition).
    fn definition(&self, size: &Self::Size) -> Option<Parts> {
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

/// What the solver's heuristic search reads of a permutation puzzle's definition
/// ([`Family::definition`]).
#[derive(Debug, Clone)]
pub struct Parts {
    /// The definition as read, rotations set apart and `--moves` applied.
    pub def: std::sync::Arc<super::perm::Definition>,
    /// `--metric`.
    pub metric: super::perm::Metric,
    /// The number of the first piece in positions: 1 as in `.tws`, 0 as in KPuzzle.
    pub first: u32,
    /// The report id.
    pub id: String,
}

#[cfg(test)]
mod tests {
    use super::SizeArgs;

    /// `given` reads the fields through serde and names them through clap: every option
    /// set must come back, named and with its value, or a new field would go unchecked.
    #[test]
    fn every_size_option_is_named() {
        let all = SizeArgs {
            rows: Some(3),
            cols: Some(4),
            size: Some(5),
            coins: Some(6),
            flip: Some(2),
            metric: Some("quarter".into()),
            moves: Some("U,R".into()),
            omit: Some("EDGES".into()),
        };
        assert_eq!(
            all.given(),
            [
                "--rows", "--cols", "--size", "--coins", "--flip", "--metric", "--moves", "--omit"
            ]
        );
        assert_eq!(SizeArgs::options().count(), all.given().len());
        assert!(SizeArgs::default().given().is_empty());
        assert_eq!(SizeArgs::with_value("--rows"), "--rows R");
        assert_eq!(SizeArgs::with_value("--metric"), "--metric face|quarter");
    }
}
