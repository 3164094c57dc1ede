//! The command line: [`Cli`] is pure syntax (clap derive); [`Cli::into_command`] does all
//! validation and returns a [`Command`] whose jobs are known to be runnable.

pub mod help;

use crate::engine::checkpoint::Config;
use crate::engine::memory::usable;
use crate::hosts::{self, Cluster};
use crate::job::{Job, SearchRoute};
use crate::puzzle::SymmetryChoice;
use crate::puzzle::family::{SizeArgs, count};
use crate::registry;
use crate::solve::definition::DEFAULT_MEMORY;
use crate::solve::{Pdb, Sample, SolveBy};
use crate::util::{human_bytes, thousands};
use clap::builder::PossibleValuesParser;
use clap::{Args, Parser};
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// Enumerates every reachable state of classic puzzles (built-in ones, coin puzzles from
/// TOML rules files, permutation puzzles from .tws definition files): distances to the
/// goal, solvability classes, CSV tables, PNG charts and readable reports; solves
/// states optimally.
#[derive(Debug, Parser)]
#[command(
    name = "analyze",
    version,
    max_term_width = 100,
    allow_negative_numbers = true,
    after_help = help::after_help()
)]
pub struct Cli {
    /// Puzzle to analyse (--list describes each).
    #[arg(long, value_parser = PossibleValuesParser::new(registry::names()))]
    pub puzzle: Option<String>,
    /// The size options (--rows, --cols, --size, --coins, --flip, --metric, --moves).
    #[command(flatten)]
    pub size: SizeArgs,
    /// Print a shortest solution of each STATE instead of analysing the whole puzzle; a
    /// STATE is written in the puzzle's notation (e.g. tiles row by row, 0 for the blank,
    /// an H/T string, or a definition file's moves: "(R U)3 [F: R]"), or is a data file
    /// (a twsearch scramble file FILE.scr: each of its scrambles).
    #[arg(long, num_args = 1.., value_name = "STATE")]
    pub solve: Vec<String>,
    /// Print N states (default 10) drawn at random among those D moves from the goal (D
    /// `any`: among all reachable states), one a line in the puzzle's notation, the same on
    /// every run (see --seed): for the puzzles solved by a table (coin puzzles, definition
    /// files, sliding boards of up to 12 cells); `any` also for any definition file, drawn
    /// from the group its moves generate (the 3x3x3's random positions).
    #[arg(
        long,
        num_args = 1..=2,
        value_names = ["D", "N"],
        value_parser = count_or_any,
        conflicts_with_all = ["solve", "all", "list", "heuristics", "pdb"]
    )]
    pub sample: Vec<Option<u64>>,
    /// With --sample: the seed that draws the states; another seed, other states
    /// [default: 0].
    #[arg(long, value_name = "S", value_parser = count, requires = "sample")]
    pub seed: Option<u64>,
    /// With --sample on a definition file: print each state as the definition's lines
    /// (per set its pieces, and twists), not as the moves that make it from the goal.
    #[arg(long, requires = "sample")]
    pub as_lines: bool,
    /// How the whole space is searched: dense (bit planes over ranks) or sparse (sorted
    /// levels of packed states); left out, chosen by memory. For tests and measurements.
    #[arg(long, value_name = "ROUTE", hide = true, conflicts_with_all = ["solve", "sample"])]
    pub route: Option<String>,
    /// With --solve: print one JSON object per line for each state (the state, its
    /// moves, the states along the path, the facts, the time) instead of text.
    #[arg(long, requires = "solve")]
    pub json: bool,
    /// Analyse (or with --solve, solve) puzzles described in files: coin puzzles in TOML
    /// rules files (FILE.toml), permutation puzzles in twsearch/ksolve definition files
    /// (FILE.tws, FILE.ksolve: pocket cube, pancakes, Top Spin, pyraminx ...) or cubing.js
    /// KPuzzle definitions (FILE.kpuzzle.json); formats in the README. Several files also
    /// get an index README.md and overview.png.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["puzzle", "all"])]
    pub rules: Vec<PathBuf>,
    /// Measure distances to STATE, in the puzzle's notation, instead of the puzzle's own
    /// goal. The report id gets `-goal-...`.
    #[arg(long, value_name = "STATE", conflicts_with = "all")]
    pub goal: Option<String>,
    /// Count states up to the puzzle's symmetries, found from its moves and goal:
    /// none, rotations (those that keep orientation) or all (rotations and reflections),
    /// each optionally +inverse (a state and its inverse alike, where that holds).
    /// Default: the largest group that holds. `distances.csv` gives the classes beside the
    /// states; the report id gets `-symmetry-...` when this is given.
    #[arg(long, value_name = "GROUP")]
    pub symmetry: Option<SymmetryChoice>,
    /// --solve on 4x4: the pattern databases, 663 (groups of 6, 6 and 3 tiles, 11.5 MB,
    /// built in seconds) or 78 (7 and 8 tiles, 577 MB, built once in a few minutes, solves
    /// several times faster). Default: 78 once it is built, else 663.
    #[arg(long, value_name = "SPLIT")]
    pub pdb: Option<String>,
    /// --solve on a definition file: table (walk its distance table), search (IDA* with
    /// pattern databases that fit --memory) or auto (a table where one fits, the default).
    #[arg(long, value_name = "HOW", requires = "solve")]
    pub solve_by: Option<String>,
    /// List the puzzles, one line each.
    #[arg(long, conflicts_with_all = ["puzzle", "all", "solve", "rules", "goal"])]
    pub list: bool,
    /// List what the solver's cache folder holds (file, puzzle, goal, size, last use) and
    /// its total. The folder: $ANALYZE_CACHE_DIR, else $XDG_CACHE_HOME/analyze, else
    /// ~/.cache/analyze.
    #[arg(long, exclusive = true)]
    pub cache: bool,
    /// Empty the solver's cache folder, or with DAYS remove only what was not used in the
    /// last DAYS days; safe while other runs use it.
    #[arg(long, value_name = "DAYS", num_args = 0..=1, exclusive = true)]
    pub cache_clear: Option<Option<String>>,
    /// Print the completion script for SHELL (bash, zsh, fish, powershell, elvish) and exit,
    /// e.g. `analyze --completions bash > ~/.local/share/bash-completion/completions/analyze`.
    #[arg(long, value_name = "SHELL", exclusive = true)]
    pub completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff) and exit, e.g. `analyze --man > analyze.1`.
    #[arg(long, exclusive = true)]
    pub man: bool,
    /// Analyse every puzzle at its default size plus a few generalisations, and write an
    /// index README.md and overview.png in the output folder.
    #[arg(long, conflicts_with_all = ["puzzle", "solve"])]
    pub all: bool,
    /// Sliding boards: measure the heuristic atlas, with its A* effort table, beyond 10
    /// cells too (3x4, 2x6, 2x7).
    #[arg(long, conflicts_with_all = ["solve", "list"])]
    pub heuristics: bool,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Several processes sharing one search.
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// Options for one search shared by several processes or machines.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// Share the search between the processes listed in FILE: one host:port per line, in
    /// process order, the same file for every process (blank lines and # comments allowed).
    #[arg(long, value_name = "FILE", requires = "process", conflicts_with_all = ["all", "list", "solve"])]
    pub hosts: Option<PathBuf>,
    /// A file holding the run's shared secret (at least 16 bytes, the same on every machine):
    /// every process proves it holds it when they connect, so no other can join the run.
    #[arg(long, value_name = "FILE", requires = "hosts")]
    pub secret_file: Option<PathBuf>,
    /// This process's line in the --hosts file, counting from 0.
    #[arg(long, value_name = "I", value_parser = count, requires = "hosts")]
    pub process: Option<u64>,
    /// Seconds a process waits for the others at the end of a level before failing them all
    /// (a stuck machine) [default: 3600].
    #[arg(long, value_name = "S", value_parser = count, requires = "hosts")]
    pub level_timeout: Option<u64>,
}

