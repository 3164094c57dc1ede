//! Differential tests: the library's engine and a plain reference search written here
//! (explicit boards and coin vectors, a hash map and a queue) must find the same number
//! of configurations at every distance, on every small instance.

use crate::util::bfs;
use crate::util::{
    Board, CoinRules, SMALL_BOARDS, boards_up_to, book_rank, coin_distances, engine_levels, histogram, ref_coin_lines,
    ref_flip_k, ref_lights_out, ref_nine_tails, slides, sliding_board, sliding_distances,
};
use analyze::engine::bfs::EXAMPLES;
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::coins::Coins;
use analyze::puzzle::flip_k::{FlipK, flip_k_brute};
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::BoardDecoder;
use analyze::puzzle::sliding::Sliding;
use std::ops::ControlFlow;

#[test]
fn sliding_tables_match_the_reference_search() {
    for (rows, cols) in SMALL_BOARDS {
        let reference = histogram(sliding_distances(rows, cols).into_values());
        assert_eq!(engine_levels(&sliding_board(rows, cols)), reference, "{rows}x{cols}");
        if (rows, cols) == (3, 3) {
            assert_eq!(engine_levels(&Sliding::eight()), reference, "eight");
        }
    }
}

#[test]
fn sliding_2x5_table_matches_the_reference_search() {
    // 1.8 million ranks: the first board whose search spans several work chunks.
    let reference = histogram(sliding_distances(2, 5).into_values());
    assert_eq!(engine_levels(&sliding_board(2, 5)), reference);
}

fn sorted(mut boards: Vec<Board>) -> Vec<Board> {
    boards.sort();
    boards
}

#[test]
fn sliding_moves_are_exactly_the_explicit_slides() {
    // The ranking computes neighbours arithmetically (rank +- 1 for horizontal moves, a
    // re-ranked window for vertical ones); every rank's neighbours must be the boards one
    // slide away. Predecessors are asked for in ascending rank order with one memo, as
    // the engine does, so the memo's reuse is exercised too.
    for (rows, cols) in SMALL_BOARDS {
        let puzzle = sliding_board(rows, cols);
        let mut memo = Default::default();
        for rank in 0..puzzle.states() {
            let board = puzzle.board(rank);
            let expected = sorted(slides(&board, rows, cols));
            let mut after = Vec::new();
            puzzle.for_each_successor(rank, |r| after.push(puzzle.board(r)));
            let mut before = Vec::new();
            puzzle.for_each_predecessor(&mut memo, rank, |r| before.push(puzzle.board(r)));
            assert_eq!(sorted(after), expected, "{rows}x{cols} successors of {board:?}");
            assert_eq!(sorted(before), expected, "{rows}x{cols} predecessors of {board:?}");
        }
    }
}

