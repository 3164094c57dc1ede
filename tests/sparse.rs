//! The sparse route (packed states in sorted levels) end to end: the same report as the
//! dense route, byte for byte but for the timings; the Mathieu group M12 counted against a
//! plain search; the route taken by itself where the pieces cannot be ranked; and the
//! one-line refusals of what the route does not do.

use crate::util::Sandbox;
use std::collections::{HashSet, VecDeque};

/// The shipped definition `name` under `examples/`.
fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Every file of the report folder `dir` but `run.json` (wall time and threads), by name.
fn report_files(sandbox: &Sandbox, dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = sandbox
        .list(dir)
        .into_iter()
        .filter(|name| name != "run.json")
        .map(|name| {
            let bytes = std::fs::read(sandbox.path(&format!("{dir}/{name}"))).expect("a report file");
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// Burnt pancakes: a stack of `n`, each flip turning the top `k` over (their order and
/// their sides).
fn burnt_pancakes(n: usize) -> String {
    let ones = |k: usize| {
        (1..=n)
            .map(|i| if i <= k { "1" } else { "0" })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let order = |k: usize| {
        (1..=n)
            .map(|i| if i <= k { k + 1 - i } else { i }.to_string())
            .collect::<Vec<_>>()
    };
    let mut text = format!(
        "Name BurntPancakes{n}\nSet STACK {n} 2\nSolved\nSTACK\n{}\n{}\nEnd\n",
        order(0).join(" "),
        ones(0)
    );
    for k in 1..=n {
        text += &format!("Move flip{k}\nSTACK\n{}\n{}\nEnd\n", order(k).join(" "), ones(k));
    }
    text
}

#[test]
fn the_sparse_route_writes_the_dense_reports_byte_for_byte() {
    let sandbox = Sandbox::new();
    // Twisted corners (the pocket cube's 3.7 million positions take two of the sparse
    // search's chunks at their widest level), two sets of pieces, a plain permutation and
    // one with sides. The burnt stack is 7 high, not the example's 8: the same pieces, a
    // sixteenth of the search.
    std::fs::write(sandbox.path("burnt-pancakes-7.tws"), burnt_pancakes(7)).expect("written");
    for (file, id) in [
        (example("pocket-cube-held.tws"), "pocket-cube-held"),
        (example("3x3x3-squares.tws"), "3x3x3-squares"),
        (example("pancakes-10.tws"), "pancakes-10"),
        ("burnt-pancakes-7.tws".to_string(), "burnt-pancakes-7"),
    ] {
        sandbox
            .run(&["--rules", &file, "--route", "dense", "--quiet", "--out", "dense"])
            .success();
        let run = sandbox
            .run(&["--rules", &file, "--route", "sparse", "--out", "sparse"])
            .success();
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
        assert!(
            stderr.contains("searched as packed states") && stderr.contains("bytes a state"),
            "{stderr}"
        );
        let dense = report_files(&sandbox, &format!("dense/{id}"));
        assert!(dense.len() >= 6, "{dense:?}");
        assert_eq!(dense, report_files(&sandbox, &format!("sparse/{id}")), "{id}");
    }
}

/// The Mathieu group M12 on 12 points (GAP's generators): a 11-cycle, a product of two
/// 4-cycles, and an involution.
const M12: [&[&[u8]]; 3] = [
    &[&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
    &[&[3, 7, 11, 8], &[4, 10, 5, 6]],
    &[&[1, 12], &[2, 11], &[3, 6], &[4, 8], &[5, 9], &[7, 10]],
];

/// A permutation of `0..n` from its cycles (1-based): `p[i]` is where the point at `i` goes.
fn from_cycles(n: usize, cycles: &[&[u8]]) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for c in cycles {
        for (i, &a) in c.iter().enumerate() {
            p[usize::from(a) - 1] = usize::from(c[(i + 1) % c.len()]) - 1;
        }
    }
    p
}

/// A definition whose moves carry the piece at `i` to `p[i]` (a move line says where each
/// position's piece comes from).
fn definition(name: &str, n: usize, moves: &[Vec<usize>]) -> String {
    let mut text = format!("Name {name}\nSet POINTS {n} 1\n");
    for (m, p) in moves.iter().enumerate() {
        let mut from = vec![0; n];
        for (i, &to) in p.iter().enumerate() {
            from[to] = i + 1;
        }
        let line: Vec<String> = from.iter().map(ToString::to_string).collect();
        text += &format!("Move G{m}\nPOINTS\n{}\nEnd\n", line.join(" "));
    }
    text
}

/// Levels of the Cayley graph of `moves` and their inverses, by a queue over arrangements.
fn plain_levels(n: usize, moves: &[Vec<usize>]) -> Vec<u64> {
    let mut all: Vec<Vec<usize>> = moves.to_vec();
    for p in moves {
        let mut inverse = vec![0; n];
        for (i, &to) in p.iter().enumerate() {
            inverse[to] = i;
        }
        all.push(inverse);
    }
    let start: Vec<usize> = (0..n).collect();
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start, 0usize)]);
    let mut levels = vec![0u64];
    while let Some((state, d)) = queue.pop_front() {
        levels[d] += 1;
        for p in &all {
            let mut next = vec![0; n];
            for (i, &to) in p.iter().enumerate() {
                next[to] = state[i];
            }
            if seen.insert(next.clone()) {
                if levels.len() == d + 1 {
                    levels.push(0);
                }
                queue.push_back((next, d + 1));
            }
        }
    }
    levels
}

#[test]
fn m12_reaches_its_95040_positions_as_a_plain_search_does() {
    let sandbox = Sandbox::new();
    let moves: Vec<Vec<usize>> = M12.iter().map(|c| from_cycles(12, c)).collect();
    std::fs::write(sandbox.path("m12.tws"), definition("M12", 12, &moves)).expect("write the definition");
    sandbox
        .run(&[
            "--rules", "m12.tws", "--metric", "quarter", "--route", "sparse", "--quiet", "--out", "out",
        ])
        .success();
    let csv = sandbox.read("out/m12-quarter/distances.csv");
    let levels: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).expect("a states column").parse().expect("a count"))
        .collect();
    assert_eq!(levels, plain_levels(12, &moves));
    assert_eq!(levels.iter().sum::<u64>(), 95_040, "|M12| = 2^6 x 3^3 x 5 x 11");
}

