//! IDA* on definitions (`--solve-by search`, and the 3x3x3 that no table holds): against
//! the distance tables wherever one fits, projections' tables against plain searches, and
//! the refusals.

use crate::util::{Rng, Sandbox, example, first_length};
use analyze::puzzle::family::Parts;
use analyze::puzzle::perm::{Metric, PermPuzzle, parse_definition};
use analyze::puzzle::{Notation, SearchGraph};
use analyze::solve::definition::DefinitionSearch;
use analyze::solve::definition::projection::{Projection, View};
use analyze::solve::table::DistanceTable;
use analyze::solve::{Outcome, Solver};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// The definition of `examples/NAME`, read.
fn definition(name: &str) -> analyze::puzzle::perm::Definition {
    let text = std::fs::read_to_string(example(name)).expect("the example reads");
    parse_definition(&text).expect("the example parses")
}

/// The heuristic search of `examples/NAME` estimating with `projections` only.
fn searcher(name: &str, projections: Vec<Projection>) -> Solver {
    let parts = Parts {
        def: Arc::new(definition(name)),
        metric: Metric::Face,
        first: 1,
        id: name.trim_end_matches(".tws").to_string(),
    };
    let route = DefinitionSearch::new(parts, None)
        .expect("the route builds")
        .with_projections(projections);
    let mut solver = Solver::by_search(Box::new(route));
    solver.prepare(None, &|_| {}).expect("the projections' tables build");
    solver
}

/// Weak projections on purpose, so that IDA* searches: three corners told apart, and
/// three others.
fn corner_triples() -> Vec<Projection> {
    vec![
        Projection::pieces(0, vec![0, 1, 2]),
        Projection::pieces(0, vec![3, 4, 5]),
    ]
}

/// The pocket cube with a corner held (3,674,160 positions, a byte each): for 3 positions
/// drawn at every distance, IDA* finds a solution as long as the table's distance, and it
/// ends at the goal.
#[test]
fn ida_star_agrees_with_the_table_on_the_pocket_cube_at_every_distance() {
    let def = definition("pocket-cube-held.tws");
    let puzzle = PermPuzzle::new(def, "pocket-cube-held", Metric::Face).expect("the example builds");
    let table = DistanceTable::build(&puzzle).expect("the table builds");
    let mut solver = searcher("pocket-cube-held.tws", corner_triples());
    let mut rng = Rng(51);
    let depth = table.distances().map(|(_, d)| d).max().expect("some rank");
    assert_eq!(depth, 11, "the held pocket cube's diameter (OEIS A079761)");
    let by_distance: Vec<Vec<u64>> = (0..=depth)
        .map(|d| table.distances().filter(|&(_, e)| e == d).map(|(r, _)| r).collect())
        .collect();
    for (d, ranks) in by_distance.iter().enumerate() {
        for _ in 0..3 {
            let rank = ranks[rng.below(ranks.len() as u64) as usize];
            let text = puzzle.render(rank);
            let position = solver.read(&text).expect("a rendered position reads");
            let Outcome::Solved(solution) = solver
                .solve_with_progress(&position, &mut |_, _| {})
                .expect("it solves")
            else {
                panic!("{text} is solvable");
            };
            assert_eq!(solution.len(), d, "{text}: {:?}", solution.moves);
            assert_eq!(solution.positions.last(), Some(&puzzle.render(puzzle.goals()[0])));
        }
    }
}

/// A projection's table, enumerated by the engine, against a plain breadth-first search
/// over the projection's explicit states: the same positions at the same distances.
#[test]
fn a_projections_table_equals_a_plain_search_of_the_projection() {
    let def = definition("pocket-cube.tws");
    let projection = Projection {
        sets: vec![(0, View::Pieces(vec![2, 5]))],
    };
    let projected = projection.definition(&def);
    let puzzle = PermPuzzle::new(projected, "projection", Metric::Face).expect("the projection builds");
    assert_eq!(puzzle.states(), 8 * 7 * 2187, "8!/6! arrangements x 3^7 twists");
    let table = DistanceTable::build(&puzzle).expect("the table builds");
    let distance = plain_search(&puzzle);
    assert_eq!(table.distances().count(), distance.len());
    for ((p, t), d) in &distance {
        let rank = puzzle.rank_of(p, t).expect("a reached state is of the goal's class");
        assert_eq!(table.distance(rank), Some(*d), "{p:?} {t:?}");
    }
}

