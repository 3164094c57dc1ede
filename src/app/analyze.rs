//! Analysing jobs, the binary's side: progress bars and notes on stderr, one search per
//! job (shared with other processes under `--hosts`), each report written to a staging
//! folder and swapped into place, then the `--all` index.

use super::connect::SetupError;
use super::timely::TimelyExchange;
use super::{BadInput, INTERRUPTED, Interrupted, STDOUT, note};
use analyze::analysis::{Analysis, AnalysisError};
use analyze::engine::bfs::Notify;
use analyze::engine::checkpoint::{self, Note};
use analyze::engine::disk;
use analyze::engine::exchange::Exchange;
use analyze::engine::exchange::Partition;
use analyze::engine::memory::SPARSE_CHUNK_BYTES;
use analyze::engine::memory::{self, BITS_PER_STATE, usable};
use analyze::engine::sparse::SparseOptions;
use analyze::engine::{EngineError, Level, Options};
use analyze::hosts::Cluster;
use analyze::identity::Identity;
use analyze::job::{Built, Job, SearchRoute, SparseError};
use analyze::report;
use analyze::util::{human_bytes, thousands};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// How each analysis of a run is done.
pub struct Settings<'a> {
    /// Measure the heuristic atlas on any sliding board, and the A* effort.
    pub heuristics: bool,
    /// Write the distance tables for OEIS too (`--oeis`).
    pub oeis: bool,
    /// No progress bar or notes on stderr.
    pub quiet: bool,
    /// Save the search here at level boundaries, and resume from it.
    pub checkpoint: Option<&'a checkpoint::Config>,
    /// Keep the planes on disk (`--disk`).
    pub disk: Option<&'a disk::Config>,
    /// This process's place in a search shared by several (`--hosts`).
    pub cluster: Option<&'a Cluster>,
}

impl Settings<'_> {
    /// How `job`'s search runs, for `run.json`: `memory`, `memory, packed states`,
    /// `disk DIR, --memory SIZE`, `hosts: process I of N`, with `, checkpoints in DIR`.
    fn mode(&self, job: &Job) -> String {
        let mut mode = match (self.cluster, self.disk, job.route()) {
            (Some(cluster), ..) => format!("hosts: process {} of {}", cluster.process, cluster.processes()),
            (None, Some(disk), _) => format!(
                "disk {}, --memory {}",
                disk.dir.display(),
                human_bytes(u128::from(disk.memory))
            ),
            (None, None, SearchRoute::Sparse { .. }) => "memory, packed states".into(),
            (None, None, SearchRoute::Dense) => "memory".into(),
        };
        if let Some(checkpoint) = self.checkpoint {
            mode.push_str(&format!(", checkpoints in {}", checkpoint.dir.display()));
        }
        mode
    }
}

