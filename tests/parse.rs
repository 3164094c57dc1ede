//! User input on arbitrary values. `Puzzle::parse` never panics, and whatever it accepts
//! is a valid rank that renders back to text it reads as the same rank; the command line's
//! validation never panics on any size either.

use crate::util::{CoinVector, coin_distances, ref_coin_lines, textbook_solvable};
use analyze::cli::{Cli, Command};
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::coins::Coins;
use analyze::puzzle::flip_k::{FlipK, flip_k_brute};
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use clap::Parser;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::LazyLock;

/// What must hold for any text: no panic (proptest reports one as a failure), and an
/// accepted text is a rank of a solvable class whose rendering parses back to it.
fn check<P: Puzzle>(puzzle: &P, text: &str) -> Result<(), TestCaseError> {
    if let Ok(rank) = puzzle.parse(text) {
        prop_assert!(rank < puzzle.states(), "{}: {text:?} gave rank {rank}", puzzle.id());
        prop_assert_eq!(
            puzzle.parse(&puzzle.render(rank)),
            Ok(rank),
            "{}: {:?}",
            puzzle.id(),
            text
        );
        prop_assert!(
            puzzle.classes()[puzzle.class_of(rank)].solvable,
            "{}: {text:?}",
            puzzle.id()
        );
    }
    Ok(())
}

/// Sliding boards must also keep the tiles as written.
fn check_sliding(puzzle: &Sliding, text: &str) -> Result<(), TestCaseError> {
    check(puzzle, text)?;
    if let Ok(rank) = puzzle.parse(text) {
        let written: Vec<u64> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("an accepted token is a number"))
            .collect();
        let board: Vec<u64> = puzzle.board(rank).into_iter().map(u64::from).collect();
        prop_assert_eq!(written, board, "{}", text);
    }
    Ok(())
}

/// Coin boards must also keep the coins as written (separators and case aside).
fn check_coins<P: Puzzle>(puzzle: &P, text: &str) -> Result<(), TestCaseError> {
    check(puzzle, text)?;
    if let Ok(rank) = puzzle.parse(text) {
        let written: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '/' | ','))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        prop_assert_eq!(written, puzzle.render(rank), "{}: {:?}", puzzle.id(), text);
    }
    Ok(())
}

/// Flip-k ranks are tail counts: an accepted row has N coins and `rank` tails.
fn check_flip_k(puzzle: &FlipK, text: &str) -> Result<(), TestCaseError> {
    check(puzzle, text)?;
    if let Ok(rank) = puzzle.parse(text) {
        let coins: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
        prop_assert_eq!(coins.len(), puzzle.shape().1);
        prop_assert_eq!(
            coins.iter().filter(|c| c.eq_ignore_ascii_case(&'T')).count() as u64,
            rank
        );
    }
    Ok(())
}

/// Runs every check on a spread of puzzles and sizes.
fn check_every_puzzle(text: &str) -> Result<(), TestCaseError> {
    for puzzle in SLIDING.iter() {
        check_sliding(puzzle, text)?;
    }
    for puzzle in COINS.iter() {
        check_coins(puzzle, text)?;
    }
    for puzzle in FLIP_K.iter() {
        check_flip_k(puzzle, text)?;
    }
    Ok(())
}

/// The puzzles every text is parsed by, built once for all the cases.
static SLIDING: LazyLock<Vec<Sliding>> = LazyLock::new(|| {
    let mut boards: Vec<Sliding> = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]
        .into_iter()
        .map(|(rows, cols)| Sliding::new(rows, cols).expect("a valid board"))
        .collect();
    boards.push(Sliding::eight());
    boards
});
static COINS: LazyLock<Vec<Coins>> = LazyLock::new(|| {
    vec![
        lights_out(4, 3),
        lights_out(5, 5),
        nine_tails(3, 3),
        nine_tails(2, 5),
        coin_lines(3),
        coin_lines(4),
        flip_k_brute(5, 3),
    ]
});
static FLIP_K: LazyLock<Vec<FlipK>> = LazyLock::new(|| {
    [(7, 5), (6, 2), (3, 3), (1, 1), (60, 31)]
        .map(|(n, k)| FlipK::new(n, k))
        .to_vec()
});

/// Distances in the reference search of coin lines 3x3, for the oracle below.
static COIN_LINES: LazyLock<HashMap<CoinVector, usize>> = LazyLock::new(|| coin_distances(&ref_coin_lines(3)));

