//! The library seen through small helpers: its per-distance tables and distances, whole
//! analyses, and one search shared by several thread-processes joined by channels.

use analyze::analysis::Analysis;
use analyze::engine::exchange::{Exchange, ExchangeError, Partition};
use analyze::engine::{Distances, EngineError, Level, Options};
use analyze::job::Job;
use analyze::puzzle::family::SizeArgs;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use analyze::registry;
use analyze::solve::board::Board;
use analyze::solve::ida::{Heuristic, Node};
use std::ops::ControlFlow;
use std::sync::mpsc::{Receiver, Sender, channel};

/// The `rows x cols` sliding board.
pub fn sliding_board(rows: usize, cols: usize) -> Sliding {
    Sliding::new(rows, cols).unwrap_or_else(|| panic!("{rows}x{cols} is a valid board"))
}

/// The job of the registry's `family` with the size flags `flags` (`("rows", 3)` for
/// `--rows 3` ...), as the command line chooses it.
pub fn job(family: &str, flags: &[(&str, u64)]) -> Job {
    let mut args = SizeArgs::default();
    for &(flag, value) in flags {
        let slot = match flag {
            "rows" => &mut args.rows,
            "cols" => &mut args.cols,
            "size" => &mut args.size,
            "coins" => &mut args.coins,
            "flip" => &mut args.flip,
            _ => panic!("no size flag --{flag}"),
        };
        *slot = Some(value);
    }
    let family = registry::by_name(family).unwrap_or_else(|| panic!("no family {family}"));
    family
        .choose(&args)
        .unwrap_or_else(|e| panic!("{}: {e}", family.name()))
}

/// The analysis of `job`, run to the end in this process.
pub fn analysis(job: Job) -> Analysis {
    job.analyze_alone(&mut |_| ControlFlow::Continue(()))
        .unwrap_or_else(|e| panic!("{job}: {e}"))
}

/// The engine's search of `puzzle` in this process alone, with `observe` after each level.
pub fn bfs<P: SearchGraph>(
    puzzle: &P,
    observe: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Distances, EngineError> {
    analyze::engine::search(puzzle, Options::default(), observe)
}

/// How many of `distances` equal 0, 1, 2, ... up to the largest.
pub fn histogram(distances: impl IntoIterator<Item = usize>) -> Vec<u64> {
    let mut table = Vec::new();
    for d in distances {
        if table.len() <= d {
            table.resize(d + 1, 0);
        }
        table[d] += 1;
    }
    table
}

/// The per-distance table the library's engine computes.
pub fn engine_levels<P: Puzzle>(puzzle: &P) -> Vec<u64> {
    bfs(puzzle, |_| ControlFlow::Continue(()))
        .expect("the search succeeds")
        .levels
}

/// The engine's distance to the goal of each of `ranks` (`None`: never reached).
pub fn engine_distances<P: Puzzle>(puzzle: &P, ranks: &[u64]) -> Vec<Option<usize>> {
    let goals = puzzle.goals();
    let mut found: Vec<Option<usize>> = ranks.iter().map(|r| goals.contains(r).then_some(0)).collect();
    bfs(puzzle, |level| {
        for (rank, slot) in ranks.iter().zip(&mut found) {
            if slot.is_none() && level.next.contains(*rank) {
                *slot = Some(level.depth + 1);
            }
        }
        ControlFlow::Continue(())
    })
    .expect("the search succeeds");
    found
}

/// Along a walk of 3,000 random slides from `start`, the estimate `heuristic` updates move
/// by move equals one computed from scratch. Returns the estimate at `start`.
pub fn check_incremental<H: Heuristic>(heuristic: &H, start: &Board, rng: &mut super::Rng) -> u32 {
    let mut board = start.clone();
    let (mut memo, first) = heuristic.evaluate(&Node::new(&board));
    for _ in 0..3000 {
        let options: Vec<usize> = board.neighbours(board.blank()).collect();
        let cell = options[rng.below(options.len() as u64) as usize];
        let value = heuristic.update(&mut memo, &Node::new(&board), cell as u8);
        board = board.slide(cell).expect("a neighbour");
        assert_eq!(
            value,
            heuristic.evaluate(&Node::new(&board)).1,
            "from {} at {}",
            start.render(),
            board.render()
        );
    }
    first
}

/// `C(n, k)`, computed the slow obvious way.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1)) as u64
}

// ---------------------------------------------------------------------------------------
// Several processes in one test: threads joined by channels
// ---------------------------------------------------------------------------------------

/// What one thread-process sends another.
enum Message {
    /// Ranks for the level after `level`.
    Ranks { level: u32, ranks: Vec<u64> },
    /// The sender finished `level`: everything it sent for it came before.
    Done { level: u32, from: usize, mine: Vec<u64> },
    /// The sender's vector for [`Exchange::agree`].
    Agree { from: usize, mine: Vec<u64> },
}

/// An [`Exchange`] between threads of one test, over std channels: a channel keeps each
/// sender's messages in order, so once every peer's `Done` for a level has arrived, so
/// have all the ranks it sent for that level. Messages of a later level are held back.
pub struct Threads {
    partition: Partition,
    index: usize,
    peers: Vec<Sender<Message>>,
    inbox: Receiver<Message>,
    held: Vec<Message>,
    /// Ranks this process sent, for tests of the traffic.
    pub sent: u64,
}

