//! Permutation puzzles from definition files, end to end through the binary: the pocket
//! cube's published tables (OEIS A079761 and A079762), the metric, the classes, solving by
//! moves, and the one-line refusals of bad files.

use crate::util::{PermModel, PermMove, PermSet, Sandbox, example, first_length, states};

#[test]
fn the_pocket_cube_with_a_corner_held_equals_a079761_and_a079762() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube-held.tws");
    sandbox.run(&["--rules", &file, "--quiet", "--out", "out"]).success();
    let half = states(&sandbox.read("out/pocket-cube-held/distances.csv"));
    assert_eq!(
        half,
        [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    );
    sandbox
        .run(&["--rules", &file, "--metric", "quarter", "--quiet", "--out", "out"])
        .success();
    let quarter = states(&sandbox.read("out/pocket-cube-held-quarter/distances.csv"));
    assert_eq!(quarter.len() - 1, 14);
    assert_eq!(quarter.last(), Some(&276));
    assert_eq!(quarter.iter().sum::<u64>(), 3_674_160);
    // Every assembly is counted in the classes: the twists of the seven free corners and
    // the held corner out of place are unsolvable, and the search reaches the goal's class.
    let classes = sandbox.read("out/pocket-cube-held/classes.csv");
    assert!(classes.contains("CORNERS twist 0,3674160,true,3674160"), "{classes}");
    let total: u64 = classes
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .nth(1)
                .expect("configurations")
                .parse::<u64>()
                .expect("a count")
        })
        .sum();
    assert_eq!(total, 40_320 * 6_561, "8! x 3^8 assemblies");
    let summary = sandbox.read("out/pocket-cube-held/summary.json");
    assert!(summary.contains("\"puzzle\": \"permutation\"") && summary.contains("\"metric\": \"moves\""));
}

#[test]
fn pancakes_reach_the_pancake_numbers() {
    let sandbox = Sandbox::new();
    // A058986(10) = 11 of 10!; A078941(8) = 15 of 8! x 2^8.
    for (name, max, reachable) in [("pancakes-10", 11, 3_628_800), ("burnt-pancakes-8", 15, 10_321_920)] {
        sandbox
            .run(&["--rules", &example(&format!("{name}.tws")), "--quiet", "--out", "out"])
            .success();
        let summary = sandbox.read(&format!("out/{name}/summary.json"));
        assert!(
            summary.contains(&format!("\"max_distance\": {max}")),
            "{name}: {summary}"
        );
        assert!(
            summary.contains(&format!("\"reachable\": {reachable}")),
            "{name}: {summary}"
        );
    }
}

#[test]
fn solves_a_position_given_as_moves_and_as_the_definition_lines() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube-held.tws");
    let by_moves = sandbox.output(&["--rules", &file, "--quiet", "--solve", "R U R' U'"]);
    assert_eq!(by_moves.code, Some(0), "{}", by_moves.stderr);
    assert_eq!(first_length(&by_moves.stdout), Some("4 moves"), "{}", by_moves.stdout);
    let by_lines = sandbox.output(&[
        "--rules",
        &file,
        "--quiet",
        "--solve",
        "2 3 4 1 5 6 7 8, 0 0 0 0 0 0 0 0",
    ]);
    assert_eq!(first_length(&by_lines.stdout), Some("1 move"), "{}", by_lines.stdout);
    // A twisted corner is no position of the cube: refused (exit 2), not answered.
    let twisted = sandbox.output(&[
        "--rules",
        &file,
        "--quiet",
        "--solve",
        "1 2 3 4 5 6 7 8, 1 0 0 0 0 0 0 0",
    ]);
    assert_eq!(twisted.code, Some(2), "{}", twisted.stderr);
    assert_eq!(twisted.stdout, "");
    assert!(
        twisted.stderr.contains("no position of the puzzle: CORNERS twist 1"),
        "{}",
        twisted.stderr
    );
}

