//! The community's formats through the binary: a cubing.js KPuzzle definition gives the
//! pocket cube's published tables, `--solve` and `--goal` take move sequences, twsearch
//! scramble files are solved block by block, and bad files get one line and exit 2.

use crate::util::{Sandbox, example, first_length, states};
use analyze::puzzle::family::SizeArgs;
use analyze::registry;
use analyze::report::oeis;
use std::path::Path;

/// The sequence whose published terms, length and total a `distances.csv` equals.
fn sequence(csv: &str) -> Option<&'static str> {
    oeis::find(&states(csv)).map(|s| s.id)
}

#[test]
fn the_kpuzzle_pocket_cube_on_u_r_f_is_a079761_and_a079762() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube.kpuzzle.json");
    let face = sandbox.output(&["--rules", &file, "--out", "out"]);
    assert_eq!(face.code, Some(0), "{}", face.stderr);
    // The rotations are not generators, and stderr says so in one line.
    assert!(
        face.stderr
            .contains("pocket-cube-kpuzzle: moves U R F; left out 9 rotations (x, y, z, Rv, Uv, Fv, Lv, Dv, Bv): whole-puzzle turns, not moves; name them with --moves to search them"),
        "{}",
        face.stderr
    );
    let face = sandbox.read("out/pocket-cube-kpuzzle/distances.csv");
    assert_eq!(sequence(&face), Some("A079761"));
    sandbox
        .run(&["--rules", &file, "--metric", "quarter", "--quiet", "--out", "out"])
        .success();
    let quarter = sandbox.read("out/pocket-cube-kpuzzle-quarter/distances.csv");
    assert_eq!(sequence(&quarter), Some("A079762"));
}

#[test]
fn solve_and_goal_take_move_sequences_with_groups_conjugates_and_commutators() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube.kpuzzle.json");
    // A sequence and what it spells out solve alike; the shortest solution of a
    // commutator is no longer than the commutator.
    for (sequence, spelled, length) in [
        ("[R, U]", "R U R' U'", "4 moves"),
        ("[F: R2]", "F R2 F'", "3 moves"),
        ("(R U')2", "R U' R U'", "4 moves"),
    ] {
        let a = sandbox.output(&["--rules", &file, "--quiet", "--solve", sequence]);
        let b = sandbox.output(&["--rules", &file, "--quiet", "--solve", spelled]);
        assert_eq!(a.code, Some(0), "{}", a.stderr);
        assert_eq!(first_length(&a.stdout), Some(length), "{sequence}: {}", a.stdout);
        // The same position: the same drawing after the solution line.
        assert_eq!(a.stdout.lines().nth(1), b.stdout.lines().nth(1), "{sequence}");
    }
    // Positions are drawn in the file's terms: its set name, pieces counted from 0.
    let u = sandbox.output(&["--rules", &file, "--quiet", "--solve", "U"]);
    assert!(u.stdout.contains("CORNERS 3 0 1 2 4 5 6 7"), "{}", u.stdout);
    let by_numbers = sandbox.output(&["--rules", &file, "--quiet", "--solve", "3 0 1 2 4 5 6 7"]);
    assert_eq!(
        first_length(&by_numbers.stdout),
        Some("1 move"),
        "{}",
        by_numbers.stdout
    );
    // --goal as moves: the goal itself is 0 moves from it, and named in the report id.
    sandbox
        .run(&["--rules", &file, "--goal", "[R, U]", "--quiet", "--out", "out"])
        .success();
    let folders = sandbox.list("out");
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(folders[0].starts_with("pocket-cube-kpuzzle-goal-"), "{folders:?}");
    // An unknown move is named, with exit 2.
    let bad = sandbox.output(&["--rules", &file, "--quiet", "--solve", "R [U, Q]"]);
    assert_eq!(bad.code, Some(2));
    assert!(
        bad.stderr.contains("`Q` is not a move (the moves are U R F"),
        "{}",
        bad.stderr
    );
    // The same notation on a .tws definition.
    let held = example("pocket-cube-held.tws");
    let tws = sandbox.output(&["--rules", &held, "--quiet", "--solve", "[R: U2]"]);
    assert_eq!(first_length(&tws.stdout), Some("3 moves"), "{}", tws.stdout);
}

