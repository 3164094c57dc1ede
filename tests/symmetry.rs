//! Counting up to symmetry, checked by brute force: every configuration searched
//! explicitly, the board's symmetries written out here and kept where they keep every
//! distance, and each class counted once at its least member. The group `analyze` finds
//! must have that order, its classes per distance must be these, and their orbits must
//! fill each distance. Then the group as the command line chooses it.

use crate::util::{
    Sandbox, analysis, coin_distances, distances_to, goal_board, job, ref_coin_lines, ref_flip_k, ref_lights_out,
    ref_nine_tails, summary, unpack,
};
use analyze::puzzle::SymmetryChoice;
use std::collections::HashMap;
use std::hash::Hash;

/// The symmetries of an `rows x cols` board as cell maps, built from a quarter turn and
/// a transposition on a square, from the two flips on a rectangle.
fn board_maps(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let cell = |r: usize, c: usize| r * cols + c;
    let flip_rows: Vec<usize> = (0..rows * cols).map(|i| cell(rows - 1 - i / cols, i % cols)).collect();
    let flip_cols: Vec<usize> = (0..rows * cols).map(|i| cell(i / cols, cols - 1 - i % cols)).collect();
    let mut generators = vec![flip_rows, flip_cols];
    if rows == cols {
        generators.push((0..rows * cols).map(|i| cell(i % cols, i / cols)).collect());
    }
    let mut group = vec![(0..rows * cols).collect::<Vec<usize>>()];
    let mut i = 0;
    while i < group.len() {
        for g in &generators {
            let product: Vec<usize> = group[i].iter().map(|&c| g[c]).collect();
            if !group.contains(&product) {
                group.push(product);
            }
        }
        i += 1;
    }
    group
}

/// What a brute force finds: how many of the candidate maps keep every distance (the
/// identity among them), the classes per distance under those, and per distance the sizes
/// of those classes' orbits added up (which must be every configuration there).
struct Brute {
    order: u64,
    classes: Vec<u64>,
    orbits: Vec<u64>,
}

/// The classes per distance of `distances` under the maps of `candidates` that keep every
/// distance, each counted at its least member.
fn brute_force<K: Copy + Ord + Hash>(distances: &HashMap<K, usize>, candidates: &[&dyn Fn(K) -> K]) -> Brute {
    let kept: Vec<&&dyn Fn(K) -> K> = candidates
        .iter()
        .filter(|g| distances.iter().all(|(&x, d)| distances.get(&g(x)) == Some(d)))
        .collect();
    let levels = distances.values().max().map_or(0, |&m| m + 1);
    let (mut classes, mut orbits) = (vec![0; levels], vec![0; levels]);
    for (&x, &d) in distances {
        let mut orbit: Vec<K> = kept.iter().map(|g| g(x)).collect();
        if orbit.iter().all(|&y| y >= x) {
            orbit.sort_unstable();
            orbit.dedup();
            classes[d] += 1;
            orbits[d] += orbit.len() as u64;
        }
    }
    Brute {
        order: kept.len() as u64,
        classes,
        orbits,
    }
}

/// `analyze`'s group and classes against the brute force's: the same order, the same
/// classes per distance, and orbits that add up to its states per distance.
fn agree(a: &analyze::analysis::Analysis, brute: &Brute, order: u64, what: &str) {
    assert_eq!((brute.order, a.symmetry.order), (order, order), "{what}");
    assert_eq!(a.level_classes, brute.classes, "{what}");
    assert_eq!(a.levels, brute.orbits, "{what}");
}

/// The image of coin vector `v` (coin `i` in bit `i`) under cell map `to`.
fn move_coins(to: &[usize], v: u32) -> u32 {
    (0..to.len())
        .filter(|&i| v >> i & 1 == 1)
        .fold(0, |m, i| m | 1 << to[i])
}

fn check_coins(family: &str, flags: &[(&str, u64)], rules: crate::util::CoinRules, board: (usize, usize), order: u64) {
    let a = analysis(job(family, flags));
    let maps = board_maps(board.0, board.1);
    let images: Vec<Box<dyn Fn(u32) -> u32>> = maps
        .iter()
        .map(|to| Box::new(move |v| move_coins(to, v)) as Box<dyn Fn(u32) -> u32>)
        .collect();
    let candidates: Vec<&dyn Fn(u32) -> u32> = images.iter().map(|b| b.as_ref()).collect();
    agree(&a, &brute_force(&coin_distances(&rules), &candidates), order, &a.id);
}

