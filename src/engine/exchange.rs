//! How the processes of one search share the rank space and talk to each other.
//!
//! The rank space is cut into contiguous, word-aligned slices, one per process
//! ([`Partition`]). Each process keeps only its slice's bit planes, expands its own frontier,
//! marks the neighbours it owns directly, and hands the others' ranks to an [`Exchange`].
//! Contiguous slices (not hashing) keep most sliding moves local: a horizontal move is
//! `rank +- 1`, and most vertical moves stay within a slice.
//!
//! One process is the common case: [`Local`] is the exchange with nobody else.

use std::ops::Range;
use thiserror::Error;

use crate::util::WORD_BITS;

/// The rank space `0..states` cut into `processes` contiguous slices of whole words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    states: u64,
    processes: usize,
    /// Words per slice (the last slice may be shorter or empty).
    slice_words: u64,
}

impl Partition {
    /// Slices of `0..states` for `processes` processes (at least one).
    pub fn new(states: u64, processes: usize) -> Self {
        let processes = processes.max(1);
        let words = states.div_ceil(WORD_BITS);
        Self {
            states,
            processes,
            slice_words: words.div_ceil(processes as u64).max(1),
        }
    }

    /// Number of processes.
    pub fn processes(&self) -> usize {
        self.processes
    }

    /// The whole rank space.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// The process that owns `rank` (`rank < states`).
    pub fn owner(&self, rank: u64) -> usize {
        ((rank / WORD_BITS / self.slice_words) as usize).min(self.processes - 1)
    }

    /// The ranks process `process` owns; `start` is a multiple of 64.
    pub fn slice(&self, process: usize) -> Range<u64> {
        let bits = self.slice_words * WORD_BITS;
        let start = (process as u64 * bits).min(self.states);
        let end = if process + 1 == self.processes {
            self.states
        } else {
            ((process as u64 + 1) * bits).min(self.states)
        };
        start..end
    }
}

/// Why the processes of a search could not go on together.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExchangeError {
    /// A peer closed its connection or died.
    #[error("lost process {process} ({address})")]
    PeerLost {
        /// Index of the lost process.
        process: usize,
        /// Its `host:port`.
        address: String,
    },
    /// A level did not finish within the watchdog's limit (a stuck peer).
    #[error("level {level} did not finish within {seconds} s (--level-timeout): a process is stuck or lost")]
    Timeout {
        /// The level that was running.
        level: u32,
        /// The limit.
        seconds: u64,
    },
    /// Anything else the transport reports, in one line.
    #[error("{0}")]
    Transport(String),
}

/// The transport between the processes of one search: one value per process.
///
/// The engine calls it only from the thread that called the search (the driver), so an
/// implementation need not be `Send` or `Sync`. Every process calls the same sequence of
/// methods with the same `level` values; only the ranks differ.
pub trait Exchange {
    /// The slices of the rank space; the same on every process.
    fn partition(&self) -> Partition;

    /// This process's index, `0..partition().processes()`.
    fn index(&self) -> usize;

    /// Queues `ranks` (all owned by `owner`, which is not this process) as part of the level
    /// *after* `level`. May block to bound the data in flight; while it waits, and whenever
    /// it likes, it hands ranks that other processes sent to this one *for the same `level`*
    /// to `deliver` (each of them owned by this process). Ranks sent for a later level are
    /// held back until the calls for that level.
    fn send(
        &mut self,
        level: u32,
        owner: usize,
        ranks: Vec<u64>,
        deliver: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ExchangeError>;

    /// The level barrier: returns once every process has called `end_level(level, ..)` and every
    /// rank sent to this process for `level` has been handed to `deliver`. Returns each
    /// process's `mine` (counts, examples...), in process order, so every process sees the
    /// same totals and knows when the search ends.
    fn end_level(
        &mut self,
        level: u32,
        mine: Vec<u64>,
        deliver: &mut dyn FnMut(&[u64]),
    ) -> Result<Vec<Vec<u64>>, ExchangeError>;

    /// Exchanges one small vector per process outside any level (e.g. agreeing on the
    /// checkpoint to resume from before the first level); every process gets all of them,
    /// in process order. No ranks are in flight when it is called.
    fn agree(&mut self, mine: Vec<u64>) -> Result<Vec<Vec<u64>>, ExchangeError>;
}

/// The exchange of a search run by one process alone.
#[derive(Debug, Clone, Copy)]
pub struct Local {
    partition: Partition,
}

impl Local {
    /// One process owning all of `0..states`.
    pub fn new(states: u64) -> Self {
        Self {
            partition: Partition::new(states, 1),
        }
    }
}

impl Exchange for Local {
    fn partition(&self) -> Partition {
        self.partition
    }

    fn index(&self) -> usize {
        0
    }

    fn send(&mut self, _: u32, owner: usize, _: Vec<u64>, _: &mut dyn FnMut(&[u64])) -> Result<(), ExchangeError> {
        Err(ExchangeError::Transport(format!(
            "a single process has no process {owner} to send to"
        )))
    }

    fn end_level(&mut self, _: u32, mine: Vec<u64>, _: &mut dyn FnMut(&[u64])) -> Result<Vec<Vec<u64>>, ExchangeError> {
        Ok(vec![mine])
    }

    fn agree(&mut self, mine: Vec<u64>) -> Result<Vec<Vec<u64>>, ExchangeError> {
        Ok(vec![mine])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_rank_space_in_whole_words() {
        for states in [1, 63, 64, 65, 1000, 181_440] {
            for processes in 1..=5 {
                let p = Partition::new(states, processes);
                let mut next = 0;
                for i in 0..processes {
                    let s = p.slice(i);
                    assert_eq!(s.start, next, "{states} {processes} {i}");
                    assert!(s.start % 64 == 0 || s.start == states);
                    for r in [s.start, s.end.saturating_sub(1)] {
                        if s.start < s.end {
                            assert_eq!(p.owner(r), i);
                        }
                    }
                    next = s.end;
                }
                assert_eq!(next, states);
            }
        }
    }
}
