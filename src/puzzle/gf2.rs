//! Linear algebra over GF(2) on bit vectors of up to 64 coordinates.
//!
//! For a puzzle whose moves XOR fixed masks, the configurations reachable from a goal lie
//! in the goal's coset of the span of the moves. The coset of a vector is named by its
//! syndrome: the vector reduced by the row-echelon basis, read on the non-pivot
//! coordinates. There are `2^(n - rank)` syndromes, one per class.

/// The span of a set of vectors in GF(2)^n, with a table for fast syndromes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    n: u32,
    /// Basis vectors, each with a distinct highest bit (its pivot), no pivot bit shared.
    basis: Vec<u64>,
    /// Coordinates that are not pivots, ascending: syndrome bit `j` is coordinate `free[j]`.
    free: Vec<u32>,
    /// `table[byte][v]`: syndrome contribution of byte `byte` of a vector having value `v`.
    table: Vec<[u64; 256]>,
}

impl Span {
    /// The span of `vectors`, all within the low `n <= 64` bits.
    pub fn new(n: u32, vectors: impl IntoIterator<Item = u64>) -> Self {
        let mut basis: Vec<u64> = Vec::new();
        for v in vectors {
            let v = reduce(&basis, v);
            if v != 0 {
                // Keep the basis fully reduced: clear the new pivot from the others.
                let pivot = 63 - v.leading_zeros();
                for b in &mut basis {
                    if *b >> pivot & 1 == 1 {
                        *b ^= v;
                    }
                }
                basis.push(v);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        let pivots: u64 = basis
            .iter()
            .map(|b| 1u64 << (63 - b.leading_zeros()))
            .fold(0, |a, p| a | p);
        let free: Vec<u32> = (0..n).filter(|&i| pivots >> i & 1 == 0).collect();
        let mut span = Self {
            n,
            basis,
            free,
            table: Vec::new(),
        };
        span.table = (0..n.div_ceil(8))
            .map(|byte| {
                let mut row = [0u64; 256];
                for (v, slot) in row.iter_mut().enumerate() {
                    *slot = span.slow_syndrome((v as u64) << (8 * byte));
                }
                row
            })
            .collect();
        span
    }

    /// Dimension of the span.
    pub fn rank(&self) -> u32 {
        self.basis.len() as u32
    }

    /// Number of coordinates.
    pub fn dimension(&self) -> u32 {
        self.n
    }

    /// Number of cosets, `2^(n - rank)`.
    pub fn cosets(&self) -> u64 {
        1 << (self.n - self.rank())
    }

    /// Whether `v` is in the span.
    pub fn contains(&self, v: u64) -> bool {
        reduce(&self.basis, v) == 0
    }

    fn slow_syndrome(&self, v: u64) -> u64 {
        let r = reduce(&self.basis, v);
        self.free
            .iter()
            .enumerate()
            .fold(0, |s, (j, &i)| s | ((r >> i & 1) << j))
    }

    /// The coset index of `v`, in `0..cosets()`; linear, so it is a few table look-ups.
    #[inline]
    pub fn syndrome(&self, v: u64) -> u64 {
        self.table
            .iter()
            .enumerate()
            .fold(0, |s, (byte, row)| s ^ row[(v >> (8 * byte) & 0xFF) as usize])
    }

    /// The vector of coset `s` that is zero on every pivot coordinate.
    pub fn representative(&self, s: u64) -> u64 {
        self.free
            .iter()
            .enumerate()
            .fold(0, |v, (j, &i)| v | ((s >> j & 1) << i))
    }
}

/// The inverse of the square matrix whose column `j` is `columns[j]` (bit `i` of a column:
/// its row `i`), as `out[i]`: the set of columns (bit `j`: column `j`) that sum to the unit
/// vector of row `i`; `None` where the columns are dependent. Gauss-Jordan on each column
/// paired with its own index, so the combinations come out of the same elimination.
pub fn inverse(columns: &[u64]) -> Option<Vec<u64>> {
    let n = columns.len();
    let mut rows: Vec<(u64, u64)> = columns.iter().zip(0..).map(|(&v, j)| (v, 1u64 << j)).collect();
    for bit in 0..n {
        let pivot = (bit..n).find(|&r| rows[r].0 >> bit & 1 == 1)?;
        rows.swap(bit, pivot);
        let (v, c) = rows[bit];
        for (r, row) in rows.iter_mut().enumerate() {
            if r != bit && row.0 >> bit & 1 == 1 {
                *row = (row.0 ^ v, row.1 ^ c);
            }
        }
    }
    Some(rows.into_iter().map(|(_, c)| c).collect())
}

/// `v` with every basis pivot cleared (the basis is sorted by descending pivot).
fn reduce(basis: &[u64], mut v: u64) -> u64 {
    for &b in basis {
        let pivot = 63 - b.leading_zeros();
        if v >> pivot & 1 == 1 {
            v ^= b;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_of_identity_is_full() {
        let span = Span::new(5, (0..5).map(|i| 1 << i));
        assert_eq!(span.rank(), 5);
        assert_eq!(span.cosets(), 1);
    }

    /// The combinations of the inverse sum to the unit vectors; dependent columns have none.
    #[test]
    fn inverse_combines_columns_into_unit_vectors() {
        let columns = [0b011u64, 0b110, 0b111];
        let inverse = inverse(&columns).expect("independent");
        for (i, &combination) in inverse.iter().enumerate() {
            let sum = (0..3)
                .filter(|j| combination >> j & 1 == 1)
                .fold(0, |s, j| s ^ columns[j]);
            assert_eq!(sum, 1 << i);
        }
        assert_eq!(super::inverse(&[0b011, 0b110, 0b101]), None);
    }

    #[test]
    fn syndrome_is_constant_on_cosets_and_separates_them() {
        let moves = [0b0011u64, 0b0110, 0b0101];
        let span = Span::new(4, moves);
        assert_eq!(span.rank(), 2);
        for v in 0..16u64 {
            for &m in &moves {
                assert_eq!(span.syndrome(v), span.syndrome(v ^ m));
            }
            let rep = span.representative(span.syndrome(v));
            assert!(span.contains(v ^ rep));
        }
        let distinct: std::collections::BTreeSet<_> = (0..16).map(|v| span.syndrome(v)).collect();
        assert_eq!(distinct.len() as u64, span.cosets());
    }
}
