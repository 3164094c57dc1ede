//! Split-layout pattern databases (`src/solve/split.rs`): the 7-8 databases of 4x4 and
//! any goal (`--goal` with `--solve`).
//!
//! The 7-8 tables themselves take minutes to build, so they are not built here: the same
//! builder and lookup are checked on reduced boards, where a plain breadth-first search
//! (`util`'s, over explicit boards in a hash map) gives every position's distance to each
//! goal. Every estimate is at most that distance (admissible), one group of all
//! tiles gives it exactly, and IDA* finds solutions of exactly that length.

use crate::util::{
    Ended, Rng, SLIDING_3X4, SLIDING_4X4, Sandbox, board_text, cache_with_4x4_tables, check_incremental, distances_to,
    first_length, in_key_order, pack, slides, textbook_solvable, tiles, unpack,
};
use analyze::solve::board::Board;
use analyze::solve::ida::{self, Heuristic, Node};
use analyze::solve::split::{SplitDb, SplitHeuristic, goal_groups, groups_78};
use analyze::solve::{Estimate, Pdb};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

/// The split heuristic of `groups` (tiles of the usual goal, turned to `goal`'s cells).
fn split(rows: usize, cols: usize, groups: &[Vec<u8>], goal: &[u8]) -> SplitHeuristic {
    let tables = goal_groups(groups, goal)
        .iter()
        .map(|tiles| SplitDb::build(rows, cols, tiles, goal, &|_, _| {}).expect("a small table"))
        .collect();
    SplitHeuristic::new(tables).expect("the groups cover the tiles")
}

/// Goals of 3x3 and 2x4: the blank in a corner, an edge, the centre, on the diagonal and
/// off it, and both parity classes (the usual goal with two tiles swapped is the other).
const GOALS: [(usize, usize, &str); 8] = [
    (3, 3, "1 2 3 4 5 6 7 8 0"),
    (3, 3, "0 1 2 3 4 5 6 7 8"),
    (3, 3, "1 2 3 4 0 5 6 7 8"),
    (3, 3, "2 1 3 4 5 6 7 8 0"),
    (3, 3, "1 0 3 4 2 5 6 8 7"),
    (2, 4, "1 2 3 4 5 6 7 0"),
    (2, 4, "0 7 6 5 4 3 2 1"),
    (2, 4, "1 2 0 4 5 6 3 7"),
];

#[test]
fn split_estimates_are_admissible_for_any_goal_and_exact_with_one_group() {
    for (rows, cols, goal) in GOALS {
        let goal = tiles(goal);
        let cells = rows * cols;
        let distances = distances_to(&goal, rows, cols);
        // Every reachable board is in the goal's parity class, and that is half of them.
        let factorial: usize = (1..=cells).product();
        assert_eq!(distances.len(), factorial / 2, "{rows}x{cols} {goal:?}");
        let half = cells as u8 / 2;
        let halves = vec![(1..=half).collect::<Vec<u8>>(), (half + 1..cells as u8).collect()];
        let columns: Vec<Vec<u8>> = (0..cols)
            .map(|c| {
                (0..rows)
                    .map(|r| (r * cols + c + 1) as u8)
                    .filter(|&t| usize::from(t) < cells)
                    .collect()
            })
            .collect();
        let whole = vec![(1..cells as u8).collect::<Vec<u8>>()];
        let halves_h = split(rows, cols, &halves, &goal);
        let columns_h = split(rows, cols, &columns, &goal);
        let whole_h = split(rows, cols, &whole, &goal);
        for (&key, &d) in &distances {
            let d = d as u32;
            let board = Board::new(rows, cols, unpack(key, cells)).expect("a board");
            let node = Node::new(&board);
            for (h, what) in [(&halves_h, "halves"), (&columns_h, "columns")] {
                let (_, value) = h.evaluate(&node);
                assert!(value <= d, "{what} {goal:?}: h = {value} > {d} at {}", board.render());
            }
            assert_eq!(whole_h.evaluate(&node).1, d, "one group {goal:?} at {}", board.render());
        }
    }
}

