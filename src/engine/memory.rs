//! What a search allocates, known before it starts: the engine's own memory model, so that
//! the command line can refuse a job that will not fit (naming the figure) before anything
//! is allocated, and say how many machines would do.

use super::bitset::WORD_BITS;
use super::exchange::Partition;

/// Bits the breadth-first search keeps per rank (two planes: unseen, this level, next
/// level, done).
pub const BITS_PER_STATE: u128 = 2;

/// Bytes the two planes take per 64-bit word of ranks: a word of each.
const PLANES_BYTES_PER_WORD: u64 = BITS_PER_STATE as u64 * 8;

/// Bytes of the two planes of `ranks` ranks, in whole 64-bit words: what a slice or a part
/// on disk allocates for its bits.
pub fn plane_bytes(ranks: u64) -> u64 {
    ranks.div_ceil(WORD_BITS) * PLANES_BYTES_PER_WORD
}

/// Ranks whose planes fit in `bytes`, in whole words (at least one word's).
pub fn ranks_in(bytes: u64) -> u64 {
    (bytes / PLANES_BYTES_PER_WORD).max(1) * WORD_BITS
}

/// Bytes of ranks one process may have sent that their owners have not yet taken (the
/// exchange blocks the sender beyond it); a process of N holds at most N times this in
/// exchange buffers: what it sent, and what each other process sent to it.
pub const IN_FLIGHT_BYTES: u64 = 8 << 20;

/// The least in-flight bound ([`in_flight_bytes`]): a batch of a few thousand ranks, so that
/// a tiny `--memory` still sends more than a rank at a time.
const LEAST_IN_FLIGHT_BYTES: u64 = 64 << 10;

/// Bytes of ranks one of `processes` processes may have in flight ([`IN_FLIGHT_BYTES`]),
/// with `memory` the `--memory` a search on disk keeps to (`None`: in memory, where the
/// planes dwarf the buffers): the exchange's buffers, `processes` times this, take at most
/// an eighth of it, so that `--memory` covers them too.
pub fn in_flight_bytes(memory: Option<u64>, processes: usize) -> u64 {
    match memory {
        None => IN_FLIGHT_BYTES,
        Some(memory) => (memory / 8 / processes.max(1) as u64).clamp(LEAST_IN_FLIGHT_BYTES, IN_FLIGHT_BYTES),
    }
}

/// Bytes of one message between processes at most: a batch of ranks larger than this is
/// sent as several. The transport reads and writes each connection through a buffer of
/// [`TRANSPORT_BUFFER_BYTES`] that a larger message would grow (to the next power of two
/// past it, on both ends); a quarter of it leaves room for what the buffer already holds.
pub const MESSAGE_BYTES: u64 = TRANSPORT_BUFFER_BYTES / 4;

/// Bytes of each buffer the transport keeps for a connection to another process: timely's
/// zero-copy allocator starts them at 1 MiB (`BytesSlab` of shift 20), and only a message
/// larger than what is left of one grows it ([`MESSAGE_BYTES`] never does).
pub const TRANSPORT_BUFFER_BYTES: u64 = 1 << 20;

/// Transport buffers a connection holds at most: one to send and one to receive, and for
/// each the full one it replaced, kept until the messages in it are written or read (the
/// peak of 3x4 over three processes held four a connection). Buffers it has finished with
/// are freed, not kept for reuse.
const TRANSPORT_BUFFERS_PER_CONNECTION: u64 = 4;

/// Bytes one of `processes` processes holds for the exchange at most: the ranks in flight
/// that it sent and that each other process sent to it ([`in_flight_bytes`]), and the
/// transport's buffers for each connection ([`TRANSPORT_BUFFER_BYTES`]); none alone.
pub fn exchange_bytes(memory: Option<u64>, processes: usize) -> u64 {
    match processes {
        0 | 1 => 0,
        n => {
            let connections = n as u64 - 1;
            in_flight_bytes(memory, n) * n as u64
                + TRANSPORT_BUFFERS_PER_CONNECTION * TRANSPORT_BUFFER_BYTES * connections
        }
    }
}