/// Every state `puzzle`'s moves reach from its goal, with its distance: a plain
/// breadth-first search over explicit pieces and twists, for the engine's tables to equal.
fn plain_search(puzzle: &PermPuzzle) -> HashMap<(Vec<u8>, Vec<u8>), usize> {
    let s = puzzle.structure();
    let start = (s.solved_pieces.clone(), s.solved_twists.clone());
    let mut distance = HashMap::from([(start.clone(), 0usize)]);
    let mut queue = VecDeque::from([start]);
    while let Some((p, t)) = queue.pop_front() {
        let d = distance[&(p.clone(), t.clone())];
        for m in &s.moves {
            let (mut p2, mut t2) = (Vec::new(), Vec::new());
            puzzle.apply(m, &p, &t, &mut p2, &mut t2);
            distance.entry((p2.clone(), t2.clone())).or_insert_with(|| {
                queue.push_back((p2, t2));
                d + 1
            });
        }
    }
    distance
}

/// The lengths of the solutions of `positions` (one run), by `--solve-by HOW`.
fn lengths(sandbox: &Sandbox, file: &str, how: &str, positions: &[&str]) -> Vec<String> {
    let mut args = vec!["--rules", file, "--quiet", "--json", "--solve-by", how, "--solve"];
    args.extend(positions);
    let ended = sandbox.output(&args);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    ended
        .stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            value["length"].to_string()
        })
        .collect()
}

/// Scrambles of the pyraminx and of a pocket cube whose corners are only told apart by
/// their top or bottom colour (identical pieces): the table and the search agree.
#[test]
fn search_and_table_agree_on_the_pyraminx_and_on_identical_pieces() {
    let sandbox = Sandbox::new();
    let pyraminx = example("pyraminx.tws");
    let scrambles = ["U L R' B u", "U' R L' B R' U L b' r", "L R U B' L' R B U' l r'", "R"];
    let by_table = lengths(&sandbox, &pyraminx, "table", &scrambles);
    assert_eq!(by_table.len(), scrambles.len());
    assert_eq!(lengths(&sandbox, &pyraminx, "search", &scrambles), by_table);
    let text = std::fs::read_to_string(example("pocket-cube.tws")).expect("the example reads");
    let two_colours = text.replacen("1 2 3 4 5 6 7 8", "1 1 1 1 2 2 2 2", 1);
    std::fs::write(sandbox.path("two-colours.tws"), two_colours).expect("written");
    let file = sandbox.path("two-colours.tws").display().to_string();
    let scrambles = ["R U F'", "R U R' U' F2 L D", "F R2 U' B L2 D' R F2"];
    let by_table = lengths(&sandbox, &file, "table", &scrambles);
    assert_eq!(lengths(&sandbox, &file, "search", &scrambles), by_table);
}

