//! `--solve`, the binary's side: reads position files, runs the library's [`Solver`] on a
//! thread pool, prints notes on stderr and the solutions on stdout. The library only
//! returns values.

use super::cache::cache_dir;
use super::{BadInput, INTERRUPTED, STDOUT, note};
use analyze::heuristics::PositionFacts;
use analyze::job::Job;
use analyze::puzzle::perm::scramble::read_scrambles;
use analyze::solve::sample::SampleError;
use analyze::solve::{Outcome, Pdb, Position, Sample, Solution, SolveBy, Solver};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Largest position data file read: a 64-cell board takes a few hundred bytes.
const MAX_DATA_FILE: u64 = 64 * 1024;

/// Largest scramble file read: what a definition may take.
const MAX_SCRAMBLE_FILE: u64 = analyze::puzzle::perm::parse::MAX_BYTES as u64;

/// Solves each of `states` for `spec` and prints one block each, then a summary table, or
/// with `json` one JSON object per line for each. Every position is read and checked
/// before any search, so a typo in the last one fails (exit 2) before a long search.
/// `by` is `--solve-by` with the bytes a definition's pattern databases may take.
pub fn run(
    spec: &Job,
    states: &[String],
    threads: usize,
    quiet: bool,
    pdb: Option<Pdb>,
    json: bool,
    by: (SolveBy, u64),
) -> Result<()> {
    stop_on_signal()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let say = |message: &str| {
        if !quiet {
            note(message);
        }
    };
    let mut solver = spec
        .solver_by(by.0, Some(by.1))
        .map_err(|e| BadInput(format!("{e:#}")))?;
    solver.set_pdb(pdb);
    let mut positions = Vec::new();
    for state in states {
        positions.extend(read_positions(&solver, state).map_err(|e| BadInput(format!("{e:#}")))?);
    }
    if let Some(note) = spec.note() {
        say(&note);
    }
    if positions.iter().any(Position::needs_solver) {
        prepare(spec, &mut solver, &pool, quiet)?;
    }
    let mut summary = Vec::new();
    for (i, position) in positions.iter().enumerate() {
        let start = Instant::now();
        let mut progress = |bound: u32, nodes: u64| {
            if start.elapsed().as_secs() >= 2 {
                say(&format!(
                    "  {}: no solution under {} ({nodes} states, {:.0} s)",
                    position.label,
                    moves(bound as usize),
                    start.elapsed().as_secs_f64()
                ));
            }
        };
        let outcome = pool.install(|| solver.solve_with_progress(position, &mut progress))?;
        let seconds = start.elapsed().as_secs_f64();
        // Held for this position's block only: a signal waits for a block to be whole.
        let mut out = std::io::stdout().lock();
        if let Outcome::Solved(Solution { nodes: Some(nodes), .. }) = &outcome {
            say(&format!(
                "{}: {}, {nodes} states searched, {seconds:.3} s",
                position.label,
                moves(outcome_length(&outcome))
            ));
        }
        if json {
            writeln!(out, "{}", json_line(position, &outcome, seconds)).context(STDOUT)?;
        } else {
            if i > 0 {
                writeln!(out).context(STDOUT)?;
            }
            if positions.len() > 1 {
                writeln!(out, "state {} of {}: {}", i + 1, positions.len(), position.label).context(STDOUT)?;
            }
            let length = write_outcome(position, &outcome, &mut out).context(STDOUT)?;
            summary.push((position.label.clone(), length, seconds));
        }
        out.flush().context(STDOUT)?;
    }
    let mut out = std::io::stdout().lock();
    if summary.len() > 1 {
        writeln!(out).context(STDOUT)?;
        write_summary(&summary, &mut out).context(STDOUT)?;
    }
    out.flush().context(STDOUT)
}