proptest! {
    // No regression files: a failure prints its minimal input, and the tests folder
    // stays free of generated files.
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics_on_arbitrary_text(text in any::<String>()) {
        check_every_puzzle(&text)?;
    }

    #[test]
    fn parse_never_panics_on_tile_like_text(text in "[0-9+\\- ,\t]{0,48}") {
        check_every_puzzle(&text)?;
    }

    #[test]
    fn parse_never_panics_on_coin_like_text(text in "[HThtx /,\n]{0,30}") {
        check_every_puzzle(&text)?;
    }

    #[test]
    fn eight_puzzle_accepts_a_board_iff_it_is_a_solvable_arrangement(
        tiles in prop::collection::vec(0u8..11, 7..=11),
        separator in prop::sample::select(vec![" ", ",", "  ", "\n", ", "]),
    ) {
        let text = tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(separator);
        let mut sorted = tiles.clone();
        sorted.sort_unstable();
        let valid = sorted.iter().copied().eq(0..9) && textbook_solvable(&tiles, 3, 3);
        let eight = Sliding::eight();
        prop_assert_eq!(eight.parse(&text).is_ok(), valid, "{:?}", text);
        check_sliding(&eight, &text)?;
    }

    #[test]
    fn eight_puzzle_accepts_every_shuffle_the_textbook_rule_allows(
        tiles in Just((0..9u8).collect::<Vec<_>>()).prop_shuffle(),
    ) {
        let text = tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        let eight = Sliding::eight();
        prop_assert_eq!(eight.parse(&text).is_ok(), textbook_solvable(&tiles, 3, 3), "{}", text);
        if let Ok(rank) = eight.parse(&text) {
            prop_assert_eq!(eight.board(rank), tiles);
        }
    }

    #[test]
    fn coin_lines_accepts_a_row_iff_the_reference_search_reaches_it(
        coins in prop::collection::vec(any::<bool>(), 8..=10),
    ) {
        let text: String = coins.iter().map(|&t| if t { 'T' } else { 'H' }).collect();
        let config = coins.iter().enumerate().fold(0, |v, (i, &t)| v | CoinVector::from(t) << i);
        let valid = coins.len() == 9 && COIN_LINES.contains_key(&config);
        prop_assert_eq!(coin_lines(3).parse(&text).is_ok(), valid, "{}", text);
    }

    #[test]
    fn command_line_validation_never_panics_on_any_size(args in command_lines()) {
        // Whatever is asked must be validated without a panic, and an accepted job must
        // fit the memory it was told is available.
        let cli = Cli::try_parse_from(&args).expect("every flag is known and takes a number");
        if let Ok(Command::Analyze { jobs, .. }) = cli.into_command(Some(1 << 34), &|path| std::fs::read(path)) {
            prop_assert!(jobs.iter().all(|j| j.memory() <= 1 << 34), "{:?}", args);
        }
    }
}

/// `analyze --puzzle NAME` with the size options that puzzle takes, each present or not,
/// mostly small values (where the interesting limits are) and sometimes any `u64`, plus
/// now and then an option the puzzle does not take.
fn command_lines() -> impl Strategy<Value = Vec<String>> {
    let value = || prop_oneof![3 => 0u64..80, 1 => any::<u64>()];
    let puzzles = vec![
        ("eight", vec![]),
        ("sliding", vec!["--rows", "--cols"]),
        ("nine-tails", vec!["--rows", "--cols"]),
        ("lights-out", vec!["--rows", "--cols"]),
        ("coin-lines", vec!["--size"]),
        ("flip-k", vec!["--coins", "--flip"]),
    ];
    let any_flag = prop::sample::select(vec!["--rows", "--cols", "--size", "--coins", "--flip"]);
    (
        prop::sample::select(puzzles),
        prop::collection::vec(prop::option::of(value()), 2),
        prop::option::weighted(0.1, (any_flag, value())),
    )
        .prop_map(|((puzzle, flags), values, stray)| {
            let mut args = vec!["analyze".to_string(), "--puzzle".into(), puzzle.into()];
            let given = flags
                .into_iter()
                .zip(values)
                .filter_map(|(flag, value)| Some((flag, value?)));
            for (flag, value) in given.chain(stray) {
                if !args.iter().any(|a| a == flag) {
                    args.extend([flag.to_string(), value.to_string()]);
                }
            }
            args
        })
}