/// The 3x3x3, which no table holds, with small tables (`--memory 48MiB`): a scramble of
/// 7 moves takes 7, printed in the file's move names and checked; a twisted corner is
/// no position of the cube: refused in one line naming the twist and the class accepted,
/// exit 2, before any table is built.
#[test]
fn the_3x3x3_is_solved_by_search_and_a_twisted_corner_refused() {
    let sandbox = Sandbox::with_own_cache();
    let file = example("3x3x3.tws");
    let solved = sandbox.output(&["--rules", &file, "--memory", "48MiB", "--solve", "R U2 F' L D' B2 R'"]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    assert_eq!(first_length(&solved.stdout), Some("7 moves"), "{}", solved.stdout);
    assert!(solved.stderr.contains("3x3x3: IDA* with "), "{}", solved.stderr);
    let twisted = "CORNERS 1 2 3 4 5 6 7 8, 1 0 0 0 0 0 0 0 / EDGES 1 2 3 4 5 6 7 8 9 10 11 12";
    let refused = Sandbox::with_own_cache().output(&["--rules", &file, "--solve", twisted]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert_eq!(refused.stdout, "");
    assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("no position of the puzzle: CORNERS twist 1, where the goal has CORNERS twist 0")
            && refused
                .stderr
                .contains("accepted: the positions of class CORNERS twist 0, EDGES twist 0, EDGES even"),
        "{}",
        refused.stderr
    );
    assert!(
        !refused.stderr.contains("IDA*"),
        "no table is built: {}",
        refused.stderr
    );
    // Two edges swapped and one flipped: both of the edges' invariants are named.
    let swapped = "CORNERS 1 2 3 4 5 6 7 8 / EDGES 2 1 3 4 5 6 7 8 9 10 11 12, 1 0 0 0 0 0 0 0 0 0 0 0";
    let refused = Sandbox::with_own_cache().output(&["--rules", &file, "--solve", swapped]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("EDGES twist 1, EDGES odd, where the goal has EDGES twist 0, EDGES even"),
        "{}",
        refused.stderr
    );
    let analysed = sandbox.output(&["--rules", &file, "--out", "out"]);
    assert_eq!(analysed.code, Some(2), "{}", analysed.stderr);
    assert!(analysed.stderr.contains("ranks are 64-bit"), "{}", analysed.stderr);
}

/// Symmetry probes keep the estimate admissible: on the held pocket cube, a table of three
/// corners read on the position and on its conjugates by the cube's symmetries (those
/// that keep the held corner) never exceeds the position's distance, and the conjugates
/// know more than the position alone somewhere.
#[test]
fn conjugate_probes_never_exceed_the_distance_on_the_pocket_cube() {
    use analyze::solve::definition::probe;
    use analyze::solve::definition::projection::{Pattern, Table};
    let def = definition("pocket-cube-held.tws");
    let puzzle = PermPuzzle::new(def.clone(), "pocket-cube-held", Metric::Face).expect("the example builds");
    let table = DistanceTable::build(&puzzle).expect("the table builds");
    let reader = PermPuzzle::reader(def.clone(), "pocket-cube-held", Metric::Face, 1).expect("it reads");
    let s = reader.structure();
    let projection = Projection::pieces(0, vec![0, 1, 2]);
    let projected = PermPuzzle::new(projection.definition(&def), "triple", Metric::Face).expect("it builds");
    let triple = Table::Bytes(DistanceTable::build(&projected).expect("its table builds"));
    let pattern = Pattern::new("triple".into(), &projection, &def, &s.layout.offset, projected, triple);
    let patterns = [pattern];
    let probes = probe::probes(&def, s, std::slice::from_ref(&projection), &patterns, 64);
    assert!(probes.len() > 1, "the held cube has symmetries: {}", probes.len());
    let (mut rng, mut better) = (Rng(51), 0);
    for _ in 0..2000 {
        let rank = rng.below(puzzle.states());
        let Some(distance) = table.distance(rank) else { continue };
        let (pieces, twists) = reader
            .parse_state(&puzzle.render(rank))
            .expect("a rendered position reads");
        let read = |p: &probe::Probe| patterns[p.pattern].distance(&p.reader, &pieces, &twists);
        let hs: Vec<u8> = probes.iter().map(|p| read(p).expect("a solvable projection")).collect();
        assert!(hs.iter().all(|&h| usize::from(h) <= distance), "{hs:?} past {distance}");
        better += usize::from(hs.iter().max() > hs.first());
    }
    assert!(better > 0, "no conjugate ever knew more");
}

/// One made-up set of 27 distinct pieces, too many to rank (at most 20) or to pack (5 bits
/// a piece, past 128 bits): moves A and B each turn nine triples of positions, B's shifted
/// by two so that every piece can reach every position. Returns the definition and each
/// move's `from` (position `i` takes the piece of `from[i]`, as a definition's move line).
fn ring_of_27() -> (String, Vec<Vec<usize>>) {
    let turn = |start: usize| {
        let mut from: Vec<usize> = (0..27).collect();
        for t in 0..9 {
            let [a, b, c] = [0, 1, 2].map(|k| (start + 3 * t + k) % 27);
            (from[a], from[b], from[c]) = (c, a, b);
        }
        from
    };
    let moves = vec![turn(0), turn(2)];
    let line = |v: &[usize]| v.iter().map(|p| (p + 1).to_string()).collect::<Vec<_>>().join(" ");
    let mut text = format!(
        "Name ring of 27\n\nSet P 27 1\n\nSolved\nP\n{}\nEnd\n",
        line(&(0..27).collect::<Vec<_>>())
    );
    for (name, from) in ["A", "B"].iter().zip(&moves) {
        text.push_str(&format!("\nMove {name}\nP\n{}\nEnd\n", line(from)));
    }
    (text, moves)
}

/// A set too large to rank is no bar to IDA*, which ranks only projections of it (groups
/// of its pieces told apart, the rest made identical): on the ring of 27, scrambles of 1 to
/// 6 moves are solved in as many moves as a plain breadth-first search over the explicit
/// positions finds, while enumerating it is refused.
#[test]
fn ida_star_solves_a_set_too_large_to_rank_in_the_plain_searchs_moves() {
    let (text, moves) = ring_of_27();
    let sandbox = Sandbox::with_own_cache();
    std::fs::write(sandbox.path("ring.tws"), &text).expect("written");
    let file = sandbox.path("ring.tws").display().to_string();
    // Each move and its inverse (order 3: the inverse is the move twice).
    let powers: Vec<(String, Vec<usize>)> = moves
        .iter()
        .zip(["A", "B"])
        .flat_map(|(from, name)| {
            let twice: Vec<usize> = (0..27).map(|i| from[from[i]]).collect();
            [(name.to_string(), from.clone()), (format!("{name}'"), twice)]
        })
        .collect();
    let apply = |p: &[usize], from: &[usize]| -> Vec<usize> { from.iter().map(|&f| p[f]).collect() };
    let goal: Vec<usize> = (0..27).collect();
    let mut distance = HashMap::from([(goal.clone(), 0usize)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(p) = queue.pop_front() {
        let d = distance[&p];
        for (_, from) in powers.iter().filter(|_| d < 6) {
            let next = apply(&p, from);
            distance.entry(next.clone()).or_insert_with(|| {
                queue.push_back(next);
                d + 1
            });
        }
    }
    let mut rng = Rng(51);
    let (mut scrambles, mut expected) = (Vec::new(), Vec::new());
    for length in 1..=6 {
        let mut p = goal.clone();
        let mut names = Vec::new();
        for _ in 0..length {
            let (name, from) = &powers[rng.below(4) as usize];
            p = apply(&p, from);
            names.push(name.clone());
        }
        scrambles.push(names.join(" "));
        expected.push(distance[&p].to_string());
    }
    let mut args = vec!["--rules", &file, "--memory", "1MiB", "--quiet", "--json", "--solve"];
    args.extend(scrambles.iter().map(String::as_str));
    let solved = sandbox.output(&args);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    let found: Vec<String> = (solved.stdout.lines())
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line")["length"].to_string())
        .collect();
    assert_eq!(found, expected, "{scrambles:?}");
    let refused = sandbox.output(&["--rules", &file, "--out", "out"]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("it can be neither ranked"),
        "{}",
        refused.stderr
    );
}

/// 18 identical pieces of two orientations in a ring, turned by twelve moves, each a
/// 3-cycle of neighbours flipping two of them (one every three places, then shifted by
/// one): the twists keep their sum, 2^17 values (48,620 reached), too many for a move
/// table.
fn ring_of_flips() -> String {
    let n = 18;
    let line = |v: &[usize]| v.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ");
    let mut text = format!(
        "Name ring of flips\n\nSet E {n} 2\n\nSolved\nE\n{}\n{}\nEnd\n",
        line(&vec![1; n]),
        line(&vec![0; n])
    );
    for (k, name) in ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
        .iter()
        .enumerate()
    {
        let start = 3 * (k % 6) + k / 6;
        let (mut from, mut twist): (Vec<usize>, Vec<usize>) = ((1..=n).collect(), vec![0; n]);
        let [a, b, c] = [0, 1, 2].map(|i| (start + i) % n);
        (from[a], from[b], from[c]) = (c + 1, a + 1, b + 1);
        (twist[a], twist[b]) = (1, 1);
        text.push_str(&format!("\nMove {name}\nE\n{}\n{}\nEnd\n", line(&from), line(&twist)));
    }
    text
}

/// Orientations moved by their digits (no move table, every rank a run of its own): the
/// engine's table of the ring of flips equals a plain breadth-first search over its
/// explicit states.
#[test]
fn a_table_of_orientations_moved_by_digits_equals_a_plain_search() {
    let def = parse_definition(&ring_of_flips()).expect("the ring parses");
    let puzzle = PermPuzzle::new(def, "ring-of-flips", Metric::Face).expect("the ring builds");
    assert_eq!(puzzle.states(), 1 << 17, "17 free flips");
    assert_eq!(puzzle.plan(), "split", "the twists move by their digits, not unranked");
    let table = DistanceTable::build(&puzzle).expect("the table builds");
    let distance = plain_search(&puzzle);
    assert!(distance.len() > 10_000, "{} reached", distance.len());
    assert_eq!(table.distances().count(), distance.len());
    for ((p, t), d) in &distance {
        let rank = puzzle.rank_of(p, t).expect("a reached state is of the goal's class");
        assert_eq!(table.distance(rank), Some(*d), "{p:?} {t:?}");
    }
}