#[test]
fn ida_with_split_estimates_finds_shortest_solutions_to_any_goal() {
    for (rows, cols, goal) in GOALS {
        let goal = tiles(goal);
        let cells = rows * cols;
        let distances = distances_to(&goal, rows, cols);
        let half = cells as u8 / 2;
        let groups = vec![(1..=half).collect::<Vec<u8>>(), (half + 1..cells as u8).collect()];
        let h = split(rows, cols, &groups, &goal);
        // Every 7th position on 2x4, every 97th on 3x3, and the farthest ones.
        let step = if cells == 8 { 7 } else { 97 };
        let max = distances.values().copied().max().unwrap_or(0);
        let mut checked = 0;
        let boards = in_key_order(&distances);
        for (i, &(key, d)) in boards.iter().enumerate() {
            if i % step != 0 && d != max {
                continue;
            }
            let start = Board::new(rows, cols, unpack(key, cells)).expect("a board");
            let found = ida::search_with_progress(&start, &h, &mut |_, _| {}).expect("a solution");
            assert_eq!(found.slides.len(), d, "{goal:?} from {}", start.render());
            let end = found.slides.iter().fold(start.clone(), |b, &cell| {
                b.slide(usize::from(cell)).expect("a legal slide")
            });
            assert_eq!(end.tiles(), &goal[..], "{goal:?} from {}", start.render());
            checked += 1;
        }
        assert!(checked >= 100, "{checked} positions checked");
        // The other class is refused by the solver's invariant, not searched: its boards
        // are exactly those the search above never reached.
        let mut other = goal.clone();
        let (a, b) = (goal.iter().position(|&t| t == 1), goal.iter().position(|&t| t == 2));
        other.swap(a.unwrap_or(0), b.unwrap_or(0));
        assert!(!distances.contains_key(&pack(&other)));
        assert_ne!(
            textbook_solvable(&other, rows, cols),
            textbook_solvable(&goal, rows, cols)
        );
    }
}

#[test]
fn the_7_8_split_covers_4x4_once_and_follows_any_goal() {
    let mut all: Vec<u8> = groups_78().concat();
    all.sort_unstable();
    assert_eq!(all, (1..16).collect::<Vec<u8>>());
    // For a goal with the blank first, the blank's cell goes to the usual blank's cell.
    let goal: Vec<u8> = (0..16).collect();
    let groups = goal_groups(&groups_78(), &goal);
    assert_eq!(groups[0], [7, 8, 9, 10, 11, 12, 13, 14]);
    assert_eq!(groups[1], [15, 1, 2, 3, 4, 5, 6]);
}

#[test]
fn the_estimate_for_a_goal_uses_split_tables_below_17_cells() {
    let goal = tiles("1 2 3 4 0 5 6 7 8");
    let estimate = Estimate::for_goal((3, 3), Some(&goal), None, None, &|_| {}, &|_, _| {}).expect("tables");
    assert!(matches!(estimate, Estimate::Split(_)));
    let usual = Estimate::for_goal((3, 3), None, None, None, &|_| {}, &|_, _| {}).expect("tables");
    assert!(matches!(usual, Estimate::Patterns(_)));
    // 6-6-3 asked for on 4x4 and the usual goal keeps the spread tables (those the binary
    // built in the shared cache, loaded).
    let cache = cache_with_4x4_tables(None);
    let chosen = Estimate::for_goal((4, 4), None, Some(Pdb::SixSixThree), Some(&cache), &|_| {}, &|_, _| {});
    assert!(matches!(chosen, Ok(Estimate::Patterns(_))));
}

/// The fewest moves from `start` to `goal` by a plain breadth-first search (near the goal).
fn plain_distance(start: &[u8], goal: &[u8], rows: usize, cols: usize) -> usize {
    let mut seen = HashMap::from([(pack(start), 0)]);
    let mut queue = VecDeque::from([(start.to_vec(), 0)]);
    while let Some((board, d)) = queue.pop_front() {
        if board == goal {
            return d;
        }
        for next in slides(&board, rows, cols) {
            if let Entry::Vacant(slot) = seen.entry(pack(&next)) {
                slot.insert(d + 1);
                queue.push_back((next, d + 1));
            }
        }
    }
    usize::MAX
}

/// Goals of 4x4: the blank first (on the diagonal: the transposed lookup applies), and one
/// off the diagonal in the other parity class.
const GOALS_4X4: [&str; 2] = [
    "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
    "2 0 1 3 4 5 6 7 8 9 10 11 12 13 14 15",
];

