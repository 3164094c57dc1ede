//! `--sample D [N]`: positions drawn at random among those at a distance from the goal,
//! the same on every run; each solves in exactly that distance.

use crate::util::Sandbox;

/// The positions `analyze ARGS` prints, one a line, after checking it succeeded.
fn sample(sandbox: &Sandbox, args: &[&str]) -> Vec<String> {
    let ended = sandbox.output(args);
    assert_eq!(ended.code, Some(0), "{args:?}: {}", ended.stderr);
    ended.stdout.lines().map(str::to_string).collect()
}

/// Asserts each of `positions` solves in exactly `moves` moves with the puzzle `args`.
fn each_solves_in(sandbox: &Sandbox, args: &[&str], positions: &[String], moves: &str) {
    let mut solve = [args, &["--quiet", "--solve"]].concat();
    solve.extend(positions.iter().map(String::as_str));
    let ended = sandbox.output(&solve);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let lengths: Vec<&str> = ended.stdout.lines().filter_map(crate::util::solution_length).collect();
    assert_eq!(lengths, vec![moves; positions.len()], "{}", ended.stdout);
}

#[test]
fn the_two_8_puzzle_antipodes_are_the_sample_at_distance_31() {
    let mut printed = sample(&Sandbox::new(), &["--puzzle", "eight", "--sample", "31", "2"]);
    printed.sort();
    assert_eq!(printed, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    // Asking for more gives the two, with a note.
    let ended = Sandbox::new().output(&["--puzzle", "eight", "--sample", "31", "5"]);
    assert_eq!(ended.stdout.lines().count(), 2, "{}", ended.stdout);
    assert!(
        ended.stderr.contains("only 2 states lie at distance 31"),
        "{}",
        ended.stderr
    );
}

#[test]
fn a_sample_is_the_same_on_every_run_and_another_seed_draws_others() {
    let args = ["--puzzle", "eight", "--sample", "20", "5"];
    let first = sample(&Sandbox::new(), &args);
    assert_eq!(first.len(), 5);
    assert_eq!(sample(&Sandbox::new(), &args), first);
    let other = sample(&Sandbox::new(), &[&args[..], &["--seed", "1"]].concat());
    assert_eq!(other.len(), 5);
    assert_ne!(other, first);
    assert_eq!(
        sample(&Sandbox::new(), &["--puzzle", "eight", "--sample", "20"]).len(),
        10
    );
}

#[test]
fn every_sampled_position_solves_in_exactly_its_distance() {
    let sandbox = Sandbox::new();
    let eight = ["--puzzle", "eight"];
    let positions = sample(&sandbox, &[&eight[..], &["--sample", "20", "5"]].concat());
    each_solves_in(&sandbox, &eight, &positions, "20 moves");
    let lights_out = ["--puzzle", "lights-out"];
    let positions = sample(&sandbox, &[&lights_out[..], &["--sample", "4", "3"]].concat());
    each_solves_in(&sandbox, &lights_out, &positions, "4 moves");
    let cube = format!("{}/examples/pocket-cube-held.tws", env!("CARGO_MANIFEST_DIR"));
    let cube = ["--rules", &cube];
    let positions = sample(&sandbox, &[&cube[..], &["--sample", "11", "3"]].concat());
    assert_eq!(positions.len(), 3);
    each_solves_in(&sandbox, &cube, &positions, "11 moves");
}

#[test]
fn refuses_a_board_without_a_table_a_distance_beyond_the_maximum_and_no_positions() {
    let sandbox = Sandbox::new();
    for (args, mentions) in [
        (
            &["--puzzle", "sliding", "--rows", "4", "--cols", "4", "--sample", "10"][..],
            "IDA*",
        ),
        (&["--puzzle", "eight", "--sample", "32"], "the maximum distance is 31"),
        (&["--puzzle", "eight", "--sample", "5", "0"], "1 to 1,000,000"),
        (
            &["--puzzle", "eight", "--sample", "any", "18446744073709551615"],
            "1 to 1,000,000",
        ),
        (
            &["--puzzle", "eight", "--sample", "5", "--solve", "1 2 3 4 5 6 7 0 8"],
            "--solve",
        ),
    ] {
        let ended = sandbox.output(args);
        assert_eq!(ended.code, Some(2), "{args:?}");
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(ended.stderr.contains(mentions), "{args:?}: {}", ended.stderr);
        assert!(ended.stdout.is_empty());
    }
}

#[test]
fn a_definition_s_positions_are_moves_from_the_goal_or_its_lines_with_as_lines() {
    let sandbox = Sandbox::new();
    let cube = crate::util::example("pocket-cube-held.tws");
    let moves = sandbox.output(&["--rules", &cube, "--sample", "5", "3", "--quiet"]);
    let lines = sandbox.output(&["--rules", &cube, "--sample", "5", "3", "--as-lines", "--quiet"]);
    assert_eq!(
        (moves.code, lines.code),
        (Some(0), Some(0)),
        "{}{}",
        moves.stderr,
        lines.stderr
    );
    let (moves, lines): (Vec<&str>, Vec<&str>) = (moves.stdout.lines().collect(), lines.stdout.lines().collect());
    assert_eq!((moves.len(), lines.len()), (3, 3));
    for (played, position) in moves.iter().zip(&lines) {
        assert_eq!(played.split(' ').count(), 5, "{played}");
        // The moves make the very position the lines give, which is 5 moves from the goal.
        let solved = sandbox.output(&["--rules", &cube, "--solve", played, "--quiet"]);
        assert!(solved.stdout.starts_with("solution (5 moves): "), "{}", solved.stdout);
        let (pieces, twists) = position.split_once(", ").expect("pieces, twists");
        let drawn: Vec<&str> = solved.stdout.lines().skip(1).take(2).map(str::trim).collect();
        assert_eq!(drawn, [format!("CORNERS {pieces}"), twists.to_string()]);
    }
}

/// `--sample any`: drawn among every reachable position, the same for the same seed. A
/// definition whose table fits prints moves; the 3x3x3, with no table, is drawn from its
/// group and printed as lines (that they are reachable positions is the unit tests').
#[test]
fn any_distance_draws_among_all_positions_even_of_the_3x3x3() {
    let sandbox = Sandbox::new();
    let eight = sample(&sandbox, &["--puzzle", "eight", "--sample", "any", "4", "--seed", "3"]);
    assert_eq!(eight.len(), 4);
    assert_ne!(eight, sample(&sandbox, &["--puzzle", "eight", "--sample", "any", "4"]));
    let pocket = crate::util::example("pocket-cube-held.tws");
    let moves = sample(&sandbox, &["--rules", &pocket, "--sample", "any", "3", "--quiet"]);
    assert_eq!(moves.len(), 3);
    let cube = crate::util::example("3x3x3.tws");
    let args = ["--rules", &cube, "--sample", "any", "3", "--seed", "51"];
    let ended = sandbox.output(&args);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(ended.stderr.contains("written as lines"), "{}", ended.stderr);
    let lines: Vec<&str> = ended.stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(sandbox.output(&args).stdout, ended.stdout);
    for line in lines {
        assert_eq!(line.split(" / ").count(), 2, "{line}");
    }
    let at = sandbox.output(&["--rules", &cube, "--sample", "5", "3"]);
    assert_eq!(at.code, Some(2));
    assert!(
        at.stderr.contains("--sample any draws from all its positions"),
        "{}",
        at.stderr
    );
}

/// A definition searched by class is solved on the table of its classes and sampled from
/// it: the same solutions, move for move, as on the table of positions (`--symmetry
/// none`), and the sample's positions at the distance asked for, the same for a seed.
#[test]
fn a_definition_by_class_solves_and_samples_as_by_position() {
    let sandbox = Sandbox::new();
    let cube = crate::util::example("pocket-cube-held.tws");
    let by_class = ["--rules", &cube];
    let by_position = ["--rules", &cube, "--symmetry", "none"];
    let draw = [
        &by_class[..],
        &["--sample", "7", "6", "--seed", "2", "--as-lines", "--quiet"],
    ]
    .concat();
    let positions = sample(&sandbox, &draw);
    assert_eq!(positions.len(), 6);
    assert_eq!(sample(&sandbox, &draw), positions);
    each_solves_in(&sandbox, &by_position, &positions, "7 moves");
    let scrambles = ["R U F' R2 U' F R U2", "F2 U' R F' U2 R' F", "U R2"];
    let solve = |args: &[&str]| {
        let ended = sandbox.output(
            &[
                args,
                &["--solve"],
                &scrambles[..],
                &positions[..2].iter().map(String::as_str).collect::<Vec<_>>(),
            ]
            .concat(),
        );
        assert_eq!(ended.code, Some(0), "{}", ended.stderr);
        ended
    };
    let (classes, plain) = (solve(&by_class), solve(&by_position));
    // All but the summary table's times.
    let walks = |stdout: &str| {
        stdout
            .lines()
            .filter(|l| !l.starts_with('|'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(walks(&classes.stdout), walks(&plain.stdout));
    assert_eq!(classes.stdout.matches("solution (").count(), 5);
    assert!(
        classes
            .stderr
            .contains("ranks (classes of its 3,674,160 positions up to its symmetries)"),
        "{}",
        classes.stderr
    );
    assert!(
        plain.stderr.contains("distance table of 3,674,160 ranks"),
        "{}",
        plain.stderr
    );
}
