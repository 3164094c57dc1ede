//! A set of distinct pieces ranked as two coordinates, so that a search by class has a
//! coordinate the symmetries keep: which *block* of pieces stands at each position (the
//! pattern), then the order of each block's pieces among the places its block holds.
//!
//! A search by class needs a highest coordinate whose image under a symmetry depends on
//! that coordinate alone ([`super::classes`]). A whole permutation of distinct pieces is
//! one, but past a table's size (the dino cube's 12 edges: 239,500,800 arrangements),
//! and a part of its pieces is not, since a symmetry relabels them. A partition of the
//! pieces that every symmetry carries onto itself (a block system of the symmetries'
//! action: the dino's edges in their 3 classes of 4 parallel edges) is kept: a symmetry
//! maps a block onto a block, so the pattern's image is the pattern's alone, and the
//! pattern is a multiset arrangement (34,650 for the dino), a small table.
//!
//! Parity: where every move is even on the set, the whole arrangement's parity is the
//! goal's. It is the parity of the pattern's arrangement (its blocks' pieces in ascending
//! order) plus each block's own order's, so the last block's order is ranked among those of
//! one parity ([`rank_half`]), and which one is read from the rest.

use super::rank::{FACT, multinomial, parity, unrank_distinct, unrank_half};

/// Pieces per block at most: a block's order is ranked as [`super::rank::rank_distinct`]
/// ranks, in 64 bits.
const MAX_BLOCK: usize = 20;

/// Pieces of the set at most, so blocks at most half as many.
const MAX_PIECES: usize = 64;
const MAX_BLOCKS: usize = MAX_PIECES / 2;

/// `CHOOSE[n][k]`: the binomial coefficient, for the patterns' combinatorial ranks.
static CHOOSE: [[u64; MAX_BLOCK + 1]; MAX_PIECES + 1] = choose_table();

