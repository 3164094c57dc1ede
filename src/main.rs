//! `analyze`: parse the command line, run the analyses or solve positions, exit.
//!
//! Exit status: 0 done (a closed stdout too), 1 the run failed (files, stdout, memory,
//! internal), 2 bad input (options, positions), 130 interrupted. Everything on stderr
//! goes through [`app::note`], which ignores its own failure. The library computes; the
//! binary's glue lives in [`app`].

mod app;

use analyze::cli::{Cli, Command};
use analyze::job::Job;
use analyze::registry;
use anyhow::{Context, Result};
use app::analyze::Settings;
use app::{BadInput, Interrupted, STDOUT, available_memory, fail, is_broken_pipe, one_line};
use clap::{CommandFactory, Parser};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    app::started();
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
    let command = match cli.into_command(available_memory(), &|path| app::read_bytes(path, app::MAX_INPUT)) {
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
    say_notes(&command);
    match command {
        Command::List => list(),
        Command::Cache => app::cache::list(),
        Command::CacheClear { days } => app::cache::clear(days),
        Command::Completions(shell) => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "analyze", &mut out);
            print(&out)
        }
        Command::Man => print(&man().context("cannot render the manual page")?),
        Command::Solve {
            job,
            states,
            threads,
            quiet,
            pdb,
            json,
            by,
            memory,
        } => app::solve::run(&job, &states, threads, quiet, pdb, json, (by, memory)),
        Command::Sample {
            job,
            request,
            lines,
            threads,
            quiet,
        } => app::solve::sample(&job, request, lines, threads, quiet),
        Command::Analyze {
            jobs,
            index,
            heuristics,
            oeis,
            out,
            threads,
            quiet,
            cluster,
            checkpoint,
            disk,
        } => app::analyze::analyze_all(
            &jobs,
            index,
            &out,
            threads,
            &Settings {
                heuristics,
                oeis,
                quiet,
                checkpoint: checkpoint.as_ref(),
                disk: disk.as_ref(),
                cluster: cluster.as_ref(),
            },
        ),
    }
}

/// Says what reading the puzzles chose (which moves of a KPuzzle file are searched with)
/// before an analysis, unless quiet; `--solve` and `--sample` say it once their input is
/// read.
fn say_notes(command: &Command) {
    if let Command::Analyze { jobs, quiet: false, .. } = command {
        jobs.iter().filter_map(Job::note).for_each(app::note);
    }
}

/// The manual page: clap_mangen's sections, then the inputs, examples, environment and
/// exit statuses as sections of their own (`--help` prints them after the options).
fn man() -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(Cli::command());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    out.extend_from_slice(analyze::cli::help::man_sections().as_bytes());
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// Writes `bytes` to stdout.
fn print(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).context(STDOUT)
}

fn list() -> Result<()> {
    let mut out = std::io::stdout().lock();
    for about in registry::FAMILIES.iter().filter_map(|f| f.about()) {
        writeln!(out, "{about}").context(STDOUT)?;
    }
    out.flush().context(STDOUT)
}
