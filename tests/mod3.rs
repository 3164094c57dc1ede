//! `--solve` by the distance modulo 3 (3x4 and 2x6): the walk is checked on every position
//! of small boards, for goals with the blank anywhere and of either parity, against the plain
//! breadth-first search over explicit boards in `util`; the cache file is damaged and
//! must be rebuilt; the solver takes that route (or says why not) through the same dispatch
//! as 3x4, with the size threshold lowered.

use crate::util::{board_text, distances_to, in_key_order, pack, slides, tiles, unpack};
use analyze::identity::Identity;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use analyze::solve::mod3::DistanceMod3;
use analyze::solve::{Outcome, Solver};
use std::cell::RefCell;
use std::path::Path;

/// The puzzle with `goal` (or its own goal if `None`).
fn puzzle(rows: usize, cols: usize, goal: Option<&str>) -> Sliding {
    let puzzle = Sliding::new(rows, cols).expect("a board");
    match goal {
        Some(goal) => puzzle.with_goal_tiles(&tiles(goal)).expect("a goal"),
        None => puzzle,
    }
}

/// Checks the table on every board reaching the goal: its code is the distance modulo 3,
/// and (on every `walk_every`-th board) the walk has exactly the distance's length, is made
/// of slides, and ends on the goal.
fn check_everywhere(rows: usize, cols: usize, goal: Option<&str>, walk_every: usize) {
    let puzzle = puzzle(rows, cols, goal);
    let goal_board = puzzle.board(puzzle.goals()[0]);
    let table = DistanceMod3::build(&puzzle).expect("the search runs");
    let reference = distances_to(&goal_board, rows, cols);
    assert_eq!(reference.len() as u64, puzzle.states(), "{}", puzzle.id());
    let boards = in_key_order(&reference);
    for (i, &(key, d)) in boards.iter().enumerate() {
        let board = unpack(key, rows * cols);
        let rank = puzzle.rank_board(&board).expect("the reachable half is ranked");
        assert_eq!(table.code(rank), Some((d % 3) as u8), "{} {board:?}", puzzle.id());
        if i % walk_every != 0 {
            continue;
        }
        let path = table.path(&puzzle, rank).expect("a path");
        assert_eq!(path.len(), d + 1, "{} {board:?}", puzzle.id());
        let boards: Vec<Vec<u8>> = path.iter().map(|&r| puzzle.board(r)).collect();
        assert_eq!(boards[0], board);
        for step in boards.windows(2) {
            assert!(
                slides(&step[0], rows, cols).contains(&step[1]),
                "{}: {:?} -> {:?} is not a slide",
                puzzle.id(),
                step[0],
                step[1]
            );
        }
        assert_eq!(boards.last(), Some(&goal_board));
    }
}

#[test]
fn every_move_changes_the_distance_by_exactly_one() {
    // What the walk relies on: never by 0 (the blank changes colour), never by 2 or more.
    for (rows, cols, goal) in [
        (3, 3, "1 2 3 4 0 5 6 7 8"),
        (2, 4, "0 1 2 3 4 5 6 7"),
        (4, 2, "2 1 3 4 5 6 7 0"),
    ] {
        let reference = distances_to(&tiles(goal), rows, cols);
        for (&key, &d) in &reference {
            for next in slides(&unpack(key, rows * cols), rows, cols) {
                assert_eq!(reference[&pack(&next)].abs_diff(d), 1, "{rows}x{cols} {goal}");
            }
        }
    }
}

#[test]
fn the_walk_is_shortest_from_every_position_for_any_goal() {
    // 3x3: every code; the walk from every position for the blank in the centre, from one
    // position in 3 or 5 for the other goals.
    let goals = [
        (None, 5),
        (Some("1 2 3 4 0 5 6 7 8"), 1),
        (Some("2 1 3 4 5 6 7 8 0"), 3),
        (Some("0 1 2 3 4 5 6 7 8"), 5),
        (Some("0 2 1 3 4 5 6 7 8"), 5),
    ];
    for (goal, walk_every) in goals {
        check_everywhere(3, 3, goal, walk_every);
    }
    for goal in [None, Some("0 1 2 3 4 5 6 7"), Some("1 2 0 3 4 5 7 6")] {
        check_everywhere(2, 4, goal, 1);
        check_everywhere(4, 2, goal, 1);
    }
    // 2x5: every code, the walk from one position in 31.
    check_everywhere(2, 5, Some("1 2 3 0 4 5 6 7 9 8"), 31);
}