#[test]
fn bad_definitions_are_refused_with_their_line() {
    let sandbox = Sandbox::new();
    let cases = [
        (
            "Name X\nSet A 3 1\nMove M\nA\n1 1 2\nEnd\n",
            ":5: ",
            "not a permutation",
        ),
        ("Name X\nSet A 3 1\nIllegal\nEnd\n", ":3: ", "Illegal"),
        ("Name X\nSet A 3 1\nMove M\nB\n2 1 3\nEnd\n", ":4: ", "B"),
        ("Name X\nSet A 3 2\nMove M\nA\n2 1 3\n0 0 5\nEnd\n", ":6: ", "5"),
        ("Name X\nSet A 3 1\nSet B x 1\n", ":3: ", "`x` is not a number"),
        ("Name X\nSet A 3 1\nShuffle A\n", ":3: ", "`Shuffle` is not supported"),
        (
            "Set A 3 1\nMove M\nA\n2 1 3\nEnd\nMoveSequence P M Q'\nMoveSequence Q P M\n",
            ":7: ",
            "the sequences P -> Q -> P name each other in a cycle",
        ),
        (
            "Set A 3 1\nMove M\nA\n2 1 3\nEnd\nMoveSequence P M N2\n",
            ":6: ",
            "`N2` is not a move",
        ),
        (
            "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nIllegal B 1 2\n",
            ":6: ",
            "unknown set `B`",
        ),
        (
            "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nIllegal A 4 2\n",
            ":6: ",
            "the slot `4` is out of range 1 to 3",
        ),
        (
            "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nIllegal A 2 3 4\n",
            ":6: ",
            "set A has no piece 4 (its pieces are 1 to 3)",
        ),
        (
            "Set A 4 1\nSolved\nA\n1 1 3 3\nEnd\nIllegal A 2 2\n",
            ":6: ",
            "set A has no piece 2 (its pieces are 1 3)",
        ),
    ];
    for (i, (text, line, mentions)) in cases.into_iter().enumerate() {
        let name = format!("bad{i}.tws");
        std::fs::write(sandbox.path(&name), text).expect("written");
        let ended = sandbox.output(&["--rules", &name, "--out", "out"]);
        assert_eq!(ended.code, Some(2), "{text}");
        assert!(ended.stderr.contains(&format!("{name}{line}")), "{}", ended.stderr);
        assert!(ended.stderr.contains(mentions), "{}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    }
    let metric = sandbox.output(&["--rules", &example("pancakes-10.tws"), "--metric", "half"]);
    assert_eq!(metric.code, Some(2));
    assert!(
        metric.stderr.contains("use face") && metric.stderr.contains("quarter"),
        "{}",
        metric.stderr
    );
    // Pancake flips are their own inverses: the quarter metric would write a copy.
    let same = sandbox.output(&[
        "--rules",
        &example("pancakes-10.tws"),
        "--metric",
        "quarter",
        "--out",
        "out",
    ]);
    assert_eq!(same.code, Some(2));
    assert!(
        same.stderr.contains("--metric quarter changes nothing here"),
        "{}",
        same.stderr
    );
    assert_eq!(same.stderr.lines().count(), 1, "{}", same.stderr);
    assert!(!sandbox.path("out").exists());
}

#[test]
fn a_file_is_read_by_its_extension_first_then_by_its_first_line() {
    let sandbox = Sandbox::new();
    let definition = "Set A 3 1\nMove M\nA\n2 3 1\nEnd\n";
    // A definition whose first line would pass for TOML (`=`) is still one by its extension.
    std::fs::write(sandbox.path("eq.tws"), format!("Name A = B\n{definition}")).expect("written");
    // Without a known extension, the first line decides: `Set`, or TOML's `key = value`.
    std::fs::write(sandbox.path("def.txt"), definition).expect("written");
    let toml = std::fs::read_to_string(example("nine-tails.toml")).expect("example");
    std::fs::write(sandbox.path("rules.txt"), toml).expect("written");
    for (file, report) in [("eq.tws", "a-b"), ("def.txt", "def"), ("rules.txt", "nine-tails")] {
        sandbox.run(&["--rules", file, "--quiet", "--out", "out"]).success();
        assert!(sandbox.path(&format!("out/{report}/summary.json")).exists(), "{file}");
    }
    let neither = sandbox.path("neither.txt");
    std::fs::write(&neither, "hello\n").expect("written");
    let ended = sandbox.output(&["--rules", "neither.txt", "--out", "out2"]);
    assert_eq!(ended.code, Some(2));
    assert!(ended.stderr.contains("not a rules file"), "{}", ended.stderr);
}

/// The pocket cube with all six faces turning and no corner held: 8! x 3^7 = 88,179,840
/// ranks, above the byte-a-rank table's 2^26, so `--solve` walks its distance modulo 3.
const POCKET_CUBE_SIX_FACES: &str = "Name SixFaces

Set CORNERS 8 3

Solved
CORNERS
1 2 3 4 5 6 7 8
0 0 0 0 0 0 0 0
End

Move U
CORNERS
4 1 2 3 5 6 7 8
End

Move D
CORNERS
1 2 3 4 6 7 8 5
End

Move R
CORNERS
5 2 3 1 8 6 7 4
1 0 0 2 2 0 0 1
End

Move L
CORNERS
1 3 7 4 5 2 6 8
0 2 1 0 0 1 2 0
End

Move F
CORNERS
2 6 3 4 1 5 7 8
2 1 0 0 1 2 0 0
End

Move B
CORNERS
1 2 4 8 5 6 3 7
0 0 2 1 0 0 1 2
End
";

#[test]
fn solves_a_definition_above_2_to_the_26_ranks_by_its_distance_mod_3() {
    let sandbox = Sandbox::with_own_cache();
    std::fs::write(sandbox.path("six.tws"), POCKET_CUBE_SIX_FACES).expect("written");
    let scrambles = ["R", "R U", "R U F", "R U R' U'", "F2 L' D B"];
    // Its positions: by class, its class indices fit a table of a byte each.
    let mut args = vec!["--rules", "six.tws", "--symmetry", "none", "--json", "--solve"];
    args.extend(scrambles);
    let ended = sandbox.output(&args);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(ended.stderr.contains("mod 3"), "{}", ended.stderr);
    let solutions: Vec<serde_json::Value> = ended
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(solutions.len(), scrambles.len());
    // Each scramble of n face turns is at most n moves away, these exactly n (no two of
    // their turns cancel or commute into fewer).
    let mut undone = Vec::new();
    for (scramble, solution) in scrambles.iter().zip(&solutions) {
        let turns = scramble.split_whitespace().count() as u64;
        assert_eq!(solution["length"], turns, "{scramble}: {solution}");
        let path = solution["path"].as_array().expect("a path");
        assert_eq!(
            path.last(),
            Some(&serde_json::json!("1 2 3 4 5 6 7 8, 0 0 0 0 0 0 0 0"))
        );
        let moves: Vec<&str> = solution["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("a move name"))
            .collect();
        undone.push(format!("{scramble} {}", moves.join(" ")));
    }
    // The scramble followed by its solution is the solved cube (the table now cached).
    let mut args = vec!["--rules", "six.tws", "--json", "--solve"];
    args.extend(undone.iter().map(String::as_str));
    let again = sandbox.output(&args);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(!again.stderr.contains("building"), "{}", again.stderr);
    for line in again.stdout.lines() {
        assert!(line.contains("\"length\":0"), "{line}");
    }
}

#[test]
fn a_definition_beyond_any_table_is_refused_with_the_memory_it_would_take() {
    let sandbox = Sandbox::new();
    let thirteen = "Name Big\nSet A 13 1\nMove M\nA\n2 3 4 5 6 7 8 9 10 11 12 13 1\nEnd\nMove S\nA\n2 1 3 4 5 6 7 8 9 10 11 12 13\nEnd\n";
    std::fs::write(sandbox.path("big.tws"), thirteen).expect("written");
    // By table (`--solve` alone would take IDA* with pattern databases instead).
    let ended = sandbox.output(&["--rules", "big.tws", "--solve-by", "table", "--solve", "M"]);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended.stderr.contains("6,227,020,800 ranks") && ended.stderr.contains("1.4 GiB"),
        "{}",
        ended.stderr
    );
}

#[test]
fn the_whole_cube_is_refused_at_once_with_its_count_and_memory() {
    let sandbox = Sandbox::new();
    let ended = sandbox.output(&["--rules", &example("3x3x3.tws"), "--out", "out"]);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended.stderr.contains("reach 43,252,003,274,489,856,000 states") && ended.stderr.contains("9.4 EiB"),
        "{}",
        ended.stderr
    );
    assert!(!ended.stderr.contains("assemblies"), "{}", ended.stderr);
    // Its subgroup of half turns, from the same pieces, is searched.
    sandbox
        .run(&["--rules", &example("3x3x3-squares.tws"), "--quiet", "--out", "out"])
        .success();
    let levels = states(&sandbox.read("out/3x3x3-squares/distances.csv"));
    assert_eq!((levels.len() - 1, levels.last()), (15, Some(&144)));
    assert_eq!(levels.iter().sum::<u64>(), 663_552);
}

#[test]
fn the_report_gives_moves_from_the_goal_to_every_antipode_it_shows() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube-held.tws");
    sandbox.run(&["--rules", &file, "--out", "out", "--quiet"]).success();
    let report = sandbox.read("out/pocket-cube-held/report.md");
    let lines: Vec<&str> = report.lines().filter(|l| l.starts_with("- `")).collect();
    // Every one of the 20 examples, and no raw list of positions without moves.
    assert_eq!(lines.len(), 20, "{report}");
    assert!(!report.contains("More: "), "{report}");
    // Replaying each is a second search a line: the first, a middle one and the last.
    for line in [lines[0], lines[10], lines[19]] {
        let parts: Vec<&str> = line.split('`').collect();
        let (position, moves) = (parts[1], parts[3]);
        assert_eq!(moves.split(' ').count(), 11, "{line}: the antipodes are 11 moves out");
        // The moves, played from the solved state, make the position the line names: the
        // solver, given them, draws it and needs 11 moves back.
        let solved = sandbox.run(&["--rules", &file, "--solve", moves]).success();
        let text = String::from_utf8_lossy(&solved.get_output().stdout).to_string();
        assert!(text.starts_with("solution (11 moves): "), "{text}");
        let (pieces, twists) = position.split_once(", ").expect("pieces, twists");
        let drawn: Vec<&str> = text.lines().skip(1).take(2).map(str::trim).collect();
        assert_eq!(drawn, [format!("CORNERS {pieces}"), twists.to_string()], "{text}");
    }
}