/// Options shared by every run.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Folder for the reports; each puzzle gets a subfolder named by its id.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_name = "N", value_parser = threads)]
    pub threads: Option<u64>,
    /// No progress bar or memory note on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Save the search at level boundaries in DIR, and resume from it when the same
    /// command is run again (one puzzle; the two latest saved levels are kept).
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,
    /// Save at most every M minutes instead of at every level.
    #[arg(long, value_name = "M", value_parser = count, requires = "checkpoint")]
    pub checkpoint_minutes: Option<u64>,
    /// Keep the search's bit planes in files in DIR, a part in memory at a time, for spaces
    /// larger than memory; the same command resumes a run that was stopped or killed. With
    /// --hosts, each process keeps its share in its own DIR.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["checkpoint", "all"])]
    pub disk: Option<PathBuf>,
    /// Memory the search may use with --disk, e.g. 6GiB, 512MiB (default: 80% of what is
    /// available); with --solve, what a definition's pattern databases may take (default:
    /// 1GiB, at most half of what is available).
    #[arg(long, value_name = "SIZE", value_parser = bytes)]
    pub memory: Option<u64>,
    /// Keep the --disk files after the search (the last level's planes) instead of deleting
    /// them.
    #[arg(long, requires = "disk")]
    pub keep_disk: bool,
    /// Also write each distance table as OEIS takes it: `oeis-terms.txt` (the terms on one
    /// comma-separated line, for a sequence's DATA) and `b-file.txt` (one `n a(n)` a line).
    #[arg(long)]
    pub oeis: bool,
}

/// Reads `--threads`: 1 to [`MAX_THREADS`], one message for every value refused (a
/// negative number, 0, too many, not a number), so that what is accepted is said once.
fn threads(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "use a whole number of threads, 1 to {MAX_THREADS} (leave out --threads for one per core)"
        )),
    }
}