/// Notes a preparation made, in order.
struct Notes(RefCell<Vec<String>>);

impl Notes {
    fn new() -> Self {
        Self(RefCell::new(Vec::new()))
    }

    fn take(&self) -> Vec<String> {
        self.0.take()
    }

    fn note(&self) -> impl Fn(&str) + '_ {
        |s: &str| self.0.borrow_mut().push(s.to_string())
    }
}

fn prepare(puzzle: &Sliding, dir: Option<&Path>, needed: bool, notes: &Notes) -> Option<DistanceMod3> {
    DistanceMod3::prepare(puzzle, &identity(puzzle), dir, needed, &notes.note()).expect("the search runs")
}

/// The identity the solver keys a board's table by when given none: its id.
fn identity(puzzle: &Sliding) -> Identity {
    Identity::new([("id", puzzle.id())])
}

/// Where the cache keeps `puzzle`'s table in `dir`.
fn cache_file(dir: &Path, puzzle: &Sliding) -> std::path::PathBuf {
    dir.join(analyze::solve::cache::file_name(
        &puzzle.id(),
        &identity(puzzle),
        "dist3",
    ))
}

#[test]
fn the_cache_file_is_reused_and_rebuilt_when_damaged_or_for_another_goal() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let puzzle = puzzle(3, 3, Some("1 2 3 4 0 5 6 7 8"));
    let file = cache_file(dir.path(), &puzzle);
    let notes = Notes::new();
    let built = prepare(&puzzle, Some(dir.path()), false, &notes).expect("built");
    let said = notes.take();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("building its distance table once") && said[0].contains("MB in"),
        "{said:?}"
    );
    assert_eq!(built, DistanceMod3::build(&puzzle).expect("the search runs"));
    let good = std::fs::read(&file).expect("the cache file");

    // A valid file is read silently.
    assert_eq!(prepare(&puzzle, Some(dir.path()), false, &notes).as_ref(), Some(&built));
    assert_eq!(notes.take(), Vec::<String>::new());

    let damaged = |bytes: Vec<u8>, why: &str| {
        std::fs::write(&file, bytes).expect("write");
        assert_eq!(prepare(&puzzle, Some(dir.path()), false, &notes).as_ref(), Some(&built));
        let said = notes.take();
        assert!(
            said[0].starts_with(&file.display().to_string())
                && said[0].contains(why)
                && said[0].ends_with("rebuilding it"),
            "{said:?}"
        );
        assert_eq!(std::fs::read(&file).expect("rewritten"), good, "{why}");
    };
    let mut flipped = good.clone();
    *flipped.last_mut().expect("data") ^= 0x40;
    damaged(flipped, "checksum mismatch");
    damaged(good[..good.len() - 1000].to_vec(), "bytes instead of");
    damaged(Vec::new(), "bytes instead of");
    // Another goal's table under this name (same size): its header says so.
    let other = self::puzzle(3, 3, Some("0 1 2 3 4 5 6 7 8"));
    prepare(&other, Some(dir.path()), false, &notes).expect("built");
    notes.take();
    let other_file = cache_file(dir.path(), &other);
    damaged(
        std::fs::read(other_file).expect("the other file"),
        "written for another table",
    );
}