#[test]
fn every_example_reaches_the_order_of_the_group_its_moves_generate() {
    // Schreier–Sims counts the positions before the search (every example's pieces are
    // distinct); the report says both, and a difference would end the run with an error.
    let sandbox = Sandbox::new();
    let dir = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "tws"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    for file in files {
        let stem = file.file_stem().and_then(|s| s.to_str()).expect("a name").to_string();
        let out = format!("out-{stem}");
        // M24 is the sparse route's benchmark (minutes, not ranked): its group order is
        // checked in the unit tests of `group.rs`.
        if stem == "m24" {
            continue;
        }
        // The held octahedron is an hour's search by class (tens of GiB by positions): its
        // group order and symmetries are checked in the unit tests of `src/puzzle/perm`.
        if stem == "fto-corners-edges" {
            continue;
        }
        // The group order counts positions: classes up to symmetry are tested on their own.
        let path = file.to_str().expect("a path");
        let ended = sandbox.output(&["--rules", path, "--symmetry", "none", "--out", &out, "--quiet"]);
        if stem == "3x3x3" {
            assert_eq!(ended.code, Some(2), "{}", ended.stderr);
            let count = "reach 43,252,003,274,489,856,000 states (the order of the group";
            assert!(ended.stderr.contains(count), "{}", ended.stderr);
            continue;
        }
        assert_eq!(ended.code, Some(0), "{stem}: {}", ended.stderr);
        let folder = std::fs::read_dir(sandbox.path(&out))
            .expect("a report folder")
            .next()
            .expect("one")
            .expect("an entry")
            .path();
        let summary = std::fs::read_to_string(folder.join("summary.json")).expect("a summary");
        let reachable: u64 = summary
            .split("\"reachable\": ")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .expect("a reachable count");
        let n = with_commas(reachable);
        let line = format!("Group order by Schreier–Sims: {n}; reached: {n}.");
        let report = std::fs::read_to_string(folder.join("report.md")).expect("a report");
        // `Illegal` lines keep the search out of part of the group: no equality to check,
        // the report says so.
        if report.contains("the `Illegal` lines keep the search out of part of it") {
            assert!(!summary.contains("\"group_order\""), "{stem}: {summary}");
            continue;
        }
        assert!(report.contains(&line), "{stem}: {line}");
        let order = format!("\"group_order\": {reachable},");
        assert!(summary.contains(&order), "{stem}: {summary}");
    }
}

