//! Connecting the processes of a `--hosts` run: one TCP connection between every two, the
//! higher index dialling the lower (the socket order timely expects), each opened by a
//! greeting that says who the process is, which search it runs, and proves that it holds
//! the run's secret (`--secret-file`).
//!
//! A greeting is `analyze3`, the sender's index, the process count, the job and a fresh
//! random nonce; once both are read, each side sends an HMAC-SHA-256, keyed by the secret,
//! of its index, the receiver's index, the other side's nonce, its own nonce and its job.
//! The secret never crosses the wire, and a proof can be neither replayed (the other side's
//! nonce is new each time), nor reflected (the sender's index is in it), nor relayed to
//! another process (the receiver's index is in it). Without a secret the key is empty: the
//! processes still check that they run the same search, but anyone who can reach the port
//! could join, which is why a run over other machines than this one should have a secret.
//!
//! The listening side greets each connection on a thread of its own with a few seconds to
//! spare, so a connection that says nothing is dropped without delaying the others. Every
//! message about a connection names the address it really came from, and what a peer sent
//! is printed only through [`shown`]: anyone who reaches the port can send anything.
//! Without a secret anyone can also claim to be a process of the run: a claim held by a
//! connection that has closed since is given up, and two live claims fail the run naming
//! both addresses. Ctrl-C (or SIGTERM) stops the waiting at once.

use super::{INTERRUPTED, note};
use analyze::hosts::Cluster;
use analyze::identity::Identity;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Magic bytes that open the greeting of one `analyze` process to another.
const MAGIC: &[u8; 8] = b"analyze3";
/// Longest job description a greeting may carry.
const MAX_DESCRIPTION: u32 = 1 << 16;
/// Bytes of a greeting's nonce.
const NONCE: usize = 32;
/// Bytes of a proof (an HMAC-SHA-256).
const PROOF: usize = 32;
/// How long a connection to the listening side may take to greet before it is dropped.
const GREETING: Duration = Duration::from_secs(5);
/// How often waiting for the others looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(20);

/// Why the processes could not start together.
#[derive(Debug, Error)]
pub enum SetupError {
    /// This process's address is unusable, or the processes were launched with different
    /// commands or hostfiles: bad input (exit 2).
    #[error("{0}")]
    Address(String),
    /// The others did not come, or came wrong (exit 1).
    #[error("{0}")]
    Peers(String),
    /// Ctrl-C or SIGTERM while waiting for the others (exit 130): what was waited for.
    #[error("{0}")]
    Interrupted(String),
}

/// Opens one connection to every other process: the higher index connects, the lower one
/// accepts, each greeting the other, all within the connect timeout.
pub fn connect(cluster: &Cluster, job: &str) -> Result<Vec<Option<TcpStream>>, SetupError> {
    let setup = Setup {
        cluster,
        greeting: Greeting {
            from: cluster.process,
            processes: cluster.processes(),
            job: format!("{job} over {}", cluster.addresses.join(" ")),
        },
        timeout: Duration::from_secs(cluster.connect_timeout()),
        deadline: Instant::now() + Duration::from_secs(cluster.connect_timeout()),
        refused: std::cell::Cell::new(0),
    };
    // Listen first: a second process started with the same --process fails here, before it
    // has spoken to anyone.
    let listener = setup.listen()?;
    let mut sockets: Vec<Option<TcpStream>> = (0..cluster.processes()).map(|_| None).collect();
    for (peer, socket) in sockets.iter_mut().enumerate().take(cluster.process) {
        *socket = Some(setup.dial(peer)?);
    }
    setup.accept(&listener, &mut sockets)?;
    for stream in sockets.iter().flatten() {
        stream
            .set_nodelay(true)
            .and_then(|()| stream.set_read_timeout(None))
            .and_then(|()| stream.set_write_timeout(None))
            .map_err(|e| SetupError::Peers(format!("cannot set up a connection: {e}")))?;
    }
    Ok(sockets)
}

