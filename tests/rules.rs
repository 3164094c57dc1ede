//! Rules files end to end: every example runs, the files of built-in puzzles give their
//! tables byte for byte, the other examples equal reference searches written from the
//! rules in words, and every kind of bad file is refused with its line and column.

#![allow(clippy::unwrap_used)]

use crate::util::{
    CoinRules, CoinVector, RefMove, Sandbox, coin_distances, distances_csv, example, first_length, histogram,
    states_csv,
};

const EXAMPLES: [&str; 5] = [
    "merlins-magic-square.toml",
    "lights-out-torus-5x5.toml",
    "nine-tails.toml",
    "weighted-nine-tails.toml",
    "flipping-game.toml",
];

/// The `distances.csv` of the report with id `id` written by `args`.
fn distances(args: &[&str], id: &str) -> String {
    let sandbox = Sandbox::new();
    sandbox.run(&[args, &["--quiet"]].concat()).success();
    states_csv(&sandbox.read(&format!("reports/{id}/distances.csv")))
}

fn cells(list: impl IntoIterator<Item = (usize, usize)>, cols: usize) -> CoinVector {
    list.into_iter().fold(0, |v, (r, c)| v | 1 << (r * cols + c))
}

#[test]
fn every_example_runs() {
    for name in EXAMPLES {
        let sandbox = Sandbox::new();
        let assert = sandbox.run(&["--rules", &example(name), "--quiet"]);
        let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).unwrap();
        assert!(stdout.contains("configurations reachable"), "{name}: {stdout}");
        let folders = sandbox.list("reports");
        assert_eq!(folders.len(), 1, "{name}: {folders:?}");
        for file in [
            "distances.csv",
            "classes.csv",
            "summary.json",
            "report.md",
            "distances.png",
        ] {
            assert!(
                sandbox.path(&format!("reports/{}/{file}", folders[0])).exists(),
                "{name}: {file}"
            );
        }
    }
}

#[test]
fn several_files_get_an_index() {
    let sandbox = Sandbox::new();
    let files: Vec<String> = EXAMPLES.iter().map(|n| example(n)).collect();
    let mut args = vec!["--quiet", "--rules"];
    args.extend(files.iter().map(String::as_str));
    sandbox.run(&args).success();
    let index = sandbox.read("reports/README.md");
    for id in [
        "merlin-s-magic-square",
        "lights-out-on-a-5x5-torus",
        "the-flipping-game",
    ] {
        assert!(index.contains(id), "{id} missing from the index");
    }
    assert!(sandbox.path("reports/overview.png").exists());
}

#[test]
fn a_name_with_html_and_markdown_is_shown_as_written_in_the_index_and_the_report() {
    let sandbox = Sandbox::new();
    let name = "A <script>alert(1)</script> | **bold**";
    std::fs::write(
        sandbox.path("odd.toml"),
        file_with(&[("name = \"Test\"", &format!("name = \"{name}\""))]),
    )
    .unwrap();
    std::fs::write(sandbox.path("plain.toml"), file_with(&[])).unwrap();
    sandbox.run(&["--quiet", "--rules", "odd.toml", "plain.toml"]).success();
    let escaped = "A &lt;script&gt;alert(1)&lt;/script&gt; \\| \\*\\*bold\\*\\*";
    let index = sandbox.read("reports/README.md");
    let row = format!("| [{escaped}](a-script-alert-1-script-bold/report.md) | 512 |");
    assert!(index.contains(&row), "{index}");
    let report = sandbox.read("reports/a-script-alert-1-script-bold/report.md");
    assert!(report.starts_with(&format!("# {escaped}\n")), "{report}");
    for text in [&index, &report] {
        assert!(!text.contains("<script>") && !text.contains("**bold"), "{text}");
    }
}

#[test]
fn built_in_puzzles_written_as_files_give_byte_identical_tables() {
    for (file, args, built_in, id) in [
        (
            "nine-tails.toml",
            vec!["--puzzle", "nine-tails"],
            "nine-tails-3x3",
            "nine-tails",
        ),
        (
            "flipping-game.toml",
            vec!["--puzzle", "lights-out"],
            "lights-out-4x3",
            "the-flipping-game",
        ),
        (
            "weighted-nine-tails.toml",
            vec!["--puzzle", "weighted-nine-tails"],
            "weighted-nine-tails-3x3",
            "weighted-nine-tails",
        ),
    ] {
        let (a, b) = (Sandbox::new(), Sandbox::new());
        a.run(&["--rules", &example(file), "--quiet"]).success();
        b.run(&[args.as_slice(), &["--quiet"]].concat()).success();
        for table in ["distances.csv", "classes.csv"] {
            assert_eq!(
                a.read(&format!("reports/{id}/{table}")),
                b.read(&format!("reports/{built_in}/{table}")),
                "{file}: {table}"
            );
        }
    }
}

