//! The moves of a twist coordinate too large for a move table (the megaminx's 30 edges'
//! orientations, 2^29 values; its 20 corners', 3^19), worked out from the value's digits.
//!
//! A move on a set's twists carries each digit to another place and adds a twist to it
//! there: the value after it is a sum over the digits of a term that depends only on the
//! digit, where it stood and the move. So the value is cut into chunks of a few digits,
//! and a table gives, for each move, chunk and chunk's value, the sum of its digits'
//! terms: a handful of look-ups a move where unranking, moving and ranking the twists took
//! a loop over every piece. When the moves keep the twists' sum, the last piece's twist is
//! not a digit (it follows from the others'); it is found from the chunks' digit sums and
//! adds its own term.

use super::structure::{Component, Move};

/// Most values of a chunk: its tables' rows for every move stay within a few hundred KiB.
const CHUNK_MAX: u64 = 256;

/// A twist coordinate's moves by chunks of digits (see the module's note).
#[derive(Debug, Clone)]
pub struct TwistMoves {
    /// Orientations: the digits' base.
    base: u64,
    /// Values a chunk takes: `base` to the power of its digits.
    span: u64,
    /// Chunks of the value.
    chunks: usize,
    /// `table[(m * chunks + k) * span + c]`: what chunk `k` of value `c` adds after move `m`.
    table: Vec<u64>,
    /// `sums[k * span + c]`: the digit sum of chunk `k` of value `c`.
    sums: Vec<u32>,
    /// `last[m * base + t]`: what the last piece twisted `t` adds after move `m`, when the
    /// moves keep the twists' sum (`None`: every piece is a digit).
    last: Option<Vec<u64>>,
    /// The twists' sum the moves keep.
    sum: u64,
}

impl TwistMoves {
    /// The moves `moves` of the twists of `comp`, whose move `m` brings to its position `j`
    /// the piece at its position `local[m][j]`.
    pub fn new(comp: &Component, moves: &[Move], local: &[Vec<u8>]) -> Self {
        let base = u64::from(comp.orientations.max(2));
        let n = comp.len();
        let digits = n - usize::from(comp.fixed_sum);
        let mut per = 1;
        while base.pow(per as u32 + 1) <= CHUNK_MAX {
            per += 1;
        }
        let span = base.pow(per as u32);
        let chunks = digits.div_ceil(per).max(1);
        // term(m, i, t): what the piece at `i` twisted `t` adds after move `m`.
        let terms: Vec<Vec<u64>> = (0..moves.len())
            .map(|m| {
                let mut term = vec![0u64; n * base as usize];
                for (j, &i) in local[m].iter().enumerate().filter(|&(j, _)| j < digits) {
                    let added = u64::from(moves[m].twist[comp.positions[j]]);
                    for t in 0..base {
                        term[usize::from(i) * base as usize + t as usize] = (t + added) % base * base.pow(j as u32);
                    }
                }
                term
            })
            .collect();
        let mut table = vec![0u64; moves.len() * chunks * span as usize];
        let mut sums = vec![0u32; chunks * span as usize];
        for k in 0..chunks {
            for c in 0..span {
                let digit = |d: usize| c / base.pow(d as u32) % base;
                let within = (0..per).filter(|d| k * per + d < digits);
                sums[k * span as usize + c as usize] = within.clone().map(|d| digit(d) as u32).sum();
                for (m, term) in terms.iter().enumerate() {
                    let added = within
                        .clone()
                        .map(|d| term[(k * per + d) * base as usize + digit(d) as usize]);
                    table[(m * chunks + k) * span as usize + c as usize] = added.sum();
                }
            }
        }
        let last = comp.fixed_sum.then(|| {
            let at = (n - 1) * base as usize;
            terms
                .iter()
                .flat_map(|term| term[at..][..base as usize].to_vec())
                .collect()
        });
        Self {
            base,
            span,
            chunks,
            table,
            sums,
            last,
            sum: u64::from(comp.solved_sum),
        }
    }

    /// Adds to each `parts[m]` the value after move `m` from value `v`, times `stride`.
    #[inline]
    pub fn add_moved(&self, v: u64, stride: u64, parts: &mut [u64]) {
        let mut at = [0usize; 64];
        let (mut rest, mut total) = (v, 0u64);
        for (k, slot) in at.iter_mut().enumerate().take(self.chunks) {
            let c = (rest % self.span) as usize;
            rest /= self.span;
            *slot = k * self.span as usize + c;
            total += u64::from(self.sums[*slot]);
        }
        let width = self.chunks * self.span as usize;
        let last_twist = (self.sum + self.base * 256 - total % self.base) % self.base;
        for (m, part) in parts.iter_mut().enumerate() {
            let rows = &self.table[m * width..][..width];
            let mut after: u64 = at[..self.chunks].iter().map(|&i| rows[i]).sum();
            if let Some(last) = &self.last {
                after += last[m * self.base as usize + last_twist as usize];
            }
            *part += after * stride;
        }
    }
}