/// Chunks expanded per worker thread before the ranks they found for other processes
/// are sent: this bounds what the engine holds for sending to `GROUP_PER_THREAD x
/// threads x 2^18` frontier ranks times their predecessors, 8 bytes each (16 MiB per
/// thread for a sliding board, whose ranks have at most two far predecessors).
pub const GROUP_PER_THREAD: usize = 2;

/// Chunks a search of several processes expands before it sends what they found for other
/// processes, with `threads` worker threads (see [`GROUP_PER_THREAD`]).
pub fn sending_group(threads: usize) -> usize {
    GROUP_PER_THREAD * threads
}

/// How `--memory` is shared on disk: two parts' planes take half (one expanded while the
/// other is written and the next read into its memory), so a part's planes a quarter.
pub fn part_bytes(memory: u64) -> u64 {
    (memory / 4).max(16)
}

/// The least `--memory` whose share for a part ([`part_bytes`]) holds `ranks` ranks.
pub fn memory_for_part(ranks: u64) -> u64 {
    4 * plane_bytes(ranks)
}

/// The least `--memory` that holds one part of `ranks` ranks at a time, its planes in half
/// of it (the rest is the update buffers' and the expansion's), as a search resumed with less
/// memory than it began with runs.
pub fn memory_for_one_part(ranks: u64) -> u64 {
    2 * plane_bytes(ranks)
}

/// The update buffers' share of `--memory` on disk, or the bins' where the far move is sent
/// as bits: a quarter; the rest is headroom for the expansion's own buffers.
pub fn buffer_bytes(memory: u64) -> u64 {
    memory / 4
}

/// Bytes a search on disk allocates beside its planes, its bins and its update buffer: the
/// I/O threads' pieces (64 KiB of a block, a block at a time on each of two threads),
/// each worker's group of chunks' far predecessors before they reach the buffer, the
/// commit's threads, the level's per-chunk flags, and what the allocator keeps of them once
/// freed. 3x4 at 16 MiB peaked at 17.1 MiB with 1 MiB counted here, all else as counted.
pub const DISK_SCRATCH: u64 = 2 << 20;

/// The least update buffer of a search on disk: a page. A `--memory` that leaves less (less
/// than the process, its planes and [`DISK_SCRATCH`]) still runs, with this: the tiny caps
/// that cut a small search into many parts, as the tests do.
const LEAST_UPDATE_BUFFER: u64 = 1 << 12;

/// Bytes of the update buffer a search on disk with `memory` holds before it writes it out,
/// where the process took `base` before the search (its binary, threads and the puzzle's
/// tables, [`resident`]) and its planes and bins take `held`: what is left of `memory` once
/// those, [`DISK_SCRATCH`] and the update files' write buffers ([`update_writer_bytes`], an
/// eighth of the buffer) are counted, so that the whole process stays within `--memory`.
pub fn update_buffer_bytes(memory: u64, base: u64, held: u64) -> u64 {
    let left = memory.saturating_sub(base.saturating_add(held).saturating_add(DISK_SCRATCH));
    (left / 9 * 8).max(LEAST_UPDATE_BUFFER)
}

/// The least a search on disk takes, whatever its `--memory`: the process (`base`), what it
/// holds (`held`, as in [`update_buffer_bytes`]), [`DISK_SCRATCH`] and the least update
/// buffer. A `--memory` below it still runs, at this.
pub fn least_on_disk(base: u64, held: u64) -> u64 {
    base.saturating_add(held)
        .saturating_add(DISK_SCRATCH)
        .saturating_add(LEAST_UPDATE_BUFFER)
}

/// Bytes the process holds in memory now (`VmRSS` on Linux), if the system says: what
/// `--memory` must cover before a search on disk allocates anything.
pub fn resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes of each update file's write buffer, of `buffers` bytes of update buffers and
/// `parts` parts: every part may have two update files open, their buffers sharing an
/// eighth of the update buffers' memory.
pub fn update_writer_bytes(buffers: u64, parts: usize) -> u64 {
    buffers / 8 / (2 * parts as u64)
}

/// Chunks a search on disk expands at once, of `buffers` bytes of update buffers and
/// `threads` worker threads: as many as their far predecessors (about 2 MiB a chunk) fit in
/// the buffers, and at least [`GROUP_PER_THREAD`] a thread.
pub fn disk_group(buffers: u64, threads: usize) -> usize {
    ((buffers >> 21) as usize).max(sending_group(threads))
}