/// Reads a size in bytes: a number, then optionally K, M, G or T (binary units: `KiB`,
/// `MiB`, `GiB`, `TiB` and `KB`... read alike), e.g. `6GiB`, `1.5G`, `512MiB`, `65536`.
fn bytes(text: &str) -> Result<u64, String> {
    let bad = || format!("use a size such as 6GiB, 512MiB or 65536 (bytes), not `{text}`");
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(number_end);
    if text.starts_with('-') {
        return Err(format!("a size is never negative: {}", bad()));
    }
    let value: f64 = number.parse().map_err(|_| bad())?;
    if unit.trim().is_empty() && number.contains('.') {
        return Err(format!(
            "a size without a unit is whole bytes; with one, `{number}GiB` or `{number}MiB`: {}",
            bad()
        ));
    }
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad()),
    };
    let bytes = value * (1u64 << shift) as f64;
    if bytes >= 1.8e19 {
        return Err(format!("`{text}` is too large: at most 16 EiB"));
    }
    if bytes < 1.0 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// A validated request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Print the puzzle list.
    List,
    /// List what the solver's cache holds (`--cache`).
    Cache,
    /// Empty the solver's cache (`--cache-clear [DAYS]`).
    CacheClear {
        /// Remove only what was not used for this many days (`None`: everything).
        days: Option<u64>,
    },
    /// Print the completion script for a shell.
    Completions(clap_complete::Shell),
    /// Print the manual page.
    Man,
    /// Solve these states of one puzzle.
    Solve {
        /// The puzzle (sliding boards of any size the solver accepts).
        job: Job,
        /// The states as given: notation strings or data-file paths.
        states: Vec<String>,
        /// Worker threads.
        threads: usize,
        /// Suppress stderr chatter.
        quiet: bool,
        /// `--pdb`: the 4x4 pattern databases (`None`: the default).
        pdb: Option<Pdb>,
        /// Print JSON lines instead of text (`--json`).
        json: bool,
        /// `--solve-by`: a definition's table or IDA*.
        by: SolveBy,
        /// Bytes a definition's pattern databases may take (`--memory`).
        memory: u64,
    },
    /// Print positions drawn at a distance from the goal (`--sample D N`).
    Sample {
        /// The puzzle.
        job: Job,
        /// The distance, how many, and the seed.
        request: Sample,
        /// Print a definition's positions as its lines, not as moves (`--as-lines`).
        lines: bool,
        /// Worker threads.
        threads: usize,
        /// Suppress stderr chatter.
        quiet: bool,
    },
    /// Analyse these puzzles; `index` writes the `--all` index too.
    Analyze {
        /// The puzzles, in order.
        jobs: Vec<Job>,
        /// Whether to write the index and overview chart.
        index: bool,
        /// Whether to measure the full heuristic atlas of sliding boards (`--heuristics`).
        heuristics: bool,
        /// Whether to write the distance tables for OEIS too (`--oeis`).
        oeis: bool,
        /// Output folder.
        out: PathBuf,
        /// Worker threads.
        threads: usize,
        /// Suppress stderr chatter.
        quiet: bool,
        /// The processes sharing the search (`--hosts`); `None`: this process alone.
        cluster: Option<Cluster>,
        /// Save and resume the search there (one job only).
        checkpoint: Option<Config>,
        /// Keep the planes on disk there (one job only).
        disk: Option<crate::engine::disk::Config>,
    },
}

/// A command line that parses but asks for something invalid.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct UsageError(pub String);

fn usage<T>(message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(message.into()))
}

/// Largest thread count accepted (far more than any machine here has cores).
const MAX_THREADS: u64 = 1024;

/// Longest interval between checkpoints: a week.
const MAX_CHECKPOINT_MINUTES: u64 = 7 * 24 * 60;

/// Reads a file the command line names (the hostfile, rules files, the secret) as bytes.
/// The binary passes a reader like [`std::fs::read`]: the library opens no file itself.
pub type ReadFile<'a> = &'a dyn Fn(&std::path::Path) -> std::io::Result<Vec<u8>>;

/// A file's bytes as text, or the error that they are not UTF-8.
pub fn utf8(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// A rules or definition file's bytes as text: a UTF-8 byte-order mark is dropped, and a
/// file that is not UTF-8 is read as Latin-1 (each byte one character), as older ksolve
/// files have accented letters in their comments; the keywords are ASCII either way.
pub fn rules_text(bytes: Vec<u8>) -> String {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bytes = match bytes.strip_prefix(BOM) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| char::from(b)).collect())
}

impl Cli {
    /// Checks every option against the puzzle and turns the line into a [`Command`]; the
    /// files it names are read with `read`.
    pub fn into_command(self, available_memory: Option<u64>, read: ReadFile) -> Result<Command, UsageError> {
        if self.list {
            return Ok(Command::List);
        }
        if self.cache {
            return Ok(Command::Cache);
        }
        if let Some(days) = &self.cache_clear {
            return Ok(Command::CacheClear {
                days: days.as_deref().map(cache_days).transpose()?,
            });
        }
        if let Some(shell) = self.completions {
            return Ok(Command::Completions(shell));
        }
        if self.man {
            return Ok(Command::Man);
        }
        let threads = match self.output.threads {
            None => std::thread::available_parallelism().map_or(1, usize::from),
            Some(n) if (1..=MAX_THREADS).contains(&n) => n as usize,
            Some(n) => {
                return usage(format!(
                    "--threads {n} is out of range: use a whole number of threads, 1 to {MAX_THREADS} (leave out --threads for one per core)"
                ));
            }
        };
        let solving = !self.solve.is_empty();
        let sampling = !self.sample.is_empty();
        if let Some(pdb) = &self.pdb {
            pdb.parse::<Pdb>().map_err(UsageError)?;
            if !solving {
                return usage(format!(
                    "--pdb {pdb} chooses the pattern databases of --solve on the 4x4 board; it has no meaning without --solve"
                ));
            }
        }
        if self.output.memory.is_some() && self.output.disk.is_none() && !solving {
            return usage(
                "--memory sets what a search on disk (--disk DIR) or --solve's pattern databases may take: give --disk or --solve with it",
            );
        }
        let jobs = self.jobs(read, solving || sampling)?;
        if solving {
            self.solve_command(jobs, threads, available_memory)
        } else if sampling {
            self.sample_command(jobs, threads)
        } else {
            self.analyze_command(jobs, threads, available_memory, read)
        }
    }

