//! The processes of one search talking over TCP on timely dataflow: an [`Exchange`] for
//! `--hosts` runs. Part of the binary, not the library: it opens sockets, and it turns the
//! panic of a network thread (how timely reports a broken connection) into an error of the
//! search naming the lost process.
//!
//! Timely is the transport and the barrier, not the search: one timely worker per process,
//! on the thread that runs the search (rayon does the compute), and one dataflow of
//! - one stream of ranks per sending process, exchanged by owner into an operator that files
//!   them by level, with a probe: a sender's own probe tells how much of what it sent is
//!   still on the way, so `send` waits (parked) once that exceeds its bound
//!   ([`memory::in_flight_bytes`]). A
//!   stream per sender, not one for all, so that a sender waits only for its own data, never
//!   for a slower sender to advance its time;
//! - one stream of small vectors, each sent to every process: the per-level all-gather.
//!
//! Times are `level << 32 | batch` for ranks (each `send` is its own batch: a sub-epoch)
//! and the call's sequence number for the vectors. Ranks filed for a later level than the
//! one running wait in [`Inbox`] until that level's calls: a process that passed a barrier
//! first may send them before a slower one has left it.

use super::connect::SetupError;
use analyze::engine::exchange::{Exchange, ExchangeError, Partition};
use analyze::engine::memory;
use analyze::hosts::Cluster;
use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use timely::WorkerConfig;
use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::{CommsGuard, initialize_networking_from_sockets};
use timely::communication::allocator::{Allocator, ProcessBuilder};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange as ByKey;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::probe::Handle as ProbeHandle;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, Stream};
use timely::worker::Worker;

/// Where received ranks go: the engine marks them.
type Deliver<'a> = &'a mut dyn FnMut(&[u64]);
/// A batch of ranks and its owner.
type Ranks = (usize, Vec<u64>);
/// A per-level vector: (to, from, values).
type Gathered = (usize, usize, Vec<u64>);

/// What the operators received and the driver has not yet taken.
#[derive(Default)]
struct Inbox {
    /// Batches of ranks by level.
    ranks: BTreeMap<u32, Vec<Vec<u64>>>,
    /// Vectors by call sequence number, with their sender.
    vectors: BTreeMap<u64, Vec<(usize, Vec<u64>)>>,
}

/// One process's end of the exchange.
pub struct TimelyExchange {
    partition: Partition,
    index: usize,
    level_timeout: Duration,
    /// `None` once shut down.
    running: Option<Running>,
    addresses: Vec<String>,
    /// The first process whose connection broke, set by a network thread.
    lost: Arc<Mutex<Option<usize>>>,
    inbox: Rc<RefCell<Inbox>>,
    /// The level whose ranks `send` stamps, and the next batch number in it.
    level: u32,
    batch: u32,
    /// This process's batches not yet taken by their owners: (time, bytes).
    in_flight: VecDeque<(u64, u64)>,
    in_flight_bytes: u64,
    /// Bytes in flight beyond which `send` waits ([`memory::in_flight_bytes`]).
    in_flight_bound: u64,
    /// Collective calls so far (end_level and agree), the vector stream's time.
    calls: u64,
    /// The processes that said, in a collective call, that Ctrl-C or SIGTERM stopped them
    /// (each call's vector carries the sender's flag), and the level of the last such call.
    stopped: Vec<bool>,
    stopped_at: u32,
}

/// The live timely state.
struct Running {
    worker: Worker,
    ranks: InputHandle<u64, CapacityContainerBuilder<Vec<Ranks>>>,
    vectors: InputHandle<u64, CapacityContainerBuilder<Vec<Gathered>>>,
    /// One probe per sending process, after its ranks reached their owners.
    rank_probes: Vec<ProbeHandle<u64>>,
    vector_probe: ProbeHandle<u64>,
    /// The network threads; joined on an orderly shutdown only.
    guard: CommsGuard,
}

/// The time of a level's first batch.
fn level_time(level: u32) -> u64 {
    u64::from(level) << 32
}

