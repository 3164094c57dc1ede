//! `analyze`: parse the command line, run the analyses, write the reports, exit.
//!
//! Exit status: 0 done (a closed stdout too), 1 the run failed (files, stdout, memory,
//! internal), 2 bad input (options, positions), 130 interrupted. Everything on stderr
//! goes through [`note`], which ignores its own failure.

mod solve_cmd;

use analyze::analysis::{Analysis, AnalysisError};
use analyze::cli::{Cli, Command, PuzzleName};
use analyze::engine::checkpoint::{self, Note};
use analyze::engine::exchange::Partition;
use analyze::engine::exchange::{Exchange, Local};
use analyze::engine::{EngineError, Options};
use analyze::hosts::Cluster;
use analyze::job::{BITS_PER_STATE, IN_FLIGHT_BYTES, Spec, human_bytes};
use analyze::puzzle::Puzzle;
use analyze::report;
use anyhow::{Context, Result};
use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::fmt::Display;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

mod cluster;

use cluster::{SetupError, TimelyExchange};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version, on stdout.
        Err(e) if !e.use_stderr() => {
            return match e.print() {
                Err(io) if io.kind() != std::io::ErrorKind::BrokenPipe => {
                    fail(&format!("cannot write to stdout: {io}"), 1)
                }
                _ => ExitCode::SUCCESS,
            };
        }
        Err(e) => return fail(&one_line(&e.to_string()), 2),
    };
    let command = match cli.into_command(available_memory(), &|path| std::fs::read_to_string(path)) {
        Ok(command) => command,
        Err(e) => return fail(&e.to_string(), 2),
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.is::<Interrupted>() => fail(&format!("{e:#}"), 130),
        Err(e) if e.is::<BadInput>() => fail(&format!("{e:#}"), 2),
        Err(e) => fail(&format!("{e:#}"), 1),
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::List => list(),
        Command::Solve {
            spec,
            states,
            threads,
            quiet,
            pdb,
        } => solve_cmd::run(&spec, &states, threads, quiet, pdb),
        Command::Analyze {
            jobs,
            index,
            heuristics,
            out,
            threads,
            quiet,
            cluster,
            checkpoint,
        } => analyze_all(
            &jobs,
            index,
            &out,
            threads,
            &Settings {
                heuristics,
                quiet,
                checkpoint: checkpoint.as_ref(),
                cluster: cluster.as_ref(),
            },
        ),
    }
}

fn list() -> Result<()> {
    let mut out = std::io::stdout().lock();
    for name in PuzzleName::value_variants() {
        writeln!(out, "{}", name.describe()).context(STDOUT)?;
    }
    out.flush().context(STDOUT)
}

/// Analyses each job, writes its report folder, and for `--all` the index.
fn analyze_all(jobs: &[Spec], index: bool, out: &Path, threads: usize, settings: &Settings) -> Result<()> {
    // Ctrl-C or SIGTERM stops the search at the end of the current level; the staging
    // folders are then dropped (deleted), so no partial report is left behind.
    ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)).context("cannot install the Ctrl-C handler")?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    if let Some(cluster) = settings.cluster {
        // The exchange is bound to the thread that runs the search: one closure does it all.
        return pool.install(|| {
            jobs.iter()
                .try_for_each(|job| analyze_shared(job, out, settings, cluster))
        });
    }
    // Create every output folder before the first search, so a bad --out fails at once.
    let index_stage = index.then(|| report::stage(out, "index")).transpose()?;
    let staged = jobs
        .iter()
        .map(|job| report::stage(out, &job.to_string()))
        .collect::<Result<Vec<_>>>()?;
    let mut analyses = Vec::new();
    let interrupted = |written: usize| Interrupted {
        written: jobs[..written].iter().map(Spec::to_string).collect(),
        not_written: jobs[written..].iter().map(Spec::to_string).collect(),
        index,
    };
    for (job, stage) in jobs.iter().zip(staged) {
        let Some(analysis) = pool.install(|| analyze(job, settings, None))? else {
            return Err(interrupted(analyses.len()).into());
        };
        report::write_all(&analysis, stage.path())?;
        if INTERRUPTED.load(Ordering::Relaxed) {
            return Err(interrupted(analyses.len()).into());
        }
        let path = stage.commit()?;
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{}  ->  {}", one_line_summary(&analysis), path.display()).context(STDOUT)?;
        stdout.flush().context(STDOUT)?;
        analyses.push(analysis);
    }
    if let Some(stage) = index_stage {
        write_index(&analyses, stage.path(), out)?;
    }
    Ok(())
}