/// `--sample`: draws the positions `request` asks for from the puzzle's table (built or
/// loaded on a pool of `threads`) and prints them one a line, in the puzzle's notation.
/// A distance beyond the puzzle's or a puzzle without a table is bad input (exit 2).
pub fn sample(spec: &Job, request: Sample, lines: bool, threads: usize, quiet: bool) -> Result<()> {
    stop_on_signal()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let say = |message: &str| {
        if !quiet {
            note(message);
        }
    };
    let refused = |e: anyhow::Error| {
        let shown = format!("{e:#}").replace("--solve cannot solve it", "--sample has no table to draw from");
        let d = request.distance.map_or("any".into(), |d| d.to_string());
        BadInput(format!("{spec}: --sample {d}: {shown}"))
    };
    let mut solver = spec.solver().map_err(refused)?;
    let positions = pool
        .install(|| solver.sample(request, cache_dir().as_deref(), &say))
        .map_err(|e| match e.downcast_ref::<SampleError>() {
            Some(SampleError::Engine(_)) | None => e,
            Some(_) => refused(e).into(),
        })?;
    if let Some(note) = spec.note() {
        say(&note);
    }
    // A cuber plays moves: a definition's positions are the moves that make them from the
    // goal (a shortest way, walked on the table just drawn from), unless `--as-lines` or
    // there is no table to walk (positions drawn from the whole group by `--sample any`).
    let positions = match spec.family() == "permutation" && !lines {
        true => match positions
            .iter()
            .map(|p| as_moves(&mut solver, p))
            .collect::<Result<Option<Vec<_>>>>()?
        {
            Some(moves) => moves,
            None => {
                say(&format!(
                    "{spec}: the positions are written as lines: no table of its distances fits to walk them to moves"
                ));
                positions
            }
        },
        false => positions,
    };
    let mut out = std::io::stdout().lock();
    for position in &positions {
        writeln!(out, "{position}").context(STDOUT)?;
    }
    out.flush().context(STDOUT)
}

/// `position` as the moves that make it from the goal, in the file's names.
/// (`None`: the solver has no table to walk it on.)
fn as_moves(solver: &mut Solver, position: &str) -> Result<Option<String>> {
    let read = solver.read(position)?;
    Ok(solver.reach(&read)?.map(|moves| match moves.is_empty() {
        true => "(the goal: no moves)".into(),
        false => moves.join(" "),
    }))
}

/// Ends the run on Ctrl-C or SIGTERM with exit status 130, as the analysis does. Solving
/// has nothing to save and its searches (a table build, IDA*) could not stop at a level's
/// end, so the handler ends the process itself, at once: after any cache file being
/// written is complete (no temporary file is left) and any solution being printed is
/// whole (stdout's lock).
fn stop_on_signal() -> Result<()> {
    ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::Relaxed);
        let writes = analyze::solve::cache::hold_writes();
        let out = std::io::stdout().lock();
        note("error: interrupted: the search stopped (the cache holds only complete files)");
        drop((out, writes));
        std::process::exit(130);
    })
    .context("cannot install the Ctrl-C handler")
}

/// The number of moves of a solved outcome (0 otherwise).
fn outcome_length(outcome: &Outcome) -> usize {
    match outcome {
        Outcome::Solved(solution) => solution.len(),
        Outcome::Unsolvable(_) => 0,
    }
}

/// Writes one position's block and returns its length for the summary table.
fn write_outcome(position: &Position, outcome: &Outcome, out: &mut impl Write) -> std::io::Result<String> {
    Ok(match outcome {
        Outcome::Unsolvable(reason) => {
            writeln!(out, "unsolvable: {reason}")?;
            if let Some(facts) = &position.facts {
                writeln!(out, "{facts}")?;
            }
            "unsolvable".to_string()
        }
        Outcome::Solved(solution) => {
            write_solution(solution, position.facts.as_ref(), out)?;
            match solution.weights {
                Some(_) => solution.length_text(),
                None => solution.len().to_string(),
            }
        }
    })
}