#[test]
fn coin_boards_count_their_classes_as_a_brute_force_does() {
    // Lights out on boards of each shape: a square's 8, a rectangle's 4.
    for (rows, cols, order) in [(4, 3, 4), (3, 3, 8), (2, 3, 4), (3, 2, 4), (4, 4, 8)] {
        let flags = [("rows", rows as u64), ("cols", cols as u64)];
        check_coins("lights-out", &flags, ref_lights_out(rows, cols), (rows, cols), order);
    }
    check_coins("nine-tails", &[], ref_nine_tails(3, 3), (3, 3), 8);
    check_coins("coin-lines", &[("size", 3)], ref_coin_lines(3), (3, 3), 8);
}

#[test]
fn flip_k_counts_rows_up_to_reading_them_backwards() {
    for (n, k) in [(7, 3), (8, 2), (6, 6)] {
        let a = analysis(job("flip-k", &[("coins", n), ("flip", k)]));
        let n = n as usize;
        let reverse = move |v: u32| (0..n).filter(|&i| v >> i & 1 == 1).fold(0, |m, i| m | 1 << (n - 1 - i));
        let brute = brute_force(&coin_distances(&ref_flip_k(n, k as usize)), &[&|v| v, &reverse]);
        agree(&a, &brute, 2, &a.id);
    }
}

/// The sliding board's symmetries that keep the goal's blank cell, tiles relabelled so
/// that the goal maps to itself; kept where they keep every distance.
fn check_sliding(rows: usize, cols: usize, goal: &[u8], order: u64) {
    let text: Vec<String> = goal.iter().map(u8::to_string).collect();
    let family = if (rows, cols) == (3, 3) { "eight" } else { "sliding" };
    let flags: &[(&str, u64)] = if family == "eight" {
        &[]
    } else {
        &[("rows", rows as u64), ("cols", cols as u64)]
    };
    let chosen = job(family, flags).with_goal(&text.join(" ")).expect("a goal");
    let a = analysis(chosen);
    let cells = rows * cols;
    let home = |t: u8| goal.iter().position(|&g| g == t).expect("every tile");
    let images: Vec<Box<dyn Fn(u64) -> u64>> = board_maps(rows, cols)
        .into_iter()
        .filter(|to| to[home(0)] == home(0))
        .map(|to| {
            let goal = goal.to_vec();
            Box::new(move |key: u64| {
                let board = unpack(key, cells);
                let mut image = vec![0u8; cells];
                for (c, &t) in board.iter().enumerate() {
                    image[to[c]] = goal[to[goal.iter().position(|&g| g == t).expect("a tile")]];
                }
                crate::util::pack(&image)
            }) as Box<dyn Fn(u64) -> u64>
        })
        .collect();
    let candidates: Vec<&dyn Fn(u64) -> u64> = images.iter().map(|b| b.as_ref()).collect();
    // The least member in the test's packing need not be the least board, but the count
    // of classes per distance is the same whichever member counts.
    agree(
        &a,
        &brute_force(&distances_to(goal, rows, cols), &candidates),
        order,
        &a.id,
    );
}

#[test]
fn sliding_boards_count_their_classes_as_a_brute_force_does() {
    check_sliding(3, 3, &goal_board(3, 3), 2);
    check_sliding(3, 3, &[1, 2, 3, 4, 0, 5, 6, 7, 8], 8);
    check_sliding(2, 3, &goal_board(2, 3), 1);
    check_sliding(3, 2, &[1, 2, 0, 3, 4, 5], 2);
}

#[test]
fn no_symmetry_counts_every_configuration_and_a_missing_group_is_refused() {
    let eight = job("eight", &[]);
    let a = analysis(eight.clone().with_symmetry(SymmetryChoice::NONE).expect("none"));
    assert_eq!((a.symmetry.order, &a.level_classes), (1, &a.levels));
    let rotations = "rotations".parse().expect("a choice");
    let refused = eight
        .with_symmetry(rotations)
        .expect_err("the 8-puzzle has no rotation");
    assert!(refused.contains("found: 2: the identity and 1 reflection"), "{refused}");
    let inverse = "all+inverse".parse().expect("a choice");
    assert!(job("lights-out", &[]).with_symmetry(inverse).is_err());
}

#[test]
fn no_symmetry_counts_every_configuration_of_every_board_family() {
    let families: [(&str, &[(&str, u64)]); 5] = [
        ("lights-out", &[("rows", 3), ("cols", 3)]),
        ("nine-tails", &[]),
        ("coin-lines", &[("size", 3)]),
        ("flip-k", &[("coins", 8), ("flip", 2)]),
        ("sliding", &[("rows", 2), ("cols", 3)]),
    ];
    for (family, flags) in families {
        let a = analysis(job(family, flags).with_symmetry(SymmetryChoice::NONE).expect("none"));
        assert_eq!((a.symmetry.order, &a.level_classes), (1, &a.levels), "{family}");
    }
}

