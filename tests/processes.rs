//! One search shared by several processes (threads joined by channels here, so the
//! engine's slicing is tested without any network): every process must return exactly
//! what a single process finds, on every small board, coin puzzle and flip-k.

use crate::util::{bfs, boards_up_to, engine_distances, search_in_processes, sliding_board};
use analyze::engine::{Distances, Options};
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::flip_k::FlipK;
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use std::ops::ControlFlow;

/// A spread of ranks to watch: the goals, some of the antipodes, and ranks across the space.
fn watch_list<P: Puzzle>(puzzle: &P, single: &Distances) -> Vec<u64> {
    let states = puzzle.states();
    let mut ranks = puzzle.goals();
    ranks.extend(single.antipodes.iter().take(3));
    ranks.extend((0..7).map(|i| i * states / 7));
    ranks.push(states - 1);
    ranks
}

/// Asserts that 2 and 3 processes each return the single process's search, watched
/// distances included, and that the processes really exchanged ranks.
fn assert_same_in_processes<P: Puzzle>(puzzle: &P) {
    let single = bfs(puzzle, |_| ControlFlow::Continue(())).expect("the single search succeeds");
    let watch = watch_list(puzzle, &single);
    let expected = analyze::engine::search(
        puzzle,
        Options {
            watch: watch.clone(),
            ..Options::default()
        },
        |_| ControlFlow::Continue(()),
    )
    .expect("the single search succeeds");
    assert_eq!(expected.levels, single.levels);
    // Distances of the watched ranks, checked against the plain observer.
    let distances = engine_distances(puzzle, &watch);
    assert_eq!(expected.watched, distances, "{}", puzzle.id());
    for processes in [2, 3] {
        let results = search_in_processes(
            puzzle,
            processes,
            |_| Options {
                watch: watch.clone(),
                ..Options::default()
            },
            |_, _| ControlFlow::Continue(()),
        );
        let mut sent = 0;
        for (i, (result, ranks)) in results.into_iter().enumerate() {
            let search = result.unwrap_or_else(|e| panic!("{} process {i} of {processes}: {e}", puzzle.id()));
            assert_eq!(search, expected, "{} process {i} of {processes}", puzzle.id());
            sent += ranks;
        }
        // Boards of a few words live in one slice; bigger ones must cross slices.
        if puzzle.states() > 64 * processes as u64 * 4 {
            assert!(sent > 0, "{}: {processes} processes exchanged nothing", puzzle.id());
        }
    }
}

#[test]
fn sliding_boards_up_to_10_cells_search_alike_in_2_and_3_processes() {
    for (rows, cols) in boards_up_to(10) {
        assert_same_in_processes(&sliding_board(rows, cols));
    }
    assert_same_in_processes(&Sliding::eight());
}

#[test]
fn coin_puzzles_search_alike_in_2_and_3_processes() {
    for (rows, cols) in boards_up_to(16) {
        assert_same_in_processes(&lights_out(rows, cols));
        assert_same_in_processes(&nine_tails(rows, cols));
    }
    // 2^20 ranks: several chunks per slice.
    assert_same_in_processes(&nine_tails(5, 4));
    assert_same_in_processes(&coin_lines(3));
    assert_same_in_processes(&coin_lines(4));
}

#[test]
fn flip_k_searches_alike_in_2_and_3_processes() {
    for (coins, flip) in [(7, 5), (12, 4), (20, 7), (60, 31), (60, 2)] {
        assert_same_in_processes(&FlipK::new(coins, flip));
    }
}

#[test]
fn an_observer_can_stop_every_process_at_the_same_level() {
    let puzzle = Sliding::new(2, 4).expect("2x4 is a valid board");
    let results = search_in_processes(
        &puzzle,
        3,
        |_| Options::default(),
        |_, level| {
            if level.depth == 5 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    for (result, _) in results {
        assert_eq!(result, Err(analyze::engine::EngineError::Interrupted));
    }
}