/// `1234567` as `1,234,567`.
fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A move on explicit states: the state it makes from a state.
type Turn<'a> = &'a dyn Fn(&[u8]) -> Vec<u8>;

/// Level sizes of a plain breadth-first search over explicit states from `start`: each
/// generator's powers are found by applying it until the state comes back (all of them
/// are moves in the face metric, the first and the last in the quarter one), and states
/// `legal` refuses are never entered. Shares nothing with the program.
fn plain_levels(start: Vec<u8>, generators: &[Turn], face: bool, legal: &dyn Fn(&[u8]) -> bool) -> Vec<u64> {
    let mut seen = std::collections::HashSet::from([start.clone()]);
    let (mut frontier, mut levels) = (vec![start], vec![1]);
    loop {
        let mut next = Vec::new();
        for s in &frontier {
            for g in generators {
                let mut powers = vec![g(s)];
                while powers.last() != Some(s) {
                    let p = g(powers.last().expect("a power"));
                    powers.push(p);
                }
                powers.pop();
                // A move that leaves this state alone (identical pieces swapped) has no
                // power to take.
                let Some(last) = powers.len().checked_sub(1) else {
                    continue;
                };
                for (k, p) in powers.into_iter().enumerate() {
                    if (face || k == 0 || k == last) && legal(&p) && seen.insert(p.clone()) {
                        next.push(p);
                    }
                }
            }
        }
        if next.is_empty() {
            return levels;
        }
        levels.push(next.len() as u64);
        frontier = next;
    }
}