/// Ranks one bit of an occupancy summary stands for (a 64-byte line of the interleaved
/// planes holds 256 ranks of both).
const SUMMARY_RANKS: u128 = 256;

/// Bit sets the search keeps per rank when the largest move costs `max_move_cost`: 2 for
/// the BFS (plus its occupancy summaries), the largest cost + 2 for Dial's search (a bucket
/// per pending cost, and the visited set).
pub fn bits_per_state(max_move_cost: u32) -> u128 {
    match max_move_cost {
        0 | 1 => BITS_PER_STATE,
        cost => u128::from(cost) + 2,
    }
}

/// Bytes one process searching all of `states` allocates: each bit set is whole 64-bit
/// words; the BFS adds two occupancy summaries of a bit per 256 ranks (0.4% more).
pub fn memory(states: u128, max_move_cost: u32) -> u128 {
    let sets = states.div_ceil(64).saturating_mul(bits_per_state(max_move_cost) * 8);
    let summaries = if max_move_cost > 1 { 0 } else { summaries(states) };
    sets.saturating_add(summaries)
}

/// Bytes each of `processes` processes sharing a BFS of `states` allocates: its slice (the
/// first, the largest) at two bits a rank, its summaries, and the exchange's buffers.
pub fn memory_per_process(states: u128, processes: usize) -> u128 {
    if processes <= 1 {
        return memory(states, 1);
    }
    let slice = match u64::try_from(states) {
        Ok(states) => u128::from(Partition::new(states, processes).slice(0).end),
        Err(_) => states / processes as u128,
    };
    slice.saturating_mul(BITS_PER_STATE) / 8 + summaries(slice) + u128::from(exchange_bytes(None, processes))
}

/// The share of the machine's memory a search may take, in percent: the rest is left to
/// the system and to what no estimate counts (the allocator's slack, the puzzle's tables,
/// the stack).
pub const USABLE_PERCENT: u64 = 90;

/// What a search may take of `available` bytes: [`USABLE_PERCENT`] of it. Every memory
/// check of the crate and of the binary takes its bound from here.
pub fn usable(available: u64) -> u128 {
    u128::from(available) * u128::from(USABLE_PERCENT) / 100
}

/// The fewest processes, one a machine of `machine` bytes, whose shares of a BFS of
/// `states` each fit in 90% of it (as the memory guard asks); `None` if no number would do.
pub fn machines(states: u128, machine: u64) -> Option<usize> {
    let fits = |k: usize| memory_per_process(states, k) <= usable(machine);
    let mut k = 1;
    while !fits(k) {
        k = k.checked_mul(2).filter(|&k| k <= 1 << 24)?;
    }
    // The smallest k between k/2 (too few, unless k is 1) and k that fits.
    let (mut low, mut high) = (k / 2, k);
    while high - low > 1 {
        let mid = (low + high) / 2;
        if fits(mid) { high = mid } else { low = mid }
    }
    Some(high)
}

/// How many times the states reached the rank space must be for the sparse route to be
/// chosen when both fit: a state costs the sparse route 130-200 times what a rank costs the
/// dense one (pyraminx, skewb diamond, mastermorphix, both routes forced on a quiet machine:
/// see `docs/performance.md`), so at 24-32 times as many ranks as positions the dense route
/// is still 6 times faster.
pub const SPARSE_RATIO: u128 = 256;

/// Predecessors the sparse route generates, sorts and merges at once: 16 Mi keys.
pub const SPARSE_CHUNK_KEYS: usize = 1 << 24;

/// Bytes the sparse route holds beyond its levels: one chunk's sort buffer, of the largest
/// keys (`u128`): 256 MiB.
pub const SPARSE_CHUNK_BYTES: u128 = SPARSE_CHUNK_KEYS as u128 * 16;

/// Bytes the sparse route needs at most for `states` states of `key_bytes` bytes: every
/// level (a search keeps two, but which two are the largest is not known before), plus a
/// chunk's sort buffer.
pub fn sparse_memory(states: u128, key_bytes: u32) -> u128 {
    states
        .saturating_mul(u128::from(key_bytes))
        .saturating_add(SPARSE_CHUNK_BYTES)
}

