//! Connecting the processes of a `--hosts` run: one TCP connection between every two, the
//! higher index dialling the lower (the socket order timely expects), each opened by a
//! greeting that says who the process is, which search it runs, and proves that it holds
//! the run's secret (`--secret-file`).
//!
//! A greeting is `analyze2`, the sender's index, the process count, the job and a fresh
//! random nonce; once both are read, each side sends an HMAC-SHA-256, keyed by the secret,
//! of its index, the other side's nonce, its own nonce and its job. The secret never crosses
//! the wire, and a proof can be neither replayed (the other side's nonce is new each time)
//! nor reflected (the sender's index is in it). Without a secret the key is empty: the
//! processes still check that they run the same search, but anyone who can reach the port
//! could join, which is why a run over other machines than this one should have a secret.
//!
//! The listening side greets each connection on a thread of its own with a few seconds to
//! spare, so a connection that says nothing is dropped without delaying the others.

use super::note;
use super::timely::SetupError;
use analyze::hosts::Cluster;
use analyze::identity::Identity;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Magic bytes that open the greeting of one `analyze` process to another.
const MAGIC: &[u8; 8] = b"analyze2";
/// Longest job description a greeting may carry.
const MAX_DESCRIPTION: u32 = 1 << 16;
/// Bytes of a greeting's nonce.
const NONCE: usize = 32;
/// Bytes of a proof (an HMAC-SHA-256).
const PROOF: usize = 32;
/// How long a connection to the listening side may take to greet before it is dropped.
const GREETING: Duration = Duration::from_secs(5);

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
}

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

    /// Connects to the lower process `peer` (retrying until it listens) and greets it.
    fn dial(&self, peer: usize) -> Result<TcpStream, SetupError> {
        let address = &self.cluster.addresses[peer];
        let stream = loop {
            let attempt = resolve(address).and_then(|a| {
                TcpStream::connect_timeout(
                    &a,
                    self.deadline
                        .saturating_duration_since(Instant::now())
                        .max(Duration::from_millis(1)),
                )
            });
            match attempt {
                Ok(stream) => break stream,
                Err(_) if Instant::now() + Duration::from_millis(100) < self.deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(_) => return Err(self.never_came(peer)),
            }
        };
        let theirs = match handshake(&stream, &self.greeting, self.cluster.secret(), self.deadline) {
            Ok(theirs) => theirs,
            Err(Refused::Secret) => {
                return Err(SetupError::Address(format!(
                    "process {peer} ({address}) did not prove this run's secret: it is not one of this run's processes, or was given another --secret-file"
                )));
            }
            Err(e) => {
                return Err(SetupError::Peers(format!(
                    "process {peer} ({address}) did not greet back: {e}"
                )));
            }
        };
        check(&theirs, &self.greeting, peer, self.cluster)?;
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
        while let Some(missing) = (me + 1..processes).find(|&p| sockets[p].is_none()) {
            match listener.accept() {
                Ok((stream, from)) => {
                    let (greeted, ours) = (greeted.clone(), self.greeting.clone());
                    let secret = self.cluster.secret().to_vec();
                    let until = self.deadline.min(Instant::now() + GREETING);
                    std::thread::spawn(move || {
                        let theirs = stream
                            .set_nonblocking(false)
                            .map_err(Refused::Io)
                            .and_then(|()| handshake(&stream, &ours, &secret, until));
                        let _ = greeted.send((stream, from, theirs));
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= self.deadline {
                        return Err(self.never_came(missing));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(SetupError::Peers(format!("cannot accept connections: {e}"))),
            }
            while let Ok((stream, from, theirs)) = arrivals.try_recv() {
                self.admit(stream, from, theirs, sockets)?;
            }
        }
        Ok(())
    }

    /// Takes a greeted connection from `from` as the process it says it is, if it is one.
    fn admit(
        &self,
        stream: TcpStream,
        from: SocketAddr,
        theirs: Result<Greeting, Refused>,
        sockets: &mut [Option<TcpStream>],
    ) -> Result<(), SetupError> {
        let (me, processes) = (self.cluster.process, self.cluster.processes());
        let theirs = match theirs {
            Ok(theirs) => theirs,
            Err(Refused::Secret) => {
                note(format_args!(
                    "refused the connection from {from}: it did not prove this run's secret (--secret-file)"
                ));
                return Ok(());
            }
            // Not one of ours (a port scan, a silent connection, a process that died): drop it.
            Err(_) => return Ok(()),
        };
        if theirs.from <= me || theirs.from >= processes {
            return Err(mismatch(
                self.cluster,
                &format!("{from} claims to be process {} of {}", theirs.from, theirs.processes),
            ));
        }
        check(&theirs, &self.greeting, theirs.from, self.cluster)?;
        if sockets[theirs.from].is_some() {
            return Err(SetupError::Address(format!(
                "two processes connected as process {} ({}): each process needs its own --process",
                theirs.from, self.cluster.addresses[theirs.from]
            )));
        }
        sockets[theirs.from] = Some(stream);
        Ok(())
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
    stream.write_all(&proof(secret, ours, &their_nonce, &nonce)?.finalize().into_bytes())?;
    let mut their_proof = [0u8; PROOF];
    stream.read_exact(&mut their_proof)?;
    proof(secret, &theirs, &nonce, &their_nonce)?
        .verify_slice(&their_proof)
        .map_err(|_| Refused::Secret)?;
    Ok(theirs)
}

/// The HMAC of `sender`'s proof: its index, the receiver's nonce, its own, and its job.
fn proof(secret: &[u8], sender: &Greeting, to: &[u8], from: &[u8]) -> Result<Hmac<Sha256>, Refused> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret)
        .map_err(|e| std::io::Error::other(format!("the secret cannot key the proof: {e}")))?;
    mac.update(b"analyze proof");
    mac.update(&(sender.from as u32).to_be_bytes());
    mac.update(to);
    mac.update(from);
    mac.update(sender.job.as_bytes());
    Ok(mac)
}

/// Checks that `theirs`, from the process at index `peer`, runs the same search.
fn check(theirs: &Greeting, ours: &Greeting, peer: usize, cluster: &Cluster) -> Result<(), SetupError> {
    if theirs.from != peer || theirs.processes != ours.processes {
        return Err(mismatch(
            cluster,
            &format!(
                "{} answered as process {} of {}",
                cluster.addresses[peer], theirs.from, theirs.processes
            ),
        ));
    }
    if let Some(differences) = identity_differences(&theirs.job, &ours.job) {
        return Err(SetupError::Address(format!(
            "process {peer} ({}) runs another search: it differs from this one in {} (give every process the same command and the same files, except --process)",
            cluster.addresses[peer],
            analyze::identity::describe(&differences)
        )));
    }
    if theirs.job != ours.job {
        return Err(SetupError::Address(format!(
            "process {peer} ({}) runs another search: `{}` there, `{}` here (give every process the same command and hostfile, except --process)",
            cluster.addresses[peer], theirs.job, ours.job
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

fn mismatch(cluster: &Cluster, what: &str) -> SetupError {
    SetupError::Address(format!(
        "{what}, but {} lists {} processes and this is process {}: give every process the same hostfile and its own --process",
        cluster.hostfile.display(),
        cluster.processes(),
        cluster.process
    ))
}
