//! Helpers shared by the integration tests.
//!
//! The reference searches here are deliberately plain: explicit boards and coin vectors in
//! hash maps, a queue, and each puzzle's rules written out again from its published
//! description. They share nothing with the library's ranking or engine, so when the two
//! agree it is evidence rather than the same code run twice.

#![allow(dead_code, reason = "every test file uses a different part of these helpers")]

use analyze::engine::bfs;
use analyze::puzzle::Puzzle;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::ops::ControlFlow;
use std::path::PathBuf;
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------
// Sliding tiles
// ---------------------------------------------------------------------------------------

/// A sliding board cell by cell, row-major, 0 for the blank.
pub type Board = Vec<u8>;

/// Every board size the exhaustive tests cover (up to 9 cells).
pub const SMALL_BOARDS: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)];

/// Tiles `1..cells` in row-major order with the blank last.
pub fn goal_board(rows: usize, cols: usize) -> Board {
    let cells = (rows * cols) as u8;
    (1..cells).chain([0]).collect()
}

/// The cells orthogonally next to `cell` on a `rows x cols` board.
fn neighbours(rows: usize, cols: usize, cell: usize) -> Vec<usize> {
    let (row, col) = (cell / cols, cell % cols);
    let mut cells = Vec::new();
    if row > 0 {
        cells.push(cell - cols);
    }
    if row + 1 < rows {
        cells.push(cell + cols);
    }
    if col > 0 {
        cells.push(cell - 1);
    }
    if col + 1 < cols {
        cells.push(cell + 1);
    }
    cells
}

/// Every board one move from `board`: a tile next to the blank slides into it.
pub fn slides(board: &[u8], rows: usize, cols: usize) -> Vec<Board> {
    let blank = board.iter().position(|&t| t == 0).expect("a board has a blank");
    neighbours(rows, cols, blank)
        .into_iter()
        .map(|cell| {
            let mut next = board.to_vec();
            next.swap(blank, cell);
            next
        })
        .collect()
}

/// A board as a hash key: 4 bits a cell, first cell lowest (up to 16 cells).
pub fn pack(board: &[u8]) -> u64 {
    board.iter().rev().fold(0, |key, &tile| key << 4 | u64::from(tile))
}

/// Distance from the goal of every board reachable from it, keyed by [`pack`]. Slides
/// are reversible, so this is also every board's distance *to* the goal.
pub fn sliding_distances(rows: usize, cols: usize) -> HashMap<u64, usize> {
    let goal = goal_board(rows, cols);
    let mut distance = HashMap::from([(pack(&goal), 0)]);
    let mut queue = VecDeque::from([(goal, 0)]);
    while let Some((board, d)) = queue.pop_front() {
        for next in slides(&board, rows, cols) {
            if let Entry::Vacant(slot) = distance.entry(pack(&next)) {
                slot.insert(d + 1);
                queue.push_back((next, d + 1));
            }
        }
    }
    distance
}

/// The textbook rule: with an odd width a board is solvable iff its tiles (read row by
/// row, blank skipped) have an even number of inversions; with an even width iff
/// inversions + the blank's row (from the top) has the parity of `rows - 1`.
pub fn textbook_solvable(board: &[u8], rows: usize, cols: usize) -> bool {
    let tiles: Vec<u8> = board.iter().copied().filter(|&t| t != 0).collect();
    let inversions: usize = (0..tiles.len())
        .map(|i| tiles[i + 1..].iter().filter(|&&later| later < tiles[i]).count())
        .sum();
    let blank_row = board.iter().position(|&t| t == 0).expect("a board has a blank") / cols;
    if cols % 2 == 1 {
        inversions % 2 == 0
    } else {
        (inversions + blank_row) % 2 == (rows - 1) % 2
    }
}

/// Calls `f` with every arrangement of the tiles `0..cells`, in lexicographic order.
pub fn for_each_arrangement(cells: usize, mut f: impl FnMut(&[u8])) {
    let mut board: Board = (0..cells as u8).collect();
    loop {
        f(&board);
        // Next permutation: the longest decreasing suffix, the pivot before it, swap the
        // pivot with the smallest larger element of the suffix, reverse the suffix.
        let Some(pivot) = (0..cells - 1).rev().find(|&i| board[i] < board[i + 1]) else {
            return;
        };
        let larger = (pivot + 1..cells)
            .rev()
            .find(|&j| board[j] > board[pivot])
            .expect("suffix has a larger tile");
        board.swap(pivot, larger);
        board[pivot + 1..].reverse();
    }
}

/// A board written the way the library's one-line notation writes it: `1 2 3 0`.
pub fn board_text(board: &[u8]) -> String {
    let mut text = String::with_capacity(3 * board.len());
    for (i, tile) in board.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text += &tile.to_string();
    }
    text
}