/// What connecting the processes of a run needs: who they are, what this one says, and
/// when to give up.
struct Setup<'a> {
    cluster: &'a Cluster,
    greeting: Greeting,
    timeout: Duration,
    deadline: Instant,
    /// Connections refused so far: past [`MAX_REFUSALS`] they are counted, not each named,
    /// so a port scan or a flood cannot bury the run's own lines.
    refused: std::cell::Cell<u64>,
}

/// Refused connections named one by one on stderr; the rest are summed up in one line.
const MAX_REFUSALS: u64 = 10;

impl Setup<'_> {
    /// Listens on this process's address.
    fn listen(&self) -> Result<TcpListener, SetupError> {
        let (me, file, address) = (
            self.cluster.process,
            self.cluster.hostfile.display(),
            self.cluster.address(),
        );
        let own = resolve(address).map_err(|e| {
            SetupError::Address(format!(
                "cannot resolve {address} (line for --process {me} in {file}): {e}"
            ))
        })?;
        TcpListener::bind(own).map_err(|e| {
            SetupError::Address(match e.kind() {
                std::io::ErrorKind::AddrInUse => format!(
                    "cannot listen on {address}: the port is in use (by another program, or by another process started with --process {me})"
                ),
                std::io::ErrorKind::AddrNotAvailable => format!(
                    "cannot listen on {address}: not an address of this machine (is --process {me} the right line of {file}?)"
                ),
                _ => format!("cannot listen on {address}: {e}"),
            })
        })
    }

    /// The error for a process that never connected.
    fn never_came(&self, peer: usize) -> SetupError {
        SetupError::Peers(format!(
            "process {peer} ({}) did not connect within {} s: start all {} processes of {}, each with its own --process",
            self.cluster.addresses[peer],
            self.timeout.as_secs(),
            self.cluster.processes(),
            self.cluster.hostfile.display()
        ))
    }

    /// The error for Ctrl-C or SIGTERM while waiting for `peer`, if one came.
    fn interrupted(&self, peer: usize) -> Result<(), SetupError> {
        match INTERRUPTED.load(Ordering::Relaxed) {
            true => Err(SetupError::Interrupted(format!(
                "stopped waiting for process {peer} ({}) to connect",
                self.cluster.addresses[peer]
            ))),
            false => Ok(()),
        }
    }

    /// Greets `stream` on a thread of its own, within `until`; the answer comes on `to`.
    fn greet(&self, stream: TcpStream, from: SocketAddr, until: Instant, to: mpsc::Sender<Arrival>) {
        let (ours, secret) = (self.greeting.clone(), self.cluster.secret().to_vec());
        std::thread::spawn(move || {
            let theirs = stream
                .set_nonblocking(false)
                .map_err(Refused::Io)
                .and_then(|()| handshake(&stream, &ours, &secret, until));
            let _ = to.send((stream, from, theirs));
        });
    }

    /// Connects to the lower process `peer` (retrying until it listens) and greets it.
    fn dial(&self, peer: usize) -> Result<TcpStream, SetupError> {
        let address = &self.cluster.addresses[peer];
        let (stream, at) = loop {
            self.interrupted(peer)?;
            // An attempt of at most a second, so that Ctrl-C is seen between them.
            let attempt = resolve(address).and_then(|a| {
                let left = self.deadline.saturating_duration_since(Instant::now());
                TcpStream::connect_timeout(&a, left.clamp(Duration::from_millis(1), Duration::from_secs(1)))
                    .map(|stream| (stream, a))
            });
            match attempt {
                Ok(connected) => break connected,
                Err(_) if Instant::now() + Duration::from_millis(100) < self.deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(_) => return Err(self.never_came(peer)),
            }
        };
        // The other side may still be dialling lower processes before it greets: wait for
        // its answer until the deadline, looking at the interrupt flag meanwhile.
        let (greeted, answer) = mpsc::channel();
        self.greet(stream, at, self.deadline, greeted);
        let (stream, theirs) = loop {
            self.interrupted(peer)?;
            match answer.recv_timeout(POLL) {
                Ok((stream, _, theirs)) => break (stream, theirs),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(SetupError::Peers(format!(
                        "process {peer} ({address}) could not be greeted"
                    )));
                }
            }
        };
        let secret = if self.cluster.secret.is_some() {
            " and did not prove this run's secret (--secret-file)"
        } else {
            ""
        };
        let theirs = match theirs {
            Ok(theirs) => theirs,
            Err(Refused::Secret) => {
                return Err(SetupError::Address(format!(
                    "process {peer} ({address}) did not prove this run's secret: it is not one of this run's processes, or was given another --secret-file"
                )));
            }
            Err(Refused::Io(e)) => {
                return Err(SetupError::Peers(format!(
                    "process {peer} ({address}) did not greet back{secret}: {}",
                    why(&e)
                )));
            }
        };
        check(
            &theirs,
            &self.greeting,
            peer,
            &format!("process {peer} ({address})"),
            self.cluster,
        )?;
        Ok(stream)
    }

    /// Accepts the higher processes until each has connected and greeted; each connection
    /// is greeted on a thread of its own, within [`GREETING`].
    fn accept(&self, listener: &TcpListener, sockets: &mut [Option<TcpStream>]) -> Result<(), SetupError> {
        let (me, processes) = (self.cluster.process, self.cluster.processes());
        listener
            .set_nonblocking(true)
            .map_err(|e| SetupError::Peers(format!("cannot listen on {}: {e}", self.cluster.address())))?;
        let (greeted, arrivals) = mpsc::channel();
        // Where each accepted connection came from, by the process it claims to be.
        let mut came_from: Vec<Option<SocketAddr>> = vec![None; processes];
        loop {
            // A claim whose connection closed before the run started is given up: it was a
            // process that died, or a stranger (without a secret anyone can claim).
            for p in me + 1..processes {
                if sockets[p].as_ref().is_some_and(closed) {
                    sockets[p] = None;
                    note(format_args!(
                        "the connection from {} as process {p} closed before the run started: waiting for process {p} ({}) again",
                        came_from[p].map_or_else(String::new, |a| a.to_string()),
                        self.cluster.addresses[p]
                    ));
                }
            }
            let Some(missing) = (me + 1..processes).find(|&p| sockets[p].is_none()) else {
                return Ok(());
            };
            self.interrupted(missing)?;
            match listener.accept() {
                Ok((stream, from)) => {
                    let until = self.deadline.min(Instant::now() + GREETING);
                    self.greet(stream, from, until, greeted.clone());
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= self.deadline {
                        return Err(self.never_came(missing));
                    }
                    std::thread::sleep(POLL);
                }
                Err(e) => return Err(SetupError::Peers(format!("cannot accept connections: {e}"))),
            }
            while let Ok((stream, from, theirs)) = arrivals.try_recv() {
                self.admit(stream, from, theirs, sockets, &mut came_from)?;
            }
        }
    }

    /// Names a refused connection by the address it came from, the first
    /// [`MAX_REFUSALS`] of them; then says once that the others go unnamed.
    fn refuse(&self, from: SocketAddr, refused: &Refused, secret: bool) {
        let count = self.refused.get() + 1;
        self.refused.set(count);
        if count > MAX_REFUSALS + 1 {
            return;
        }
        if count == MAX_REFUSALS + 1 {
            note(format_args!(
                "refused more connections (from {from} and on): {MAX_REFUSALS} named above, the others are not"
            ));
            return;
        }
        match refused {
            Refused::Secret if secret => note(format_args!(
                "refused the connection from {from}: it did not prove this run's secret (--secret-file)"
            )),
            Refused::Secret => note(format_args!(
                "refused the connection from {from}: its proof is wrong (not an analyze process of this version)"
            )),
            Refused::Io(e) => {
                let proof = if secret {
                    " and did not prove this run's secret (--secret-file)"
                } else {
                    ""
                };
                note(format_args!(
                    "refused the connection from {from}: it did not greet{proof}: {}",
                    why(e)
                ));
            }
        }
    }

    /// Takes a greeted connection from `from` as the process it says it is, if it is one;
    /// every message about it names `from`, the address it really came from.
    fn admit(
        &self,
        stream: TcpStream,
        from: SocketAddr,
        theirs: Result<Greeting, Refused>,
        sockets: &mut [Option<TcpStream>],
        came_from: &mut [Option<SocketAddr>],
    ) -> Result<(), SetupError> {
        let (me, processes) = (self.cluster.process, self.cluster.processes());
        let secret = self.cluster.secret.is_some();
        let theirs = match theirs {
            Ok(theirs) => theirs,
            // Not one of ours (a port scan, a silent connection, a process that died, a
            // stranger): dropped, and named.
            Err(refused) => {
                self.refuse(from, &refused, secret);
                return Ok(());
            }
        };
        if theirs.from <= me || theirs.from >= processes {
            return Err(mismatch(
                self.cluster,
                &format!(
                    "the connection from {from} claims to be process {} of {}",
                    theirs.from, theirs.processes
                ),
            ));
        }
        let peer = theirs.from;
        let who = format!("the connection from {from} (claiming to be process {peer})");
        check(&theirs, &self.greeting, peer, &who, self.cluster)?;
        if sockets[peer].as_ref().is_some_and(closed) {
            sockets[peer] = None;
        }
        if sockets[peer].is_some() {
            let first = came_from[peer].map_or_else(String::new, |a| a.to_string());
            let anyone = if secret {
                ""
            } else {
                " (without --secret-file, anyone who can reach this port can claim to be one)"
            };
            return Err(SetupError::Address(format!(
                "two connections claim to be process {peer} ({}), from {first} and from {from}: each process needs its own --process{anyone}",
                self.cluster.addresses[peer]
            )));
        }
        sockets[peer] = Some(stream);
        came_from[peer] = Some(from);
        Ok(())
    }
}