#[test]
fn an_orbit_too_large_to_rank_takes_the_sparse_route_by_itself() {
    // 21 distinct pieces in one orbit cannot be ranked (20 can); a 21-cycle reaches 21.
    let sandbox = Sandbox::new();
    let cycle: Vec<usize> = (0..21).map(|i| (i + 1) % 21).collect();
    std::fs::write(sandbox.path("c21.tws"), definition("Cycle21", 21, &[cycle])).expect("write");
    let run = sandbox.run(&["--rules", "c21.tws", "--out", "out"]).success();
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(
        stderr.contains("cannot be ranked") && stderr.contains("16 bytes a state"),
        "{stderr}"
    );
    let csv = sandbox.read("out/cycle-21/distances.csv");
    // Every power of the 21-cycle is one move (face metric): 1 + 20 positions.
    assert_eq!(csv.lines().skip(1).count(), 2, "{csv}");
    assert!(sandbox.read("out/cycle-21/classes.csv").contains("reached,21,true,21"));
    // Unranked, the count is still checked against the group's order.
    let report = sandbox.read("out/cycle-21/report.md");
    assert!(
        report.contains("Group order by Schreier–Sims: 21; reached: 21."),
        "{report}"
    );
    // One move, in the singular.
    assert!(report.contains("| maximum distance | 1 move |"), "{report}");
    assert!(report.contains("20 states need 1 move, the most of any"), "{report}");
    // 21! is past 64 bits, not past 128.
    assert!(report.contains("| 21! = 51,090,942,171,709,440,000 |"), "{report}");
    assert!(
        sandbox
            .read("out/cycle-21/summary.json")
            .contains("\"group_order\": 21")
    );
    // --solve reads a table by rank; --checkpoint and --hosts are refused before any work.
    for args in [
        vec!["--rules", "c21.tws", "--solve", "G0"],
        vec!["--rules", "c21.tws", "--checkpoint", "."],
    ] {
        let ended = sandbox.output(&args);
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(ended.stderr.contains("cannot be ranked"), "{}", ended.stderr);
    }
}

