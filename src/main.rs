//! `analyze`: parse the command line, run the analyses, write the reports, exit.

use analyze::analysis::{Analysis, AnalysisError};
use analyze::cli::{Cli, Command, PuzzleName};
use analyze::engine::EngineError;
use analyze::job::{Spec, human_bytes};
use analyze::report;
use anyhow::{Context, Result};
use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&one_line(&e.to_string()), 2),
    };
    let command = match cli.into_command(available_memory()) {
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
        } => solve(&spec, &states, threads, quiet),
        Command::Analyze {
            jobs,
            index,
            out,
            threads,
            quiet,
        } => analyze_all(&jobs, index, &out, threads, quiet),
    }
}

fn list() -> Result<()> {
    for name in PuzzleName::value_variants() {
        writeln!(std::io::stdout(), "{}", name.describe())?;
    }
    Ok(())
}

fn solve(spec: &Spec, states: &[String], threads: usize, quiet: bool) -> Result<()> {
    // Every position is read and checked before any search, so a failure here is bad
    // input (exit 2), unless it is stdout going away.
    analyze::solve::run(spec, states, threads, quiet, &mut std::io::stdout().lock()).map_err(|e| {
        if is_broken_pipe(&e) {
            e
        } else {
            anyhow::Error::new(BadInput(format!("{e:#}")))
        }
    })
}

/// Analyses each job, writes its report folder, and for `--all` the index.
fn analyze_all(jobs: &[Spec], index: bool, out: &Path, threads: usize, quiet: bool) -> Result<()> {
    // Ctrl-C or SIGTERM stops the search at the end of the current level; the staging
    // folders are then dropped (deleted), so no partial report is left behind.
    ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)).context("cannot install the Ctrl-C handler")?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    // Create every output folder before the first search, so a bad --out fails at once.
    let index_stage = index.then(|| report::stage(out, "index")).transpose()?;
    let staged = jobs
        .iter()
        .map(|job| report::stage(out, &job.to_string()))
        .collect::<Result<Vec<_>>>()?;
    let mut analyses = Vec::new();
    for (job, stage) in jobs.iter().zip(staged) {
        let analysis = pool.install(|| analyze(job, quiet))?;
        report::write_all(&analysis, stage.path())?;
        if INTERRUPTED.load(Ordering::Relaxed) {
            anyhow::bail!(Interrupted);
        }
        let path = stage.commit()?;
        writeln!(
            std::io::stdout(),
            "{}  ->  {}",
            one_line_summary(&analysis),
            path.display()
        )?;
        analyses.push(analysis);
    }
    if let Some(stage) = index_stage {
        write_index(&analyses, stage.path(), out)?;
    }
    Ok(())
}

/// Runs one analysis with a progress bar on stderr (hidden when stderr is not a terminal).
fn analyze(job: &Spec, quiet: bool) -> Result<Analysis> {
    let puzzle = job
        .build()
        .with_context(|| format!("{job} is too large to enumerate"))?;
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(Spec::expected_reachable(&puzzle))
    };
    if !quiet {
        eprintln!(
            "{job}: {} states to search, {} of bit sets ({} bits a state)",
            report::thousands(job.states()),
            human_bytes(job.memory()),
            job.bits_per_state()
        );
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
    let analysis = job.analyze_built(&puzzle, |level| {
        bar.set_message(level.depth.to_string());
        bar.set_position(level.reached);
        if INTERRUPTED.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish_and_clear();
    match analysis {
        Err(AnalysisError::Engine(EngineError::Interrupted)) => Err(Interrupted.into()),
        other => other.with_context(|| format!("{job}: analysis failed")),
    }
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
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:"))
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

/// Set by the Ctrl-C / SIGTERM handler.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The run stopped on Ctrl-C or SIGTERM; exits 130 like a shell does for SIGINT.
#[derive(Debug, thiserror::Error)]
#[error("interrupted: no report was written (the previous one, if any, is untouched)")]
struct Interrupted;

/// A position given to `--solve` that cannot be read (exit 2, like a bad option).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadInput(String);

fn fail(message: &str, code: u8) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