#[test]
fn a_scramble_file_is_solved_scramble_by_scramble_under_their_names() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube.kpuzzle.json");
    let solved = sandbox.output(&["--rules", &file, "--quiet", "--solve", &example("pocket-cube.scr")]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    let rows: Vec<&str> = solved.stdout.lines().filter(|l| l.starts_with("| ")).skip(1).collect();
    let rows: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.split('|').map(str::trim).filter(|c| !c.is_empty()).take(2).collect())
        .collect();
    assert_eq!(rows, [vec!["SEXY", "4"], vec!["TWO-CORNERS", "6"], vec!["U-TURN", "1"]]);
    // A bad block is named by its file, line and name; nothing is solved.
    std::fs::write(
        sandbox.path("bad.scr"),
        "ScrambleAlg A\nR U\nEnd\n\nScrambleAlg B\nR Q\nEnd\n",
    )
    .expect("written");
    let bad = sandbox.output(&["--rules", &file, "--solve", "bad.scr"]);
    assert_eq!(bad.code, Some(2));
    assert!(
        bad.stderr.starts_with("error: bad.scr:5: scramble B: "),
        "{}",
        bad.stderr
    );
    assert!(bad.stderr.contains("`Q` is not a move"), "{}", bad.stderr);
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    assert!(bad.stdout.is_empty());
}

#[test]
fn bad_kpuzzle_files_get_one_line_naming_the_file_and_exit_2() {
    let sandbox = Sandbox::new();
    let good = std::fs::read_to_string(example("pocket-cube.kpuzzle.json")).expect("example");
    let many: Vec<String> = (0..10_000).map(|i| format!("\"D{i}\": \"U\"")).collect();
    let cases = [
        (
            good.replace("[3, 0, 1, 2, 4, 5, 6, 7]", "[3, 0, 1, 1, 4, 5, 6, 7]"),
            "move U, orbit CORNERS: the permutation is not one: 1 appears twice",
        ),
        (
            good.replace("[2, 0, 0, 1, 1, 0, 0, 2]", "[2, 0, 0, 3, 1, 0, 0, 2]"),
            "move R, orbit CORNERS: orientationDelta: 3 is out of range 0 to 2",
        ),
        (
            good.replace("\"Rv\": \"x\"", "\"Rv\": \"W2\", \"W\": \"[Rv: U]\""),
            "cycle: Rv -> W -> Rv",
        ),
        (
            good.replace("\"Rv\": \"x\"", &many.join(", ")),
            "10011 moves (given and derived), more than the 1024 accepted",
        ),
        (
            good.replace("\"[x: y]\"", "\"[x: w]\""),
            "derived move z: `w` is not a move",
        ),
        (
            good.replacen("\"moves\": {", "\"moves\": {,", 1),
            ":7: column 13: key must be a string",
        ),
        (
            good.replacen("\"y\": {", "\"U\": {", 1),
            ":12: column 7: `U` is given twice in one object",
        ),
        (
            good.replace("\"Rv\": \"x\"", "\"Rv\": \"x\", \"R\": \"U\""),
            "derived move `R` is named like a given move",
        ),
        (
            "Name X\nSet A 3 1\nMove M\nA\n2 3 1\nEnd\n".to_string(),
            "a .json definition must be a KPuzzle JSON object, starting with `{`",
        ),
    ];
    for (i, (text, mentions)) in cases.iter().enumerate() {
        let name = format!("bad{i}.kpuzzle.json");
        std::fs::write(sandbox.path(&name), text).expect("written");
        let ended = sandbox.output(&["--rules", &name, "--out", "out"]);
        assert_eq!(ended.code, Some(2), "{mentions}");
        assert!(ended.stderr.contains(&name), "{}", ended.stderr);
        assert!(ended.stderr.contains(mentions), "{}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    }
    assert!(!sandbox.path("out").exists());
}

#[test]
fn two_kpuzzle_files_differing_only_in_layout_share_one_identity() {
    let text = std::fs::read_to_string(example("pocket-cube.kpuzzle.json")).expect("example");
    // All on one line, the orbit's fields in another order.
    let relaid = text.replace('\n', " ").replace(
        r#"{ "orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3 }"#,
        r#"{"numOrientations": 3, "numPieces": 8, "orbitName": "CORNERS"}"#,
    );
    assert_ne!(relaid, text);
    let identity = |text: &str| {
        let path = Path::new("cube.kpuzzle.json");
        let family = registry::for_file(path, text).expect("a definition");
        family.read(path, text, &SizeArgs::default()).expect("read").identity()
    };
    assert!(identity(&relaid) == identity(&text));
    // A move changed is another puzzle.
    let changed = text.replace("[2, 0, 0, 1, 1, 0, 0, 2]", "[0, 0, 0, 0, 0, 0, 0, 0]");
    assert!(identity(&changed) != identity(&text));
}