/// Analyses each job, writes its report folder, and for `--all` the index.
pub fn analyze_all(jobs: &[Job], index: bool, out: &Path, threads: usize, settings: &Settings) -> Result<()> {
    // Ctrl-C or SIGTERM stops the search within a chunk's time (a checkpoint keeps the last
    // complete level); the staging folders are then dropped (deleted), so no partial report
    // is left behind.
    ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)).context("cannot install the Ctrl-C handler")?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    if let Some(cluster) = settings.cluster {
        // The exchange is bound to the thread that runs the search: one closure does it all.
        return pool.install(|| {
            jobs.iter()
                .try_for_each(|job| analyze_shared(job, out, settings, cluster))
        });
    }
    let interrupted = |written: usize| Interrupted {
        written: jobs[..written].iter().map(Job::to_string).collect(),
        not_written: jobs[written..].iter().map(Job::to_string).collect(),
        index,
        cause: None,
    };
    let on_wait = waiting_note(settings.quiet);
    let waiting = waiting(&on_wait);
    // Create every output folder before the first search, so a bad --out fails at once.
    let index_stage = index
        .then(|| report::stage(out, "index", &waiting))
        .transpose()
        .map_err(|e| stopped(e, || interrupted(0)))?;
    jobs.iter()
        .try_for_each(|job| another_search(out, job, settings.quiet))?;
    let staged = jobs
        .iter()
        .map(|job| report::stage(out, &job.to_string(), &waiting))
        .collect::<Result<Vec<_>>>()
        .map_err(|e| stopped(e, || interrupted(0)))?;
    let mut analyses = Vec::new();
    for (job, stage) in jobs.iter().zip(staged) {
        let analysis = match job.route() {
            SearchRoute::Sparse { key_bytes } => pool.install(|| analyze_sparse(job, key_bytes, settings))?,
            SearchRoute::Dense => {
                let built = build(job)?;
                pool.install(|| analyze(job, built.as_ref(), settings, None))?
            }
        };
        let Some(mut analysis) = analysis else {
            return Err(interrupted(analyses.len()).into());
        };
        pool.install(|| reach_antipodes(job, &mut analysis, settings.quiet));
        let provenance = super::provenance(settings.mode(job));
        pool.install(|| report::write_all(&analysis, &stage.path(), settings.oeis, &provenance))
            .map_err(|e| match settings.disk.filter(|_| !job.weighted()) {
                Some(config) => e.context(format!(
                    "the finished search is kept in {}: the same command writes the report without searching again",
                    config.dir.display()
                )),
                None => e,
            })?;
        if INTERRUPTED.load(Ordering::Relaxed) {
            return Err(interrupted(analyses.len()).into());
        }
        let path = stage
            .commit(&waiting)
            .map_err(|e| stopped(e, || interrupted(analyses.len())))?;
        // Only now, with the report in place, are the planes on disk let go.
        if let Some(config) = settings.disk.filter(|config| !config.keep) {
            disk::remove(&config.dir).map_err(|e| anyhow::anyhow!("{e} (the report is written)"))?;
        }
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{}  ->  {}", one_line_summary(&analysis), path.display()).context(STDOUT)?;
        stdout.flush().context(STDOUT)?;
        analyses.push(analysis);
    }
    if let Some(stage) = index_stage {
        write_index(&analyses, &stage.path(), out)?;
    }
    Ok(())
}

/// Refuses, before the search, to replace the report `out/ID` of another family: ids are
/// made from a file's title or name, so a rules file titled like a built-in (or a definition
/// named like one) can meet its folder, and may not take it. A report of the same family but
/// another search (the same file edited since, another file of that name, moves chosen in
/// another case) is replaced with a warning naming both searches: editing a file and running
/// it again must not be refused. A report naming no search (an older version's) is replaced
/// as before.
fn another_search(out: &Path, job: &Job, quiet: bool) -> Result<()> {
    let path = out.join(job.to_string()).join("summary.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let (Some(theirs), ours) = (summary["search"].as_str(), job.identity().short()) else {
        return Ok(());
    };
    if theirs == ours {
        return Ok(());
    }
    let folder = path.parent().unwrap_or(out).display().to_string();
    let title = summary["title"].as_str().unwrap_or("untitled");
    let theirs = format!("search {theirs}{}", made_by(path.with_file_name("run.json")));
    if summary["puzzle"].as_str() != Some(job.family()) {
        return Err(BadInput(format!(
            "{folder} holds the report of another puzzle, {} ({}, {theirs}; this one is {ours}): it is not replaced; give another --out, or move that folder away",
            analyze::util::quote(title),
            summary["puzzle"].as_str().unwrap_or("?"),
        ))
        .into());
    }
    if !quiet {
        note(format_args!(
            "warning: {folder} holds the report of another search of {} ({theirs}): this one ({ours}) replaces it once written",
            analyze::util::quote(title)
        ));
    }
    Ok(())
}

/// `, made by COMMAND` from a report's `run.json` (git-ignored, so often absent): which
/// file made the report a run is about to replace, where two files share a name.
fn made_by(run: PathBuf) -> String {
    let text = std::fs::read_to_string(run).unwrap_or_default();
    let run: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    match run["command"].as_array() {
        Some(words) => {
            let words: Vec<&str> = words.iter().filter_map(serde_json::Value::as_str).collect();
            format!(", made by `{}`", words.join(" "))
        }
        None => String::new(),
    }
}