/// The rule between the routes: the sparse route (packed states, sorted levels) when the
/// rank space cannot be ranked (`ranks` is `None`), when its bit planes would not fit in
/// 90% of `available`, or when it is [`SPARSE_RATIO`] times what the moves reach
/// (`reach`, a group order, where known) and the reached states' keys fit; the dense route
/// otherwise. Without `reach`, the rank space bounds it, and the ratio never decides.
pub fn sparse_route(ranks: Option<u128>, reach: Option<u128>, key_bytes: u32, available: Option<u64>) -> bool {
    let Some(ranks) = ranks else {
        return true;
    };
    let fits = |bytes: u128| available.is_none_or(|free| bytes <= usable(free));
    if !fits(memory(ranks, 1)) {
        return true;
    }
    reach.is_some_and(|reach| ranks >= reach.saturating_mul(SPARSE_RATIO) && fits(sparse_memory(reach, key_bytes)))
}

/// Bytes of the two occupancy summaries of `ranks` ranks.
fn summaries(ranks: u128) -> u128 {
    2 * ranks.div_ceil(SUMMARY_RANKS * 64) * 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_counts_planes_summaries_and_buffers() {
        // 2x7: 43,589,145,600 ranks at 2 bits, plus 0.4% of summaries.
        let states = 43_589_145_600u128;
        assert_eq!(
            memory(states, 1),
            states.div_ceil(64) * 16 + 2 * states.div_ceil(256 * 64) * 8
        );
        // Weighted nine tails 5x5 (largest cost 7): 9 bit sets, no summaries.
        assert_eq!(memory(1 << 25, 7), (1u128 << 25) / 64 * 9 * 8);
        assert_eq!(memory_per_process(states, 1), memory(states, 1));
        let two = memory_per_process(states, 2);
        assert!(two > memory(states, 1) / 2 && two < memory(states, 1) / 2 + 3 * u128::from(IN_FLIGHT_BYTES));
        assert_eq!(machines(states, 24 << 30), Some(1));
        assert_eq!(machines(653_837_184_000, 24 << 30), Some(8));
        assert_eq!(machines(u128::MAX, 24 << 30), None);
    }

    #[test]
    fn the_route_rule_falls_back_on_the_rank_space() {
        let gib = 1u64 << 30;
        // Cannot be ranked: sparse whatever the figures.
        assert!(sparse_route(None, None, 16, Some(gib)));
        // 235: 1.1 billion ranks (274 MiB of planes) fit; no group order: dense.
        assert!(!sparse_route(Some(1_146_617_856), None, 8, Some(20 * gib)));
        // With its group order (31,850,496, 36 times fewer): still dense, faster per rank.
        assert!(!sparse_route(Some(1_146_617_856), Some(31_850_496), 8, Some(20 * gib)));
        // 675 times fewer (tangram's first ranking: 21.5 billion ranks, 5 GiB of planes): sparse.
        assert!(sparse_route(Some(21_499_084_800), Some(31_850_496), 8, Some(20 * gib)));
        // Planes that do not fit: sparse.
        assert!(sparse_route(Some(1 << 40), None, 16, Some(20 * gib)));
        // A small reach ratio: dense.
        assert!(!sparse_route(Some(1000), Some(500), 8, None));
    }

    #[test]
    fn the_exchange_takes_an_eighth_of_the_memory_on_disk() {
        let mib = 1 << 20;
        // In memory, or with memory to spare: the full bound.
        assert_eq!(in_flight_bytes(None, 3), IN_FLIGHT_BYTES);
        assert_eq!(in_flight_bytes(Some(1 << 40), 3), IN_FLIGHT_BYTES);
        // 16 MiB over 3 processes: 2 MiB of ranks in flight in all, and the transport's
        // buffers for two connections.
        assert_eq!(exchange_bytes(Some(16 * mib), 3), 16 * mib / 8 / 3 * 3 + 8 * mib);
        // A tiny --memory still sends batches; alone, no exchange at all.
        assert_eq!(in_flight_bytes(Some(1024), 4), LEAST_IN_FLIGHT_BYTES);
        assert_eq!(exchange_bytes(Some(16 * mib), 1), 0);
    }
}
