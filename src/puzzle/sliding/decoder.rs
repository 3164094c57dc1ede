//! Consecutive ranks into boards packed 4 bits a cell: the interface a reader of whole
//! levels (the heuristic atlas) decodes states through, without knowing the ranking.
//!
//! A level is read word by word in rank order, so consecutive states mostly share their
//! block of pairs: every tile but the last [`TAIL`](super::tables::TAIL). The cursor keeps
//! the block of the last state (its head and the slice of its pairs' tails, read from
//! [`TailSequences`]) and decodes a state of the same block with a table look-up and a few
//! bit operations; a state of another block is the one branch taken by surprise, about once
//! a block. A word's first rank is split into pair and blank cell once, and each rank of
//! the word by table from its offset (`steps`).

use super::Sliding;
use super::rank::Unranked;
use super::tables::TailSequences;
use std::borrow::Cow;

/// Entries of [`BoardDecoder::steps`]: at least the most cells and a word's ranks.
const STEPS: usize = 128;

/// What decoding ranks of a board into packed boards reads, built once per board and
/// shared by every thread's [`BoardCursor`].
pub struct BoardDecoder<'a> {
    puzzle: &'a Sliding,
    /// `steps[j]` for a rank `j` ranks past a word's first rank counted from that rank's
    /// blank cell (`j < cells + 64`): how many pairs past the first rank's pair it is; and
    /// for its blank cell `j % cells`, all ones if that cell has the odd sequence of a pair
    /// (else 0), and the mask of the cells before it (they hold the sequence's first tiles,
    /// the rest move up a cell). A word's ranks are split into pair and blank once.
    steps: Box<[(u64, u64, u64); STEPS]>,
    /// The tails of the board's pairs, by what a block's head leaves them.
    tails: Cow<'a, TailSequences>,
}

impl<'a> BoardDecoder<'a> {
    /// The decoder of `puzzle`'s ranks; it borrows the puzzle's tail table where the
    /// puzzle keeps one (every board a search can hold) and builds it otherwise.
    pub fn new(puzzle: &'a Sliding) -> Self {
        let cells = puzzle.cells;
        BoardDecoder {
            puzzle,
            steps: Box::new(std::array::from_fn(|j| {
                let (pairs, cell) = (j / cells, j % cells);
                let odd = u64::from(puzzle.parity[cell]);
                (pairs as u64, odd.wrapping_neg(), (1u64 << (4 * cell)) - 1)
            })),
            tails: puzzle.tails(),
        }
    }

    /// The board of `rank` packed 4 bits a cell (cell `i` in bits `4i..4i+4`, 0 = blank), in
    /// the ranking's tiles (the user's, unless a custom goal relabels them): a single rank,
    /// decoded from scratch.
    pub fn packed_board(&self, rank: u64) -> u64 {
        self.puzzle.packed_board(&mut Unranked::default(), rank)
    }

    /// A cursor for one thread's reading of ranks in ascending order.
    pub fn cursor(&self) -> BoardCursor<'_> {
        BoardCursor {
            puzzle: self.puzzle,
            steps: &self.steps,
            all_tails: &self.tails,
            block_pairs: self.puzzle.block_pairs(),
            memo: Unranked::default(),
            first: 0,
            head: 0,
            head_odd: 0,
            tails: &[],
            base_pair: 0,
            base_blank: 0,
        }
    }
}

/// One thread's position in a reading of ranks: the word being read, and the block of
/// pairs of the last state decoded.
///
/// Contract: call [`BoardCursor::start_word`] with a word's first rank (a multiple of 64),
/// then [`BoardCursor::packed_board`] for offsets within that word; words and offsets may
/// come in any order (ascending is what makes it fast), and every answer equals
/// [`BoardDecoder::packed_board`] of the same rank.
pub struct BoardCursor<'d> {
    puzzle: &'d Sliding,
    steps: &'d [(u64, u64, u64); STEPS],
    all_tails: &'d TailSequences,
    /// Pairs per block.
    block_pairs: u64,
    memo: Unranked,
    /// The block of the last state: its first pair, head, head parity (all ones if odd)
    /// and tails.
    first: u64,
    head: u64,
    head_odd: u64,
    tails: &'d [[u64; 2]],
    /// The pair and blank cell of the word's first rank.
    base_pair: u64,
    base_blank: usize,
}

impl BoardCursor<'_> {
    /// Starts the word whose first rank is `base`.
    #[inline(always)]
    pub fn start_word(&mut self, base: u64) {
        (self.base_pair, self.base_blank) = self.puzzle.split(base);
    }

    /// The board of rank `base + offset` (`offset < 64`, `base` the word's first rank)
    /// packed 4 bits a cell, as [`BoardDecoder::packed_board`] gives it.
    #[inline(always)]
    pub fn packed_board(&mut self, offset: usize) -> u64 {
        let (pairs, odd, low) = self.steps[(self.base_blank + offset) % STEPS];
        let k = self.base_pair + pairs;
        let [tail, swap] = match self.tails.get(k.wrapping_sub(self.first) as usize) {
            Some(&t) => t,
            None => {
                let block = k / self.block_pairs;
                self.first = block * self.block_pairs;
                (self.head, self.head_odd, self.tails) = self.puzzle.block_head(&mut self.memo, block, self.all_tails);
                self.tails[(k - self.first) as usize]
            }
        };
        let seq = self.head | tail ^ (swap & (odd ^ self.head_odd));
        (seq & low) | ((seq & !low) << 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::SearchGraph;

    /// A board (cell by cell) packed 4 bits a cell.
    fn pack(board: &[u8]) -> u64 {
        board
            .iter()
            .enumerate()
            .fold(0, |p, (i, &t)| p | u64::from(t) << (4 * i))
    }

    /// The contract the atlas relies on, against the plain unranking: every rank of words
    /// read in steps (so that blocks change between words as well as within them) on every
    /// small board, and a spread of words of 3x4 and 4x4 (whose tails are gathered rather
    /// than kept in a table).
    #[test]
    fn cursor_gives_the_board_of_every_rank_of_the_words_it_reads() {
        for (rows, cols) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (2, 5),
            (5, 2),
            (3, 4),
            (4, 4),
        ] {
            let puzzle = Sliding::new(rows, cols).expect("a board the ranking supports");
            let decoder = BoardDecoder::new(&puzzle);
            let mut cursor = decoder.cursor();
            let states = puzzle.states();
            let words = states.div_ceil(64);
            let step = (words / 2_000).max(1);
            for w in (0..words).step_by(step as usize).chain([words - 1]) {
                let base = 64 * w;
                cursor.start_word(base);
                for offset in (0..64).filter(|&b| base + b < states) {
                    let rank = base + offset;
                    let expected = pack(&puzzle.board(rank));
                    assert_eq!(
                        cursor.packed_board(offset as usize),
                        expected,
                        "{rows}x{cols} rank {rank}"
                    );
                    if offset % 16 == 0 {
                        assert_eq!(decoder.packed_board(rank), expected, "{rows}x{cols} rank {rank} alone");
                    }
                }
            }
        }
    }
}