/// The note printed once when another run holds the output folder's lock (not with
/// `--quiet`).
fn waiting_note(quiet: bool) -> impl Fn(&Path) {
    move |dir: &Path| {
        if !quiet {
            note(format_args!(
                "the output folder {} is locked by another analyze run: waiting until it is done (Ctrl-C stops waiting)",
                dir.display()
            ));
        }
    }
}

/// Waiting for the output folder's lock with `on_wait`, stopped by Ctrl-C or SIGTERM.
fn waiting(on_wait: &dyn Fn(&Path)) -> report::Waiting<'_> {
    report::Waiting {
        on_wait,
        stop: &INTERRUPTED,
    }
}

/// A wait for the output folder's lock stopped by a signal, as the interruption it is.
fn stopped(e: anyhow::Error, interrupted: impl FnOnce() -> Interrupted) -> anyhow::Error {
    if e.is::<report::Stopped>() {
        interrupted().into()
    } else {
        e
    }
}

/// One process's part of a `--hosts` run: connects to the others first (a launch gone wrong
/// leaves nothing behind), then searches; only process 0 writes the report.
fn analyze_shared(job: &Job, out: &Path, settings: &Settings, cluster: &Cluster) -> Result<()> {
    u64::try_from(job.states()).with_context(|| format!("{job} is too large to enumerate"))?;
    if cluster.secret.is_none() && !analyze::hosts::all_loopback(&cluster.addresses) {
        note(format_args!(
            "warning: {} names other machines and no --secret-file: anyone who can reach these ports and knows the command line can join the run",
            cluster.hostfile.display()
        ));
    }
    let built = build(job)?;
    // The puzzle's ranks: fewer than its positions where it ranks classes.
    let states = built.ranks();
    let description = format!(
        "analyze {} {job} identity {}",
        env!("CARGO_PKG_VERSION"),
        identity(job, built.as_ref(), settings).encode()
    );
    let ended = |cause| Interrupted {
        written: Vec::new(),
        not_written: vec![job.to_string()],
        index: false,
        cause,
    };
    let mut timely =
        TimelyExchange::start(cluster, states, &description, disk_memory(job, settings)).map_err(|e| match e {
            SetupError::Address(m) => anyhow::Error::new(BadInput(m)),
            SetupError::Peers(m) => anyhow::anyhow!(m),
            SetupError::Interrupted(m) => ended(Some(format!("interrupted (Ctrl-C or SIGTERM): {m}"))).into(),
        })?;
    let interrupted = || ended(None);
    if cluster.process != 0 {
        let analysis = analyze(job, built.as_ref(), settings, Some((cluster, &mut timely)))?.ok_or_else(interrupted)?;
        leave_after_report(job, settings, &mut timely)?;
        writeln!(
            std::io::stdout(),
            "{}  (process {} of {}; process 0 writes the report)",
            one_line_summary(&analysis),
            cluster.process,
            cluster.processes()
        )?;
        return Ok(());
    }
    let on_wait = waiting_note(settings.quiet);
    let waiting = waiting(&on_wait);
    another_search(out, job, settings.quiet)?;
    let stage = report::stage(out, &job.to_string(), &waiting).map_err(|e| stopped(e, interrupted))?;
    let mut analysis = analyze(job, built.as_ref(), settings, Some((cluster, &mut timely)))?.ok_or_else(interrupted)?;
    // The same report as one process's: the moves to the antipodes too.
    reach_antipodes(job, &mut analysis, settings.quiet);
    report::write_all(
        &analysis,
        &stage.path(),
        settings.oeis,
        &super::provenance(settings.mode(job)),
    )?;
    let path = stage.commit(&waiting).map_err(|e| stopped(e, interrupted))?;
    leave_after_report(job, settings, &mut timely)?;
    writeln!(
        std::io::stdout(),
        "{}  ->  {}",
        one_line_summary(&analysis),
        path.display()
    )?;
    Ok(())
}