/// `n!`.
pub fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

// ---------------------------------------------------------------------------------------
// Coin puzzles
// ---------------------------------------------------------------------------------------

/// Coins packed into an integer, coin `i` (row-major from 0) in bit `i`, set for tails.
/// The order is the reverse of the library's ranks on purpose: [`book_rank`] converts.
pub type CoinVector = u32;

/// A move written out from the rules: the coins it flips and the coin that must show
/// heads before it (nine tails' "pick a face-up coin").
#[derive(Debug, Clone)]
pub struct RefMove {
    pub flips: CoinVector,
    pub needs_heads: Option<usize>,
}

/// A coin puzzle restated from its published rules.
#[derive(Debug, Clone)]
pub struct CoinRules {
    pub coins: usize,
    pub moves: Vec<RefMove>,
    pub goals: Vec<CoinVector>,
}

impl CoinRules {
    /// Whether `mv` may be played on `config`.
    pub fn legal(mv: &RefMove, config: CoinVector) -> bool {
        mv.needs_heads.is_none_or(|coin| config >> coin & 1 == 0)
    }

    /// Every configuration one legal move after `config`.
    pub fn successors(&self, config: CoinVector) -> impl Iterator<Item = CoinVector> + '_ {
        self.moves
            .iter()
            .filter(move |m| Self::legal(m, config))
            .map(move |m| config ^ m.flips)
    }

    /// Every configuration of the puzzle.
    pub fn all(&self) -> std::ops::Range<CoinVector> {
        0..1 << self.coins
    }

    /// All coins tails.
    pub fn all_tails(&self) -> CoinVector {
        ((1u64 << self.coins) - 1) as CoinVector
    }
}

fn vector(cells: impl IntoIterator<Item = usize>) -> CoinVector {
    cells.into_iter().fold(0, |v, cell| v | 1 << cell)
}

/// A cell and its orthogonal neighbours.
fn plus(rows: usize, cols: usize, cell: usize) -> CoinVector {
    vector([cell].into_iter().chain(neighbours(rows, cols, cell)))
}

/// Lights out: press any cell, it and its orthogonal neighbours flip; goal all heads.
pub fn ref_lights_out(rows: usize, cols: usize) -> CoinRules {
    let n = rows * cols;
    let moves = (0..n)
        .map(|cell| RefMove {
            flips: plus(rows, cols, cell),
            needs_heads: None,
        })
        .collect();
    CoinRules {
        coins: n,
        moves,
        goals: vec![0],
    }
}

/// Nine tails: pick a face-up coin, flip it and its orthogonal neighbours; goal all tails.
pub fn ref_nine_tails(rows: usize, cols: usize) -> CoinRules {
    let n = rows * cols;
    let moves = (0..n)
        .map(|cell| RefMove {
            flips: plus(rows, cols, cell),
            needs_heads: Some(cell),
        })
        .collect();
    let rules = CoinRules {
        coins: n,
        moves,
        goals: Vec::new(),
    };
    CoinRules {
        goals: vec![rules.all_tails()],
        ..rules
    }
}

/// Coin lines: flip a whole row, column or main diagonal; goal all heads or all tails.
pub fn ref_coin_lines(size: usize) -> CoinRules {
    let n = size * size;
    let mut lines: Vec<CoinVector> = Vec::new();
    for i in 0..size {
        lines.push(vector((0..size).map(|c| i * size + c)));
        lines.push(vector((0..size).map(|r| r * size + i)));
    }
    lines.push(vector((0..size).map(|i| i * size + i)));
    lines.push(vector((0..size).map(|i| i * size + size - 1 - i)));
    let moves = lines
        .into_iter()
        .map(|flips| RefMove {
            flips,
            needs_heads: None,
        })
        .collect();
    let rules = CoinRules {
        coins: n,
        moves,
        goals: Vec::new(),
    };
    CoinRules {
        goals: vec![0, rules.all_tails()],
        ..rules
    }
}

/// Flip K of N: flip any K of the N coins; goal all tails.
pub fn ref_flip_k(n: usize, k: usize) -> CoinRules {
    let moves = (0..1u32 << n)
        .filter(|m| m.count_ones() as usize == k)
        .map(|flips| RefMove {
            flips,
            needs_heads: None,
        })
        .collect();
    let rules = CoinRules {
        coins: n,
        moves,
        goals: Vec::new(),
    };
    CoinRules {
        goals: vec![rules.all_tails()],
        ..rules
    }
}