/// One process's part of a `--hosts` run: connects to the others first (a launch gone wrong
/// leaves nothing behind), then searches; only process 0 writes the report.
fn analyze_shared(job: &Spec, out: &Path, settings: &Settings, cluster: &Cluster) -> Result<()> {
    let states = u64::try_from(job.states()).with_context(|| format!("{job} is too large to enumerate"))?;
    let description = format!("analyze {} {job}", env!("CARGO_PKG_VERSION"));
    let timely = TimelyExchange::start(cluster, states, &description).map_err(|e| match e {
        SetupError::Address(m) => anyhow::Error::new(BadInput(m)),
        SetupError::Peers(m) => anyhow::anyhow!(m),
    })?;
    let interrupted = || Interrupted {
        written: Vec::new(),
        not_written: vec![job.to_string()],
        index: false,
    };
    if cluster.process != 0 {
        let analysis = analyze(job, settings, Some((cluster, timely)))?.ok_or_else(interrupted)?;
        writeln!(
            std::io::stdout(),
            "{}  (process {} of {}; process 0 writes the report)",
            one_line_summary(&analysis),
            cluster.process,
            cluster.processes()
        )?;
        return Ok(());
    }
    let stage = report::stage(out, &job.to_string())?;
    let analysis = analyze(job, settings, Some((cluster, timely)))?.ok_or_else(interrupted)?;
    report::write_all(&analysis, stage.path())?;
    let path = stage.commit()?;
    writeln!(
        std::io::stdout(),
        "{}  ->  {}",
        one_line_summary(&analysis),
        path.display()
    )?;
    Ok(())
}