#[test]
fn merlins_magic_square_equals_a_reference_search() {
    // Corners flip their 2x2 square, edges their side, the centre itself and its four
    // neighbours; goal all heads.
    let mut moves = Vec::new();
    for r in 0..3 {
        for c in 0..3 {
            let flips = match (r, c) {
                (1, 1) => cells([(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)], 3),
                (1, _) => cells((0..3).map(|rr| (rr, c)), 3),
                (_, 1) => cells((0..3).map(|cc| (r, cc)), 3),
                _ => cells([(r, c), (1, c), (r, 1), (1, 1)], 3),
            };
            moves.push(RefMove::free(flips));
        }
    }
    let rules = CoinRules {
        coins: 9,
        moves,
        goals: vec![0],
    };
    let reference = histogram(coin_distances(&rules).into_values());
    assert_eq!(
        distances(
            &["--rules", &example("merlins-magic-square.toml")],
            "merlin-s-magic-square"
        ),
        distances_csv(&reference)
    );
}

#[test]
fn lights_out_on_a_torus_equals_a_reference_search() {
    let n = 5;
    let moves = (0..n * n)
        .map(|cell| {
            let (r, c) = (cell / n, cell % n);
            let around = [
                (r, c),
                ((r + 1) % n, c),
                ((r + n - 1) % n, c),
                (r, (c + 1) % n),
                (r, (c + n - 1) % n),
            ];
            RefMove::free(cells(around, n))
        })
        .collect();
    let rules = CoinRules {
        coins: n * n,
        moves,
        goals: vec![0],
    };
    let reference = histogram(coin_distances(&rules).into_values());
    assert_eq!(
        distances(
            &["--rules", &example("lights-out-torus-5x5.toml")],
            "lights-out-on-a-5x5-torus"
        ),
        distances_csv(&reference)
    );
}

#[test]
fn solves_with_a_rules_file() {
    let sandbox = Sandbox::new();
    let assert = sandbox.run(&[
        "--rules",
        &example("weighted-nine-tails.toml"),
        "--solve",
        "HHH/TTT/HHH",
        "--quiet",
    ]);
    let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).unwrap();
    assert_eq!(first_length(&stdout), Some("8 flips, 2 moves"), "{stdout}");
    let assert = sandbox.run(&[
        "--rules",
        &example("flipping-game.toml"),
        "--solve",
        "THH/HHH/HHH/HHH",
        "--quiet",
    ]);
    let stdout = String::from_utf8(assert.success().get_output().stdout.clone()).unwrap();
    // The moves carry the file's names, single letters A to L.
    let first = stdout.lines().find_map(|l| l.strip_prefix("move 1: ")).unwrap();
    assert!(first.len() == 1 && ("A"..="L").contains(&first), "{stdout}");
}

/// A board with one move, with `line` replacing the line that starts the same way.
fn file_with(replacements: &[(&str, &str)]) -> String {
    let mut text = String::from(
        "name = \"Test\"\nrows = 3\ncols = 3\ngoals = [\"HHHHHHHHH\"]\n\n[[move]]\nname = \"A\"\nflips = \"xx./xx./...\"\n\n[[move]]\nname = \"B\"\nflips = \"xxx/.../...\"\n",
    );
    for (old, new) in replacements {
        assert!(text.contains(old), "{old}");
        text = text.replacen(old, new, 1);
    }
    text
}

#[test]
fn the_template_of_the_bad_files_is_good() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("good.toml"), file_with(&[])).unwrap();
    sandbox.run(&["--rules", "good.toml", "--quiet"]).success();
}

