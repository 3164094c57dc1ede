//! One identity per search, end to end: processes, checkpoints and cached tables of two
//! puzzles that share a name (two rules files, a rules file and a built-in, two definition
//! files of one file name, a file edited between two runs) are never combined. Each case
//! once wrote a report, or solved positions, of neither puzzle with exit 0.

use crate::util::{Ended, Sandbox, wait};
use std::process::Child;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// Merlin's magic square (9 moves), with the corner move `A` flipping `a_flips`.
fn merlin(a_flips: &str) -> String {
    let moves = [
        ("A", a_flips),
        ("B", "xxx/.../..."),
        ("C", ".xx/.xx/..."),
        ("D", "x../x../x.."),
        ("E", ".x./xxx/.x."),
        ("F", "..x/..x/..x"),
        ("G", ".../xx./xx."),
        ("H", ".../.../xxx"),
        ("I", ".../.xx/.xx"),
    ];
    let mut text = "name = \"Merlin's magic square\"\nrows = 3\ncols = 3\ngoals = [\"HHHHHHHHH\"]\n".to_string();
    for (name, flips) in moves {
        text.push_str(&format!("\n[[move]]\nname = \"{name}\"\nflips = \"{flips}\"\n"));
    }
    text
}

/// The usual corner move of Merlin's square, and one with a cell more.
const CORNER: &str = "xx./xx./...";
const CHANGED: &str = "xx./xx./x..";

/// Nine tails on 4x4 as a rules file named like the built-in (`nine-tails-4x4`), but coin
/// `r2c3` may be picked face down as well: a move condition changed, nothing else. The
/// ranks the old 64-rank fingerprint of a table sampled all show that coin face up, so
/// it could not tell the two apart.
fn nine_tails_4x4_lookalike() -> String {
    let mut text = "name = \"Nine tails 4x4\"\nrows = 4\ncols = 4\ngoals = [\"TTTT/TTTT/TTTT/TTTT\"]\n".to_string();
    for r in 0..4i32 {
        for c in 0..4i32 {
            let flips: Vec<String> = (0..4i32)
                .map(|row| {
                    (0..4i32)
                        .map(|col| {
                            if (row - r).abs() + (col - c).abs() <= 1 {
                                'x'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            let name = format!("r{}c{}", r + 1, c + 1);
            text.push_str(&format!(
                "\n[[move]]\nname = \"{name}\"\nflips = \"{}\"\n",
                flips.join("/")
            ));
            if (r, c) != (1, 2) {
                text.push_str(&format!("needs_heads = \"{name}\"\n"));
            }
        }
    }
    text
}

/// The pocket cube with one corner held, its `F` move given as `f` (two lines).
fn pocket_cube(f: &str, comment: &str) -> String {
    format!(
        "# {comment}\nSet CORNERS 8 3\n\nMove U\nCORNERS\n4 1 2 3 5 6 7 8\n0 0 0 0 0 0 0 0\nEnd\n\nMove R\nCORNERS\n5 2 3 1 8 6 7 4\n1 0 0 2 2 0 0 1\nEnd\n\nMove F\nCORNERS\n{f}\nEnd\n"
    )
}

const F: &str = "2 6 3 4 1 5 7 8\n2 1 0 0 1 2 0 0";
/// `F` turned twice.
const F2: &str = "6 5 3 4 2 1 7 8\n0 0 0 0 0 0 0 0";

/// Runs process 0 with `first` and process 1 with `second` (each with the hostfile and
/// `--out out`), and waits for both.
fn two_processes(sandbox: &Sandbox, first: &[&str], second: &[&str]) -> Vec<Ended> {
    crate::cluster::hostfile(sandbox, "hosts", 2);
    let hosts = "hosts";
    let children: Vec<Child> = [first, second]
        .iter()
        .enumerate()
        .map(|(i, args)| {
            let index = i.to_string();
            let mut all = args.to_vec();
            all.extend(["--hosts", hosts, "--process", &index, "--quiet", "--out", "out"]);
            all.extend(["--level-timeout", "20"]);
            sandbox.spawn(&all)
        })
        .collect();
    children.into_iter().map(|c| wait(c, LIMIT)).collect()
}

/// Both processes refused each other with exit 2, at least one saying the search differs
/// in `what`, and no report was written.
fn assert_refused(sandbox: &Sandbox, ended: &[Ended], what: &str) {
    for e in ended {
        assert_ne!(e.code, Some(0), "{}", e.stderr);
        assert!(e.stderr.lines().count() <= 2, "{}", e.stderr);
    }
    assert!(
        ended
            .iter()
            .any(|e| e.code == Some(2) && e.stderr.contains("runs another search") && e.stderr.contains(what)),
        "{:?}",
        ended.iter().map(|e| &e.stderr).collect::<Vec<_>>()
    );
    let written = std::fs::read_dir(sandbox.path("out"))
        .map(|d| d.flatten().count())
        .unwrap_or(0);
    assert_eq!(written, 0, "a report was written");
}

#[test]
fn processes_given_rules_files_of_one_name_but_another_move_refuse_each_other() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.path("a")).expect("mkdir");
    std::fs::create_dir_all(sandbox.path("b")).expect("mkdir");
    std::fs::write(sandbox.path("a/merlin.toml"), merlin(CORNER)).expect("write");
    std::fs::write(sandbox.path("b/merlin.toml"), merlin(CHANGED)).expect("write");
    let ended = two_processes(&sandbox, &["--rules", "a/merlin.toml"], &["--rules", "b/merlin.toml"]);
    assert_refused(&sandbox, &ended, "the moves");
}

#[test]
fn processes_given_a_rules_file_named_like_a_built_in_refuse_it() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path("nine.toml"), nine_tails_4x4_lookalike()).expect("write");
    let ended = two_processes(
        &sandbox,
        &["--puzzle", "nine-tails", "--rows", "4", "--cols", "4"],
        &["--rules", "nine.toml"],
    );
    assert_refused(&sandbox, &ended, "the puzzle family");
}

#[test]
fn processes_given_definitions_of_one_file_name_in_two_folders_refuse_each_other() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.path("a")).expect("mkdir");
    std::fs::create_dir_all(sandbox.path("b")).expect("mkdir");
    std::fs::write(sandbox.path("a/cube.tws"), pocket_cube(F, "one")).expect("write");
    std::fs::write(sandbox.path("b/cube.tws"), pocket_cube(F2, "one")).expect("write");
    let ended = two_processes(&sandbox, &["--rules", "a/cube.tws"], &["--rules", "b/cube.tws"]);
    assert_refused(&sandbox, &ended, "the moves");
}