const fn choose_table() -> [[u64; MAX_BLOCK + 1]; MAX_PIECES + 1] {
    let mut t = [[0u64; MAX_BLOCK + 1]; MAX_PIECES + 1];
    let mut n = 0;
    while n <= MAX_PIECES {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_BLOCK && k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

/// A block system of a set's distinct pieces (see the module's documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocks {
    /// Per piece code: its block.
    block: Vec<u8>,
    /// Per piece code: its place among its block's pieces (ascending codes).
    index: Vec<u8>,
    /// Per block: its pieces' codes, ascending.
    members: Vec<Vec<u8>>,
    /// Pieces per block, per block (all equal): the pattern's multiset counts.
    counts: Vec<usize>,
    /// Arrangements of the blocks.
    pub patterns: u64,
    /// Whether the arrangement's parity is fixed: the last block's order is ranked by half.
    half: bool,
}

impl Blocks {
    /// The coarsest block system of the permutations `actions` of `0..k` (each a symmetry
    /// acting on the pieces' codes) with at least two blocks of at least two pieces, of
    /// at most `most` patterns and at least `least`, if there is one: each minimal block
    /// holding the first piece and one other is tried (Atkinson's closure).
    pub fn find(actions: &[Vec<u8>], k: usize, half: bool, least: u64, most: u64) -> Option<Blocks> {
        if k > MAX_PIECES {
            return None;
        }
        (1..k)
            .filter_map(|j| minimal_block(actions, k, j))
            .filter_map(|block| Blocks::new(&block, half))
            .filter(|b| (least..=most).contains(&b.patterns))
            .min_by_key(|b| b.patterns)
    }

    /// The blocks of `block[code]`, if they are at least two of equal size between 2 and
    /// [`MAX_BLOCK`] pieces.
    fn new(block: &[u8], half: bool) -> Option<Blocks> {
        let count = usize::from(*block.iter().max()?) + 1;
        let mut members = vec![Vec::new(); count];
        let mut index = vec![0u8; block.len()];
        for (c, &b) in block.iter().enumerate() {
            index[c] = members[usize::from(b)].len() as u8;
            members[usize::from(b)].push(c as u8);
        }
        let size = members[0].len();
        if count < 2 || !(2..=MAX_BLOCK).contains(&size) || members.iter().any(|m| m.len() != size) {
            return None;
        }
        let counts = vec![size; count];
        Some(Blocks {
            patterns: multinomial(&counts)?,
            block: block.to_vec(),
            index,
            members,
            counts,
            half,
        })
    }

    /// Values of the second coordinate: each block's order (the last one's of one parity
    /// when the parity is fixed).
    pub fn orders(&self) -> u64 {
        let each = FACT[self.counts[0]];
        let all = each.pow(self.counts.len() as u32);
        if self.half { all / 2 } else { all }
    }

    /// The pattern of an arrangement of codes.
    pub fn pattern_rank(&self, code: &[u8]) -> u64 {
        self.rank_blocks(code.iter().map(|&c| self.block[usize::from(c)]))
    }

    /// The rank of a pattern given as blocks at each place.
    pub fn rank_pattern(&self, labels: &[u8]) -> u64 {
        self.rank_blocks(labels.iter().copied())
    }

    /// A pattern's rank: block by block, the combination of the places it holds among those
    /// the blocks before it leave (the combinatorial number system), the first block the
    /// most significant. A pass over the places, with no division (a search ranks a
    /// pattern for every neighbour).
    fn rank_blocks(&self, labels: impl Iterator<Item = u8>) -> u64 {
        let (n, size) = (self.counts.len(), self.counts[0]);
        // Per block: the places so far of this block or a later one, and of this one.
        let (mut open, mut held, mut part) = ([0usize; MAX_BLOCKS], [0usize; MAX_BLOCKS], [0u64; MAX_BLOCKS]);
        for l in labels {
            let l = usize::from(l);
            held[l] += 1;
            part[l] += CHOOSE[open[l]][held[l]];
            for o in &mut open[..=l] {
                *o += 1;
            }
        }
        let places = n * size;
        (0..n - 1).fold(0, |v, b| v * CHOOSE[places - b * size][size] + part[b])
    }

    /// The blocks at each place of pattern `v`, into `out`.
    pub fn unrank_pattern(&self, mut v: u64, out: &mut [u8]) {
        let (n, size) = (self.counts.len(), self.counts[0]);
        let places = n * size;
        let mut digits = [0u64; MAX_BLOCKS];
        for b in (0..n - 1).rev() {
            let radix = CHOOSE[places - b * size][size];
            digits[b] = v % radix;
            v /= radix;
        }
        // The places not yet given a block, in order.
        let mut open: Vec<usize> = (0..places).collect();
        for (b, &digit) in digits.iter().enumerate().take(n) {
            let mut d = digit;
            let mut chosen = [false; MAX_PIECES];
            let mut c = open.len();
            for i in (1..=size).rev() {
                // The largest index whose count of combinations is at most what is left.
                c -= 1;
                while CHOOSE[c][i] > d {
                    c -= 1;
                }
                d -= CHOOSE[c][i];
                chosen[c] = true;
            }
            for (j, &place) in open.iter().enumerate() {
                if chosen[j] {
                    out[place] = b as u8;
                }
            }
            let mut j = 0;
            open.retain(|_| {
                j += 1;
                !chosen[j - 1]
            });
        }
    }

    /// The orders of an arrangement of codes: each block's pieces, in the order of the
    /// places they stand at, ranked; the first block the most significant.
    pub fn order_rank(&self, code: &[u8]) -> u64 {
        let (n, size) = (self.counts.len(), self.counts[0]);
        // Per block, its Lehmer code as it comes: each piece's earlier smaller pieces.
        let (mut seen, mut filled, mut rank) = ([0u32; MAX_BLOCKS], [0usize; MAX_BLOCKS], [0u64; MAX_BLOCKS]);
        for &c in code {
            let (b, i) = (usize::from(self.block[usize::from(c)]), self.index[usize::from(c)]);
            rank[b] += u64::from((seen[b] & ((1 << i) - 1)).count_ones()) * FACT[filled[b]];
            seen[b] |= 1 << i;
            filled[b] += 1;
        }
        (0..n).fold(0, |v, b| match self.half && b == n - 1 {
            // The order among those of one parity: the first two pieces' order dropped.
            true => v * (FACT[size] / 2) + (rank[b] >> 1),
            false => v * FACT[size] + rank[b],
        })
    }

    /// The arrangement of codes of pattern `pattern` and orders `orders`, into `out`; of
    /// parity `wanted` when the parity is fixed.
    pub fn unrank(&self, pattern: u64, mut orders: u64, wanted: u8, out: &mut [u8]) {
        let (n, size) = (self.counts.len(), self.counts[0]);
        let mut seqs = [[0u8; MAX_BLOCK]; MAX_BLOCKS];
        let mut digits = [0u64; MAX_BLOCKS];
        for b in (0..n).rev() {
            let radix = if self.half && b == n - 1 {
                FACT[size] / 2
            } else {
                FACT[size]
            };
            digits[b] = orders % radix;
            orders /= radix;
        }
        for b in 0..n {
            match self.half && b == n - 1 {
                true => unrank_half(digits[b], 0, &mut seqs[b][..size]),
                false => unrank_distinct(digits[b], &mut seqs[b][..size]),
            }
        }
        self.write(pattern, &seqs, out);
        if self.half && parity(out) != wanted {
            unrank_half(digits[n - 1], 1, &mut seqs[n - 1][..size]);
            self.write(pattern, &seqs, out);
        }
    }

    /// Codes from a pattern and each block's order.
    fn write(&self, pattern: u64, seqs: &[[u8; MAX_BLOCK]; MAX_BLOCKS], out: &mut [u8]) {
        self.unrank_pattern(pattern, out);
        let mut filled = [0usize; MAX_BLOCKS];
        for slot in out.iter_mut() {
            let b = usize::from(*slot);
            *slot = self.members[b][usize::from(seqs[b][filled[b]])];
            filled[b] += 1;
        }
    }
}

/// The least block of the actions' block system holding codes 0 and `j`: the classes of
/// the least equivalence holding that pair and carried onto itself by every action.
fn minimal_block(actions: &[Vec<u8>], k: usize, j: usize) -> Option<Vec<u8>> {
    let mut parent: Vec<usize> = (0..k).collect();
    fn root(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    let mut pending = vec![(0usize, j)];
    parent[j] = 0;
    while let Some((a, b)) = pending.pop() {
        for act in actions {
            let (x, y) = (usize::from(*act.get(a)?), usize::from(*act.get(b)?));
            let (rx, ry) = (root(&mut parent, x), root(&mut parent, y));
            if rx != ry {
                parent[ry] = rx;
                pending.push((x, y));
            }
        }
    }
    // Classes numbered in the order of their least code.
    let mut number = vec![u8::MAX; k];
    let mut next = 0u8;
    (0..k)
        .map(|c| {
            let r = root(&mut parent, c);
            if number[r] == u8::MAX {
                number[r] = next;
                next += 1;
            }
            Some(number[r])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 12 pieces in three blocks of four, as the dino's edges in their classes of four
    /// parallel edges.
    fn blocks(half: bool) -> Blocks {
        let b = Blocks::new(&[0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], half).expect("three blocks of four");
        assert_eq!(b.patterns, 34_650);
        b
    }

    #[test]
    fn every_arrangement_is_ranked_once_and_read_back() {
        for half in [false, true] {
            let b = blocks(half);
            let orders = b.orders();
            assert_eq!(orders, if half { 6_912 } else { 13_824 });
            let mut out = [0u8; 12];
            for p in (0..b.patterns).step_by(97) {
                for o in (0..orders).step_by(13) {
                    b.unrank(p, o, 0, &mut out);
                    assert_eq!((b.pattern_rank(&out), b.order_rank(&out)), (p, o));
                    if half {
                        assert_eq!(parity(&out), 0);
                    }
                }
            }
        }
    }

    #[test]
    fn a_partition_the_actions_carry_onto_itself_is_found() {
        // Two cycles of three on six points, swapped by a second action: the blocks are
        // the cycles (or pairs across them), never a partition the swap breaks.
        let rotate = vec![1, 2, 0, 4, 5, 3];
        let swap = vec![3, 4, 5, 0, 1, 2];
        let found = Blocks::find(&[rotate, swap], 6, false, 1, u64::MAX).expect("the cycles");
        assert_eq!(found.block, vec![0, 0, 0, 1, 1, 1]);
        // Cyclic on six: {0, 2, 4} and {1, 3, 5}, or the three opposite pairs.
        let cycle = vec![1, 2, 3, 4, 5, 0];
        let found = Blocks::find(std::slice::from_ref(&cycle), 6, false, 1, u64::MAX).expect("odd and even places");
        assert_eq!(found.block, vec![0, 1, 0, 1, 0, 1]);
        // A transposition with a cycle makes the whole symmetric group: no blocks.
        let transposition = vec![1, 0, 2, 3, 4, 5];
        assert_eq!(Blocks::find(&[cycle, transposition], 6, false, 1, u64::MAX), None);
    }
}