/// The binary: a group that does not exist is refused before any search, `none` writes
/// each configuration as its own class, and a rules file's row finds its reversal alone.
#[test]
fn the_command_line_chooses_the_group() {
    let sandbox = Sandbox::new();
    let refused = sandbox.output(&["--puzzle", "eight", "--symmetry", "rotations", "--quiet"]);
    assert_ne!(refused.code, Some(0));
    assert!(
        refused.stderr.contains("found: 2: the identity and 1 reflection"),
        "{}",
        refused.stderr
    );
    sandbox
        .run(&["--puzzle", "lights-out", "--symmetry", "none", "--quiet"])
        .success();
    let folder = sandbox.list("reports").into_iter().next().expect("a report");
    for line in sandbox.read(&format!("reports/{folder}/distances.csv")).lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[1], fields[2], "{folder}: {line}");
    }
    let row = "name = \"Row\"\nrows = 1\ncols = 4\ngoals = [\"HHHH\"]\n\
        [[move]]\nname = \"a\"\nflips = \"xx..\"\n\
        [[move]]\nname = \"b\"\nflips = \".xx.\"\n\
        [[move]]\nname = \"c\"\nflips = \"..xx\"\n";
    std::fs::write(sandbox.path("row.toml"), row).expect("a rules file");
    sandbox.run(&["--rules", "row.toml", "--quiet"]).success();
    let group = &summary(&sandbox.path("reports/row/summary.json"))["symmetry"];
    assert_eq!(group["order"], 2);
    assert_eq!(group["made_of"], "the identity and the row read backwards");
}

/// A definition searched one rank per class: its positions at every distance are those of
/// the search by positions, its bit sets a fraction of theirs, and the pocket cube's
/// classes under rotations and inverses are twsearch's 1,843,678 (`twsearch -F -g` on its
/// `samples/symm/2x2x2.tws`).
#[test]
fn a_definition_searched_by_class_finds_every_position() {
    let sandbox = Sandbox::new();
    let cube = crate::util::example("pocket-cube.tws");
    let plain = sandbox.output(&["--rules", &cube, "--symmetry", "none", "--out", "out"]);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    for group in ["all+inverse", "rotations+inverse", "rotations"] {
        let ended = sandbox.output(&["--rules", &cube, "--symmetry", group, "--out", "out"]);
        assert_eq!(ended.code, Some(0), "{}", ended.stderr);
        assert!(
            ended.stderr.contains("ranks of classes up to its symmetries"),
            "{}",
            ended.stderr
        );
        let column = |id: &str, n: usize| -> Vec<String> {
            let table = sandbox.read(&format!("out/{id}/distances.csv"));
            table
                .lines()
                .skip(1)
                .map(|l| l.split(',').nth(n).unwrap_or("").to_string())
                .collect()
        };
        let id = format!("pocket-cube-symmetry-{}", group.replace('+', "-"));
        assert_eq!(column(&id, 1), column("pocket-cube-symmetry-none", 1), "{group}");
        if group == "rotations+inverse" {
            assert_eq!(
                summary(&sandbox.path(&format!("out/{id}/summary.json")))["reachable_classes"],
                1_843_678
            );
        }
    }
}

/// Where a definition names its rotations (twsearch's `v` moves), they are its rotations:
/// the pyramorphix's reflections carry each half turn onto a half turn as its rotations
/// do, so only the file can tell them apart. Under its 12 rotations with inverses, its
/// classes at each distance are those `twsearch -F -g` prints for twsearch's sample of
/// it (`cnt`: 1, 1, 2, 5, 5); under all 24 symmetries, two of them are one.
#[test]
fn the_rotations_a_definition_names_are_its_rotations() {
    let sandbox = Sandbox::new();
    let file = crate::util::example("pyramorphix.tws");
    let column = |id: &str, n: usize| -> Vec<u64> {
        let table = sandbox.read(&format!("out/{id}/distances.csv"));
        table
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(n).and_then(|v| v.parse().ok()).unwrap_or(0))
            .collect()
    };
    for (group, classes, made_of) in [
        (
            "rotations+inverse",
            vec![1, 1, 2, 5, 5],
            "12 rotations of the whole puzzle, each with the inverse of the state",
        ),
        (
            "all+inverse",
            vec![1, 1, 2, 5, 4],
            "12 rotations and 12 mirrors of the whole puzzle, each with the inverse of the state",
        ),
    ] {
        let ended = sandbox.output(&["--rules", &file, "--symmetry", group, "--out", "out"]);
        assert_eq!(ended.code, Some(0), "{}", ended.stderr);
        let id = format!("pyramorphix-symmetry-{}", group.replace('+', "-"));
        assert_eq!(column(&id, 1), [1, 6, 27, 42, 20], "{group}");
        assert_eq!(column(&id, 2), classes, "{group}");
        let summary = summary(&sandbox.path(&format!("out/{id}/summary.json")));
        assert_eq!(summary["symmetry"]["made_of"], made_of, "{group}");
    }
}