/// A greeted connection, where it came from, and what it said.
type Arrival = (TcpStream, SocketAddr, Result<Greeting, Refused>);

/// Whether the other end of an idle connection has closed it (or it broke).
fn closed(stream: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let gone = match stream.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    };
    stream.set_nonblocking(false).is_err() || gone
}

/// Why a greeting failed, in words.
fn why(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => "it said nothing in time".into(),
        std::io::ErrorKind::UnexpectedEof => "it closed the connection".into(),
        _ => e.to_string(),
    }
}

/// The first address `address` (`host:port`) resolves to.
fn resolve(address: &str) -> std::io::Result<SocketAddr> {
    address
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::other("no address"))
}

/// What one process tells another when they connect.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Greeting {
    from: usize,
    processes: usize,
    job: String,
}

/// Why a connection was not taken.
#[derive(Debug, thiserror::Error)]
enum Refused {
    /// It broke, went silent, or spoke another protocol.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Its proof does not match this run's secret.
    #[error("it did not prove this run's secret")]
    Secret,
}

/// Sends ours and reads theirs, then proves the secret and checks their proof, all bounded
/// by `deadline`.
fn handshake(mut stream: &TcpStream, ours: &Greeting, secret: &[u8], deadline: Instant) -> Result<Greeting, Refused> {
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(100));
    stream.set_read_timeout(Some(left))?;
    stream.set_write_timeout(Some(left))?;
    let mut nonce = [0u8; NONCE];
    getrandom::fill(&mut nonce).map_err(|e| std::io::Error::other(format!("no random numbers: {e}")))?;
    let mut bytes = MAGIC.to_vec();
    for n in [ours.from as u32, ours.processes as u32, ours.job.len() as u32] {
        bytes.extend(n.to_be_bytes());
    }
    bytes.extend(ours.job.as_bytes());
    bytes.extend(nonce);
    stream.write_all(&bytes)?;
    let mut head = [0u8; 20];
    stream.read_exact(&mut head)?;
    let number = |i: usize| u32::from_be_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    if &head[..8] != MAGIC || number(16) > MAX_DESCRIPTION {
        return Err(std::io::Error::other("not an analyze process of this version").into());
    }
    let mut job = vec![0; number(16) as usize];
    stream.read_exact(&mut job)?;
    let mut their_nonce = [0u8; NONCE];
    stream.read_exact(&mut their_nonce)?;
    let theirs = Greeting {
        from: number(8) as usize,
        processes: number(12) as usize,
        job: String::from_utf8_lossy(&job).into_owned(),
    };
    stream.write_all(
        &proof(secret, ours, theirs.from, &their_nonce, &nonce)?
            .finalize()
            .into_bytes(),
    )?;
    let mut their_proof = [0u8; PROOF];
    stream.read_exact(&mut their_proof)?;
    proof(secret, &theirs, ours.from, &nonce, &their_nonce)?
        .verify_slice(&their_proof)
        .map_err(|_| Refused::Secret)?;
    Ok(theirs)
}

