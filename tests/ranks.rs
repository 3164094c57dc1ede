//! Ranks and notation: every rank of a small puzzle renders to text that parses back to
//! the same rank, and the ranks number exactly the configurations they should.

use crate::util::{SMALL_BOARDS, board_text, factorial, pack, textbook_solvable};
use analyze::puzzle::ParseError;
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::coins::Coins;
use analyze::puzzle::flip_k::FlipK;
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;

/// Checks every rank of the `rows x cols` board: text and board round trips, and that the
/// ranks are a bijection onto the arrangements the textbook rule calls solvable.
fn assert_sliding_ranks_round_trip(rows: usize, cols: usize) {
    let puzzle = Sliding::new(rows, cols).expect("a valid board");
    let cells = rows * cols;
    assert_eq!(puzzle.states(), factorial(cells as u64) / 2, "{rows}x{cols}");
    // Each board packed 4 bits a cell, to check afterwards that no two ranks share one.
    let mut packed = Vec::with_capacity(puzzle.states() as usize);
    for rank in 0..puzzle.states() {
        let board = puzzle.board(rank);
        let tiles = board.iter().fold(0u32, |set, &t| set | 1 << t);
        assert!(
            board.len() == cells && tiles == (1 << cells) - 1,
            "{rows}x{cols} rank {rank}: {board:?}"
        );
        assert!(
            textbook_solvable(&board, rows, cols),
            "{rows}x{cols} rank {rank} is unsolvable: {board:?}"
        );
        packed.push(pack(&board));
        let text = puzzle.render(rank);
        assert_eq!(text, board_text(&board), "{rows}x{cols} rank {rank}");
        assert_eq!(puzzle.parse(&text), Ok(rank), "{rows}x{cols} {text}");
        assert_eq!(puzzle.rank_board(&board), Ok(rank), "{rows}x{cols} {text}");
    }
    // Distinct boards for distinct ranks; with states() = cells!/2 ranks, all solvable,
    // that makes the ranks a bijection onto the solvable half.
    packed.sort_unstable();
    assert!(
        packed.windows(2).all(|w| w[0] != w[1]),
        "{rows}x{cols}: a board has two ranks"
    );
}

#[test]
fn sliding_ranks_round_trip_on_every_board_up_to_3x3() {
    for (rows, cols) in SMALL_BOARDS {
        assert_sliding_ranks_round_trip(rows, cols);
    }
}

#[test]
fn sliding_ranks_round_trip_on_2x5() {
    assert_sliding_ranks_round_trip(2, 5);
}

#[test]
fn eight_puzzle_goal_and_notation_match_the_assignment() {
    let eight = Sliding::eight();
    assert_eq!(eight.render(eight.goals()[0]), "1 2 3 4 5 6 7 8 0");
    // The assignment's sample file, blank written as 0; commas and line breaks are
    // accepted as separators too.
    let sample = eight
        .parse("0 1 3\n4 2 5\n7 8 6")
        .expect("the sample board is solvable");
    assert_eq!(eight.board(sample), [0, 1, 3, 4, 2, 5, 7, 8, 6]);
    assert_eq!(eight.parse("0,1,3,4,2,5,7,8,6"), Ok(sample));
}

#[test]
fn sliding_parse_tells_malformed_from_unsolvable() {
    let eight = Sliding::eight();
    for text in [
        "",
        "1 2 3",
        "1 2 3 4 5 6 7 8 9",
        "1 1 3 4 5 6 7 8 0",
        "1 2 3 4 5 6 7 8 x",
        "1 2 3 4 5 6 7 8 0 0",
    ] {
        assert!(matches!(eight.parse(text), Err(ParseError::Malformed(_))), "{text:?}");
    }
    assert!(matches!(
        eight.parse("2 1 3 4 5 6 7 8 0"),
        Err(ParseError::Unsolvable(_))
    ));
}

/// Checks every rank of a coin board: the book numbering (first coin most significant,
/// T = 1), and `parse(render(r)) == r` for the solvable ranks, `Unsolvable` for the rest.
fn assert_coin_ranks_round_trip(puzzle: &Coins) {
    let n = puzzle.coins();
    let classes = puzzle.classes();
    for rank in 0..puzzle.states() {
        let text = puzzle.render(rank);
        let expected: String = (0..n)
            .map(|i| if rank >> (n - 1 - i) & 1 == 1 { 'T' } else { 'H' })
            .collect();
        assert_eq!(text, expected, "{} rank {rank}", puzzle.id);
        let parsed = puzzle.parse(&text);
        if classes[puzzle.class_of(rank)].solvable {
            assert_eq!(parsed, Ok(rank), "{} {text}", puzzle.id);
            // The grid drawing reads back too (line breaks are whitespace).
            assert_eq!(puzzle.parse(&puzzle.draw(rank)), Ok(rank), "{} {text}", puzzle.id);
        } else {
            assert!(
                matches!(parsed, Err(ParseError::Unsolvable(_))),
                "{} {text}: {parsed:?}",
                puzzle.id
            );
        }
    }
}

#[test]
fn coin_ranks_round_trip_on_3x3_and_4x3_boards() {
    for puzzle in [
        lights_out(3, 3),
        lights_out(4, 3),
        nine_tails(3, 3),
        nine_tails(4, 3),
        coin_lines(3),
    ] {
        assert_coin_ranks_round_trip(&puzzle);
    }
}

#[test]
fn flip_k_ranks_are_tail_counts_that_round_trip() {
    for n in 1..=12u32 {
        for k in 1..=n {
            let puzzle = FlipK::new(n, k);
            assert_eq!(puzzle.states(), u64::from(n) + 1);
            let classes = puzzle.classes();
            for tails in 0..puzzle.states() {
                let text = puzzle.render(tails);
                assert_eq!(text.len() as u32, n);
                assert_eq!(text.chars().filter(|&c| c == 'T').count() as u64, tails, "{text}");
                let parsed = puzzle.parse(&text);
                if classes[puzzle.class_of(tails)].solvable {
                    assert_eq!(parsed, Ok(tails), "N={n} K={k} {text}");
                } else {
                    assert!(
                        matches!(parsed, Err(ParseError::Unsolvable(_))),
                        "N={n} K={k} {text}: {parsed:?}"
                    );
                }
            }
        }
    }
}
