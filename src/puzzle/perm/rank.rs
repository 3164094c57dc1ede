//! Ranking one component's pieces or twists as a coordinate `0..size`.
//!
//! A permutation of distinct pieces is ranked by a Lehmer code read from the *front*:
//! digit `i` counts the earlier positions holding a smaller piece (radix `i + 1`, weight
//! `i!`). So a move that only touches the first `k` positions changes the rank modulo
//! `k!` only (the digits past `k` depend on the set of pieces before them, which it keeps):
//! a prefix reversal of pancakes acts on a small table. Digit 1 (radix 2, weight 1) is the
//! lowest, and the permutation's parity fixes it once the others are known, so the ranks of
//! one parity are `full >> 1`.

/// `FACT[n] = n!` for every `n` whose factorial fits.
pub const FACT: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut i = 1;
    while i < 21 {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

/// Most distinct pieces in one ranked permutation: `20!` is the largest factorial below 2^63.
pub const MAX_DISTINCT: usize = 20;

/// Rank of `code`, a permutation of `0..code.len()` (at most [`MAX_DISTINCT`] long).
#[inline]
pub fn rank_distinct(code: &[u8]) -> u64 {
    let mut seen = 0u64;
    let mut rank = 0;
    for (i, &c) in code.iter().enumerate() {
        rank += u64::from((seen & ((1u64 << c) - 1)).count_ones()) * FACT[i];
        seen |= 1 << c;
    }
    rank
}

/// The permutation of `0..out.len()` ranked `rank` by [`rank_distinct`].
pub fn unrank_distinct(mut rank: u64, out: &mut [u8]) {
    let k = out.len();
    let mut digits = [0u8; MAX_DISTINCT];
    for (i, d) in digits.iter_mut().enumerate().take(k).skip(1) {
        *d = (rank % (i as u64 + 1)) as u8;
        rank /= i as u64 + 1;
    }
    // From the back: position i holds the digit-th smallest piece not placed after it.
    let mut free: u64 = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    for i in (0..k).rev() {
        let mut bits = free;
        for _ in 0..digits[i] {
            bits &= bits - 1;
        }
        let c = bits.trailing_zeros() as u8;
        out[i] = c;
        free &= !(1u64 << c);
    }
}

/// Parity (0 even, 1 odd) of a permutation of `0..code.len()`.
pub fn parity(code: &[u8]) -> u8 {
    let mut seen = 0u64;
    let mut inversions = 0u32;
    for &c in code {
        // Earlier pieces that are larger.
        inversions += (seen >> c).count_ones();
        seen |= 1 << c;
    }
    (inversions & 1) as u8
}

/// Rank among the permutations of parity `parity` (`0..k!/2`), for `k >= 2`.
pub fn rank_half(code: &[u8]) -> u64 {
    rank_distinct(code) >> 1
}

/// The permutation of parity `parity` ranked `rank` by [`rank_half`].
pub fn unrank_half(rank: u64, parity_wanted: u8, out: &mut [u8]) {
    unrank_distinct(rank << 1, out);
    if parity(out) != parity_wanted {
        unrank_distinct((rank << 1) | 1, out);
    }
}

/// How many arrangements of a multiset with these counts, if it fits in a `u64`.
pub fn multinomial(counts: &[usize]) -> Option<u64> {
    u64::try_from(multinomial_wide(counts)?).ok()
}

/// [`multinomial`] in 128 bits, for counting (24 distinct pieces make 24!, past 64 bits):
/// `None` past 128 bits or where a step of the product would overflow.
pub fn multinomial_wide(counts: &[usize]) -> Option<u128> {
    let mut total: u128 = 1;
    let mut n: u128 = 0;
    for &c in counts {
        for i in 1..=c as u128 {
            n += 1;
            // total * n / i, exact at each step (a binomial times a multinomial), without
            // overflowing before the division where it can be avoided.
            let g = gcd(n, i);
            total = (total / (i / g)).checked_mul(n / g)?;
        }
    }
    Some(total)
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Most kinds of piece [`rank_multiset`] ranks without allocating.
const SMALL_ALPHABET: usize = 32;

/// Rank of `code` among the arrangements of its multiset (`counts[s]` copies of `s`),
/// lexicographic; `total` is their number.
pub fn rank_multiset(code: &[u8], counts: &[usize], total: u64) -> u64 {
    // The common case in 64 bits and on the stack: a heuristic search ranks every node,
    // and 128-bit divisions and an allocation a rank took most of its time.
    let widest = counts.iter().copied().max().unwrap_or(0) as u64;
    if counts.len() <= SMALL_ALPHABET && total.checked_mul(widest).is_some() {
        let mut left = [0u64; SMALL_ALPHABET];
        for (l, &c) in left.iter_mut().zip(counts) {
            *l = c as u64;
        }
        let (mut total, mut n, mut rank) = (total, code.len() as u64, 0u64);
        for &c in code {
            let c = usize::from(c);
            for &l in &left[..c] {
                rank += total * l / n;
            }
            total = total * left[c] / n;
            left[c] -= 1;
            n -= 1;
        }
        return rank;
    }
    let mut left: Vec<usize> = counts.to_vec();
    let mut total = u128::from(total);
    let mut n = code.len() as u128;
    let mut rank: u128 = 0;
    for &c in code {
        let c = usize::from(c);
        for &l in &left[..c] {
            rank += total * l as u128 / n;
        }
        total = total * left[c] as u128 / n;
        left[c] -= 1;
        n -= 1;
    }
    rank as u64
}

/// Most pieces told apart by [`PartialRank`]: its table doubles with each.
const PARTIAL_MAX_TOLD: u32 = 8;

/// Most entries of a [`PartialRank`] table (256 KiB of `u32`); the 3x3x3's six edges of
/// twelve take 5,376.
const PARTIAL_MAX_ENTRIES: usize = 1 << 16;

/// [`rank_multiset`] of a multiset with one repeated piece and the others distinct (some
/// pieces told apart, the rest made alike: a pattern database's edges 1-6 of 12), by one
/// table look-up and an add a position.
///
/// The lexicographic rank is a sum over positions of what the arrangements beginning with a
/// smaller piece there number, and that depends only on the position, the piece and which
/// pieces told apart are already placed (how many alike ones are left follows). So the
/// table holds that term for every (position, piece, placed set), and a rank is as
/// [`rank_multiset`] gives it, the same order, where the general loop spent a division per
/// smaller piece a position: it was a quarter of a heuristic search's time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialRank {
    /// Pieces in all (each code below this).
    codes: usize,
    /// Bits of the placed set: the pieces told apart.
    told: u32,
    /// `bit[code]`: the code's bit in the placed set (0 for the repeated piece).
    bit: Vec<usize>,
    /// `table[((i * codes + code) << told) | placed]`.
    table: Vec<u32>,
}

impl PartialRank {
    /// The table for arrangements of `counts` (`counts[code]` copies of each), if exactly
    /// one code repeats, its table is small and every rank fits in 32 bits.
    pub fn new(counts: &[usize]) -> Option<Self> {
        let repeated: Vec<usize> = (0..counts.len()).filter(|&c| counts[c] > 1).collect();
        let &[alike] = repeated.as_slice() else { return None };
        let told = u32::try_from(counts.len() - 1)
            .ok()
            .filter(|&t| t <= PARTIAL_MAX_TOLD)?;
        let n: usize = counts.iter().sum();
        let codes = counts.len();
        let entries = (n * codes) << told;
        if entries > PARTIAL_MAX_ENTRIES || multinomial(counts).is_none_or(|t| t > u64::from(u32::MAX)) {
            return None;
        }
        let bit: Vec<usize> = (0..codes)
            .map(|c| match c.cmp(&alike) {
                std::cmp::Ordering::Less => 1 << c,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => 1 << (c - 1),
            })
            .collect();
        let mut table = vec![0u32; entries];
        for placed in 0..1usize << told {
            let used = placed.count_ones() as usize;
            // Positions where this set can have been placed: `used` told apart and at most
            // all the alike ones before.
            for i in used..=(used + counts[alike]).min(n - 1) {
                let mut left = counts.to_vec();
                (0..codes).filter(|&c| bit[c] & placed != 0).for_each(|c| left[c] = 0);
                left[alike] -= i - used;
                // The arrangements of what is left that begin with `s`, for each `s`.
                let first = |s: usize| {
                    let mut rest = left.clone();
                    rest[s] -= 1;
                    multinomial(&rest).unwrap_or(0)
                };
                let mut before = 0u64;
                for c in 0..codes {
                    table[((i * codes + c) << told) | placed] = before as u32;
                    if left[c] > 0 {
                        before += first(c);
                    }
                }
            }
        }
        Some(Self {
            codes,
            told,
            bit,
            table,
        })
    }

    /// The rank of `code` (an arrangement of the counts the table was made for), as
    /// [`rank_multiset`] gives it.
    #[inline]
    pub fn rank(&self, code: &[u8]) -> u64 {
        let mut placed = 0;
        let mut rank = 0u64;
        for (i, &c) in code.iter().enumerate() {
            let c = usize::from(c);
            rank += u64::from(self.table[((i * self.codes + c) << self.told) | placed]);
            placed |= self.bit[c];
        }
        rank
    }
}

/// The arrangement ranked `rank` by [`rank_multiset`].
pub fn unrank_multiset(rank: u64, counts: &[usize], total: u64, out: &mut [u8]) {
    let mut left: Vec<usize> = counts.to_vec();
    let mut total = u128::from(total);
    let mut rank = u128::from(rank);
    let mut n = out.len() as u128;
    for slot in out.iter_mut() {
        for (s, l) in left.iter_mut().enumerate() {
            if *l == 0 {
                continue;
            }
            let block = total * *l as u128 / n;
            if rank < block {
                *slot = s as u8;
                total = block;
                *l -= 1;
                break;
            }
            rank -= block;
        }
        n -= 1;
    }
}

/// Rank of twists `t` (each below `o`): base-`o` digits, the first least significant; with
/// `fixed_sum`, the last twist follows from the others and is left out.
pub fn rank_twists(t: &[u8], o: u8, fixed_sum: bool) -> u64 {
    let n = if fixed_sum { t.len() - 1 } else { t.len() };
    t[..n].iter().rev().fold(0, |r, &v| r * u64::from(o) + u64::from(v))
}

/// The twists ranked `rank` by [`rank_twists`]; with `fixed_sum` the last one makes the sum
/// `sum` modulo `o`.
pub fn unrank_twists(mut rank: u64, o: u8, fixed_sum: Option<u8>, out: &mut [u8]) {
    let n = out.len() - usize::from(fixed_sum.is_some());
    let mut total = 0u32;
    for slot in &mut out[..n] {
        *slot = (rank % u64::from(o)) as u8;
        total += u32::from(*slot);
        rank /= u64::from(o);
    }
    if let Some(sum) = fixed_sum {
        let o32 = u32::from(o);
        out[n] = ((u32::from(sum) + o32 * 256 - total % o32) % o32) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multinomials_are_exact_up_to_128_bits() {
        let factorial = |n: u128| (1..=n).product::<u128>();
        // 24 distinct pieces (the Mathieu group's definition): 24!, past 64 bits.
        assert_eq!(multinomial_wide(&[1; 24]), Some(factorial(24)));
        assert_eq!(multinomial(&[1; 24]), None);
        assert_eq!(multinomial(&[1; 20]), Some(factorial(20) as u64));
        // 34! is the last factorial below 2^128.
        assert_eq!(multinomial_wide(&[1; 34]), Some(factorial(34)));
        assert_eq!(multinomial_wide(&[1; 35]), None);
        // 30!/(10! 10! 10!), checked against the product of binomials C(30,10) C(20,10).
        assert_eq!(multinomial_wide(&[10, 10, 10]), Some(30_045_015 * 184_756));
        assert_eq!(multinomial_wide(&[3, 1, 2]), Some(60));
    }

    #[test]
    fn distinct_ranks_are_a_bijection_and_prefix_moves_stay_below_k_factorial() {
        let mut out = [0u8; 6];
        for r in 0..FACT[6] {
            unrank_distinct(r, &mut out);
            assert_eq!(rank_distinct(&out), r);
            // Reversing the first 4 changes the rank modulo 4! only.
            let mut flipped = out;
            flipped[..4].reverse();
            let f = rank_distinct(&flipped);
            assert_eq!(f / FACT[4], r / FACT[4]);
        }
    }

    #[test]
    fn half_ranks_cover_one_parity() {
        let mut out = [0u8; 5];
        for p in 0..2 {
            for r in 0..FACT[5] / 2 {
                unrank_half(r, p, &mut out);
                assert_eq!(parity(&out), p);
                assert_eq!(rank_half(&out), r);
            }
        }
    }

    #[test]
    fn multiset_ranks_are_a_bijection() {
        let counts = [2, 1, 3];
        let total = multinomial(&counts).unwrap_or(0);
        assert_eq!(total, 60);
        let mut out = [0u8; 6];
        for r in 0..total {
            unrank_multiset(r, &counts, total, &mut out);
            assert_eq!(rank_multiset(&out, &counts, total), r);
        }
    }

    /// Checks [`PartialRank`] against [`rank_multiset`] on the arrangements of `counts`
    /// unranked from `ranks`.
    fn partial_agrees(counts: &[usize], ranks: impl Iterator<Item = u64>) {
        let total = multinomial(counts).unwrap_or(0);
        let partial = PartialRank::new(counts).unwrap_or_else(|| panic!("{counts:?} has a table"));
        let mut out = vec![0u8; counts.iter().sum()];
        for r in ranks {
            unrank_multiset(r, counts, total, &mut out);
            assert_eq!(rank_multiset(&out, counts, total), r, "{counts:?} {out:?}");
            assert_eq!(partial.rank(&out), r, "{counts:?} {out:?}");
        }
    }

    #[test]
    fn partial_ranks_are_the_multiset_ranks_of_six_edges_of_twelve() {
        // The 3x3x3's edge pattern databases: every one of the 665,280 arrangements.
        let counts = [1, 1, 1, 1, 1, 1, 6];
        partial_agrees(&counts, 0..multinomial(&counts).unwrap_or(0));
    }

    #[test]
    fn partial_ranks_hold_wherever_the_repeated_piece_sorts() {
        for counts in [
            &[3, 1, 1][..],
            &[1, 4, 1, 1],
            &[1, 1, 2],
            &[2, 1, 1, 1, 1, 1],
            &[1, 1, 1, 1, 1, 1, 1, 1, 2],
        ] {
            partial_agrees(counts, 0..multinomial(counts).unwrap_or(0));
        }
        // Seven and eight of twelve, every 997th and 9,973rd arrangement.
        for (counts, step) in [
            (&[1, 1, 1, 1, 1, 1, 1, 5][..], 997),
            (&[5, 1, 1, 1, 1, 1, 1, 1, 1], 9_973),
        ] {
            let total = multinomial(counts).unwrap_or(0);
            partial_agrees(counts, (0..total).step_by(step).chain([total - 1]));
        }
    }

    #[test]
    fn partial_ranks_are_only_for_one_repeated_piece() {
        assert_eq!(PartialRank::new(&[1, 1, 1]), None);
        assert_eq!(PartialRank::new(&[2, 2, 1]), None);
        assert_eq!(
            PartialRank::new(&[1; 9].iter().copied().chain([3]).collect::<Vec<_>>()),
            None
        );
        assert!(PartialRank::new(&[1, 1, 1, 1, 1, 1, 6]).is_some());
    }

    #[test]
    fn twist_ranks_keep_the_sum() {
        let mut out = [0u8; 4];
        for r in 0..27 {
            unrank_twists(r, 3, Some(1), &mut out);
            assert_eq!(out.iter().map(|&v| u32::from(v)).sum::<u32>() % 3, 1);
            assert_eq!(rank_twists(&out, 3, true), r);
        }
    }
}