#[test]
fn processes_given_the_same_definition_written_differently_share_one_search() {
    // Comments and layout are not the puzzle: the same moves are the same search.
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.path("a")).expect("mkdir");
    std::fs::create_dir_all(sandbox.path("b")).expect("mkdir");
    std::fs::write(sandbox.path("a/cube.tws"), pocket_cube(F, "one")).expect("write");
    let other = pocket_cube(F, "another comment").replace("\nMove U", "\n\n# U turns the top\nMove U");
    std::fs::write(sandbox.path("b/cube.tws"), other).expect("write");
    let ended = two_processes(&sandbox, &["--rules", "a/cube.tws"], &["--rules", "b/cube.tws"]);
    for e in &ended {
        assert_eq!(e.code, Some(0), "{}", e.stderr);
    }
    let table = std::fs::read_to_string(sandbox.path("out/cube/distances.csv")).expect("the report");
    // OEIS A079761: the pocket cube, half-turn metric.
    let counts: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(
        counts,
        [
            "1", "9", "54", "321", "1847", "9992", "50136", "227536", "870072", "1887748", "623800", "2644"
        ]
    );
}

/// Runs `args` with `--checkpoint ck --out out`.
fn checkpointed(sandbox: &Sandbox, args: &[&str]) -> Ended {
    let mut all = args.to_vec();
    all.extend(["--checkpoint", "ck", "--out", "out", "--quiet", "--threads", "1"]);
    sandbox.output(&all)
}