/// An operator that routes each record of `stream` to the process `to` names and files
/// what arrives at this one into the inbox with `file` (the batch's time, its records).
fn file_into<D: timely::ExchangeData>(
    stream: Stream<'_, u64, Vec<D>>,
    name: &str,
    to: fn(&D) -> u64,
    inbox: Rc<RefCell<Inbox>>,
    file: fn(&mut Inbox, u64, &mut Vec<D>),
) -> ProbeHandle<u64> {
    let (probe, _) = stream
        .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(ByKey::new(to), name, move |_, _| {
            move |input, _| {
                input.for_each(|time, batch| {
                    if let Some(&time) = time.least() {
                        file(&mut inbox.borrow_mut(), time, batch);
                    }
                });
            }
        })
        .probe();
    probe
}

/// Files each batch of ranks that arrives at this process under its level.
fn file_ranks(stream: Stream<'_, u64, Vec<Ranks>>, inbox: Rc<RefCell<Inbox>>) -> ProbeHandle<u64> {
    file_into(
        stream,
        "FileRanks",
        |(owner, _)| *owner as u64,
        inbox,
        |inbox, time, batch| {
            let filed = inbox.ranks.entry((time >> 32) as u32).or_default();
            filed.extend(batch.drain(..).map(|(_, ranks)| ranks));
        },
    )
}

/// Files each gathered vector that arrives at this process under its time.
fn file_vectors(stream: Stream<'_, u64, Vec<Gathered>>, inbox: Rc<RefCell<Inbox>>) -> ProbeHandle<u64> {
    file_into(
        stream,
        "FileVectors",
        |(to, _, _)| *to as u64,
        inbox,
        |inbox, time, batch| {
            let filed = inbox.vectors.entry(time).or_default();
            filed.extend(batch.drain(..).map(|(_, from, values)| (from, values)));
        },
    )
}

impl TimelyExchange {
    /// Connects to every other process of `cluster` (waiting at most its connect timeout for
    /// them to start) and builds the dataflow. `job` describes the search; every process must
    /// run the same one. `memory` is the `--memory` of a search on disk, which bounds the
    /// ranks in flight too.
    pub fn start(cluster: &Cluster, states: u64, job: &str, memory: Option<u64>) -> Result<Self, SetupError> {
        let sockets = super::connect::connect(cluster, job)?;
        let lost = Arc::new(Mutex::new(None));
        install_panic_hook(Arc::clone(&lost), std::thread::current());
        // The transport's buffers it has finished with are freed rather than kept for reuse,
        // so that it holds two a connection (`memory::TRANSPORT_BUFFER_BYTES`).
        let mut hooks = Hooks::default();
        hooks.refill.limit = Some(0);
        let builders = ProcessBuilder::new_typed_vector(1, hooks.refill.clone(), None);
        let (mut tcp, guard) = initialize_networking_from_sockets(builders, sockets, cluster.process, 1, hooks)
            .map_err(|e| SetupError::Peers(format!("cannot start the network threads: {e}")))?;
        let allocator = Allocator::Tcp(tcp.remove(0).build());
        // The worker parks as soon as it has nothing to do: its thread is the search's driver,
        // and the cores belong to rayon.
        let config = WorkerConfig::default().idle_spin(Duration::ZERO);
        let mut worker = Worker::new(config, allocator, Some(Instant::now()));
        let inbox = Rc::new(RefCell::new(Inbox::default()));
        let (index, peers) = (worker.index(), worker.peers());
        let (ranks, vectors, rank_probes, vector_probe) = worker.dataflow::<u64, _, _>(|scope| {
            let mut own = None;
            let mut rank_probes = Vec::new();
            for source in 0..peers {
                let (input, stream) = scope.new_input::<Vec<Ranks>>();
                // Only this process sends on its own stream; the others' inputs here are
                // closed at once (dropped), so each stream's progress is its sender's alone.
                if source == index {
                    own = Some(input);
                }
                rank_probes.push(file_ranks(stream, Rc::clone(&inbox)));
            }
            let (vectors, stream) = scope.new_input::<Vec<Gathered>>();
            (own, vectors, rank_probes, file_vectors(stream, Rc::clone(&inbox)))
        });
        let ranks = ranks.ok_or_else(|| SetupError::Peers("this process has no stream of its own".into()))?;
        Ok(Self {
            partition: Partition::new(states, peers),
            index,
            level_timeout: Duration::from_secs(cluster.level_timeout),
            running: Some(Running {
                worker,
                ranks,
                vectors,
                rank_probes,
                vector_probe,
                guard,
            }),
            inbox,
            addresses: cluster.addresses.clone(),
            lost,
            level: 0,
            batch: 0,
            in_flight: VecDeque::new(),
            in_flight_bytes: 0,
            in_flight_bound: memory::in_flight_bytes(memory, peers),
            calls: 0,
            stopped: vec![false; peers],
            stopped_at: 0,
        })
    }