/// One position's outcome as a JSON object on one line (`--json`): the position as given,
/// whether it is solvable (and why not), the moves and the positions along the path (in
/// the puzzle's one-line notation, the start first), the total cost of weighted moves, the
/// estimates of a sliding board, the positions searched, and the time.
fn json_line(position: &Position, outcome: &Outcome, seconds: f64) -> serde_json::Value {
    let mut object = serde_json::json!({
        "state": position.label,
        "solvable": matches!(outcome, Outcome::Solved(_)),
    });
    match outcome {
        Outcome::Unsolvable(reason) => object["reason"] = reason.as_str().into(),
        Outcome::Solved(solution) => {
            object["length"] = solution.len().into();
            object["moves"] = solution.moves.clone().into();
            object["path"] = solution.positions.clone().into();
            if let Some((metric, costs)) = &solution.weights {
                object["metric"] = metric.as_str().into();
                object["cost"] = costs.iter().map(|&c| u64::from(c)).sum::<u64>().into();
            }
            object["nodes"] = solution.nodes.into();
        }
    }
    if let Some(facts) = &position.facts {
        object["facts"] = serde_json::json!({
            "hamming": facts.hamming,
            "manhattan": facts.manhattan,
            "linear_conflict": facts.linear_conflict,
            "inversions": facts.inversions,
            "blank_row": facts.blank_row,
            "solvable_by_parity_rule": facts.solvable(),
        });
    }
    object["seconds"] = ((seconds * 1e6).round() / 1e6).into();
    object
}

/// Builds or loads the solver's table or estimate on `pool`, with a bar for a long pattern
/// database build (hidden when stderr is not a terminal) and a note of what was made.
fn prepare(spec: &Job, solver: &mut Solver, pool: &rayon::ThreadPool, quiet: bool) -> Result<()> {
    let start = Instant::now();
    let say = |message: &str| {
        if !quiet {
            note(message);
        }
    };
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("building [{bar:30}] {percent:>3}% of the search states, {eta} left")
            .context("progress template")?
            .progress_chars("=> "),
    );
    let say_above = |message: &str| bar.suspend(|| say(message));
    let progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    pool.install(|| solver.prepare_with_progress(cache_dir().as_deref(), &say_above, &progress))?;
    bar.finish_and_clear();
    if let Some(what) = solver.prepared_what() {
        say(&format!(
            "{spec}: {what} ready in {:.2} s",
            start.elapsed().as_secs_f64()
        ));
    }
    Ok(())
}

/// `1 move`, `2 moves`.
fn moves(n: usize) -> String {
    format!("{n} {}", if n == 1 { "move" } else { "moves" })
}

/// The positions of one `--solve` argument: each scramble of a twsearch scramble file
/// (`FILE.scr`), under its name, or the one position [`read_position`] reads.
fn read_positions(solver: &Solver, text: &str) -> Result<Vec<Position>> {
    let path = Path::new(text);
    if path.extension().is_none_or(|e| e != "scr") || !path.is_file() {
        return read_position(solver, text).map(|p| vec![p]);
    }
    let contents = super::read_text(path, MAX_SCRAMBLE_FILE)
        .with_context(|| format!("cannot read the scramble file {}", path.display()))?;
    let at = |line: usize| match line {
        0 => format!("{}:", path.display()),
        line => format!("{}:{line}:", path.display()),
    };
    let scrambles = read_scrambles(&contents).map_err(|e| anyhow::anyhow!("{} {}", at(e.line), e.message))?;
    scrambles
        .into_iter()
        .map(|scramble| {
            let mut position = solver
                .read(&scramble.position)
                .with_context(|| format!("{} scramble {}", at(scramble.line), scramble.name))?;
            // A name from the file reaches the terminal: shown, never sent as controls.
            position.label = ::analyze::util::terminal_text(&scramble.name);
            Ok(position)
        })
        .collect()
}

/// A position as typed, or for sliding boards the path of an existing data file. Text
/// that is neither gets the position's error, which says what is accepted.
/// An existing path that is not a regular file (a folder, a FIFO, `/dev/null`) is named
/// as such, without opening it (a FIFO would block), once it is not a position either.
fn read_position(solver: &Solver, text: &str) -> Result<Position> {
    let path = Path::new(text);
    if solver.reads_data_files() && path.is_file() {
        return solver.read_data_file(text, &read_data_file(path)?);
    }
    solver.read(text).map_err(|e| match std::fs::metadata(path) {
        Ok(meta) if solver.reads_data_files() => anyhow::anyhow!(
            "cannot read the state {}: it is {}, not a regular file; {}",
            ::analyze::util::quote(text),
            super::file_kind(&meta.file_type()),
            solver.accepted()
        ),
        Err(_) if looks_like_path(text) => match solver.accepted() {
            accepted if accepted.is_empty() => {
                anyhow::anyhow!("no such file: {} ({e:#})", ::analyze::util::quote(text))
            }
            accepted => anyhow::anyhow!("no such file: {}; {accepted}", ::analyze::util::quote(text)),
        },
        _ => e,
    })
}