#[test]
fn bad_files_are_refused_with_line_column_and_what_is_accepted() {
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("syntax", file_with(&[("cols = 3", "cols = 3 3")]), ":3:", "quoted"),
        (
            "missing field",
            file_with(&[("rows = 3\n", "")]),
            ":1:1:",
            "missing field `rows`",
        ),
        (
            "pattern shape",
            file_with(&[("xx./xx./...", "xx/xx/xx")]),
            ":8:9:",
            "the board is 3 cells wide",
        ),
        (
            "pattern rows",
            file_with(&[("xx./xx./...", "xx./xx.")]),
            ":8:9:",
            "3 rows",
        ),
        (
            "pattern letters",
            file_with(&[("xx./xx./...", "xo./xx./...")]),
            ":8:9:",
            "write x",
        ),
        (
            "flips nothing",
            file_with(&[("xx./xx./...", ".../.../...")]),
            ":8:9:",
            "flips nothing",
        ),
        (
            "two names",
            file_with(&[("name = \"B\"", "name = \"A\"")]),
            ":11:8:",
            "on line 7",
        ),
        (
            "goal length",
            file_with(&[("\"HHHHHHHHH\"", "\"HHHHHHHH\"")]),
            ":4:10:",
            "expected 9 coins",
        ),
        (
            "goal letters",
            file_with(&[("\"HHHHHHHHH\"", "\"HHHHHHHHX\"")]),
            ":4:10:",
            "write H",
        ),
        (
            "goal row width",
            file_with(&[("\"HHHHHHHHH\"", "\"HHHH/HHHH/H\"")]),
            ":4:10:",
            "3 coins wide",
        ),
        (
            "cost 0",
            file_with(&[("flips = \"xxx/.../...\"", "flips = \"xxx/.../...\"\ncost = 0")]),
            ":13:8:",
            "a move costs 1 to",
        ),
        (
            "negative cost",
            file_with(&[("flips = \"xxx/.../...\"", "flips = \"xxx/.../...\"\ncost = -3")]),
            ":13:8:",
            "a move costs 1 to",
        ),
        (
            "needs_heads outside",
            file_with(&[(
                "flips = \"xxx/.../...\"",
                "flips = \"xxx/.../...\"\nneeds_heads = \"r4c1\"",
            )]),
            ":13:15:",
            "r1c1 to r3c3",
        ),
        (
            "too many coins",
            file_with(&[("rows = 3", "rows = 6"), ("cols = 3", "cols = 5")]),
            ":2:8:",
            "the limit is 25",
        ),
        (
            "unknown field",
            file_with(&[("rows = 3", "rows = 3\ncolour = 1")]),
            ":3:1:",
            "unknown field",
        ),
    ];
    for (what, text, at, accepted) in cases {
        let sandbox = Sandbox::new();
        std::fs::write(sandbox.path("bad.toml"), &text).unwrap();
        let assert = sandbox.run(&["--rules", "bad.toml", "--out", "out"]);
        let output = assert.code(2).get_output().clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.starts_with(&format!("error: bad.toml{at}")), "{what}: {stderr}");
        assert!(stderr.contains(accepted), "{what}: {stderr}");
        assert!(output.stdout.is_empty(), "{what}");
        assert!(!sandbox.path("out").exists(), "{what}: something was written");
    }
}

#[test]
fn a_missing_rules_file_is_bad_input() {
    let sandbox = Sandbox::new();
    let assert = sandbox.run(&["--rules", "nowhere.toml", "--out", "out"]);
    let stderr = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
    assert!(
        stderr.starts_with("error: cannot read the rules file nowhere.toml"),
        "{stderr}"
    );
    assert!(!sandbox.path("out").exists());
}

#[test]
fn coin_rows_separated_by_slashes_must_have_the_board_width() {
    // 4x3 lights out: rows of 3. Twelve coins cut into rows of 4 are refused, not re-cut.
    let sandbox = Sandbox::new();
    let assert = sandbox.run(&["--puzzle", "lights-out", "--solve", "HHHH/HHHH/HHHT"]);
    let stderr = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("3 rows separated by /, but the board has 4 rows of 3 coins"),
        "{stderr}"
    );
    let assert = sandbox.run(&["--puzzle", "lights-out", "--solve", "HHHH/HH/HHH/HHT"]);
    let stderr = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("row 1 has 4 coins, but the board is 3 coins wide"),
        "{stderr}"
    );
    sandbox
        .run(&["--puzzle", "lights-out", "--solve", "HHH/HHH/HHH/HHT", "--quiet"])
        .success();
    // Without separators the coins are read row by row.
    sandbox
        .run(&["--puzzle", "lights-out", "--solve", "HHHHHHHHHHHT", "--quiet"])
        .success();
    // Flip K of N reads coins with the same reader: one row, so `/` splits it wrongly.
    let assert = sandbox.run(&["--puzzle", "flip-k", "--solve", "HHH/HHHH"]);
    let stderr = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("2 rows separated by /, but the board has 1 row of 7 coins"),
        "{stderr}"
    );
}

#[test]
fn two_files_with_one_id_are_refused() {
    let sandbox = Sandbox::new();
    let assert = sandbox.run(&[
        "--rules",
        &example("nine-tails.toml"),
        &example("nine-tails.toml"),
        "--out",
        "out",
    ]);
    let stderr = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("make the id `nine-tails`"), "{stderr}");
    assert!(!sandbox.path("out").exists());
}

proptest::proptest! {
    /// Any text, and any example with a piece cut out or replaced, is a puzzle or an
    /// error with a message: never a panic.
    #[test]
    fn the_rules_parser_never_panics(
        noise in "\\PC{0,200}",
        which in 0..EXAMPLES.len(),
        cut in 0usize..4000,
        len in 0usize..40,
    ) {
        let _ = analyze::puzzle::rules::parse_rules(&noise);
        let text = std::fs::read_to_string(example(EXAMPLES[which])).unwrap();
        let start = (cut % text.len()..).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
        let end = ((start + len).min(text.len())..).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
        for mutated in [format!("{}{}", &text[..start], &text[end..]), format!("{}{noise}{}", &text[..start], &text[end..])] {
            if let Err(e) = analyze::puzzle::rules::parse_rules(&mutated) {
                proptest::prop_assert!(!e.message.is_empty());
            }
        }
    }
}