#[test]
fn a_definition_neither_ranked_nor_packed_is_refused_with_what_its_moves_reach() {
    // 40 distinct pieces: past 20 ranked and past 128 bits packed. The refusal names the
    // group's order first (a 40-cycle reaches 40), then both limits, in one line.
    let sandbox = Sandbox::new();
    let cycle: Vec<usize> = (0..40).map(|i| (i + 1) % 40).collect();
    std::fs::write(sandbox.path("c40.tws"), definition("Cycle40", 40, &[cycle])).expect("write");
    let ended = sandbox.output(&["--rules", "c40.tws", "--out", "out"]);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    for words in [
        "its moves reach 40 states (the order of the group they generate, by Schreier–Sims)",
        "neither ranked: set POINTS has an orbit of 40 distinct pieces",
        "nor packed: a state takes",
    ] {
        assert!(ended.stderr.contains(words), "{words}: {}", ended.stderr);
    }
    assert!(!sandbox.path("out").exists());
}

/// A KPuzzle definition of one orbit of `n` distinct pieces, with moves given as
/// permutations (`new[i] = old[perm[i]]`, from 0).
fn kpuzzle(name: &str, n: usize, moves: &[(&str, Vec<usize>)]) -> String {
    let numbers = |v: &[usize]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    let identity: Vec<usize> = (0..n).collect();
    let moves: Vec<String> = moves
        .iter()
        .map(|(m, perm)| {
            format!(
                r#""{m}": {{"POINTS": {{"permutation": [{}], "orientationDelta": [{}]}}}}"#,
                numbers(perm),
                numbers(&vec![0; n])
            )
        })
        .collect();
    format!(
        r#"{{"name": "{name}", "orbits": [{{"orbitName": "POINTS", "numPieces": {n}, "numOrientations": 1}}],
        "defaultPattern": {{"POINTS": {{"pieces": [{}], "orientation": [{}]}}}},
        "moves": {{{}}}}}"#,
        numbers(&identity),
        numbers(&vec![0; n]),
        moves.join(", ")
    )
}

#[test]
fn kpuzzle_positions_count_their_pieces_from_0_on_the_packed_route_too() {
    let sandbox = Sandbox::new();
    let ring = kpuzzle("Ring", 5, &[("A", vec![4, 0, 1, 2, 3]), ("B", vec![1, 0, 2, 3, 4])]);
    std::fs::write(sandbox.path("ring.json"), ring).expect("written");
    for route in ["dense", "sparse"] {
        sandbox
            .run(&["--rules", "ring.json", "--route", route, "--quiet", "--out", route])
            .success();
    }
    let dense = report_files(&sandbox, "dense/ring");
    assert!(sandbox.read("dense/ring/classes.csv").contains(",0 1 2 3 4"));
    assert_eq!(dense, report_files(&sandbox, "sparse/ring"));
    // Too wide to rank: the packed route alone, numbering from 0 as well.
    let cycle: Vec<usize> = (0..21).map(|i| (i + 20) % 21).collect();
    std::fs::write(sandbox.path("wide.json"), kpuzzle("Wide", 21, &[("T", cycle)])).expect("written");
    sandbox
        .run(&["--rules", "wide.json", "--quiet", "--out", "wide"])
        .success();
    let classes = sandbox.read("wide/wide/classes.csv");
    assert!(classes.contains("reached,21,true,21,0 1 2 3 4 5"), "{classes}");
}

#[test]
fn the_packed_route_measures_to_another_goal() {
    let sandbox = Sandbox::new();
    let file = example("pocket-cube-sune.tws");
    let goal = "Sune U";
    for route in ["dense", "sparse"] {
        sandbox
            .run(&[
                "--rules", &file, "--moves", "U,Sune", "--goal", goal, "--route", route, "--quiet", "--out", route,
            ])
            .success();
    }
    let folders = sandbox.list("dense");
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(folders[0].contains("-goal-"), "{folders:?}");
    let id = &folders[0];
    assert_eq!(
        report_files(&sandbox, &format!("dense/{id}")),
        report_files(&sandbox, &format!("sparse/{id}"))
    );
}