/// Distance *to* the nearest goal of every configuration that can reach one.
///
/// A breadth-first search from the goals over reversed moves: `before` is one move before
/// `after` when a move legal in `before` turns it into `after`. A move XORs its coins, so
/// the only candidate `before` for a move is `after ^ flips`; its legality is checked in
/// `before`, which is what makes nine tails' directed rule come out right.
pub fn coin_distances(rules: &CoinRules) -> HashMap<CoinVector, usize> {
    let mut distance: HashMap<CoinVector, usize> = rules.goals.iter().map(|&g| (g, 0)).collect();
    let mut queue: VecDeque<CoinVector> = rules.goals.iter().copied().collect();
    while let Some(after) = queue.pop_front() {
        let d = distance[&after];
        for mv in &rules.moves {
            let before = after ^ mv.flips;
            if CoinRules::legal(mv, before) && !distance.contains_key(&before) {
                distance.insert(before, d + 1);
                queue.push_back(before);
            }
        }
    }
    distance
}

/// The configuration as the puzzles write it: `H` heads, `T` tails, row-major.
pub fn coin_text(config: CoinVector, coins: usize) -> String {
    (0..coins)
        .map(|i| if config >> i & 1 == 1 { 'T' } else { 'H' })
        .collect()
}

/// The configuration's number in the nine-tails book: coins read row-major as binary
/// digits, H = 0, T = 1, first coin most significant (so all tails is `2^n - 1`).
pub fn book_rank(config: CoinVector, coins: usize) -> u64 {
    (0..coins).fold(0, |rank, i| rank << 1 | u64::from(config >> i & 1))
}

/// Every board shape with both sides at least 2 and at most `max_cells` cells.
pub fn boards_up_to(max_cells: usize) -> Vec<(usize, usize)> {
    (2..=max_cells / 2)
        .flat_map(|r| (2..=max_cells / r).map(move |c| (r, c)))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Tables and the library's engine
// ---------------------------------------------------------------------------------------

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

/// `C(n, k)`, computed the slow obvious way.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1)) as u64
}

// ---------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------

/// A fresh temporary folder to run the binary in; removed when dropped.
pub struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a temporary folder can be created"),
        }
    }

    /// `relative` inside the sandbox.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Runs `analyze ARGS` with the sandbox as working directory. Tables it caches go to one folder shared by the
    /// tests (built once per test run), never to the user's cache.
    pub fn run(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        assert_cmd::Command::new(env!("CARGO_BIN_EXE_analyze"))
            .current_dir(self.dir.path())
            .env("ANALYZE_CACHE_DIR", test_cache())
            .args(args)
            .assert()
    }

    /// Names of everything directly in `relative`, sorted, hidden entries included.
    pub fn list(&self, relative: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.path(relative))
            .expect("the folder exists")
            .map(|e| e.expect("a readable entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// Runs `analyze ARGS` in a fresh sandbox.
/// The cache folder the tests' runs share (under the build's temporary folder).
pub fn test_cache() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("test-cache")
}

pub fn analyze(args: &[&str]) -> (Sandbox, assert_cmd::assert::Assert) {
    let sandbox = Sandbox::new();
    let assert = sandbox.run(args);
    (sandbox, assert)
}

// ---------------------------------------------------------------------------------------
// Several processes in one test: threads joined by channels
// ---------------------------------------------------------------------------------------

use analyze::engine::exchange::{Exchange, ExchangeError, Partition};
use analyze::engine::{EngineError, Level, Options, Search};
use std::sync::mpsc::{Receiver, Sender, channel};

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
    options: impl Fn(usize) -> Options + Sync,
    observe: impl Fn(usize, &Level) -> ControlFlow<()> + Sync,
) -> Vec<(Result<Search, EngineError>, u64)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = Threads::group(puzzle.states(), processes)
            .into_iter()
            .enumerate()
            .map(|(i, mut exchange)| {
                let (options, observe) = (&options, &observe);
                scope.spawn(move || {
                    let result = analyze::engine::search(puzzle, &mut exchange, options(i), |l| observe(i, l));
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

/// The level saved in the checkpoint file at `path`, read from its header as the format
/// documents it (magic, version, puzzle id as a length and one u64 a byte, five u64s, the
/// level); `None` while the file does not exist or is not a checkpoint. Files are renamed
/// into place whole, so a file that exists is complete.
pub fn saved_level(path: &std::path::Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let u64_at = |at: usize| -> Option<u64> {
        let field: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(field))
    };
    if bytes.get(..8)? != b"ANLZCKPT" {
        return None;
    }
    let id_len = usize::try_from(u64_at(12)?).ok()?;
    u64_at(20 + 8 * id_len + 5 * 8)
}

/// The latest level process `index` saved in the checkpoint folder `dir` (either generation).
pub fn latest_saved_level(dir: &std::path::Path, index: usize) -> Option<u64> {
    ["a", "b"]
        .iter()
        .filter_map(|g| saved_level(&dir.join(format!("slice-{index}.{g}.ckpt"))))
        .max()
}