    /// The puzzles asked for: `--all`, the `--rules` files, or `--puzzle` with its size,
    /// each with `--goal` if given.
    fn jobs(&self, read: ReadFile, solving: bool) -> Result<Vec<Job>, UsageError> {
        if self.all {
            self.reject_size_options("--all")?;
            return registry::all()
                .into_iter()
                .map(|job| with_symmetry(job, self.symmetry))
                .collect();
        }
        if self.rules.is_empty() {
            let Some(name) = &self.puzzle else {
                return usage(if solving {
                    let flag = if self.sample.is_empty() { "--solve" } else { "--sample" };
                    format!("{flag} needs the puzzle: give --puzzle NAME (see --list) or --rules FILE")
                } else {
                    "nothing to do: give --puzzle NAME (see --list), --rules FILE, --all or --list".to_string()
                });
            };
            let job = with_goal(self.job(name, solving)?, self.goal.as_deref())?;
            return Ok(vec![with_symmetry(job, self.symmetry)?]);
        }
        let jobs = self
            .rules
            .iter()
            .map(|path| {
                self.read_rules(path, read)
                    .and_then(|job| with_goal(job, self.goal.as_deref()))
                    .and_then(|job| with_symmetry(job, self.symmetry))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let ids: Vec<String> = jobs.iter().map(Job::to_string).collect();
        if let Some(id) = ids
            .iter()
            .enumerate()
            .find_map(|(i, id)| ids[..i].contains(id).then_some(id))
        {
            return usage(format!(
                "two rules files have names that make the id `{id}`: their reports would overwrite each other; give each puzzle its own name"
            ));
        }
        Ok(jobs)
    }

    /// `--solve`: one puzzle, its positions, and the options solving takes.
    fn solve_command(self, jobs: Vec<Job>, threads: usize, available: Option<u64>) -> Result<Command, UsageError> {
        let [job] = <[Job; 1]>::try_from(jobs).map_err(|_| UsageError("--solve takes a single --rules file".into()))?;
        if self.output.checkpoint.is_some() {
            return usage("--checkpoint saves an analysis; --solve does not take it");
        }
        refuse_unranked(&job, "--solve")?;
        let by = self
            .solve_by
            .as_deref()
            .map_or(Ok(SolveBy::Auto), str::parse)
            .map_err(UsageError)?;
        let memory = match (self.output.memory, available) {
            (Some(memory), Some(available)) if u128::from(memory) > usable(available) => {
                return usage(format!(
                    "--memory {} is more than 90% of the {} available: give at most {} for the pattern databases",
                    human_bytes(u128::from(memory)),
                    human_bytes(u128::from(available)),
                    human_bytes(usable(available))
                ));
            }
            (Some(memory), _) => memory,
            (None, Some(available)) => DEFAULT_MEMORY.min(available / 2),
            (None, None) => DEFAULT_MEMORY,
        };
        Ok(Command::Solve {
            by,
            memory,
            pdb: self.pdb_for(&job)?,
            job,
            states: self.solve,
            threads,
            quiet: self.output.quiet,
            json: self.json,
        })
    }

    /// `--sample D [N]`: one puzzle, the distance, how many (1 or more), the seed.
    fn sample_command(self, jobs: Vec<Job>, threads: usize) -> Result<Command, UsageError> {
        let [job] =
            <[Job; 1]>::try_from(jobs).map_err(|_| UsageError("--sample takes a single --rules file".into()))?;
        if self.output.checkpoint.is_some() || self.cluster.hosts.is_some() {
            return usage("--sample draws states from one puzzle's table: it takes neither --checkpoint nor --hosts");
        }
        refuse_unranked(&job, "--sample")?;
        if self.json {
            return usage(
                "--json is for --solve's solutions; --sample prints one state a line, in the puzzle's notation: leave out --json",
            );
        }
        let distance = self.sample[0];
        let d = distance.map_or("any".into(), |d| d.to_string());
        let count = match self.sample.get(1).copied() {
            None => 10,
            Some(Some(n)) if (1..=MAX_SAMPLE).contains(&n) => n,
            Some(_) => {
                return usage(format!(
                    "--sample {d} N: N is how many states to print, 1 to {} (leave it out for 10; another --seed draws others)",
                    thousands(u128::from(MAX_SAMPLE))
                ));
            }
        };
        let as_usize = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Ok(Command::Sample {
            job,
            request: Sample {
                distance: distance.map(as_usize),
                count: as_usize(count),
                seed: self.seed.unwrap_or(0),
            },
            lines: self.as_lines,
            threads,
            quiet: self.output.quiet,
        })
    }

    /// An analysis of `jobs`: the options of the search checked against each, and each
    /// checked to fit in memory (this process's share of it with `--hosts`).
    fn analyze_command(
        self,
        jobs: Vec<Job>,
        threads: usize,
        available_memory: Option<u64>,
        read: ReadFile,
    ) -> Result<Command, UsageError> {
        // --all measures the atlas where it applies and nowhere else.
        let heuristics = self.heuristics && !self.all;
        if heuristics && jobs.iter().any(|job| job.goal().is_some()) {
            return usage("--heuristics measures estimates to the usual goal: leave out --goal");
        }
        if heuristics && jobs.iter().any(|job| job.tiles().is_none()) {
            return usage("--heuristics applies to sliding boards only (--puzzle eight or sliding)");
        }
        let cluster = self.cluster.read(read)?;
        if let Some(job) = jobs.iter().find(|j| j.weighted())
            && (cluster.is_some() || self.output.checkpoint.is_some())
        {
            return usage(format!(
                "{job} has moves of different costs, searched by Dial's buckets in one process: --hosts and --checkpoint take puzzles whose moves all cost 1"
            ));
        }
        if self.heuristics && cluster.is_some() && jobs.iter().any(|j| !j.atlas_by_default()) {
            // The atlas reads every level whole; a shared search's processes hold a slice each.
            return usage("--heuristics on a board of more than 10 cells runs in one process: leave out --hosts");
        }
        no_dangling_link("--out", &self.output.out)?;
        let disk = self.disk(&jobs, heuristics, available_memory)?;
        let mut routed = Vec::new();
        for job in jobs {
            check_id(&job)?;
            if disk.is_some() && !job.weighted() {
                // On disk the planes of the ranks are searched, at any memory.
                routed.push(job.with_route(SearchRoute::Dense));
                continue;
            }
            // A shared search splits the planes between machines: the memory here does not
            // decide against them.
            let memory = if cluster.is_some() { None } else { available_memory };
            let route = job.pick_route(self.route.as_deref(), memory).map_err(UsageError)?;
            let job = job.with_route(route);
            if let SearchRoute::Sparse { key_bytes } = route {
                check_sparse(&job, key_bytes, cluster.is_some(), self.output.checkpoint.is_some())?;
            } else {
                match &cluster {
                    Some(cluster) => check_share(&job, available_memory, cluster)?,
                    None => check_memory(&job, available_memory)?,
                }
            }
            routed.push(job);
        }
        let jobs = routed;
        Ok(Command::Analyze {
            checkpoint: self.checkpoint(jobs.len())?,
            index: self.all || self.rules.len() > 1,
            heuristics: self.all || self.heuristics,
            oeis: self.output.oeis,
            disk,
            jobs,
            out: self.output.out,
            threads,
            quiet: self.output.quiet,
            cluster,
        })
    }

    /// `--disk`, `--memory` and `--keep-disk`, checked against the one job they serve.
    fn disk(
        &self,
        jobs: &[Job],
        heuristics: bool,
        available: Option<u64>,
    ) -> Result<Option<crate::engine::disk::Config>, UsageError> {
        let Some(dir) = &self.output.disk else {
            return Ok(None);
        };
        let [job] = jobs else {
            return usage("--disk keeps one search's planes: give one puzzle");
        };
        no_dangling_link("--disk", dir)?;
        if dir.exists() && !dir.is_dir() {
            return usage(format!(
                "--disk {}: not a folder (give a folder to keep the search's planes in)",
                dir.display()
            ));
        }
        inside_reports(dir, &self.output.out, job, self.output.keep_disk)?;
        if let Some(why) = job.unranked() {
            return usage(format!(
                "--disk keeps the bit planes of a puzzle's ranks; {job} cannot be ranked ({why}): leave out --disk"
            ));
        }
        if u64::try_from(job.states()).is_err() {
            return usage(format!(
                "{job} has {} ranks, more than a search on disk can number (2^64): leave out --disk",
                count_text(job.states())
            ));
        }
        if heuristics || job.atlas_by_default() {
            return usage(format!(
                "{job}: the heuristic atlas reads every level in memory; its {} of planes fit in memory: leave out --disk{}",
                human_bytes(job.memory()),
                if heuristics { " (or --heuristics)" } else { "" }
            ));
        }
        let memory = match (self.output.memory, available) {
            (Some(m), Some(free)) if u128::from(m) > usable(free) => {
                return usage(format!(
                    "--memory {} is more than {}% of the {} available: give at most {}",
                    human_bytes(u128::from(m)),
                    crate::engine::memory::USABLE_PERCENT,
                    human_bytes(u128::from(free)),
                    human_bytes(usable(free))
                ));
            }
            (Some(m), _) => m,
            (None, Some(free)) => free / 10 * 8,
            (None, None) => 1 << 30,
        };
        let least_for = |ranks: u128| crate::engine::disk::least_memory(u64::try_from(ranks).unwrap_or(u64::MAX));
        let ranks = u64::try_from(job.ranks_unless_fit(|ranks| least_for(ranks) <= memory)).unwrap_or(u64::MAX);
        let least = crate::engine::disk::least_memory(ranks);
        if memory < least {
            return usage(format!(
                "--memory {} would cut {job}'s {} of planes into more than {} parts: give --memory {} or more",
                human_bytes(u128::from(memory)),
                human_bytes(u128::from(crate::engine::memory::plane_bytes(ranks))),
                crate::engine::disk::MAX_PARTS,
                human_bytes(u128::from(least))
            ));
        }
        Ok(Some(crate::engine::disk::Config {
            dir: dir.clone(),
            memory,
            keep: self.output.keep_disk,
        }))
    }

    /// `--checkpoint` and `--checkpoint-minutes`, checked.
    fn checkpoint(&self, jobs: usize) -> Result<Option<Config>, UsageError> {
        let Some(dir) = &self.output.checkpoint else {
            return Ok(None);
        };
        if jobs != 1 {
            return usage("--checkpoint saves one search: give one --puzzle, not --all");
        }
        no_dangling_link("--checkpoint", dir)?;
        if dir.exists() && !dir.is_dir() {
            return usage(format!(
                "--checkpoint {}: not a folder (give a folder to keep the checkpoint files in)",
                dir.display()
            ));
        }
        let every = match self.output.checkpoint_minutes {
            None => None,
            Some(m) if (1..=MAX_CHECKPOINT_MINUTES).contains(&m) => Some(Duration::from_secs(60 * m)),
            Some(m) => {
                return usage(format!(
                    "--checkpoint-minutes {m} is out of range: use 1 to {MAX_CHECKPOINT_MINUTES} (leave it out to save every level)"
                ));
            }
        };
        Ok(Some(Config {
            dir: dir.clone(),
            every,
        }))
    }

    /// Reads and checks a rules file, of whichever family takes it: errors name the file,
    /// and the line and column of the offending value when the family's reader gives them.
    fn read_rules(&self, path: &std::path::Path, read: ReadFile) -> Result<Job, UsageError> {
        let shown = path.display();
        let text = read(path)
            .map(rules_text)
            .map_err(|e| UsageError(format!("cannot read the rules file {shown}: {e}")))?;
        let args = &self.size;
        let Some(family) = registry::for_file(path, &text) else {
            return usage(format!(
                "{shown}: not a rules file: give a coin puzzle's TOML rules (FILE.toml) or a permutation puzzle's definition (FILE.tws), see the README"
            ));
        };
        let (flags, hint) = family.flags();
        self.allow_only(&format!("--rules {shown}"), flags, hint)?;
        let job = family
            .read(path, &text, args)
            .map_err(|e| UsageError(format!("{shown}:{e}")))?;
        // A definition past enumerating is still solved, by heuristic search, and sampled
        // from its group (`--sample any`; a distance is refused by the search's route).
        match job.beyond() {
            Some(why) if self.solve.is_empty() && self.sample.is_empty() => usage(format!("{shown}:{why}")),
            _ => Ok(job),
        }
    }

    fn reject_size_options(&self, what: &str) -> Result<(), UsageError> {
        self.allow_only(what, &[], "")
    }

    /// Refuses a size flag outside `allowed`, with a hint at what to give instead: for
    /// `--metric`, `--moves` and `--omit`, who takes them; else the family's own `hint`, or the flags it takes.
    fn allow_only(&self, what: &str, allowed: &[&str], hint: &str) -> Result<(), UsageError> {
        let Some(option) = self.size.given().into_iter().find(|o| !allowed.contains(&o.as_str())) else {
            return Ok(());
        };
        let hint = if ["--metric", "--moves", "--omit"].contains(&option.as_str()) {
            " (only a permutation puzzle's definition file has a choice of metric, moves and sets: --rules FILE.tws --metric face|quarter --moves A,B,... --omit SET,...)"
                .to_string()
        } else if !hint.is_empty() {
            hint.to_string()
        } else if allowed.is_empty() {
            " (it takes no size options)".to_string()
        } else {
            let flags: Vec<String> = allowed.iter().map(|flag| SizeArgs::with_value(flag)).collect();
            format!(" (use {})", flags.join(" "))
        };
        usage(format!("{what} does not take {option}{hint}"))
    }

    /// The puzzle asked for. `solving` lifts the enumeration limit on sliding boards:
    /// single positions of boards too big to enumerate are solved by heuristic search.
    /// `--pdb`, checked against the puzzle solved: only 4x4 sliding boards have a choice.
    fn pdb_for(&self, spec: &Job) -> Result<Option<Pdb>, UsageError> {
        let Some(text) = &self.pdb else { return Ok(None) };
        if spec.tiles() != Some((4, 4)) {
            return usage(format!(
                "--pdb {text} chooses between the 4x4 board's pattern databases; {spec} has no such choice (leave out --pdb)"
            ));
        }
        text.parse().map(Some).map_err(UsageError)
    }

    /// The job `--puzzle NAME` and the size options ask for. `solving` lifts the
    /// enumeration limit: single positions of sliding boards too big to enumerate are
    /// solved by heuristic search.
    fn job(&self, name: &str, solving: bool) -> Result<Job, UsageError> {
        let family = registry::by_name(name).ok_or_else(|| UsageError(format!("no puzzle is named `{name}`")))?;
        let (flags, hint) = family.flags();
        self.allow_only(&format!("--puzzle {name}"), flags, hint)?;
        let job = family.choose(&self.size).map_err(UsageError)?;
        match job.beyond() {
            Some(why) if !(solving && job.tiles().is_some()) => too_big(&job, &why),
            _ => Ok(job),
        }
    }
}

/// Most days `--cache-clear` takes: a century.
const MAX_CACHE_DAYS: u64 = 36_500;

/// `--cache-clear DAYS`: a whole number of days, 0 (everything) to a century.
fn cache_days(text: &str) -> Result<u64, UsageError> {
    match text.parse::<u64>() {
        Ok(days) if days <= MAX_CACHE_DAYS => Ok(days),
        _ => usage(format!(
            "--cache-clear {}: give a whole number of days, 0 to {MAX_CACHE_DAYS} (what was not used for that long is removed), or no number to remove everything",
            crate::util::quote(text)
        )),
    }
}

/// Longest `--level-timeout` accepted: a week.
const MAX_LEVEL_TIMEOUT: u64 = 7 * 24 * 3600;

impl ClusterArgs {
    /// Reads and checks the hostfile and this process's place in it.
    fn read(&self, read: ReadFile) -> Result<Option<Cluster>, UsageError> {
        let (Some(file), Some(process)) = (&self.hosts, self.process) else {
            return Ok(None);
        };
        let shown = file.display();
        let text = read(file).and_then(utf8).or_else(|e| {
            usage(format!(
                "cannot read --hosts {shown}: {e} (give a file with one host:port per line, in process order)"
            ))
        })?;
        let addresses = hosts::parse_hosts(&text).or_else(|why| {
            usage(format!(
                "--hosts {shown} {why}: give one host:port per line, in process order (blank lines and # comments are skipped)"
            ))
        })?;
        let last = addresses.len() - 1;
        if process > last as u64 {
            return usage(format!(
                "--process {process} is out of range: {shown} lists {} process{} (--process 0 to {last})",
                addresses.len(),
                if last == 0 { "" } else { "es" }
            ));
        }
        let level_timeout = match self.level_timeout {
            None => 3600,
            Some(s) if (1..=MAX_LEVEL_TIMEOUT).contains(&s) => s,
            Some(s) => {
                return usage(format!(
                    "--level-timeout {s} is out of range: use 1 to {MAX_LEVEL_TIMEOUT} seconds"
                ));
            }
        };
        let secret = match &self.secret_file {
            None => None,
            Some(path) => {
                let shown = path.display();
                let bytes = read(path).or_else(|e| usage(format!("cannot read --secret-file {shown}: {e}")))?;
                Some(hosts::parse_secret(&bytes).or_else(|why| usage(format!("--secret-file {shown} {why}")))?)
            }
        };
        Ok(Some(Cluster {
            hostfile: file.clone(),
            addresses,
            process: process as usize,
            level_timeout,
            secret,
        }))
    }
}

/// The puzzle of `job` with `goal` as its goal, checked (or `job` itself without one).
fn with_goal(job: Job, goal: Option<&str>) -> Result<Job, UsageError> {
    match goal {
        None => Ok(job),
        Some(goal) => job.with_goal(goal).map_err(UsageError),
    }
}

/// The puzzle of `job` counted up to the symmetries of `choice` (`--symmetry`), checked.
fn with_symmetry(job: Job, choice: Option<SymmetryChoice>) -> Result<Job, UsageError> {
    match choice {
        None => Ok(job),
        Some(choice) => job.with_symmetry(choice).map_err(UsageError),
    }
}

/// Longest report id: the report folder's name, and its staging folder's with about 40
/// bytes more, must fit the 255 bytes a file name has on common file systems.
pub const MAX_ID_BYTES: usize = 200;

/// Refuses a folder given to `flag` that is, or lies under, a symbolic link whose target
/// is missing: creating it would fail ("File exists"), and not before the search.
fn no_dangling_link(flag: &str, path: &Path) -> Result<(), UsageError> {
    for link in path.ancestors().filter(|a| !a.as_os_str().is_empty()) {
        if !std::fs::symlink_metadata(link).is_ok_and(|m| m.is_symlink()) {
            continue;
        }
        let why = match std::fs::metadata(link) {
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "which does not exist".to_string(),
            Err(e) => format!("which cannot be followed ({e})"),
        };
        let target = std::fs::read_link(link).map_or_else(|_| "?".into(), |t| t.display().to_string());
        let under = if link == path {
            String::new()
        } else {
            format!(" (in {})", path.display())
        };
        return usage(format!(
            "{flag}: {}{under} is a symbolic link to {target}, {why}: create the folder it points to or give another path",
            link.display()
        ));
    }
    Ok(())
}

/// Refuses a job whose report folder could not be named (a rules file's long name).
fn check_id(job: &Job) -> Result<(), UsageError> {
    let id = job.to_string();
    if id.len() <= MAX_ID_BYTES {
        return Ok(());
    }
    usage(format!(
        "the report id {} is {} bytes long: a report folder's name takes at most {MAX_ID_BYTES} (give the puzzle a shorter name)",
        crate::util::quote(&id),
        id.len()
    ))
}

/// Refuses a job that cannot be enumerated at all, with its size and memory.
fn too_big<T>(job: &Job, why: &str) -> Result<T, UsageError> {
    usage(format!(
        "{job} has {} configurations: at {} bits a configuration the search would need {}; {why}",
        count_text(job.states()),
        job.bits_per_state(),
        human_bytes(job.memory())
    ))
}

/// Most states `--sample` prints at once: they are drawn, kept and printed together.
const MAX_SAMPLE: u64 = 1_000_000;

/// `--sample`'s words: a count, or `any` (`None`) for a distance left open.
fn count_or_any(text: &str) -> Result<Option<u64>, String> {
    match text {
        "any" => Ok(None),
        _ => count(text)
            .map(Some)
            .map_err(|e| format!("{e}, or `any` for D (any distance)")),
    }
}

fn count_text(n: u128) -> String {
    if n == u128::MAX {
        "more than 10^38".into()
    } else {
        thousands(n)
    }
}

/// Refuses a `--disk` folder where the report would take it away: inside the report's own
/// folder (swapped out when the report is committed), or, with `--keep-disk`, anywhere in
/// `--out` (the kept planes would sit among reports that runs replace).
fn inside_reports(disk: &Path, out: &Path, job: &Job, keep: bool) -> Result<(), UsageError> {
    // Absolute, with `.` and `..` worked out, so `reports/../planes` is not in `reports`.
    let absolute = |path: &Path| {
        let mut clean = PathBuf::new();
        for part in std::path::absolute(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .components()
        {
            match part {
                std::path::Component::ParentDir => {
                    clean.pop();
                }
                std::path::Component::CurDir => {}
                other => clean.push(other),
            }
        }
        clean
    };
    let (disk, out) = (absolute(disk), absolute(out));
    let report = out.join(job.to_string());
    if disk.starts_with(&report) {
        return usage(format!(
            "--disk {}: inside the report folder {}, which the report replaces: give a folder outside it",
            disk.display(),
            report.display()
        ));
    }
    if keep && disk.starts_with(&out) {
        return usage(format!(
            "--keep-disk keeps the planes in --disk {}, inside --out {} among the reports: give a --disk folder outside it",
            disk.display(),
            out.display()
        ));
    }
    Ok(())
}

/// Refuses to solve or sample a puzzle that cannot be ranked: both read a distance table
/// indexed by rank.
fn refuse_unranked(job: &Job, flag: &str) -> Result<(), UsageError> {
    match job.unranked() {
        Some(why) => usage(format!(
            "{flag} reads a distance table indexed by rank, and {job} cannot be ranked ({why}); it can only be analysed, as packed states"
        )),
        None => Ok(()),
    }
}

/// Refuses what the sparse route does not do: share a search (`--hosts`) or save one
/// (`--checkpoint`).
fn check_sparse(job: &Job, key_bytes: u32, hosts: bool, checkpoint: bool) -> Result<(), UsageError> {
    let flag = match (hosts, checkpoint) {
        (true, _) => "--hosts",
        (false, true) => "--checkpoint",
        (false, false) => return Ok(()),
    };
    let why = match job.unranked() {
        Some(why) => format!("it cannot be ranked ({why})"),
        None => format!(
            "its {} ranks' bit planes ({}) are far more than it needs",
            count_text(job.states()),
            human_bytes(job.memory())
        ),
    };
    usage(format!(
        "{job} is searched as packed states ({key_bytes} bytes a state) because {why}; that search runs in one process and is not saved: leave out {flag}"
    ))
}

/// Refuses a job whose bit sets would not fit in the memory available now.
fn check_memory(job: &Job, available: Option<u64>) -> Result<(), UsageError> {
    let Some(free) = available else {
        return Ok(());
    };
    let ranks = job.ranks_unless_fit(|ranks| job.memory_of(ranks) <= usable(free));
    let need = job.memory_of(ranks);
    if need <= usable(free) {
        return Ok(());
    }
    usage(
        format!(
            "{job}: the search of its {} needs {} ({} bits a {}) but only {} of memory is available",
            job.searched(ranks).trim_end_matches(','),
            human_bytes(need),
            job.bits_per_state(),
            if ranks < job.states() { "class" } else { "rank" },
            human_bytes(u128::from(free)),
        ) + &format!(
            "; --disk DIR keeps the planes on disk ({} of disk space), or --hosts FILE shares the search between processes on several machines: {}",
            human_bytes(crate::engine::disk::disk_bytes(
                u64::try_from(ranks).unwrap_or(u64::MAX),
                1
            )),
            machines_hint(job)
        ),
    )
}

/// Refuses a job whose share for one process of `cluster` would not fit in the memory
/// available to this one (every machine is assumed to have as much).
fn check_share(job: &Job, available: Option<u64>, cluster: &Cluster) -> Result<(), UsageError> {
    let processes = cluster.processes();
    let share = |ranks: u128| crate::engine::memory::memory_per_process(ranks, processes);
    let fits = |ranks: u128| available.is_none_or(|free| share(ranks) <= usable(free));
    let need = share(job.ranks_unless_fit(fits));
    match available {
        Some(free) if need > usable(free) => usage(format!(
            "{job} over {processes} process{} needs {} a process but only {} of memory is available here; {}",
            if processes == 1 { "" } else { "es" },
            human_bytes(need),
            human_bytes(u128::from(free)),
            machines_hint(job)
        )),
        _ => Ok(()),
    }
}

/// How many machines of 24 GiB the job needs, for messages.
pub fn machines_hint(job: &Job) -> String {
    match job.machines(24 << 30) {
        Some(k) => format!(
            "it needs {k} process{} on machines of 24 GiB ({} each)",
            if k == 1 { "" } else { "es" },
            human_bytes(job.memory_per_process(k))
        ),
        None => "it does not fit any number of 24 GiB machines".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    fn command(args: &[&str]) -> Result<Command, UsageError> {
        let cli = Cli::try_parse_from(std::iter::once("analyze").chain(args.iter().copied()))
            .map_err(|e| UsageError(e.to_string()))?;
        cli.into_command(Some(24 << 30), &|path| std::fs::read(path))
    }

    #[test]
    fn eight_is_the_3x3_board() {
        let Ok(Command::Analyze { jobs, .. }) = command(&["--puzzle", "eight"]) else {
            panic!("eight must parse")
        };
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].to_string(), "eight");
    }

    #[test]
    fn rejects_size_options_a_puzzle_does_not_take() {
        assert!(command(&["--puzzle", "eight", "--rows", "3"]).is_err());
        assert!(command(&["--puzzle", "coin-lines", "--rows", "3"]).is_err());
        assert!(command(&["--puzzle", "flip-k", "--size", "3"]).is_err());
    }

    #[test]
    fn refuses_4x4_with_the_memory_figure() {
        let err = command(&["--puzzle", "sliding", "--rows", "4", "--cols", "4"]).expect_err("4x4 must be refused");
        assert!(err.0.contains("10,461,394,944,000"), "{err}");
        assert!(err.0.contains("TiB"), "{err}");
    }
}

#[cfg(test)]
mod cluster_tests {
    use super::*;

    /// Runs the command line with a hostfile of `processes` lines and 24 GiB available.
    fn with_hosts(args: &[&str], processes: usize) -> Result<Command, UsageError> {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let hosts = dir.path().join("hosts");
        let lines: Vec<String> = (0..processes).map(|i| format!("10.0.0.{}:7000", i + 1)).collect();
        std::fs::write(&hosts, lines.join("\n")).expect("the hostfile is written");
        let hosts = hosts.to_string_lossy().into_owned();
        let all = ["analyze"]
            .into_iter()
            .chain(args.iter().copied())
            .chain(["--hosts", &hosts, "--process", "0"]);
        let cli = Cli::try_parse_from(all).map_err(|e| UsageError(e.to_string()))?;
        cli.into_command(Some(24 << 30), &|path| std::fs::read(path))
    }

    #[test]
    fn the_memory_guard_checks_each_process_share() {
        let board = ["--puzzle", "sliding", "--rows", "3", "--cols", "5"];
        let args = SizeArgs {
            rows: Some(3),
            cols: Some(5),
            ..SizeArgs::default()
        };
        let sliding = registry::by_name("sliding").expect("sliding is a family");
        let machines = sliding
            .choose(&args)
            .expect("3x5 is a board")
            .machines(24 << 30)
            .expect("3x5 fits some machines");
        let err = with_hosts(&board, 1).expect_err("3x5 on one machine");
        assert!(err.0.contains(&format!("it needs {machines} processes")), "{err}");
        let err = with_hosts(&board, machines - 1).expect_err("one machine too few");
        assert!(err.0.contains("a process"), "{err}");
        let Ok(Command::Analyze {
            cluster: Some(cluster), ..
        }) = with_hosts(&board, machines)
        else {
            panic!("3x5 on {machines} machines of 24 GiB must pass");
        };
        assert_eq!(cluster.processes(), machines);
        // 653,837,184,000 states at 2 bits: 152 GiB, so at least 8 machines with 90% of 24 GiB.
        assert!((8..=9).contains(&machines), "{machines}");
    }
}