impl Threads {
    /// One exchange per process, all joined, over `states` ranks.
    pub fn group(states: u64, processes: usize) -> Vec<Threads> {
        let partition = Partition::new(states, processes);
        let (senders, inboxes): (Vec<_>, Vec<_>) = (0..processes).map(|_| channel()).unzip();
        inboxes
            .into_iter()
            .enumerate()
            .map(|(index, inbox)| Threads {
                partition,
                index,
                peers: senders.clone(),
                inbox,
                held: Vec::new(),
                sent: 0,
            })
            .collect()
    }

    fn post(&self, to: usize, message: Message) -> Result<(), ExchangeError> {
        self.peers[to]
            .send(message)
            .map_err(|_| ExchangeError::Transport(format!("process {to} is gone")))
    }

    /// The next message, held ones first.
    fn next(&mut self, take_held: impl Fn(&Message) -> bool) -> Result<Message, ExchangeError> {
        if let Some(i) = self.held.iter().position(take_held) {
            return Ok(self.held.remove(i));
        }
        // A peer that failed leaves the others waiting: time out instead of hanging the test.
        self.inbox
            .recv_timeout(std::time::Duration::from_secs(60))
            .map_err(|_| ExchangeError::Transport("no message from the peers for 60 s".into()))
    }

    /// Gathers one vector per process, `mine` included, with `pick` recognising a peer's.
    fn gather(
        &mut self,
        mine: Vec<u64>,
        mut pick: impl FnMut(&mut Self, Message) -> Option<(usize, Vec<u64>)>,
        held: impl Fn(&Message) -> bool,
    ) -> Result<Vec<Vec<u64>>, ExchangeError> {
        let n = self.partition.processes();
        let mut all: Vec<Option<Vec<u64>>> = vec![None; n];
        all[self.index] = Some(mine);
        while all.iter().any(Option::is_none) {
            let message = self.next(&held)?;
            if let Some((from, v)) = pick(self, message) {
                all[from] = Some(v);
            }
        }
        Ok(all.into_iter().flatten().collect())
    }
}

impl Exchange for Threads {
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
        assert_ne!(owner, self.index, "a process sends only what others own");
        assert!(ranks.iter().all(|&r| self.partition.owner(r) == owner));
        self.sent += ranks.len() as u64;
        self.post(owner, Message::Ranks { level, ranks })?;
        // Deliver what has arrived for this level meanwhile, as a real transport does.
        while let Ok(message) = self.inbox.try_recv() {
            match message {
                Message::Ranks { level: l, ranks } if l == level => deliver(&ranks),
                other => self.held.push(other),
            }
        }
        Ok(())
    }

    fn end_level(
        &mut self,
        level: u32,
        mine: Vec<u64>,
        deliver: &mut dyn FnMut(&[u64]),
    ) -> Result<Vec<Vec<u64>>, ExchangeError> {
        for to in (0..self.partition.processes()).filter(|&p| p != self.index) {
            let message = Message::Done {
                level,
                from: self.index,
                mine: mine.clone(),
            };
            self.post(to, message)?;
        }
        let current =
            |m: &Message| matches!(m, Message::Ranks { level: l, .. } | Message::Done { level: l, .. } if *l == level);
        self.gather(
            mine,
            |me, message| match message {
                Message::Ranks { level: l, ranks } if l == level => {
                    deliver(&ranks);
                    None
                }
                Message::Done { level: l, from, mine } if l == level => Some((from, mine)),
                other => {
                    me.held.push(other);
                    None
                }
            },
            current,
        )
    }

    fn agree(&mut self, mine: Vec<u64>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        for to in (0..self.partition.processes()).filter(|&p| p != self.index) {
            self.post(
                to,
                Message::Agree {
                    from: self.index,
                    mine: mine.clone(),
                },
            )?;
        }
        self.gather(
            mine,
            |me, message| match message {
                Message::Agree { from, mine } => Some((from, mine)),
                other => {
                    me.held.push(other);
                    None
                }
            },
            |m| matches!(m, Message::Agree { .. }),
        )
    }
}

/// Runs the search of `puzzle` as `processes` thread-processes joined by [`Threads`],
/// each with the options `options(index)` and the observer `observe(index, level)`;
/// returns each process's result and the ranks it sent, in process order.
pub fn search_in_processes<P: Puzzle>(
    puzzle: &P,
    processes: usize,
    options: impl Fn(usize) -> Options<'static> + Sync,
    observe: impl Fn(usize, &Level) -> ControlFlow<()> + Sync,
) -> Vec<(Result<Distances, EngineError>, u64)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = Threads::group(puzzle.states(), processes)
            .into_iter()
            .enumerate()
            .map(|(i, mut exchange)| {
                let (options, observe) = (&options, &observe);
                scope.spawn(move || {
                    let options = Options {
                        exchange: Some(&mut exchange),
                        ..options(i)
                    };
                    let result = analyze::engine::search(puzzle, options, |l| observe(i, l));
                    (result, exchange.sent)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread-process panicked"))
            .collect()
    })
}