/// A file searched with checkpoints, edited, then searched again with the same checkpoint
/// folder: refused (exit 2, one line naming what differs), and the report of the first
/// run left as it was.
fn assert_edit_refused(name: &str, before: &str, after: &str, report: &str, what: &str) {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.path(name), before).expect("write");
    let first = checkpointed(&sandbox, &["--rules", name]);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let table = sandbox.path(&format!("out/{report}/distances.csv"));
    let written = std::fs::read_to_string(&table).expect("the first report");
    std::fs::write(sandbox.path(name), after).expect("the file is edited");
    let again = checkpointed(&sandbox, &["--rules", name]);
    assert_eq!(again.code, Some(2), "{}", again.stderr);
    assert_eq!(again.stderr.lines().count(), 1, "{}", again.stderr);
    assert!(
        again.stderr.starts_with("error: ")
            && again.stderr.contains("cannot be resumed")
            && again.stderr.contains(what),
        "{}",
        again.stderr
    );
    assert!(!again.stderr.contains("resuming"), "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&table).expect("the report"), written);
}

#[test]
fn a_checkpoint_of_a_rules_file_edited_since_is_refused() {
    assert_edit_refused(
        "merlin.toml",
        &merlin(CORNER),
        &merlin(CHANGED),
        "merlin-s-magic-square",
        "moves",
    );
}

#[test]
fn a_checkpoint_of_a_definition_edited_since_is_refused() {
    assert_edit_refused(
        "cube.tws",
        &pocket_cube(F, "F"),
        &pocket_cube(F2, "F2"),
        "cube",
        "moves",
    );
}

/// Positions of nine tails 4x4 that the built-in solves, some of them at another distance
/// in the look-alike: one a line.
fn nine_tails_positions() -> Vec<String> {
    use analyze::puzzle::prelude::*;
    use analyze::solve::table::DistanceTable;
    let puzzle = analyze::puzzle::nine_tails::nine_tails(4, 4);
    let lookalike = analyze::puzzle::rules::parse_rules(&nine_tails_4x4_lookalike()).expect("the rules");
    let table = DistanceTable::build(&puzzle).expect("the table");
    let other = DistanceTable::build(&lookalike).expect("the table");
    let solvable = |rank: &u64| table.distance(*rank).is_some();
    let differ = (0..puzzle.states()).filter(|r| solvable(r) && table.distance(*r) != other.distance(*r));
    let alike = (0..puzzle.states()).step_by(97).filter(solvable);
    differ
        .take(20)
        .chain(alike.take(20))
        .map(|rank| puzzle.render(rank))
        .collect()
}

#[test]
fn a_rules_file_named_like_a_built_in_never_poisons_its_cached_table() {
    let positions = nine_tails_positions();
    assert_eq!(positions.len(), 40);
    // The solutions, without the timing table at the end.
    let solve = |sandbox: &Sandbox, args: &[&str]| -> String {
        let mut all = args.to_vec();
        all.extend(["--quiet", "--solve"]);
        all.extend(positions.iter().map(String::as_str));
        let ended = sandbox.output(&all);
        assert_eq!(ended.code, Some(0), "{}", ended.stderr);
        ended.stdout.split("| state").next().unwrap_or_default().to_string()
    };
    let built_in = ["--puzzle", "nine-tails", "--rows", "4", "--cols", "4"];
    let clean = solve(&Sandbox::with_own_cache(), &built_in);

    let sandbox = Sandbox::with_own_cache();
    std::fs::write(sandbox.path("nine.toml"), nine_tails_4x4_lookalike()).expect("write");
    let lookalike = solve(&sandbox, &["--rules", "nine.toml"]);
    assert_ne!(lookalike, clean, "the look-alike is another puzzle");
    assert_eq!(
        solve(&sandbox, &built_in),
        clean,
        "the built-in read the look-alike's table"
    );
    // Both tables are kept, side by side, each under its own identity.
    assert_eq!(sandbox.list("cache").len(), 2, "{:?}", sandbox.list("cache"));
    assert_eq!(solve(&sandbox, &["--rules", "nine.toml"]), lookalike);
}