#[test]
fn without_a_usable_cache_folder_it_says_why_and_builds_only_if_needed() {
    let puzzle = puzzle(2, 4, None);
    let notes = Notes::new();
    assert!(prepare(&puzzle, None, false, &notes).is_none());
    let said = notes.take();
    assert!(
        said[0].contains("no cache folder") && said[0].ends_with("solving by IDA*"),
        "{said:?}"
    );

    let dir = tempfile::tempdir().expect("a temporary folder");
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "x").expect("write");
    assert!(prepare(&puzzle, Some(&not_a_folder), false, &notes).is_none());
    let said = notes.take();
    assert!(said[0].contains("cannot keep its distance table in"), "{said:?}");

    let table = prepare(&puzzle, Some(&not_a_folder), true, &notes).expect("built in memory");
    let said = notes.take();
    assert!(said[0].contains("building it in memory"), "{said:?}");
    assert_eq!(table, DistanceMod3::build(&puzzle).expect("the search runs"));
}

/// Solves `position` and returns its length.
fn solved_length(solver: &mut Solver, position: &str) -> usize {
    let position = solver.read(position).expect("a position");
    match solver.solve_with_progress(&position, &mut |_, _| {}).expect("solves") {
        Outcome::Solved(solution) => {
            assert_eq!(solution.nodes, None, "solved by table, no search");
            solution.len()
        }
        Outcome::Unsolvable(why) => panic!("{why}"),
    }
}

#[test]
fn the_solver_takes_this_route_on_boards_in_its_range() {
    // 3x3 through the dispatch 3x4 and 2x6 take, the threshold lowered.
    let goal = "1 2 3 4 0 5 6 7 8";
    let puzzle = Sliding::eight().with_goal(goal).expect("a goal");
    let ranks = 100_000..=200_000;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let reference = distances_to(&tiles("1 2 3 4 0 5 6 7 8"), 3, 3);
    let notes = Notes::new();
    let mut solver = Solver::sliding_with_mod3_ranks(3, 3, Some(goal), Some(puzzle), ranks.clone()).expect("a solver");
    solver.prepare(Some(dir.path()), &notes.note()).expect("prepared");
    assert!(notes.take()[0].contains("building its distance table once"));
    let what = solver.prepared_what().expect("prepared");
    assert!(
        what.starts_with("distance table (mod 3, 1 MB) of 181,440 ranks"),
        "{what}"
    );
    // Every 97th board in key order, the same ones every run.
    let boards = in_key_order(&reference);
    for &(key, d) in boards.iter().step_by(97) {
        let board = unpack(key, 9);
        let text = board_text(&board);
        assert_eq!(solved_length(&mut solver, &text), d, "{text}");
    }
    // The next run reads the file silently.
    let puzzle = Sliding::eight().with_goal(goal).expect("a goal");
    let mut again = Solver::sliding_with_mod3_ranks(3, 3, Some(goal), Some(puzzle), ranks.clone()).expect("a solver");
    again.prepare(Some(dir.path()), &notes.note()).expect("prepared");
    assert_eq!(notes.take(), Vec::<String>::new());
    assert_eq!(again.prepared_what(), Some(what));

    // No cache folder: the other route (on 3x3 the byte table, on 3x4 IDA*).
    let puzzle = Sliding::eight().with_goal(goal).expect("a goal");
    let mut other = Solver::sliding_with_mod3_ranks(3, 3, Some(goal), Some(puzzle), ranks).expect("a solver");
    other.prepare(None, &notes.note()).expect("prepared");
    assert!(notes.take()[0].contains("no cache folder"));
    let other_what = other.prepared_what().expect("prepared");
    assert!(
        other_what.starts_with("distance table of 181,440 ranks"),
        "{other_what}"
    );
    assert_eq!(
        solved_length(&mut other, "0 1 2 3 4 5 6 7 8"),
        reference[&pack(&tiles("0 1 2 3 4 5 6 7 8"))]
    );

    // Outside the range: no such route.
    let mut byte_table = Solver::sliding_with_mod3_ranks(3, 3, None, Some(Sliding::eight()), 0..=0).expect("a solver");
    byte_table.prepare(Some(dir.path()), &notes.note()).expect("prepared");
    assert!(!byte_table.prepared_what().expect("prepared").contains("mod 3"));
}