/// Whether text that is no position was meant as a file: a path from a folder (`./`, `../`,
/// `/`, `~/`) or a name with an extension (`nofile.txt`, `cube.scr`), and no spaces. No
/// position of any puzzle is written so (coins' `TTH/HTH/HHH` starts with no folder).
fn looks_like_path(text: &str) -> bool {
    let extension = Path::new(text).extension().and_then(|e| e.to_str()).is_some_and(|e| {
        (1..=8).contains(&e.len())
            && e.bytes().all(|b| b.is_ascii_alphanumeric())
            && e.bytes().any(|b| b.is_ascii_alphabetic())
    });
    let from_folder = ["/", "./", "../", "~/"].iter().any(|start| text.starts_with(start));
    !text.contains(char::is_whitespace) && (extension || from_folder)
}

/// Reads a data file, refusing anything larger than a board could be (checked on the
/// open file, so a file that grows meanwhile is still cut off).
fn read_data_file(path: &Path) -> Result<String> {
    let text = super::read_text(path, MAX_DATA_FILE).map_err(|e| match e.kind() {
        std::io::ErrorKind::Other => anyhow::anyhow!(
            "{} is not a state data file: {e} (a board takes a few lines)",
            path.display()
        ),
        _ => anyhow::Error::new(e).context(format!("cannot read the state file {}", path.display())),
    })?;
    if text.trim().is_empty() {
        anyhow::bail!(
            "{} is an empty file: a state data file gives the board size (`n`, or `rows cols`) on its first line, then the tiles row by row, 0 for the blank",
            path.display()
        );
    }
    Ok(text)
}

/// Writes the solution on one line (`solution (N moves): NAME NAME ...`), a sliding
/// board's facts (estimates, parity rule), the start, then each move's name and the
/// configuration after it.
fn write_solution(solution: &Solution, facts: Option<&PositionFacts>, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{}", solution_line(solution))?;
    if let Some(facts) = facts {
        writeln!(out, "{facts}")?;
    }
    if let Some(start) = solution.drawings.first() {
        writeln!(out, "{start}")?;
    }
    for (i, (name, drawing)) in solution.moves.iter().zip(&solution.drawings[1..]).enumerate() {
        let cost = match &solution.weights {
            Some((metric, costs)) => format!(" ({} {metric})", costs.get(i).copied().unwrap_or(0)),
            None => String::new(),
        };
        writeln!(out, "\nmove {}: {name}{cost}\n{drawing}", i + 1)?;
    }
    Ok(())
}

/// The solution as one line: `solution (4 moves): r1c2 r2c4 r3c1 r4c3`; weighted moves
/// give the total first (`solution (8 flips, 2 moves): ...`), and move names that hold a
/// space (`tile 6`, `coins 1 2 5`) are separated by commas.
fn solution_line(solution: &Solution) -> String {
    let length = match solution.weights {
        Some(_) => format!("{}, {}", solution.length_text(), moves(solution.len())),
        None => solution.length_text(),
    };
    let separator = if solution.moves.iter().any(|m| m.contains(' ')) {
        ", "
    } else {
        " "
    };
    let names = if solution.is_empty() {
        "none, the state is the goal".to_string()
    } else {
        solution.moves.join(separator)
    };
    format!("solution ({length}): {names}")
}

/// The summary of several positions as a Markdown table: state, moves, seconds.
fn write_summary(rows: &[(String, String, f64)], out: &mut impl Write) -> std::io::Result<()> {
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max("state".len());
    writeln!(out, "| {:width$} | {:>10} | {:>8} |", "state", "moves", "seconds")?;
    writeln!(
        out,
        "|{}|{}:|{}:|",
        "-".repeat(width + 2),
        "-".repeat(11),
        "-".repeat(9)
    )?;
    for (label, moves, seconds) in rows {
        writeln!(out, "| {label:width$} | {moves:>10} | {seconds:>8.3} |")?;
    }
    Ok(())
}