/// `sender`'s proof to process `receiver` ([`analyze::hosts::proof`]).
fn proof(secret: &[u8], sender: &Greeting, receiver: usize, to: &[u8], from: &[u8]) -> Result<Hmac<Sha256>, Refused> {
    analyze::hosts::proof(secret, sender.from, &sender.job, receiver, to, from)
        .map_err(|e| std::io::Error::other(format!("the secret cannot key the proof: {e}")).into())
}

/// Checks that `theirs`, from the process at index `peer` (`who`, for messages: the
/// address dialled or the one a connection came from), runs the same search.
fn check(theirs: &Greeting, ours: &Greeting, peer: usize, who: &str, cluster: &Cluster) -> Result<(), SetupError> {
    if theirs.from != peer || theirs.processes != ours.processes {
        return Err(mismatch(
            cluster,
            &format!("{who} answered as process {} of {}", theirs.from, theirs.processes),
        ));
    }
    if let Some(differences) = identity_differences(&theirs.job, &ours.job) {
        return Err(SetupError::Address(format!(
            "{who} runs another search: it differs from this one in {} (give every process the same command and the same files, except --process)",
            analyze::identity::describe(&differences)
        )));
    }
    if theirs.job != ours.job {
        return Err(SetupError::Address(format!(
            "{who} runs another search: `{}` there, `{}` here (give every process the same command and hostfile, except --process)",
            analyze::util::shown(&without_identity(&theirs.job)),
            without_identity(&ours.job)
        )));
    }
    Ok(())
}

/// The parts of the search identities in two greetings' descriptions that differ (see
/// `analyze::identity`); `None` if they agree, or either has none to compare.
fn identity_differences(theirs: &str, ours: &str) -> Option<Vec<String>> {
    let identity = |job: &str| {
        let word = job.split(" identity ").nth(1)?.split(' ').next()?;
        Identity::decode(word).ok()
    };
    let differences = identity(theirs)?.differences(&identity(ours)?);
    (!differences.is_empty()).then_some(differences)
}

/// A greeting's description without its identity's hexadecimal word, for a message.
fn without_identity(job: &str) -> String {
    match job.split_once(" identity ") {
        Some((before, after)) => match after.split_once(' ') {
            Some((_, rest)) => format!("{before} {rest}"),
            None => before.to_string(),
        },
        None => job.to_string(),
    }
}

fn mismatch(cluster: &Cluster, what: &str) -> SetupError {
    SetupError::Address(format!(
        "{what}, but {} lists {} processes and this is process {}: give every process the same hostfile and its own --process",
        cluster.hostfile.display(),
        cluster.processes(),
        cluster.process
    ))
}