/// The end of a shared search: every process waits until process 0's report is in place
/// (one more agreement), then they leave together and let their planes on disk go. A process
/// 0 that fails to write its report leaves without agreeing: the others then fail too and
/// keep their parts, so the same commands resume at the last level, and write the report.
fn leave_after_report(job: &Job, settings: &Settings, timely: &mut TimelyExchange) -> Result<()> {
    let failed = |e| anyhow::Error::new(e).context(format!("{job}: analysis failed"));
    timely.agree(Vec::new()).map_err(failed)?;
    timely.finish().map_err(failed)?;
    match settings.disk.filter(|config| !config.keep && !job.weighted()) {
        Some(config) => disk::remove(&config.dir).map_err(|e| anyhow::anyhow!("{e} (the search is over)")),
        None => Ok(()),
    }
}

/// The `--memory` a search on disk keeps to (Dial's buckets stay in memory).
fn disk_memory(job: &Job, settings: &Settings) -> Option<u64> {
    settings.disk.filter(|_| !job.weighted()).map(|config| config.memory)
}

/// Runs one analysis with a progress bar on stderr (hidden when stderr is not a terminal;
/// indicatif ignores a failed write); `None` if interrupted.
fn analyze(
    job: &Job,
    built: &dyn Built,
    settings: &Settings,
    shared: Option<(&Cluster, &mut TimelyExchange)>,
) -> Result<Option<Analysis>> {
    let (cluster, mut timely) = match shared {
        Some((cluster, timely)) => (Some(cluster), Some(timely)),
        None => (None, None),
    };
    // Dial's buckets (moves of several costs) are searched in memory.
    let disk = settings.disk.filter(|_| !job.weighted());
    let identity = identity(job, built, settings);
    let parts = match disk {
        Some(config) => disk_parts(job, built, &identity, config)?,
        None => None,
    };
    if !settings.quiet {
        announce(job, built, settings, cluster, parts);
    }
    let bar = progress_bar(job, settings.quiet, built.expected_reachable())?;
    let options = Options {
        identity: Some(identity),
        checkpoint: settings.checkpoint.cloned(),
        notify: Some(checkpoint_notes(job, &bar)),
        exchange: timely.as_mut().map(|t| &mut **t as &mut dyn Exchange),
        disk: disk.cloned(),
        stop: Some(&INTERRUPTED),
        ..Options::default()
    };
    let mut traffic = Traffic::default();
    let analysis = job.analyze(built, options, settings.heuristics, &mut |level| {
        traffic.add(level);
        show_level(&bar, disk.is_some(), level);
        // A signal stops the engine itself (`stop`), in a level's chunk and on every process.
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    let interrupted = matches!(analysis, Err(AnalysisError::Engine(EngineError::Interrupted)));
    let failed_io = matches!(&analysis, Err(AnalysisError::Engine(EngineError::Disk(e))) if !e.is_refusal());
    if let Some(config) = disk.filter(|_| interrupted || failed_io) {
        // Said even with --quiet: it goes with the error, and it is how to go on.
        note(format_args!(
            "{job}: running the same command again resumes the search from the last level committed in {}",
            config.dir.display()
        ));
    }
    // Stopped by another process's Ctrl-C: named, as only this one's own is plain.
    let by_another = match &timely {
        Some(timely) if interrupted && !INTERRUPTED.load(Ordering::Relaxed) => timely.stopped_by(),
        _ => None,
    };
    if let (true, Some(timely)) = (interrupted, timely.as_mut()) {
        // Every process stopped at the same level: leave together, so none sees another
        // vanish. With the result, they leave once the report is in place.
        timely.finish().with_context(|| format!("{job}: analysis failed"))?;
    }
    if let Some(cluster) = cluster.filter(|_| !settings.quiet && analysis.is_ok()) {
        note(traffic.describe(job, cluster.processes()));
    }
    if let Some(config) = disk.filter(|_| analysis.is_ok() && !settings.quiet) {
        note(disk_traffic(job, config, &traffic));
    }
    if let Some(cause) = by_another {
        return Err(Interrupted {
            written: Vec::new(),
            not_written: vec![job.to_string()],
            index: false,
            cause: Some(cause),
        }
        .into());
    }
    match analysis {
        Err(AnalysisError::Engine(EngineError::Interrupted)) => Ok(None),
        Err(AnalysisError::Engine(EngineError::Checkpoint(e))) if e.is_refusal() => Err(BadInput(e.to_string()).into()),
        Err(AnalysisError::Engine(EngineError::Disk(e))) if e.is_refusal() => Err(BadInput(e.to_string()).into()),
        other => other.map(Some).with_context(|| format!("{job}: analysis failed")),
    }
}

/// A level's progress on the bar: its depth, and on disk the bytes it moved (no rate:
/// levels differ).
fn show_level(bar: &ProgressBar, on_disk: bool, level: &Level) {
    match on_disk {
        true => bar.set_message(format!(
            "{} ({} read, {} written)",
            level.depth,
            human_bytes(u128::from(level.read)),
            human_bytes(u128::from(level.written))
        )),
        false => bar.set_message(level.depth.to_string()),
    }
    bar.set_position(level.reached);
}

/// What a search on disk read and wrote, and where its files are if kept.
fn disk_traffic(job: &Job, config: &disk::Config, traffic: &Traffic) -> String {
    let kept = match config.keep {
        true => format!("; its files are kept in {}", config.dir.display()),
        false => String::new(),
    };
    format!(
        "{job}: {} read and {} written on disk{kept}",
        human_bytes(u128::from(traffic.read)),
        human_bytes(u128::from(traffic.written)),
    )
}

/// What the search takes, said before it starts: in memory, on disk (`parts` if resumed)
/// or as one process of `cluster`.
fn announce(job: &Job, built: &dyn Built, settings: &Settings, cluster: Option<&Cluster>, parts: Option<usize>) {
    // Dial's buckets (moves of several costs) are searched in memory.
    let disk = settings.disk.filter(|_| !job.weighted());
    match (cluster, disk) {
        (None, None) => note(memory_note(job, built)),
        (None, Some(config)) => note(disk_note(job, built, config, parts, None)),
        (Some(cluster), None) => note(cluster_note(job, built.ranks(), cluster)),
        (Some(cluster), Some(config)) => note(disk_note(job, built, config, parts, Some(cluster))),
    }
    if settings.disk.is_some() && disk.is_none() {
        note(format_args!(
            "{job}: its moves of different costs are searched by Dial's buckets in memory ({}): --disk is not used",
            human_bytes(job.memory())
        ));
    }
}

/// The parts a `--disk` folder's search was cut into, if it is resumed, once the folder is
/// checked before anything is said or written: another search's folder is refused, so is a
/// resume with too little `--memory` for one of its parts, and a new search without the
/// disk space it may need.
fn disk_parts(job: &Job, built: &dyn Built, identity: &Identity, config: &disk::Config) -> Result<Option<usize>> {
    let parts = disk::check(&config.dir, &built.id(), identity, built.ranks())
        .map_err(|e| BadInput(e.to_string()))?
        .map(|(parts, _)| parts);
    if let Some(parts) = parts {
        let least = disk::least_memory_to_resume(&Partition::new(built.ranks(), parts));
        if config.memory < least {
            return Err(BadInput(format!(
                "--memory {} cannot resume the search in {}: it was cut into {parts} parts when it began, and one part's planes take half of {}: give --memory {} or more, or another --disk folder to search anew",
                human_bytes(u128::from(config.memory)),
                config.dir.display(),
                human_bytes(u128::from(least)),
                human_bytes(u128::from(least))
            ))
            .into());
        }
    }
    check_disk_space(job, built.ranks(), config, parts.is_some())?;
    Ok(parts)
}

/// Runs one analysis by the sparse route (packed states in sorted levels), announced in one
/// line with its memory per state, with a progress bar; `None` if interrupted.
fn analyze_sparse(job: &Job, key_bytes: u32, settings: &Settings) -> Result<Option<Analysis>> {
    let available = super::available_memory();
    if !settings.quiet {
        let why = match job.unranked() {
            Some(why) => format!("it cannot be ranked ({why})"),
            None => format!(
                "numbering its {} states densely would take {} of bit planes",
                thousands(job.states()),
                human_bytes(job.memory())
            ),
        };
        note(format_args!(
            "{job}: searched as packed states because {why}: {key_bytes} bytes a state reached (two levels kept) plus a {} sort buffer, at most {}",
            human_bytes(SPARSE_CHUNK_BYTES),
            available.map_or_else(|| "what the machine gives".into(), |a| human_bytes(usable(a)))
        ));
    }
    let expected = job
        .reach_estimate()
        .or_else(|| job.unranked().is_none().then(|| job.states()));
    let bar = progress_bar(
        job,
        settings.quiet,
        expected.map_or(0, |n| u64::try_from(n).unwrap_or(u64::MAX)),
    )?;
    let options = SparseOptions {
        budget: available.map_or(u128::MAX, usable),
        keep_levels: false,
        stop: Some(&INTERRUPTED),
    };
    let analysis = job.analyze_sparse(&options, &mut |level| {
        show_level(&bar, false, level);
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    match analysis {
        Err(SparseError::Analysis(AnalysisError::Engine(EngineError::Interrupted))) => Ok(None),
        other => other.map(Some).with_context(|| format!("{job}: analysis failed")),
    }
}

/// Everything that decides the result of `job`'s analysis: the puzzle's identity, how this
/// program numbers its positions (`built`'s ranking fingerprint: a checkpoint or a process
/// of a program that ranks otherwise is another search), and the options that change the
/// report (the heuristic atlas).
pub fn identity(job: &Job, built: &dyn Built, settings: &Settings) -> Identity {
    job.identity()
        .with("ranking", &built.fingerprint())
        .with("heuristics", if settings.heuristics { "on" } else { "off" })
}

/// Builds `job`'s puzzle to search.
/// Most states a permutation puzzle may have for its report to show how the goal reaches
/// its antipodes: the solver's table is a second search, seconds at this size.
const MAX_REACH_STATES: u128 = 1 << 27;

/// Gives each antipode a permutation puzzle's report shows the moves that reach it from the goal,
/// walked on the solver's distance table (kept in the cache for `--solve`). Only a note
/// if that fails: the report is complete without them.
fn reach_antipodes(job: &Job, analysis: &mut Analysis, quiet: bool) {
    if analysis.board || job.states() > MAX_REACH_STATES {
        return;
    }
    let reached = || -> Result<Vec<String>> {
        let mut solver = job.solver()?;
        solver.prepare(super::cache::cache_dir().as_deref(), &|_| {})?;
        let mut moves = Vec::new();
        for example in &analysis.antipode_examples {
            let position = solver.read(example)?;
            match solver.reach(&position)? {
                Some(path) => moves.push(path.join(" ")),
                None => break,
            }
        }
        Ok(moves)
    };
    match reached() {
        Ok(moves) => analysis.antipode_moves = moves,
        Err(e) if !quiet => note(format_args!("{job}: the report shows no moves to its antipodes: {e:#}")),
        Err(_) => {}
    }
}

fn build(job: &Job) -> Result<Box<dyn Built>> {
    job.build()
        .map_err(|e| anyhow::anyhow!("{job} cannot be enumerated: {e}"))
}

/// The bar of one search: levels, states reached of those the invariant expects, rate.
fn progress_bar(job: &Job, quiet: bool, expected: u64) -> Result<ProgressBar> {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(expected)
    };
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
    Ok(bar)
}

/// Whether the puzzle ranks classes rather than positions (fewer ranks than positions).
fn by_class(job: &Job, built: &dyn Built) -> bool {
    u128::from(built.ranks()) < job.states()
}

/// What a search in memory takes, printed before it starts.
fn memory_note(job: &Job, built: &dyn Built) -> String {
    format!(
        "{job}: {} to search, {} of bit sets ({} bits a {})",
        job.searched(u128::from(built.ranks())),
        human_bytes(memory::memory(u128::from(built.ranks()), built.max_move_cost())),
        job.bits_per_state(),
        if by_class(job, built) { "class" } else { "rank" }
    )
}

/// What a search on disk takes: its parts, the memory, the disk; with `cluster`, the parts
/// this process keeps.
fn disk_note(
    job: &Job,
    built: &dyn Built,
    config: &disk::Config,
    resumed: Option<usize>,
    cluster: Option<&Cluster>,
) -> String {
    let ranks = built.ranks();
    let processes = cluster.map_or(1, Cluster::processes);
    let parts = match resumed {
        Some(parts) => Partition::new(ranks, parts),
        None => disk::shared_partition(ranks, config.memory, built.bins(), &built.locality(), processes),
    };
    let bins = (built.bins().filter(|_| processes == 1))
        .and_then(|bins| Some((bins, disk::bins_per_part(&parts, bins, config.memory)?)));
    let bits = bins.map_or("", |_| "; the move between parts sent as bits");
    let held = disk::held_bytes(&parts, config.memory, bins, processes);
    let most = memory_phrase(
        config.memory,
        held,
        memory::exchange_bytes(Some(config.memory), processes),
    );
    let share = match cluster {
        Some(cluster) => {
            let mine = disk::processes_parts(parts.processes(), processes, cluster.process);
            let (first, last) = (parts.slice(mine.start).start, parts.slice(mine.end.max(1) - 1).end);
            format!(
                " over {processes} processes; this one, process {}, keeps parts {mine:?}, ranks {first}..{last}, the others' through the exchange",
                cluster.process
            )
        }
        None => String::new(),
    };
    format!(
        "{job}: {} to search on disk in {}{share}: {} of planes in {} part{} of {} ({} in memory at a time{bits}), {most}, at least {} of disk (more where most moves leave a part: each level says beforehand if it is expected not to fit)",
        job.searched(u128::from(built.ranks())),
        config.dir.display(),
        human_bytes(u128::from(memory::plane_bytes(ranks))),
        thousands(parts.processes() as u64),
        if parts.processes() == 1 { "" } else { "s" },
        human_bytes(u128::from(memory::plane_bytes(parts.slice(0).end))),
        ["one", "two"][disk::parts_at_once(&parts, config.memory) - 1],
        human_bytes(disk::disk_bytes(ranks, parts.processes())),
    )
}

/// What a search on disk with `memory` takes at most, where it holds `held` bytes beside
/// its update buffer, `exchange` of them the exchange's: `memory`, unless the least it runs
/// with is more (the process itself, its planes and the connections' buffers), said then.
fn memory_phrase(memory: u64, held: u64, exchange: u64) -> String {
    let base = memory::resident().unwrap_or(0);
    let least = memory::least_on_disk(base, held);
    if least <= memory {
        return format!(
            "at most {} in all, the program itself counted (but for the chunks under expansion)",
            human_bytes(u128::from(memory))
        );
    }
    let shared = match exchange {
        0 => String::new(),
        bytes => format!(
            ", {} for the exchange with the other processes",
            human_bytes(u128::from(bytes))
        ),
    };
    format!(
        "about {} in all, more than --memory {}: the program itself takes {}, its planes and bins {}{shared}",
        human_bytes(u128::from(least)),
        human_bytes(u128::from(memory)),
        human_bytes(u128::from(base)),
        human_bytes(u128::from(held.saturating_sub(exchange))),
    )
}

/// Refuses a search on disk whose folder's file system has less free space than it may
/// need (both figures named); a folder whose space is unknown is not refused.
fn check_disk_space(job: &Job, ranks: u64, config: &disk::Config, resuming: bool) -> Result<()> {
    let need = disk::disk_bytes(ranks, disk::partition(ranks, config.memory, None, &[]).processes());
    // The folder may not exist yet: its nearest existing ancestor's file system holds it.
    let existing = config.dir.ancestors().find(|d| d.exists());
    let free = existing.and_then(analyze::util::free_space);
    if let Some(free) = free.filter(|&f| u128::from(f) < need) {
        // Whatever an earlier run of this search wrote is counted as free: it is reused.
        let held = std::fs::read_dir(&config.dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|e| e.metadata().ok())
                    .map(|m| m.len())
                    .sum::<u64>()
            })
            .unwrap_or(0);
        if u128::from(free) + u128::from(held) < need {
            let short = format!(
                "--disk {}: {job} may need {} of disk space but has only {} free there",
                config.dir.display(),
                human_bytes(need),
                human_bytes(u128::from(free) + u128::from(held))
            );
            // The estimate is a level's worst case: a search already under way is let go
            // on (a full disk stops it at its last committed level again, nothing lost).
            if !resuming {
                return Err(BadInput(short).into());
            }
            note(format_args!(
                "warning: {short}, counting what the folder holds; resuming all the same"
            ));
        }
    }
    Ok(())
}

/// Tells the user, above the bar, when a checkpoint is resumed or skipped.
fn checkpoint_notes(job: &Job, bar: &ProgressBar) -> Notify {
    let (id, bar) = (job.to_string(), bar.clone());
    Box::new(move |event: &Note| {
        let line = match event {
            Note::Resumed { level, path } => {
                format!("{id}: resuming after level {level} from {}", path.display())
            }
            Note::Skipped { path, reason } => format!("{id}: not using checkpoint {}: {reason}", path.display()),
            Note::DiskShort {
                level,
                need,
                free,
                path,
            } => format!(
                "warning: --disk {}: level {level} is expected to write about {} but only {} is free there; if the disk fills, the search stops after level {} with nothing lost, and the same command resumes once space is made",
                path.display(),
                human_bytes(u128::from(*need)),
                human_bytes(u128::from(*free)),
                level - 1
            ),
            Note::Saved { .. } => return,
        };
        bar.suspend(|| note(&line));
    })
}

/// Ranks sent between the processes of a shared search, summed over its levels.
#[derive(Default)]
struct Traffic {
    sent: u64,
    generated: u64,
    busiest: u64,
    read: u64,
    written: u64,
}

impl Traffic {
    fn add(&mut self, level: &Level) {
        self.read += level.read;
        self.written += level.written;
        self.sent += level.sent;
        self.generated += level.generated;
        self.busiest = self.busiest.max(level.sent);
    }

    fn describe(&self, job: &Job, processes: usize) -> String {
        format!(
            "{job}: {} of {} predecessors ({:.1}%) belonged to another of the {processes} process(es) and were sent: {} at 8 bytes a rank, {} in the busiest level",
            thousands(self.sent),
            thousands(self.generated),
            100.0 * self.sent as f64 / self.generated.max(1) as f64,
            human_bytes(u128::from(self.sent) * 8),
            human_bytes(u128::from(self.busiest) * 8)
        )
    }
}

/// What one process of a `--hosts` run holds, printed before it starts.
fn cluster_note(job: &Job, states: u64, cluster: &Cluster) -> String {
    let processes = cluster.processes();
    let slice = Partition::new(states, processes).slice(cluster.process);
    format!(
        "{job}: {} ranks over {processes} process{} ({}); this one, process {}, owns the ranks numbered {}..{} ({} ranks): {} at {BITS_PER_STATE} bits a rank plus at most {} of exchange buffers (the largest share: {}); {}",
        thousands(u128::from(states)),
        if processes == 1 { "" } else { "es" },
        cluster.hostfile.display(),
        cluster.process,
        slice.start,
        slice.end,
        thousands(u128::from(slice.end - slice.start)),
        human_bytes(u128::from(slice.end - slice.start) * BITS_PER_STATE / 8),
        human_bytes(u128::from(memory::exchange_bytes(None, processes))),
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
    let counts = format!(
        "{} of {} configurations reachable",
        thousands(a.reachable()),
        thousands(a.configurations)
    );
    let counts = match a.symmetric() {
        true => format!(
            "{counts}, {} up to its {} symmetries",
            thousands(a.reachable_classes()),
            a.symmetry.order
        ),
        false => counts,
    };
    // A resumed search's time is that of all its runs.
    let seconds = match a.earlier_seconds.len() {
        0 => format!("{:.2} s", a.seconds),
        n => format!(
            "{:.2} s over {} runs",
            a.earlier_seconds.iter().sum::<f64>() + a.seconds,
            n + 1
        ),
    };
    format!(
        "{}: {counts}, max distance {} ({} antipode{}), mean {:.4}, {seconds}",
        a.id,
        a.max_distance(),
        thousands(a.antipodes()),
        if a.antipodes() == 1 { "" } else { "s" },
        a.mean_distance(),
    )
}
