//! What a search allocates, known before it starts: the engine's own memory model, so that
//! the command line can refuse a job that will not fit (naming the figure) before anything
//! is allocated, and say how many machines would do.

use super::exchange::Partition;

/// Bits the breadth-first search keeps per rank (two planes: unseen, this level, next
/// level, done).
pub const BITS_PER_STATE: u128 = 2;

/// Bytes of ranks one process may have sent that their owners have not yet taken (the
/// exchange blocks the sender beyond it); a process of N holds at most N times this in
/// exchange buffers: what it sent, and what each other process sent to it.
pub const IN_FLIGHT_BYTES: u64 = 8 << 20;

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
    slice.saturating_mul(BITS_PER_STATE) / 8 + summaries(slice) + u128::from(IN_FLIGHT_BYTES) * processes as u128
}

/// The fewest processes, one a machine of `machine` bytes, whose shares of a BFS of
/// `states` each fit in 90% of it (as the memory guard asks); `None` if no number would do.
pub fn machines(states: u128, machine: u64) -> Option<usize> {
    let fits = |k: usize| memory_per_process(states, k) <= u128::from(machine) * 9 / 10;
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
}