    /// Leaves in order once every process has finished the search: closes the streams, lets
    /// the network threads send their last bytes, and waits (at most `--level-timeout`) for
    /// every other process to do the same, so none of them sees this one vanish. Nothing is
    /// exchanged after it.
    pub fn finish(&mut self) -> Result<(), ExchangeError> {
        if let Some(running) = self.running.take() {
            let Running {
                worker,
                ranks,
                vectors,
                rank_probes,
                vector_probe,
                guard,
            } = running;
            // Everything that holds a channel first: the network threads finish once the last
            // handle on their queues is gone.
            drop((ranks, vectors, rank_probes, vector_probe));
            drop(worker);
            // Joined on a thread of its own: a network thread that lost its peer never ends.
            let (joined, done) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                drop(guard);
                let _ = joined.send(());
            });
            let deadline = Instant::now() + self.level_timeout;
            while done.recv_timeout(Duration::from_millis(100)).is_err() {
                self.check()?;
                if Instant::now() >= deadline {
                    return Err(ExchangeError::Transport(format!(
                        "the other processes did not finish within {} s (--level-timeout)",
                        self.level_timeout.as_secs()
                    )));
                }
            }
        }
        Ok(())
    }

    /// Which other processes Ctrl-C or SIGTERM stopped, and at which level the run stopped
    /// with them, as a phrase; `None` if none said so.
    pub fn stopped_by(&self) -> Option<String> {
        let named: Vec<String> = (0..self.stopped.len())
            .filter(|&p| self.stopped[p] && p != self.index)
            .map(|p| format!("{p} ({})", self.addresses.get(p).map_or("", String::as_str)))
            .collect();
        let (who, was) = match named.len() {
            0 => return None,
            1 => ("process", "was"),
            _ => ("processes", "were"),
        };
        Some(format!(
            "{who} {} {was} interrupted (Ctrl-C or SIGTERM); the run stopped at level {}",
            named.join(", "),
            self.stopped_at
        ))
    }

    /// Fails if a network thread reported a broken connection.
    fn check(&self) -> Result<(), ExchangeError> {
        match *self.lost.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(process) => Err(ExchangeError::PeerLost {
                process,
                address: self.addresses.get(process).cloned().unwrap_or_default(),
            }),
            None => Ok(()),
        }
    }

    fn running(&mut self) -> Result<&mut Running, ExchangeError> {
        self.running
            .as_mut()
            .ok_or_else(|| ExchangeError::Transport("the exchange was shut down".into()))
    }

    /// Hands the ranks filed for `level` to `deliver`.
    fn deliver(&self, level: u32, deliver: &mut dyn FnMut(&[u64])) {
        // Taken out first: `deliver` may be long, and the operators file into the inbox only
        // while the worker steps, never during it.
        let batches = self.inbox.borrow_mut().ranks.remove(&level);
        for ranks in batches.into_iter().flatten() {
            deliver(&ranks);
        }
    }

    /// Steps the worker, parked until something happens or a second passes, and delivers
    /// what came for `level` (if `deliver` is given), until `done` holds; fails after
    /// `--level-timeout` seconds.
    fn wait(
        &mut self,
        level: u32,
        deliver: Option<Deliver<'_>>,
        mut done: impl FnMut(&mut Self) -> bool,
    ) -> Result<(), ExchangeError> {
        let deadline = Instant::now() + self.level_timeout;
        let mut none = |_: &[u64]| {};
        let (deliver, hand_out): (Deliver<'_>, bool) = match deliver {
            Some(deliver) => (deliver, true),
            None => (&mut none, false),
        };
        loop {
            self.check()?;
            if hand_out {
                self.deliver(level, deliver);
            }
            if done(self) {
                return Ok(());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ExchangeError::Timeout {
                    level,
                    seconds: self.level_timeout.as_secs(),
                });
            }
            let park = (deadline - now).min(Duration::from_secs(1));
            self.running()?.worker.step_or_park(Some(park));
        }
    }

    /// Forgets the batches whose data every owner has taken.
    fn settle(&mut self) {
        let Some(running) = &self.running else { return };
        let probe = &running.rank_probes[self.index];
        while let Some(&(time, bytes)) = self.in_flight.front() {
            if probe.less_equal(&time) {
                break;
            }
            self.in_flight.pop_front();
            self.in_flight_bytes -= bytes;
        }
    }

    /// Sends `ranks` to `owner` as one batch of `level` (its own sub-epoch) and waits, handing
    /// out what came for `level`, until this process's ranks in flight are within bound.
    fn send_batch(
        &mut self,
        level: u32,
        owner: usize,
        ranks: Vec<u64>,
        deliver: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ExchangeError> {
        let bytes = 8 * ranks.len() as u64;
        let time = level_time(level) | u64::from(self.batch);
        self.batch = self
            .batch
            .checked_add(1)
            .ok_or_else(|| ExchangeError::Transport(format!("more than 2^32 batches in level {level}")))?;
        let running = self.running()?;
        running.ranks.send((owner, ranks));
        // A new sub-epoch for every batch: the probe then tells which batches arrived.
        running.ranks.advance_to(time + 1);
        running.worker.step();
        self.in_flight.push_back((time, bytes));
        self.in_flight_bytes += bytes;
        self.wait(level, Some(deliver), |me| {
            me.settle();
            me.in_flight_bytes <= me.in_flight_bound
        })
    }

    /// Moves the rank stream's time to `level` (levels only go up).
    fn enter(&mut self, level: u32) -> Result<(), ExchangeError> {
        if level < self.level {
            return Err(ExchangeError::Transport(format!(
                "level {level} after level {}: levels must only go up",
                self.level
            )));
        }
        if level > self.level || self.batch == 0 {
            let running = self.running()?;
            if *running.ranks.time() < level_time(level) {
                running.ranks.advance_to(level_time(level));
            }
            self.level = level;
            self.batch = 0;
        }
        Ok(())
    }

    /// Sends one vector to every process and waits for everybody's; in process order.
    /// Each carries one more value, taken off here: whether Ctrl-C or SIGTERM came to its
    /// sender, so that the others can say which process stopped the run.
    fn gather(
        &mut self,
        level: u32,
        mut mine: Vec<u64>,
        deliver: Option<Deliver<'_>>,
        ranks_done: Option<u64>,
    ) -> Result<Vec<Vec<u64>>, ExchangeError> {
        mine.push(u64::from(super::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)));
        let (index, peers, call) = (self.index, self.partition.processes(), self.calls);
        self.calls += 1;
        let running = self.running()?;
        for to in 0..peers {
            running.vectors.send((to, index, mine.clone()));
        }
        running.vectors.advance_to(call + 1);
        // The last step may have filed ranks after the last hand-out: `wait` hands them out
        // before it looks at the probes again, so none is left once it returns.
        self.wait(level, deliver, |me| {
            let Some(running) = &me.running else { return true };
            !running.vector_probe.less_equal(&call)
                && ranks_done.is_none_or(|t| running.rank_probes.iter().all(|p| !p.less_than(&t)))
        })?;
        let mut gathered = self.inbox.borrow_mut().vectors.remove(&call).unwrap_or_default();
        if gathered.len() != peers {
            return Err(ExchangeError::Transport(format!(
                "{} vectors of {peers} came for call {call}",
                gathered.len()
            )));
        }
        gathered.sort_by_key(|(from, _)| *from);
        let mut all = Vec::with_capacity(peers);
        for (from, mut values) in gathered {
            match (values.pop(), self.stopped.get_mut(from)) {
                (Some(flag), Some(stopped)) => {
                    if flag != 0 {
                        *stopped = true;
                        self.stopped_at = level;
                    }
                }
                _ => {
                    return Err(ExchangeError::Transport(format!(
                        "process {from} sent no stop flag for call {call}"
                    )));
                }
            }
            all.push(values);
        }
        Ok(all)
    }
}