/// A pocket-cube move as a definition writes it (1-based sources; twists listed where the
/// piece starts) applied to 8 pieces followed by their 8 twists.
fn corner_move(state: &[u8], from: [u8; 8], twist: [u8; 8]) -> Vec<u8> {
    let mut out = state.to_vec();
    for i in 0..8 {
        let f = usize::from(from[i] - 1);
        out[i] = state[f];
        out[8 + i] = (state[8 + f] + twist[f]) % 3;
    }
    out
}

fn cube_u(s: &[u8]) -> Vec<u8> {
    corner_move(s, [4, 1, 2, 3, 5, 6, 7, 8], [0; 8])
}

fn cube_r(s: &[u8]) -> Vec<u8> {
    corner_move(s, [5, 2, 3, 1, 8, 6, 7, 4], [1, 0, 0, 2, 2, 0, 0, 1])
}

/// The Sune, R U R' U R U2 R', one turn at a time.
fn sune(s: &[u8]) -> Vec<u8> {
    let turns: [(Turn, usize); 7] = [
        (&cube_r, 1),
        (&cube_u, 1),
        (&cube_r, 3),
        (&cube_u, 1),
        (&cube_r, 1),
        (&cube_u, 2),
        (&cube_r, 3),
    ];
    let mut state = s.to_vec();
    for (turn, times) in turns {
        for _ in 0..times {
            state = turn(&state);
        }
    }
    state
}

/// The goal of the pocket cube: pieces 1 to 8 in place, untwisted.
fn cube_goal() -> Vec<u8> {
    (1..=8).chain([0; 8]).collect()
}

#[test]
fn a_sequence_is_searched_as_the_move_it_stands_for() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube-sune.tws");
    // The Sune written out as the state it makes from the goal.
    let written = std::fs::read_to_string(&file).expect("the example").replace(
        "MoveSequence Sune R U R' U R U2 R'",
        "Move Sune\nCORNERS\n3 4 1 2 5 6 7 8\n1 0 1 1 0 0 0 0\nEnd",
    );
    std::fs::write(sandbox.path("written.tws"), written).expect("written");
    for (metric, face) in [("face", true), ("quarter", false)] {
        let mut tables = Vec::new();
        for path in [file.as_str(), "written.tws"] {
            let args = [
                "--rules", path, "--moves", "U,Sune", "--metric", metric, "--out", "out", "--quiet",
            ];
            sandbox.run(&args).success();
            let id = if face {
                "pocket-cube-sune-moves-u-sune"
            } else {
                "pocket-cube-sune-moves-u-sune-quarter"
            };
            tables.push(states(&sandbox.read(&format!("out/{id}/distances.csv"))));
            std::fs::remove_dir_all(sandbox.path("out")).expect("removed");
        }
        let plain = plain_levels(cube_goal(), &[&cube_u, &sune], face, &|_| true);
        assert_eq!(tables[0], plain, "{metric}");
        assert_eq!(tables[1], plain, "{metric}");
    }
}