#[test]
fn solve_on_4x4_takes_any_goal() {
    let sandbox = Sandbox::new();
    let solve = |goal: &str, board: &[u8]| {
        sandbox.output(&[&SLIDING_4X4[..], &["--goal", goal, "--solve", &board_text(board)]].concat())
    };
    for goal in GOALS_4X4 {
        // The goal's tables, built once for this test and the next one.
        cache_with_4x4_tables(Some(goal));
        let goal_tiles = tiles(goal);
        // A walk of 14 moves from the goal that never steps straight back.
        let mut board = goal_tiles.clone();
        let mut previous = usize::MAX;
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..14 {
            let blank = board.iter().position(|&t| t == 0).unwrap_or(0);
            let options: Vec<Vec<u8>> = slides(&board, 4, 4)
                .into_iter()
                .filter(|next| next.iter().position(|&t| t == 0) != Some(previous))
                .collect();
            board = options[rng.below(options.len() as u64) as usize].clone();
            previous = blank;
        }
        let expected = plain_distance(&board, &goal_tiles, 4, 4);
        let Ended {
            code, stdout, stderr, ..
        } = solve(goal, &board);
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(
            first_length(&stdout),
            Some(format!("{expected} moves").as_str()),
            "{stdout}"
        );
        // The last grid printed is the goal.
        let grids: Vec<&str> = stdout.split("\n\n").collect();
        let last: Vec<u8> = grids
            .last()
            .map(|g| {
                g.lines()
                    .skip(1)
                    .flat_map(|l| l.split_whitespace().map(|c| c.parse().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(last, goal_tiles, "{stdout}");

        // Two tiles swapped: the other class, refused without a search.
        let mut other = goal_tiles.clone();
        other.swap(4, 5);
        let Ended { code, stdout, .. } = solve(goal, &other);
        assert_eq!(code, Some(0));
        assert!(stdout.starts_with("unsolvable: "), "{stdout}");
    }
}

#[test]
fn pdb_is_checked_and_refused_where_it_has_no_meaning() {
    // A cache of its own holding the 6-6-3 tables only (copied from the shared cache).
    let sandbox = Sandbox::with_own_cache();
    let shared = cache_with_4x4_tables(None);
    let mut seeded: Vec<String> = std::fs::read_dir(&shared)
        .expect("the shared cache")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|name| name.starts_with("sliding-4x4-tiles-") && name.ends_with(".pdb"))
        .collect();
    seeded.sort();
    assert_eq!(seeded.len(), 3, "{seeded:?}");
    for name in &seeded {
        std::fs::copy(shared.join(name), sandbox.cache().join(name)).expect("a table copied");
    }
    let near = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    let cases: [(Vec<&str>, &str); 5] = [
        (
            [&SLIDING_4X4[..], &["--pdb", "555", "--solve", near]].concat(),
            "use 663",
        ),
        ([&SLIDING_4X4[..], &["--pdb", "78"]].concat(), "without --solve"),
        (
            vec!["--puzzle", "eight", "--pdb", "663", "--solve", "1 2 3 4 5 6 7 0 8"],
            "eight",
        ),
        (
            [
                &SLIDING_3X4[..],
                &["--pdb", "78", "--solve", "1 2 3 4 5 6 7 8 9 10 0 11"],
            ]
            .concat(),
            "sliding-3x4",
        ),
        (
            vec!["--puzzle", "nine-tails", "--pdb", "78", "--solve", "HHHTTTHHH"],
            "nine-tails",
        ),
    ];
    for (args, names) in cases {
        let Ended {
            code, stdout, stderr, ..
        } = sandbox.output(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: --pdb"), "{args:?}: {stderr}");
        assert!(stderr.contains(names), "{args:?}: {stderr}");
    }
    // 663 asked for is used without building anything else, and says nothing about 7-8.
    let Ended {
        code, stdout, stderr, ..
    } = sandbox.output(&[&SLIDING_4X4[..], &["--pdb", "663", "--solve", near]].concat());
    assert_eq!((code, first_length(&stdout)), (Some(0), Some("1 move")), "{stderr}");
    assert!(!stderr.contains("7-8"), "{stderr}");
    // By default, without the 7-8 tables in the cache, 6-6-3 is used and the note says how
    // to build 7-8.
    let Ended { code, stderr, .. } = sandbox.output(&[&SLIDING_4X4[..], &["--solve", near]].concat());
    assert_eq!(code, Some(0));
    assert!(stderr.contains("`--pdb 78` builds them once"), "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(sandbox.cache())
        .expect("the cache")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert_eq!(names, seeded, "nothing but the 6-6-3 tables is built or kept");
}

#[test]
fn split_estimates_updated_move_by_move_equal_fresh_ones_on_4x4() {
    // The 6-6-3 groups turned to the two goals of the test above (the tables it has the
    // binary build, loaded): the blank first (both lookups) and off the diagonal.
    for goal in GOALS_4X4 {
        let cache = cache_with_4x4_tables(Some(goal));
        let goal = tiles(goal);
        let estimate = Estimate::for_goal((4, 4), Some(&goal), None, Some(&cache), &|_| {}, &|_, _| {});
        let Ok(Estimate::Split(h)) = estimate else {
            panic!("no split tables for {goal:?}");
        };
        let start = Board::new(4, 4, goal.clone()).expect("a board");
        let first = check_incremental(&h, &start, &mut Rng(0x9e37_79b9_7f4a_7c15));
        assert_eq!(first, 0, "{goal:?}");
    }
}