impl Exchange for TimelyExchange {
    fn partition(&self) -> Partition {
        self.partition
    }

    fn index(&self) -> usize {
        self.index
    }

    fn send(
        &mut self,
        level: u32,
        owner: usize,
        ranks: Vec<u64>,
        deliver: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ExchangeError> {
        if owner >= self.partition.processes() || owner == self.index {
            return Err(ExchangeError::Transport(format!(
                "process {} cannot send ranks to process {owner}",
                self.index
            )));
        }
        self.check()?;
        self.enter(level)?;
        // Messages within the transport's buffers, which a larger one would grow for good.
        let per_message = (memory::MESSAGE_BYTES / 8) as usize;
        if ranks.len() <= per_message {
            return self.send_batch(level, owner, ranks, deliver);
        }
        for piece in ranks.chunks(per_message) {
            self.send_batch(level, owner, piece.to_vec(), deliver)?;
        }
        Ok(())
    }

    fn end_level(
        &mut self,
        level: u32,
        mine: Vec<u64>,
        deliver: &mut dyn FnMut(&[u64]),
    ) -> Result<Vec<Vec<u64>>, ExchangeError> {
        self.enter(level)?;
        let next = level
            .checked_add(1)
            .ok_or_else(|| ExchangeError::Transport("too many levels".into()))?;
        self.enter(next)?;
        let gathered = self.gather(level, mine, Some(deliver), Some(level_time(next)))?;
        self.in_flight.clear();
        self.in_flight_bytes = 0;
        Ok(gathered)
    }

    fn agree(&mut self, mine: Vec<u64>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        // No ranks are handed out here: a faster process may already be sending some for the
        // first level, and they wait in the inbox for its calls.
        let level = self.level;
        self.gather(level, mine, None, None)
    }
}

impl Drop for TimelyExchange {
    /// Leaving without [`TimelyExchange::finish`] (an error, Ctrl-C) leaves the network threads
    /// running until the process exits: the others then see the connection break and fail at
    /// once, instead of taking an orderly goodbye for the end of the search.
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            std::mem::forget(running);
        }
    }
}

/// Timely's network threads (`timely:send-N`, `timely:recv-N`) panic when the connection to
/// process N breaks. This hook records the first such N in `lost`, wakes the search's thread
/// (which then fails with an error naming N, so the usual clean-up runs), and parks the
/// network thread for good: returning would abort the process (`panic = "abort"`). Panics on
/// other threads keep the usual hook.
fn install_panic_hook(lost: Arc<Mutex<Option<usize>>>, driver: std::thread::Thread) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        let peer = thread
            .name()
            .and_then(|n| {
                n.strip_prefix("timely:recv-")
                    .or_else(|| n.strip_prefix("timely:send-"))
            })
            .and_then(|n| n.parse::<usize>().ok());
        let Some(peer) = peer else {
            return previous(info);
        };
        lost.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(peer);
        driver.unpark();
        loop {
            std::thread::park();
        }
    }));
}