#[test]
fn sliding_moves_are_the_explicit_slides_on_every_board_shape() {
    // The small boards above are checked on every rank; the larger ones, up to 16 cells,
    // on runs of consecutive ranks spread over the whole rank space, in ascending order
    // with one memo as the engine does: the table-decoded tail, the head decoded after a
    // jump, and the closed-form vertical moves on windows of up to 7 passed tiles.
    for rows in 2..=8 {
        for cols in 2..=16 / rows {
            let puzzle = sliding_board(rows, cols);
            let states = puzzle.states();
            let mut memo = Default::default();
            for start in (0..400u64).map(|i| i * (states / 400)) {
                for rank in start..states.min(start + 3 * (rows * cols) as u64) {
                    let board = puzzle.board(rank);
                    let mut before = Vec::new();
                    puzzle.for_each_predecessor(&mut memo, rank, |r| before.push(puzzle.board(r)));
                    assert_eq!(
                        sorted(before),
                        sorted(slides(&board, rows, cols)),
                        "{rows}x{cols} {board:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn sliding_far_and_adjacent_predecessors_are_all_the_predecessors() {
    // The engine takes `rank +- 1` a word at a time from `adjacent_predecessors` and asks
    // the puzzle for the others a run of words at a time: together they must be the
    // predecessors, each once.
    for (rows, cols) in SMALL_BOARDS {
        let puzzle = sliding_board(rows, cols);
        let adjacent = puzzle
            .adjacent_predecessors()
            .expect("horizontal moves are adjacent ranks");
        let period = adjacent.below.len() as u64;
        let states = puzzle.states();
        let words = states.div_ceil(64);
        let mut memo = Default::default();
        // Runs of 1 to 4 words, so that the memo also meets run boundaries.
        let mut w = 0;
        while w < words {
            let run = (1 + w % 4).min(words - w);
            let first = 64 * w;
            // Whole words, every third rank of some, and an empty one now and then, so that
            // the memo also meets gaps.
            let run_words: Vec<u64> = (w..w + run)
                .map(|v| {
                    let valid = u64::MAX >> (64 - (states - 64 * v).min(64));
                    let pattern = match v % 5 {
                        1 => 0x9249_2492_4924_9249,
                        3 => 0,
                        _ => u64::MAX,
                    };
                    valid & pattern
                })
                .collect();
            let mut far = vec![Vec::new(); 64 * run as usize];
            let mut from = Vec::new();
            puzzle.for_each_far_predecessor_in_words(&mut memo, first, &run_words, |rank, pred| {
                from.push(rank);
                far[(rank - first) as usize].push(pred);
            });
            assert!(from.is_sorted(), "{rows}x{cols}: ranks in ascending order");
            let given = |r: u64| run_words[((r - first) / 64) as usize] >> ((r - first) % 64) & 1 == 1;
            assert!(from.iter().all(|&r| given(r)), "{rows}x{cols}: only the words' ranks");
            for rank in (first..first + 64 * run).filter(|&r| r < states && given(r)) {
                let mut split = std::mem::take(&mut far[(rank - first) as usize]);
                if adjacent.below[(rank % period) as usize] {
                    split.push(rank - 1);
                }
                if adjacent.above[(rank % period) as usize] {
                    split.push(rank + 1);
                }
                let mut all = Vec::new();
                puzzle.for_each_predecessor(&mut Default::default(), rank, |r| all.push(r));
                split.sort_unstable();
                all.sort_unstable();
                assert_eq!(split, all, "{rows}x{cols} rank {rank}");
            }
            w += run;
        }
    }
}

#[test]
fn sliding_predecessors_do_not_depend_on_what_the_memo_saw_before() {
    // The engine hands a worker only the frontier's ranks: ascending but with gaps of any
    // size. Visit every rank in a scrambled order with one memo and compare against a
    // fresh memo each time.
    for (rows, cols) in SMALL_BOARDS {
        let puzzle = sliding_board(rows, cols);
        let states = puzzle.states();
        // A stride coprime to the state count visits every rank once, in jumps.
        let stride = (states / 3..).find(|s| gcd(*s, states) == 1).expect("a coprime stride");
        let mut memo = Default::default();
        for i in 0..states {
            let rank = i * stride % states;
            let mut reused = Vec::new();
            puzzle.for_each_predecessor(&mut memo, rank, |r| reused.push(r));
            let mut fresh = Vec::new();
            puzzle.for_each_predecessor(&mut Default::default(), rank, |r| fresh.push(r));
            assert_eq!(reused, fresh, "{rows}x{cols} rank {rank}");
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Asserts that the engine on `puzzle` and the reference search on `rules` (the same
/// puzzle restated) agree level by level, and on the antipodes the analysis lists: the
/// first ones in rank (book number) order.
fn assert_same_table(puzzle: &Coins, rules: &CoinRules) {
    let distance = coin_distances(rules);
    let reference = histogram(distance.values().copied());
    let search = bfs(puzzle, |_| ControlFlow::Continue(())).expect("the search succeeds");
    assert_eq!(search.levels, reference, "{}", puzzle.id);
    let max = reference.len() - 1;
    let mut antipodes: Vec<u64> = distance
        .iter()
        .filter(|&(_, &d)| d == max)
        .map(|(&c, _)| book_rank(c, rules.coins))
        .collect();
    antipodes.sort_unstable();
    antipodes.truncate(EXAMPLES);
    assert_eq!(search.antipodes, antipodes, "{}", puzzle.id);
}

#[test]
fn lights_out_tables_match_the_reference_search_up_to_16_coins() {
    for (rows, cols) in boards_up_to(16) {
        assert_same_table(&lights_out(rows, cols), &ref_lights_out(rows, cols));
    }
}

#[test]
fn nine_tails_tables_match_the_reference_search_up_to_16_coins() {
    for (rows, cols) in boards_up_to(16) {
        assert_same_table(&nine_tails(rows, cols), &ref_nine_tails(rows, cols));
    }
}

#[test]
fn twenty_coin_nine_tails_table_matches_the_reference_search() {
    // 2^20 ranks span several of the engine's work chunks, which boards up to 16 coins
    // (a single chunk) never do.
    assert_same_table(&nine_tails(5, 4), &ref_nine_tails(5, 4));
}

#[test]
fn nine_tails_reference_measures_distance_to_the_goal_along_legal_moves() {
    // The reference search runs backwards from the goal; check its result against the
    // definition with forward moves only: a configuration at distance d > 0 has a legal
    // move to distance d - 1 and none to anything nearer, and a configuration that cannot
    // reach the goal has no legal move to one that can.
    for (rows, cols) in boards_up_to(12) {
        let rules = ref_nine_tails(rows, cols);
        let distance = coin_distances(&rules);
        for config in rules.all() {
            let next: Vec<Option<usize>> = rules.successors(config).map(|s| distance.get(&s).copied()).collect();
            match distance.get(&config) {
                Some(0) => assert!(rules.goals.contains(&config)),
                Some(&d) => {
                    assert!(next.contains(&Some(d - 1)), "{rows}x{cols} {config:b}");
                    assert!(next.iter().flatten().all(|&n| n + 1 >= d), "{rows}x{cols} {config:b}");
                }
                None => assert!(next.iter().all(Option::is_none), "{rows}x{cols} {config:b}"),
            }
        }
    }
}

#[test]
fn coin_lines_tables_match_the_reference_search() {
    for size in 2..=4 {
        assert_same_table(&coin_lines(size), &ref_coin_lines(size));
    }
}

/// The (N, K) pairs whose reference search stays cheap. It costs C(N, K) * 2^N move
/// applications, 4^N for all K together: every K up to 12 coins, then only the K near 0
/// or N, whose move lists are short, up to 16 coins.
fn flip_k_sizes() -> Vec<(usize, usize)> {
    let mut sizes = Vec::new();
    for n in 1..=16usize {
        for k in 1..=n {
            if n <= 12 || [1, 2, 3, n - 2, n - 1, n].contains(&k) {
                sizes.push((n, k));
            }
        }
    }
    sizes
}

#[test]
fn flip_k_tables_match_the_reference_search_up_to_16_coins() {
    for (n, k) in flip_k_sizes() {
        let reference = histogram(coin_distances(&ref_flip_k(n, k)).into_values());
        assert_eq!(engine_levels(&flip_k_brute(n, k)), reference, "brute force N={n} K={k}");
        assert_eq!(
            engine_levels(&FlipK::new(n as u32, k as u32)),
            reference,
            "by symmetry N={n} K={k}"
        );
    }
}

#[test]
fn the_board_cursor_decodes_every_rank_as_the_ranking_does() {
    // The atlas reads a level's states through the cursor (a block's head plus an entry of
    // the tail table): every rank of the small boards, and a spread of the words of 3x4 and
    // 4x4, must give the board the ranking gives, packed 4 bits a cell.
    let boards = SMALL_BOARDS.iter().copied().chain([(3, 4), (4, 4)]);
    for (rows, cols) in boards {
        let puzzle = sliding_board(rows, cols);
        let decoder = BoardDecoder::new(&puzzle);
        let mut cursor = decoder.cursor();
        let words = puzzle.states().div_ceil(64);
        let step = (words / 20_000).max(1);
        for word in (0..words).step_by(step as usize).chain([words - 1]) {
            let base = word * 64;
            cursor.start_word(base);
            for offset in 0..64.min(puzzle.states() - base) {
                let board = puzzle.board(base + offset);
                let expected = board
                    .iter()
                    .enumerate()
                    .fold(0, |s, (i, &t)| s | u64::from(t) << (4 * i));
                assert_eq!(
                    cursor.packed_board(offset as usize),
                    expected,
                    "{rows}x{cols} rank {}",
                    base + offset
                );
            }
        }
    }
}