#[test]
fn an_alias_names_a_move_in_solutions_but_is_no_generator() {
    let sandbox = Sandbox::new();
    let text = std::fs::read_to_string(example("pocket-cube-held.tws")).expect("the example");
    std::fs::write(sandbox.path("alias.tws"), format!("{text}\nMoveAlias Ri R'\n")).expect("written");
    let solved = sandbox.output(&["--rules", "alias.tws", "--quiet", "--solve", "Ri U Ri2"]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    assert_eq!(first_length(&solved.stdout), Some("3 moves"), "{}", solved.stdout);
    sandbox
        .run(&["--rules", "alias.tws", "--quiet", "--out", "out"])
        .success();
    let levels = states(&sandbox.read("out/pocket-cube-held/distances.csv"));
    assert_eq!(levels[1], 9, "U, R and F with their powers, not Ri");
}

#[test]
fn illegal_states_are_never_entered() {
    // examples/slice-rings.tws: S swaps slots 1-3 with 7-9; label 5 (a long piece's second
    // half) may not stand at slots 1, 4, 7 or 10.
    let goal: Vec<u8> = vec![1, 5, 3, 3, 3, 3, 2, 5, 4, 4, 4, 4];
    let from = |perm: [usize; 12]| move |s: &[u8]| perm.iter().map(|&f| s[f - 1]).collect::<Vec<u8>>();
    let u = from([6, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]);
    let d = from([1, 2, 3, 4, 5, 6, 12, 7, 8, 9, 10, 11]);
    let s = from([7, 8, 9, 4, 5, 6, 1, 2, 3, 10, 11, 12]);
    let legal = |state: &[u8]| [0, 3, 6, 9].iter().all(|&i| state[i] != 5);
    let sandbox = Sandbox::new();
    let file = example("slice-rings.tws");
    for (metric, face, id) in [("face", true, "slice-rings"), ("quarter", false, "slice-rings-quarter")] {
        sandbox
            .run(&["--rules", &file, "--metric", metric, "--out", "out", "--quiet"])
            .success();
        let levels = states(&sandbox.read(&format!("out/{id}/distances.csv")));
        assert_eq!(
            levels,
            plain_levels(goal.clone(), &[&u, &d, &s], face, &legal),
            "{metric}"
        );
    }
    // The goal's class is every arrangement of the pieces; it counts the legal ones.
    let legal_arrangements = arrangements(&goal).into_iter().filter(|a| legal(a)).count();
    let classes = sandbox.read("out/slice-rings/classes.csv");
    assert!(
        classes.contains(&format!("all,{legal_arrangements},true,")),
        "{classes}"
    );
    let report = sandbox.read("out/slice-rings/report.md");
    assert_eq!(
        report.matches("illegal (the definition's `Illegal` lines)").count(),
        1,
        "{report}"
    );
}

/// Every distinct arrangement of `pieces`.
fn arrangements(pieces: &[u8]) -> Vec<Vec<u8>> {
    let mut sorted = pieces.to_vec();
    sorted.sort_unstable();
    let mut all = vec![sorted.clone()];
    // Lexicographic successors (Narayana's algorithm) visit each distinct arrangement once.
    loop {
        let Some(i) = (1..sorted.len()).rev().find(|&i| sorted[i - 1] < sorted[i]) else {
            return all;
        };
        let j = (i..sorted.len())
            .rev()
            .find(|&j| sorted[j] > sorted[i - 1])
            .expect("a larger piece");
        sorted.swap(i - 1, j);
        sorted[i..].reverse();
        all.push(sorted.clone());
    }
}

#[test]
fn a_byte_order_mark_and_latin_1_comments_are_read() {
    let sandbox = Sandbox::new();
    let text = std::fs::read(example("pocket-cube-held.tws")).expect("the example");
    let mut bytes = b"\xEF\xBB\xBF# Caf\xE9 au lait: Latin-1\n".to_vec();
    bytes.extend(text);
    std::fs::write(sandbox.path("latin.tws"), bytes).expect("written");
    sandbox
        .run(&["--rules", "latin.tws", "--quiet", "--out", "out"])
        .success();
    let levels = states(&sandbox.read("out/pocket-cube-held/distances.csv"));
    assert_eq!(levels.iter().sum::<u64>(), 3_674_160);
}

#[test]
fn an_open_orientation_does_not_matter() {
    // Four pieces of three orientations, turned, swapped and twisted; piece 1's orientation
    // is `?`. Explicit states: 4 pieces then 4 twists, piece 1's twist forgotten after each
    // move.
    let text = "Name Open\nSet C 4 3\nSolved\nC\n1 2 3 4\n? 0 0 0\nEnd\nMove A\nC\n2 3 4 1\n1 0 0 0\nEnd\nMove B\nC\n2 1 3 4\nEnd\nMove T\nC\n1 2 3 4\n0 0 0 1\nEnd\n";
    let turn = |from: [usize; 4], twist: [u8; 4]| {
        move |s: &[u8]| {
            let mut out = s.to_vec();
            for i in 0..4 {
                out[i] = s[from[i] - 1];
                out[4 + i] = (s[4 + from[i] - 1] + twist[from[i] - 1]) % 3;
                if out[i] == 1 {
                    out[4 + i] = 0;
                }
            }
            out
        }
    };
    let a = turn([2, 3, 4, 1], [1, 0, 0, 0]);
    let b = turn([2, 1, 3, 4], [0; 4]);
    let t = turn([1, 2, 3, 4], [0, 0, 0, 1]);
    let goal = vec![1, 2, 3, 4, 0, 0, 0, 0];
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("open.tws"), text).expect("written");
    for (metric, face, id) in [("face", true, "open"), ("quarter", false, "open-quarter")] {
        sandbox
            .run(&["--rules", "open.tws", "--metric", metric, "--out", "out", "--quiet"])
            .success();
        let levels = states(&sandbox.read(&format!("out/{id}/distances.csv")));
        assert_eq!(
            levels,
            plain_levels(goal.clone(), &[&a, &b, &t], face, &|_| true),
            "{metric}"
        );
    }
    // 4! arrangements and three twists that matter; the group's elements checked against it.
    let report = sandbox.read("out/open/report.md");
    assert!(
        report.contains("Group order by Schreier–Sims: 648; reached: 648."),
        "{report}"
    );
    // A position reads with any twist, or `?`, for the open piece, and is drawn with `?`.
    let solved = sandbox.output(&[
        "--rules",
        "open.tws",
        "--quiet",
        "--solve",
        "C 1 2 3 4, 2 0 0 0",
        "C 2 1 3 4, 0 ? 0 0",
    ]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    let out = &solved.stdout;
    assert!(
        out.contains("solution (0 moves): none, the state is the goal\nC 1 2 3 4\n  ? 0 0 0"),
        "{out}"
    );
    assert!(out.contains("solution (1 move): B\nC 2 1 3 4\n  0 ? 0 0"), "{out}");
}

/// A ring of five and three twisting pieces, with two whole-puzzle turns among its moves:
/// `x` (named as the cube's) and `Bv` (ending in `v`). They only need to be moves that
/// change the table when searched; what they turn does not matter to the convention.
fn turned(names: &[&'static str]) -> PermModel {
    let turn = |name, ring: [u8; 5], twist: [u8; 3], gain: [u8; 3]| PermMove {
        name,
        from: vec![ring.to_vec(), twist.to_vec()],
        twist: vec![vec![0; 5], gain.to_vec()],
    };
    let all = [
        turn("A", [5, 1, 2, 3, 4], [1, 2, 3], [0, 0, 0]),
        turn("x", [1, 2, 3, 4, 5], [2, 1, 3], [0, 1, 2]),
        turn("C", [1, 2, 3, 4, 5], [3, 1, 2], [0, 0, 0]),
        turn("Bv", [2, 1, 3, 4, 5], [3, 1, 2], [1, 1, 1]),
    ];
    PermModel {
        name: "Turned",
        sets: vec![
            PermSet {
                name: "RING",
                size: 5,
                orientations: 1,
            },
            PermSet {
                name: "TWIST",
                size: 3,
                orientations: 3,
            },
        ],
        moves: all.into_iter().filter(|m| names.contains(&m.name)).collect(),
        sequences: Vec::new(),
        illegal: Vec::new(),
    }
}

#[test]
fn rotations_of_a_tws_file_are_left_out_unless_moves_names_them() {
    let sandbox = Sandbox::new();
    let model = turned(&["A", "x", "C", "Bv"]);
    std::fs::write(sandbox.path("turned.tws"), model.text()).expect("written");
    let run = sandbox.run(&["--rules", "turned.tws", "--out", "out"]).success();
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(
        stderr.contains(
            "turned: left out 2 rotations (x, Bv): whole-puzzle turns, not moves; name them with --moves to search them"
        ),
        "{stderr}"
    );
    let moved = turned(&["A", "C"]);
    assert_eq!(
        states(&sandbox.read("out/turned/distances.csv")),
        moved.levels(&moved.solved(), true)
    );
    let report = sandbox.read("out/turned/report.md");
    assert!(
        report.contains("Left out 2 rotations (x, Bv): whole-puzzle turns, not moves."),
        "{report}"
    );
    // Named, a rotation is searched like any move; the other stays out.
    sandbox
        .run(&[
            "--rules",
            "turned.tws",
            "--moves",
            "C,Bv,A",
            "--out",
            "chosen",
            "--quiet",
        ])
        .success();
    let chosen = turned(&["A", "C", "Bv"]);
    let levels = states(&sandbox.read("chosen/turned-moves-a-c-bv/distances.csv"));
    assert_eq!(levels, chosen.levels(&chosen.solved(), true));
    assert_ne!(levels, moved.levels(&moved.solved(), true));
    // A position may still turn the whole puzzle: `[x: A]` is `A`, one move.
    let solved = sandbox.output(&["--rules", "turned.tws", "--quiet", "--solve", "[x: A]"]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    assert_eq!(first_length(&solved.stdout), Some("1 move"), "{}", solved.stdout);
    // A file of rotations alone has nothing to search unless --moves names some.
    std::fs::write(sandbox.path("only.tws"), turned(&["x", "Bv"]).text()).expect("written");
    let ended = sandbox.output(&["--rules", "only.tws", "--out", "none"]);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(ended.stderr.contains("every move is a rotation"), "{}", ended.stderr);
    sandbox
        .run(&["--rules", "only.tws", "--moves", "x", "--out", "none", "--quiet"])
        .success();
}

#[test]
fn a_misspelt_set_in_a_scramble_block_is_named_as_a_set() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.path("bad.scr"),
        "Scramble ONE\nCORNER\n2 1 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\nEnd\n",
    )
    .expect("written");
    std::fs::write(
        sandbox.path("later.scr"),
        "Scramble TWO\nCORNERS\n2 1 3 4 5 6 7 8\nEDGES\n1 2\nEnd\n",
    )
    .expect("written");
    let file = example("pocket-cube.tws");
    for (scrambles, named) in [("bad.scr", "`CORNER`"), ("later.scr", "`EDGES`")] {
        let ended = sandbox.output(&["--rules", &file, "--solve", scrambles]);
        assert_eq!(ended.code, Some(2), "{}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(
            ended.stderr.contains(&format!(
                "{named} is not a set of the puzzle, nor a move (the sets are CORNERS)"
            )),
            "{}",
            ended.stderr
        );
    }
}

/// A position that is no position of the puzzle refuses the whole command, as a malformed
/// one does: every position is read before any is solved, so nothing is printed (with or
/// without `--json`) and no table is built for the good ones.
#[test]
fn a_twisted_corner_among_several_positions_refuses_the_command_before_any_output() {
    let sandbox = Sandbox::with_own_cache();
    std::fs::write(
        sandbox.path("three.scr"),
        "ScrambleAlg GOOD\nR U\nEnd\nScramble TWISTED\nCORNERS\n1 2 3 4 5 6 7 8\n0 0 2 0 0 0 0 0\nEnd\nScrambleAlg LATER\nF\nEnd\n",
    )
    .expect("written");
    let file = example("pocket-cube.tws");
    for json in [false, true] {
        let mut args = vec!["--rules", &file, "--solve", "R", "three.scr"];
        if json {
            args.push("--json");
        }
        let ended = sandbox.output(&args);
        assert_eq!(ended.code, Some(2), "{}", ended.stderr);
        assert_eq!(ended.stdout, "", "json {json}");
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(
            ended
                .stderr
                .contains("no position of the puzzle: CORNERS twist 2, where the goal has CORNERS twist 0"),
            "{}",
            ended.stderr
        );
    }
    assert_eq!(std::fs::read_dir(sandbox.cache()).map(|d| d.count()).unwrap_or(0), 0);
}

#[test]
fn a_position_with_its_twists_as_a_set_of_their_own_says_where_twists_go() {
    let sandbox = Sandbox::new();
    let ended = sandbox.output(&[
        "--rules",
        &example("pocket-cube-held.tws"),
        "--goal",
        "1 2 3 4 5 6 7 8 / 0 0 0 0 0 0 0 0",
        "--out",
        "out",
    ]);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended.stderr.contains("2 sets given, the puzzle has 1 (CORNERS)")
            && ended
                .stderr
                .contains("a set's pieces and its twists are one group, the twists after a comma"),
        "{}",
        ended.stderr
    );
    assert!(!sandbox.path("out").exists());
}