/// Runs one analysis with a progress bar on stderr (hidden when stderr is not a terminal;
/// indicatif ignores a failed write); `None` if interrupted.
fn analyze(job: &Spec, settings: &Settings, shared: Option<(&Cluster, TimelyExchange)>) -> Result<Option<Analysis>> {
    let (quiet, heuristics, checkpoint) = (settings.quiet, settings.heuristics, settings.checkpoint);
    let (cluster, mut timely) = match shared {
        Some((cluster, timely)) => (Some(cluster), Some(timely)),
        None => (None, None),
    };
    let puzzle = job
        .build()
        .with_context(|| format!("{job} is too large to enumerate"))?;
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(Spec::expected_reachable(&puzzle))
    };
    let states = analyze::with_puzzle!(&puzzle, p => p.states());
    if !quiet {
        match cluster {
            None => note(format_args!(
                "{job}: {} states to search, {} of bit sets ({} bits a state)",
                report::thousands(job.states()),
                human_bytes(job.memory()),
                job.bits_per_state()
            )),
            Some(cluster) => note(cluster_note(job, states, cluster)),
        }
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} level {msg:>3} [{bar:30}] {human_pos}/{human_len} states, {rate}, {eta} left",
        )
        .context("progress template")?
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{} states/s", report::chart::short_count(state.per_sec()));
        })
        .progress_chars("=> "),
    );
    bar.set_prefix(job.to_string());
    let notes = bar.clone();
    let id = job.to_string();
    let options = Options {
        checkpoint: checkpoint.cloned(),
        notify: Some(Box::new(move |event: &Note| {
            let line = match event {
                Note::Resumed { level, path } => {
                    format!(
                        "{id}: resuming after level {level} from the checkpoint {}",
                        path.display()
                    )
                }
                Note::Skipped { path, reason } => format!("{id}: not using checkpoint {}: {reason}", path.display()),
                Note::Saved { .. } => return,
            };
            notes.suspend(|| note(&line));
        })),
        ..Options::default()
    };
    let mut local = Local::new(states);
    let exchange: &mut dyn Exchange = match timely.as_mut() {
        Some(timely) => timely,
        None => &mut local,
    };
    let (mut sent, mut generated, mut busiest) = (0, 0, 0);
    let analysis = job.analyze_on(&puzzle, heuristics, exchange, options, |level| {
        sent += level.sent;
        generated += level.generated;
        busiest = busiest.max(level.sent);
        bar.set_message(level.depth.to_string());
        bar.set_position(level.reached);
        if INTERRUPTED.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish_and_clear();
    if let (Ok(_), Some(timely)) = (&analysis, timely) {
        // Every process has the result: leave together, so none sees another vanish.
        timely.finish().with_context(|| format!("{job}: analysis failed"))?;
        if let Some(cluster) = cluster.filter(|_| !quiet) {
            note(format_args!(
                "{job}: {} of {} predecessors ({:.1}%) belonged to another of the {} process(es) and were sent: {} at 8 bytes a rank, {} in the busiest level",
                report::thousands(u128::from(sent)),
                report::thousands(u128::from(generated)),
                100.0 * sent as f64 / generated.max(1) as f64,
                cluster.processes(),
                human_bytes(u128::from(sent) * 8),
                human_bytes(u128::from(busiest) * 8)
            ));
        }
    }
    match analysis {
        Err(AnalysisError::Engine(EngineError::Interrupted)) => Ok(None),
        Err(AnalysisError::Engine(EngineError::Checkpoint(e))) if e.is_refusal() => Err(BadInput(e.to_string()).into()),
        other => other.map(Some).with_context(|| format!("{job}: analysis failed")),
    }
}

/// What one process of a `--hosts` run holds, printed before it starts.
fn cluster_note(job: &Spec, states: u64, cluster: &Cluster) -> String {
    let processes = cluster.processes();
    let slice = Partition::new(states, processes).slice(cluster.process);
    format!(
        "{job}: {} states over {processes} process{} ({}); this one, process {}, owns ranks {}..{} ({} states): {} at {BITS_PER_STATE} bits a state plus at most {} of exchange buffers (the largest share: {}); {}",
        report::thousands(u128::from(states)),
        if processes == 1 { "" } else { "es" },
        cluster.hostfile.display(),
        cluster.process,
        slice.start,
        slice.end,
        report::thousands(u128::from(slice.end - slice.start)),
        human_bytes(u128::from(slice.end - slice.start) * BITS_PER_STATE / 8),
        human_bytes(u128::from(IN_FLIGHT_BYTES) * processes as u128),
        human_bytes(job.memory_per_process(processes)),
        analyze::cli::machines_hint(job)
    )
}

fn write_index(analyses: &[Analysis], dir: &Path, out: &Path) -> Result<()> {
    report::write_file(dir, "README.md", |w| Ok(report::index::write_index(analyses, w)?))?;
    report::draw(dir, "overview.png", |p| report::chart::overview(analyses, p))?;
    for name in ["README.md", "overview.png"] {
        std::fs::rename(dir.join(name), out.join(name))
            .with_context(|| format!("cannot write {}", out.join(name).display()))?;
    }
    Ok(())
}

fn one_line_summary(a: &Analysis) -> String {
    format!(
        "{}: {} of {} configurations reachable, max distance {} ({} antipode{}), mean {:.4}, {:.2} s",
        a.id,
        report::thousands(a.reachable()),
        report::thousands(a.configurations),
        a.max_distance(),
        report::thousands(a.antipodes()),
        if a.antipodes() == 1 { "" } else { "s" },
        a.mean_distance(),
        a.seconds
    )
}

/// MemAvailable from /proc/meminfo, if the system reports it.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// clap's multi-line message folded onto one line, without the `--help` tip.
/// A word longer than 60 characters (a huge value clap quotes back) is cut to its start.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:"))
        .flat_map(str::split_whitespace)
        .map(|word| match word.char_indices().nth(60) {
            Some(_) => format!(
                "{}... ({} characters)",
                word.chars().take(40).collect::<String>(),
                report::thousands(word.chars().count() as u64)
            ),
            None => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// How each analysis of a run is done.
struct Settings<'a> {
    /// Measure the heuristic atlas on any sliding board, and the A* effort.
    heuristics: bool,
    /// No progress bar or notes on stderr.
    quiet: bool,
    /// Save the search here at level boundaries, and resume from it.
    checkpoint: Option<&'a checkpoint::Config>,
    /// This process's place in a search shared by several (`--hosts`).
    cluster: Option<&'a Cluster>,
}

/// Set by the Ctrl-C / SIGTERM handler.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Context for a failed write to stdout (a run failure, exit 1; a closed pipe is not).
const STDOUT: &str = "cannot write to stdout";

/// The run stopped on Ctrl-C or SIGTERM; exits 130 like a shell does for SIGINT.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.describe())]
struct Interrupted {
    /// Reports already replaced (and listed on stdout).
    written: Vec<String>,
    /// Reports not written: their previous versions, if any, are untouched.
    not_written: Vec<String>,
    /// Whether the `--all` index was due (it is written last, so it was not).
    index: bool,
}

impl Interrupted {
    fn describe(&self) -> String {
        let mut missing = self.not_written.clone();
        if self.index {
            missing.push("the index (README.md, overview.png)".into());
        }
        let untouched = "previous versions, if any, are untouched";
        if self.written.is_empty() {
            format!("interrupted: no report was written (the {untouched})")
        } else {
            format!(
                "interrupted: wrote {} (listed above); not written: {} (their {untouched})",
                self.written.join(", "),
                missing.join(", ")
            )
        }
    }
}

/// Input that cannot be used: a position given to `--solve` (exit 2, like a bad option).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadInput(String);

/// Writes `message` as one line on stderr. A stderr that cannot be written (full, closed)
/// is ignored: notes and the error line are a courtesy, the exit status is the answer.
fn note(message: impl Display) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

fn fail(message: &str, code: u8) -> ExitCode {
    note(format_args!("error: {message}"));
    ExitCode::from(code)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