/// `--omit` leaves whole sets out, as twsearch's `--omit`: the Rubik's cube without its
/// edges, turning U and R, is the pocket cube turning U and R, level by level (its moves
/// on the corners are the same); a name that is no set, a set named twice, every set, or
/// a family without sets are refused in one line.
#[test]
fn omitting_the_edges_of_the_cube_leaves_the_pocket_cube() {
    let sandbox = Sandbox::new();
    let (cube, pocket) = (example("3x3x3.tws"), example("pocket-cube.tws"));
    let common = ["--moves", "U,R", "--symmetry", "none", "--quiet", "--out", "out"];
    sandbox
        .run(&[&["--rules", cube.as_str(), "--omit", "EDGES"][..], &common].concat())
        .success();
    sandbox
        .run(&[&["--rules", pocket.as_str()][..], &common].concat())
        .success();
    let without = states(&sandbox.read("out/3x3x3-moves-u-r-omit-edges-symmetry-none/distances.csv"));
    let pocket = states(&sandbox.read("out/pocket-cube-moves-u-r-symmetry-none/distances.csv"));
    assert_eq!(without, pocket);
    assert_eq!(without.iter().sum::<u64>(), 29_160, "<U,R> on the corners");
    for (omit, says) in [
        (
            "CENTERS",
            "`CENTERS` is not a set of the definition (its sets are CORNERS EDGES)",
        ),
        ("EDGES,EDGES", "`EDGES` is named twice"),
        ("EDGES,CORNERS", "leaves out every set"),
        ("EDGES,", "a name is empty"),
    ] {
        let ended = sandbox.output(&["--rules", &cube, "--omit", omit, "--out", "out"]);
        assert_eq!(ended.code, Some(2), "{omit}");
        assert!(
            ended.stderr.contains(says) && ended.stderr.lines().count() == 1,
            "{omit}: {}",
            ended.stderr
        );
    }
    let ended = sandbox.output(&["--puzzle", "eight", "--omit", "EDGES"]);
    assert_eq!(ended.code, Some(2));
    assert!(ended.stderr.contains("does not take --omit"), "{}", ended.stderr);
}
