//! Tests: the reader's refusals, the ranking's bijection, the engine against a plain
//! search over explicit states, and the published counts.

use super::parse::parse_definition;
use super::*;
use crate::engine::{Options, search};
use std::collections::HashMap;
use std::ops::ControlFlow;
use structure::Structure;

mod open;

const POCKET_HELD: &str = include_str!("../../../examples/pocket-cube-held.tws");
const POCKET: &str = include_str!("../../../examples/pocket-cube.tws");
const TOP_SPIN: &str = include_str!("../../../examples/top-spin-9.tws");
const BURNT_8: &str = include_str!("../../../examples/burnt-pancakes-8.tws");
const PANCAKES_10: &str = include_str!("../../../examples/pancakes-10.tws");
const PYRAMINX: &str = include_str!("../../../examples/pyraminx.tws");
const CUBE: &str = include_str!("../../../examples/3x3x3.tws");
const SQUARES: &str = include_str!("../../../examples/3x3x3-squares.tws");
const CUBE_UR: &str = include_str!("../../../examples/3x3x3-ur.tws");

/// Two sets whose parities every move changes together (the generic plan).
const TIED_PARITIES: &str = "
Set A 4 1
Set B 3 1
Move X
A
2 1 3 4
B
2 1 3
End
Move Y
A
1 3 4 2
End
Move Z
B
2 3 1
End
";

/// A set whose pieces move exactly like another's, with twists of its own.
const IN_STEP: &str = "
Name InStep
Set A 3 1
Set B 3 2
Move P
A
2 3 1
B
2 3 1
End
Move Q
A
2 1 3
B
2 1 3
1 0 0
End
";

/// Identical pieces, and a set no move touches.
const MULTISET: &str = "
Set C 4 1
Set STILL 2 3
Solved
C
1 1 2 2
End
Move S
C
2 3 4 1
End
Move W
C
2 1 3 4
End
";

#[test]
fn the_assembly_formula_has_no_trivial_factors() {
    // A lone twisting piece, a set of pieces all alike, and two sets of one orientation
    // count: `2! x 3! x 2^3`, never `1! x 2^1` or `3!/(3!)`.
    let text = "Set ONE 1 2\nSet ALIKE 3 1\nSet PAIR 2 2\nSet TRIO 3 1\nSolved\nALIKE\n1 1 1\nEnd\nMove M\nPAIR\n2 1\nTRIO\n2 3 1\nEnd\n";
    let p = puzzle(text, Metric::Face);
    assert_eq!(p.configurations(), (2 * 2 * 6 * 4, "2! x 3! x 2^3".into()));
}

/// The corners `<U,R>` turns: 120 of their 720 arrangements, a ranked list.
const UR_CORNERS: &str = "
Set CORNERS 8 3
Move U
CORNERS
4 1 2 3 5 6 7 8
End
Move R
CORNERS
5 2 3 1 8 6 7 4
1 0 0 2 2 0 0 1
End
";

/// A pentagon turned and flipped, every move even: 10 of the 60 even arrangements.
const PENTAGON: &str = "
Set P 5 1
Move T
P
2 3 4 5 1
End
Move F
P
1 5 4 3 2
End
";

/// A hexagon turned and flipped (12 of 720 arrangements, listed) whose parity a set of
/// three follows.
const HEXAGON: &str = "
Set H 6 1
Set B 3 1
Move T
H
2 3 4 5 6 1
B
2 1 3
End
Move F
H
6 5 4 3 2 1
B
1 3 2
End
";

fn puzzle(text: &str, metric: Metric) -> PermPuzzle {
    PermPuzzle::from_text(text, "test", metric).expect("a valid definition")
}

/// A stack of `n` pancakes (burnt: each flip also turns them over), as a definition.
fn pancakes(n: usize, burnt: bool) -> String {
    let mut text = format!("Set STACK {n} {}\n", if burnt { 2 } else { 1 });
    for k in if burnt { 1 } else { 2 }..=n {
        let perm: Vec<String> = (1..=n)
            .map(|i| if i <= k { k + 1 - i } else { i }.to_string())
            .collect();
        text += &format!("Move f{k}\nSTACK\n{}\n", perm.join(" "));
        if burnt {
            let twist: Vec<&str> = (1..=n).map(|i| if i <= k { "1" } else { "0" }).collect();
            text += &format!("{}\n", twist.join(" "));
        }
        text += "End\n";
    }
    text
}

fn levels(p: &PermPuzzle) -> Vec<u64> {
    search(p, Options::default(), |_| ControlFlow::Continue(()))
        .expect("the search succeeds")
        .levels
}

/// The levels of a plain breadth-first search over explicit states, applying each defined
/// move's powers as the file writes them: shares nothing with the ranking.
fn plain_levels(text: &str, metric: Metric) -> Vec<u64> {
    plain_levels_of(&parse_definition(text).expect("a valid definition"), metric)
}

/// A flattened state: its pieces and its twists.
type S = (Vec<u8>, Vec<u8>);

/// The key [`plain_levels_of`] tells states apart by: the twists each modulo what its piece
/// is told apart by (as the solved state gives it, per set and label).
fn plain_key(def: &Definition) -> impl Fn(&S) -> S {
    let told: Vec<HashMap<u8, u8>> = def
        .sets
        .iter()
        .enumerate()
        .map(|(s, _)| {
            def.solved.pieces[s]
                .iter()
                .copied()
                .zip(def.orientation_mod[s].iter().copied())
                .collect()
        })
        .collect();
    let set_of: Vec<usize> = def
        .sets
        .iter()
        .enumerate()
        .flat_map(|(s, set)| std::iter::repeat_n(s, set.size))
        .collect();
    move |(p, t): &S| -> S {
        let t = t.iter().enumerate().map(|(i, &x)| x % told[set_of[i]][&p[i]]).collect();
        (p.clone(), t)
    }
}

/// A move of `def` applied to a flattened state, straight from the definition's lines.
fn plain_move(def: &Definition) -> impl Fn(&S, &super::parse::MoveDef) -> S + '_ {
    let moduli: Vec<u8> = def
        .sets
        .iter()
        .flat_map(|s| std::iter::repeat_n(s.orientations, s.size))
        .collect();
    let offsets: Vec<usize> = def
        .sets
        .iter()
        .scan(0, |o, s| Some(std::mem::replace(o, *o + s.size)))
        .collect();
    move |s: &S, m: &super::parse::MoveDef| -> S {
        let (mut p, mut t) = (s.0.clone(), s.1.clone());
        for (set, off) in offsets.iter().enumerate() {
            for i in 0..def.sets[set].size {
                let f = off + usize::from(m.from[set][i]);
                p[off + i] = s.0[f];
                t[off + i] = (s.1[f] + m.twist[set][i]) % moduli[off + i];
            }
        }
        (p, t)
    }
}

/// [`plain_levels`] of a definition read. The orientations it leaves open (`?`,
/// `orientationMod`) are forgotten only in the keys of the states seen: the states searched
/// keep every twist.
fn plain_levels_of(def: &Definition, metric: Metric) -> Vec<u64> {
    let key = plain_key(def);
    let apply = plain_move(def);
    let flat = |v: &[Vec<u8>]| v.concat();
    let start: S = (flat(&def.solved.pieces), flat(&def.solved.twists));
    // Each move's powers: apply it 1, 2, ... times until back where it started.
    let mut seen: HashMap<S, usize> = HashMap::from([(key(&start), 0)]);
    let mut frontier = vec![start];
    let mut counts = vec![1u64];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for s in &frontier {
            for m in &def.moves {
                let mut power = apply(s, m);
                let mut k = 1;
                let mut order_powers = Vec::new();
                while power != *s {
                    order_powers.push((k, power.clone()));
                    power = apply(&power, m);
                    k += 1;
                }
                let order = k;
                for (k, state) in order_powers {
                    let quarter = k == 1 || k == order - 1;
                    if (metric == Metric::Face || quarter) && !seen.contains_key(&key(&state)) {
                        seen.insert(key(&state), counts.len());
                        next.push(state);
                    }
                }
            }
        }
        if !next.is_empty() {
            counts.push(next.len() as u64);
        }
        frontier = next;
    }
    counts
}

/// Checks that each definition of `cases` is refused in one line holding its message.
fn refuses(cases: &[(String, &str)]) {
    for (text, want) in cases {
        let got = PermPuzzle::from_text(text, "t", Metric::Face)
            .map(|_| ())
            .map_err(|e| e.to_string());
        match got {
            Err(message) => {
                assert!(
                    message.contains(want),
                    "{text:?}\n  gave {message:?}\n  wanted {want:?}"
                );
                assert!(!message.contains('\n'), "one line: {message:?}");
            }
            Ok(()) => panic!("{text:?} was accepted, wanted {want:?}"),
        }
    }
}

#[test]
fn refuses_what_the_reader_does_not_support() {
    let set = "Set C 3 1\n";
    refuses(&[
        (
            format!("{set}Illegal C 1 2\n"),
            "line 2: `Illegal` must come after the solved state",
        ),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nMoveAlias B A A\n"),
            "line 6: `MoveAlias` takes a name and one move",
        ),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nMoveSequence B\n"),
            "line 6: `MoveSequence` takes a name and the moves",
        ),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nMoveSequence B A A'\n"),
            "line 6: MoveSequence B moves nothing",
        ),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nMoveSequence A A A\n"),
            "line 6: move `A` defined twice",
        ),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nMoveSequence B A3\n"),
            "line 6: MoveSequence B: `A3` is not a move (the moves are A B",
        ),
        (
            format!("{set}MoveSequence B A A\nMoveSequence A B\nMove C\nC\n2 3 1\nEnd\n"),
            "line 3: the sequences B -> A -> B name each other in a cycle",
        ),
        (
            format!("{set}Solved\nC\n1 2 3\nEnd\nMove A\nC\n2 3 1\nEnd\nIllegal C 2 2\n"),
            "line 10: this line makes the solved state itself illegal",
        ),
        (
            format!("{set}Solved\nC\n1 2 3\nEnd\nIllegal C 1 ?\n"),
            "line 6: the piece wildcards `?` are not supported",
        ),
        (
            "Set C 3 2\nSolved\nC\n1 ? 3\nEnd\n".into(),
            "line 4: piece wildcards `?` are not supported",
        ),
        (
            "Set C 3 2\nMove A\nC\n2 3 1\n? 0 0\nEnd\n".into(),
            "line 5: a move's orientation cannot be `?`",
        ),
        (
            "Set C 3 2\nSolved\nC\n1 2 1\n0 0 ?\nEnd\n".into(),
            "line 5: set C: slots 1 and 3 hold identical pieces (1), but only one has its orientation `?`",
        ),
        (format!("Ignore C\n{set}"), "line 1: `Ignore` is not supported"),
        (
            format!("{set}MoveTransformation A\n"),
            "line 2: `MoveTransformation` is not supported",
        ),
    ]);
}

#[test]
fn refuses_moves_and_blocks_that_are_malformed() {
    let set = "Set C 3 1\n";
    refuses(&[
        (
            format!("{set}Move A\nC\n1 1 3\nEnd\n"),
            "line 4: move A is not a permutation of set C: 1 appears twice",
        ),
        (
            format!("{set}Move A\nC\n1 2 4\nEnd\n"),
            "line 4: move A is not a permutation of set C: 4 is past",
        ),
        (
            format!("{set}Move A\nC\n1 2\nEnd\n"),
            "line 4: set C has 3 pieces, this line has 2 numbers",
        ),
        (
            "Set C 3 2\nMove A\nC\n1 2 3\n0 0 2\nEnd\n".into(),
            "line 5: orientation 2 out of range: set C has 2 orientations",
        ),
        (
            format!("{set}Move A\nD\n1 2 3\nEnd\n"),
            "line 3: unknown set `D` (the sets are C)",
        ),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nMove A\nC\n2 1 3\nEnd\n"),
            "line 6: move `A` defined twice",
        ),
        (
            "Set C 4 1\nMove A2\nC\n2 1 3 4\nEnd\nMove A\nC\n2 3 4 1\nEnd\n".into(),
            "line 6: the move name A2 is used twice",
        ),
        (
            format!("{set}Solved\nC\n1 2 3\nEnd\n"),
            "line 5: no `Move` in the definition",
        ),
        (format!("{set}Move A\nC\n2 3 1\n"), "line 2: this block has no `End`"),
        (
            format!("{set}Move A\nC\n2 3 1\n0 0 0\n0 0 0\nEnd\n"),
            "line 6: a third line of numbers for set C",
        ),
        (
            format!("{set}Move A\nC\n2 x 1\nEnd\n"),
            "line 4: piece `x` is not a number",
        ),
        (format!("{set}Move A\nC\nEnd\n"), "line 4: set C has no line of pieces"),
        (
            format!("{set}Move A\nC\n2 3 1\nEnd\nSet D 2 1\n"),
            "line 6: `Set` must come before",
        ),
    ]);
}

#[test]
fn refuses_sets_out_of_range_and_spaces_past_64_bits() {
    let set = "Set C 3 1\n";
    refuses(&[
        (
            "Set C 0 1\n".into(),
            "line 1: the number of pieces `0` is out of range 1 to 255",
        ),
        (
            "Set C 3 200\n".into(),
            "line 1: the number of orientations `200` is out of range 1 to 127",
        ),
        ("Set C 3\n".into(), "line 1: `Set` takes a name, a number of pieces"),
        ("# nothing\n".into(), "no `Set` in the definition"),
        (
            format!("{set}End\n"),
            "line 2: `End` without a `Solved` or `Move` block",
        ),
        (
            format!("{set}Move A\n2 3 1\nEnd\n"),
            "line 3: numbers before a set name in the move",
        ),
        ("x".repeat(MAX_BYTES_PLUS_ONE), "more than the 1048576 accepted"),
        // 65 identical pieces, each twisted by the move: 2^65 ranks (2 reachable), past
        // 64-bit ranks; 130, past 128-bit counts.
        (
            format!(
                "Set X 65 2\nSolved\nX\n{}\nEnd\nMove A\nX\n{}\n{}\nEnd\n",
                "1 ".repeat(65),
                (1..=65).map(|i| i.to_string()).collect::<Vec<_>>().join(" "),
                "1 ".repeat(65)
            ),
            "the rank space of 36,893,488,147,419,103,232 configurations does not fit in 64 bits",
        ),
        (
            format!(
                "Set X 130 2\nSolved\nX\n{}\nEnd\nMove A\nX\n{}\n{}\nEnd\n",
                "1 ".repeat(130),
                (1..=130).map(|i| i.to_string()).collect::<Vec<_>>().join(" "),
                "1 ".repeat(130)
            ),
            "the rank space of more than 10^38 configurations does not fit in 64 bits",
        ),
    ]);
}

const MAX_BYTES_PLUS_ONE: usize = parse::MAX_BYTES + 1;

#[test]
fn reads_the_format_as_twsearch_does() {
    // Comments, blank lines, a Name with the first keyword, a set left out of a move (it
    // stays), an orientation line left out (no twist), StartState counting from 0, and a
    // comment after a line's tokens.
    let text = "# a comment\n\nName Two\nSet A 3 1\nSet B 2 2 # two coins\nStartState\nA\n0 1 2\nEnd\nMove M\nA\n2 3 1\nEnd\nMove N\nB\n2 1\n1 0\nEnd\n";
    let def = parse_definition(text).expect("valid");
    assert_eq!(def.name, "Two");
    assert_eq!(def.solved.pieces, vec![vec![0, 1, 2], vec![0, 1]]);
    assert_eq!(def.moves[0].from, vec![vec![1, 2, 0], vec![0, 1]]);
    // The twist is written where the piece starts (position 1) and kept where it arrives (2).
    assert_eq!(def.moves[1].twist, vec![vec![0, 0, 0], vec![0, 1]]);
    assert_eq!(levels(&puzzle(text, Metric::Face)).iter().sum::<u64>(), 3 * 4);
}

#[test]
fn sequences_and_aliases_are_composed_wherever_they_are_defined() {
    // `T` names `S` before `S` is defined; `S` is M then N; the alias `Mi` is M's inverse.
    let text = "Set A 3 1\nMoveSequence T S Mi\nMoveAlias Mi M'\nMove M\nA\n2 3 1\nEnd\nMoveSequence S M N\nMove N\nA\n2 1 3\nEnd\n";
    let def = parse_definition(text).expect("valid");
    let names: Vec<&str> = def.moves.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["M", "N", "T", "S"], "sequences after the moves, in file order");
    // M brings position 2's piece to 1, 3's to 2, 1's to 3; N then swaps positions 1 and 2.
    let s = &def.moves[3];
    assert_eq!(s.from, vec![vec![2, 1, 0]]);
    // T = S then M': position 1 keeps its piece, 2 and 3 swap.
    assert_eq!(def.moves[2].from, vec![vec![0, 2, 1]]);
    assert_eq!(def.aliases.len(), 1);
    assert_eq!(def.aliases[0].from, vec![vec![2, 0, 1]]);
    let p = puzzle(text, Metric::Face);
    assert!(
        p.moves().iter().all(|m| !m.name.starts_with("Mi")),
        "an alias is no generator"
    );
    assert_eq!(p.parse("Mi M"), Ok(p.goals()[0]));
    let mut chosen = def.clone();
    chosen.choose_moves(&["S", "M"]).expect("moves of the file");
    let names: Vec<&str> = chosen.moves.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["M", "S"]);
    assert!(
        def.clone().choose_moves(&["Mi"]).is_err(),
        "an alias is not a move to choose"
    );
    assert!(def.clone().choose_moves(&["M", "M"]).is_err());
}

#[test]
fn the_ranking_is_a_bijection_on_every_small_example() {
    let small = [
        TOP_SPIN.to_string(),
        pancakes(7, false),
        pancakes(5, true),
        TIED_PARITIES.into(),
        IN_STEP.into(),
        MULTISET.into(),
        UR_CORNERS.into(),
        PENTAGON.into(),
        HEXAGON.into(),
    ];
    for text in &small {
        for metric in [Metric::Face, Metric::Quarter] {
            let p = puzzle(text, metric);
            for r in 0..p.states() {
                let (pieces, twists) = p.state(r);
                assert_eq!(p.rank_of(&pieces, &twists), Ok(r), "{}", p.definition().name);
                assert_eq!(p.parse(&p.render(r)), Ok(r));
            }
        }
    }
    // The pocket cube: a sample of its ranks.
    let p = puzzle(POCKET_HELD, Metric::Face);
    for r in (0..p.states()).step_by(997) {
        let (pieces, twists) = p.state(r);
        assert_eq!(p.rank_of(&pieces, &twists), Ok(r));
    }
}

#[test]
fn every_small_example_equals_a_plain_search_over_explicit_states() {
    let small = [
        TOP_SPIN.to_string(),
        pancakes(7, false),
        pancakes(5, true),
        TIED_PARITIES.into(),
        IN_STEP.into(),
        MULTISET.into(),
        UR_CORNERS.into(),
        PENTAGON.into(),
        HEXAGON.into(),
    ];
    for text in &small {
        for metric in [Metric::Face, Metric::Quarter] {
            let p = puzzle(text, metric);
            let plain = plain_levels(text, metric);
            assert_eq!(levels(&p), plain, "{} {metric:?}", p.definition().name);
            // Where the pieces are distinct, the group's order is the count.
            if let Some(n) = p.group_order() {
                assert_eq!(n, plain.iter().sum::<u64>(), "{}", p.definition().name);
            }
        }
    }
}

/// A puzzle as the engine sees it, but never searched bottom-up.
struct TopDown<'a>(&'a PermPuzzle);

impl SearchGraph for TopDown<'_> {
    type Memo = Memo;
    fn states(&self) -> u64 {
        self.0.states()
    }
    fn goals(&self) -> Vec<u64> {
        self.0.goals()
    }
    fn for_each_predecessor(&self, memo: &mut Memo, rank: u64, f: impl FnMut(u64)) {
        self.0.for_each_predecessor(memo, rank, f);
    }
    fn for_each_successor(&self, rank: u64, f: impl FnMut(u64)) {
        self.0.for_each_successor(rank, f);
    }
    fn class_count(&self) -> usize {
        self.0.class_count()
    }
    fn uniform(&self) -> bool {
        self.0.uniform()
    }
    fn multiplicity(&self, rank: u64) -> u64 {
        self.0.multiplicity(rank)
    }
    fn counts_classes(&self) -> bool {
        self.0.counts_classes()
    }
    fn classes_at(&self, rank: u64) -> u64 {
        self.0.classes_at(rank)
    }
    fn class_of(&self, rank: u64) -> usize {
        self.0.class_of(rank)
    }
}

/// Each level's ranks as the observer sees them, the result, and the predecessors generated.
fn each_level<P: SearchGraph>(p: &P) -> (Vec<Vec<u64>>, crate::engine::Distances, u64) {
    let (mut seen, mut generated) = (Vec::new(), 0);
    let distances = search(p, Options::default(), |level| {
        seen.push(level.next.iter().collect());
        generated += level.generated;
        ControlFlow::Continue(())
    })
    .expect("the search succeeds");
    (seen, distances, generated)
}

#[test]
fn dense_levels_searched_bottom_up_come_out_as_top_down() {
    // One plan each: split tables (the pocket cube, over 14 work chunks), a big
    // permutation (pancakes), split tables with parities tied across sets.
    for text in [POCKET_HELD.to_string(), pancakes(9, false), TIED_PARITIES.into()] {
        for metric in [Metric::Face, Metric::Quarter] {
            let p = puzzle(&text, metric);
            let name = format!("{} {metric:?}", p.definition().name);
            let (levels, distances, generated) = each_level(&p);
            let (top_levels, top_distances, top_generated) = each_level(&TopDown(&p));
            assert_eq!(levels, top_levels, "{name}");
            assert_eq!(distances, top_distances, "{name}");
            assert!(
                generated < top_generated,
                "{name}: {generated} predecessors bottom-up, {top_generated} top-down"
            );
        }
    }
}

/// Searched by class, a rank stands for a class: the dense levels found bottom-up, each
/// unseen class index looking for a neighbour in the level, come out as top-down, with the
/// same counts of positions and classes, and fewer neighbours generated where a level is
/// dense enough (the pyramorphix's never is). Every definition in `examples/` that goes by
/// class and is searched in a few seconds.
#[test]
fn dense_levels_of_classes_searched_bottom_up_come_out_as_top_down() {
    let examples = [
        (include_str!("../../../examples/pocket-cube-held.tws"), true),
        (include_str!("../../../examples/pocket-cube.tws"), true),
        (include_str!("../../../examples/pyramorphix.tws"), false),
    ];
    for (text, dense) in examples {
        let p = puzzle(text, Metric::Face)
            .with_symmetry(crate::puzzle::SymmetryChoice::default())
            .expect("its group");
        let name = p.definition().name.clone();
        assert!(p.by_class.is_some(), "{name} goes by class");
        let (levels, distances, generated) = each_level(&p);
        let (top_levels, top_distances, top_generated) = each_level(&TopDown(&p));
        assert_eq!(levels, top_levels, "{name}");
        assert_eq!(distances, top_distances, "{name}");
        assert_eq!(
            generated < top_generated,
            dense,
            "{name}: {generated} neighbours bottom-up, {top_generated} top-down"
        );
    }
}

#[test]
fn finds_the_invariants_from_the_moves() {
    let tied = puzzle(TIED_PARITIES, Metric::Face);
    assert_eq!((tied.states(), tied.plan()), (24 * 3, "split"));
    let step = puzzle(IN_STEP, Metric::Face);
    assert_eq!(step.states(), 6 * 8);
    let multi = puzzle(MULTISET, Metric::Face);
    assert_eq!(multi.states(), 6);
    assert_eq!(multi.configurations(), (6 * 2 * 9, "4!/(2! x 2!) x 2! x 3^2".into()));
    let spin = puzzle(TOP_SPIN, Metric::Face);
    assert_eq!(spin.states(), 181_440);
    // The pyraminx: tips and axial pieces twist, edges flip with an even sum and move by
    // 3-cycles: 3^4 x 3^4 x 6!/2 x 2^5.
    assert_eq!(puzzle(PYRAMINX, Metric::Face).states(), 81 * 81 * 360 * 32);
}

#[test]
fn classes_count_every_assembly() {
    let p = puzzle(POCKET_HELD, Metric::Face);
    let classes = p.classes();
    let labels: Vec<&str> = classes.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["CORNERS twist 0", "CORNERS twist 1", "CORNERS twist 2", "misplaced"]
    );
    assert_eq!(classes.iter().map(|c| c.configurations).sum::<u64>(), 40_320 * 6_561);
    assert_eq!(classes[0].configurations, 3_674_160);
    assert!(classes[0].solvable && classes[1..].iter().all(|c| !c.solvable));
    for c in &classes[1..3] {
        assert!(
            matches!(p.parse(&c.example), Err(ParseError::Refused(_))),
            "{}",
            c.example
        );
    }
    assert!(matches!(p.parse(&classes[3].example), Err(ParseError::Refused(_))));
    let spin = puzzle(TOP_SPIN, Metric::Face).classes();
    assert_eq!(
        spin.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(),
        ["RING even", "RING odd"]
    );
}

#[test]
fn reads_positions_as_lines_or_as_moves() {
    let p = puzzle(POCKET_HELD, Metric::Face);
    let sexy = p.parse("R U R' U'").expect("moves");
    let (pieces, twists) = p.parse_state("R U R' U'").expect("moves");
    assert_eq!(p.parse(&p.render_state(&pieces, &twists)), Ok(sexy));
    assert_eq!(p.parse("CORNERS 1 2 3 4 5 6 7 8"), Ok(p.goals()[0]));
    assert_eq!(p.parse("F2 F2"), Ok(p.goals()[0]));
    assert!(matches!(p.parse("X"), Err(ParseError::Malformed(m)) if m.contains("not a move")));
    assert!(matches!(p.parse("1 2 3"), Err(ParseError::Malformed(m)) if m.contains("takes 8 or 16 numbers")));
    assert!(matches!(
        p.parse("2 1 3 4 5 6 7 8, 1 0 0 0 0 0 0 0"),
        Err(ParseError::Refused(_))
    ));
    // One move from the goal is one move away, and named.
    let r = p.parse("U").expect("moves");
    assert_eq!(p.describe_move(p.goals()[0], r), "U");
    assert_eq!(p.draw(p.goals()[0]), "CORNERS 1 2 3 4 5 6 7 8\n        0 0 0 0 0 0 0 0");
}

#[test]
fn pocket_cube_with_a_corner_held_matches_oeis() {
    // A079761 (each power a move) and A079762 (quarter turns).
    let face = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644];
    assert_eq!(levels(&puzzle(POCKET_HELD, Metric::Face)), face);
    let quarter = [
        1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
    ];
    assert_eq!(levels(&puzzle(POCKET_HELD, Metric::Quarter)), quarter);
}

#[test]
fn pocket_cube_with_six_faces_starts_as_twsearch_counts() {
    // twsearch -g on its own 2x2x2 definition: 1, 18, 243, 2874, 28000, 205416, ...
    let p = puzzle(POCKET, Metric::Face);
    assert_eq!(p.states(), 88_179_840);
    let mut seen = vec![];
    let _ = search(&p, Options::default(), |level| {
        seen.push(level.states);
        if level.depth == 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(seen, [1, 18, 243, 2874, 28000, 205416]);
}

/// Asserts the greatest distance of stacks of `n` (burnt) pancakes, for each `(n, max)`.
fn assert_diameters(burnt: bool, known: &[(usize, usize)]) {
    for &(n, max) in known {
        let diameter = levels(&puzzle(&pancakes(n, burnt), Metric::Face)).len() - 1;
        assert_eq!(diameter, max, "{n} pancakes, burnt: {burnt}");
    }
}

#[test]
fn pancake_numbers() {
    // A058986 for 4..9 pancakes; the 6-stack's distances; the 10-stack's (big plan).
    assert_diameters(false, &[(4, 4), (5, 5), (6, 7), (7, 8), (8, 9), (9, 10)]);
    assert_eq!(
        levels(&puzzle(&pancakes(6, false), Metric::Face)),
        [1, 5, 20, 79, 199, 281, 133, 2]
    );
    let ten = puzzle(PANCAKES_10, Metric::Face);
    assert_eq!(ten.plan(), "big");
    assert_eq!(levels(&ten).len() - 1, 11);
}

#[test]
fn a_big_permutation_beside_a_small_set_equals_a_plain_search() {
    // Eight pancakes and a tag of three pieces that the two smallest flips turn: the
    // big-permutation plan with another coordinate in its low table.
    let mut text = pancakes(8, false);
    text = text.replacen("Set STACK 8 1\n", "Set STACK 8 1\nSet TAG 3 1\n", 1);
    text = text.replacen("Move f2\n", "Move f2\nTAG\n2 3 1\n", 1);
    text = text.replacen("Move f3\n", "Move f3\nTAG\n2 1 3\n", 1);
    let p = puzzle(&text, Metric::Face);
    assert_eq!((p.plan(), p.states()), ("big", 40_320 * 6));
    assert_eq!(levels(&p), plain_levels(&text, Metric::Face));
}

#[test]
fn burnt_pancake_numbers() {
    // A078941 for 2..7 burnt pancakes, and the 3-stack's distances.
    assert_diameters(true, &[(2, 4), (3, 6), (4, 8), (5, 10), (6, 12), (7, 14)]);
    assert_eq!(
        levels(&puzzle(&pancakes(3, true), Metric::Face)),
        [1, 3, 6, 12, 18, 6, 2]
    );
    assert_eq!(puzzle(BURNT_8, Metric::Face).states(), 40_320 * 256);
}

#[test]
fn the_rank_space_is_known_before_the_tables_are_built() {
    for text in [
        POCKET_HELD,
        POCKET,
        TOP_SPIN,
        BURNT_8,
        PANCAKES_10,
        PYRAMINX,
        TIED_PARITIES,
        IN_STEP,
        MULTISET,
    ] {
        for metric in [Metric::Face, Metric::Quarter] {
            let def = parse_definition(text).expect("valid");
            let (states, _) = PermPuzzle::rank_space(&def, metric).expect("fits");
            assert_eq!(states, Some(u128::from(puzzle(text, metric).states())), "{}", def.name);
        }
    }
}

#[test]
fn positions_outside_every_class_are_named_by_set() {
    // The pocket cube held keeps its 7th corner; the pieces are flattened in set order.
    let held = puzzle(POCKET_HELD, Metric::Face);
    let moved = held.rank_of(&[0, 1, 2, 3, 4, 5, 7, 6], &[0; 8]);
    let want = "slot 7 of set CORNERS is never moved";
    assert!(
        matches!(&moved, Err(ParseError::Refused(m)) if m.contains(want)),
        "{moved:?}"
    );
    // A and B move in step: swapping two of A's pieces alone puts one out of step.
    let in_step = puzzle(IN_STEP, Metric::Face);
    let apart = in_step.rank_of(&[1, 0, 2, 0, 1, 2], &[0; 6]);
    let want = "moves in step with set";
    assert!(
        matches!(&apart, Err(ParseError::Refused(m)) if m.contains(want)),
        "{apart:?}"
    );
}

#[test]
fn the_whole_cube_is_counted_past_64_bits_and_its_subgroups_ranked_tightly() {
    // 8! x 3^7 x 12! x 2^11 / 2: the invariants' count, its ranks past 64 bits.
    let def = parse_definition(CUBE).expect("valid");
    let (states, reach) = PermPuzzle::rank_space(&def, Metric::Face).expect("valid");
    assert_eq!(states, Some(43_252_003_274_489_856_000));
    assert_eq!(reach.positions(), Some(43_252_003_274_489_856_000));
    let err = PermPuzzle::new(def, "cube", Metric::Face)
        .map(|_| ())
        .map_err(|e| e.to_string());
    assert_eq!(
        err,
        Err("the rank space of 43,252,003,274,489,856,000 configurations does not fit in 64 bits".into())
    );
    // Each face turn has order 4.
    let full = Structure::new(&parse_definition(CUBE).expect("valid"), Metric::Face).expect("valid");
    assert_eq!(full.moves.len(), 18);
    // Half turns: corners in two orbits of 4, edges in three, no orientation changed, the
    // parities tied in two ways: 24^5 / 4 ranks.
    let squares = puzzle(SQUARES, Metric::Face);
    let sizes: Vec<(usize, usize)> = squares.s.components.iter().map(|c| (c.set, c.len())).collect();
    assert_eq!(sizes, [(0, 4), (0, 4), (1, 4), (1, 4), (1, 4)]);
    assert!(squares.s.components.iter().all(|c| c.carried.is_some()));
    assert_eq!(squares.states(), 24u64.pow(5) / 4);
    // Every assembly, past 64 bits: the invariant's sentence says the rest is no class.
    assert_eq!(
        squares.configurations(),
        (519_024_039_293_878_272_000, "8! x 12! x 3^8 x 2^12".into())
    );
    assert!(
        squares
            .invariant()
            .contains("519,024,039,293,878,272,000 configurations")
    );
    // <U,R>: 6 corners (twist sum kept) and 7 edges (orientation never changed) moved, the
    // edges' parity tied to the corners', and the corners in 120 of their 720 arrangements:
    // 120 x 3^5 x 7!/2 ranks, every one a position.
    let ur = puzzle(CUBE_UR, Metric::Quarter);
    assert_eq!((ur.states(), ur.plan()), (120 * 243 * 2520, "split"));
    assert_eq!(ur.group_order(), Some(73_483_200));
    let edges = &ur.s.components[1];
    assert_eq!(
        (edges.len(), edges.carried.is_some(), edges.ranks_twists()),
        (7, true, false)
    );
    // A twist no move changes is outside every class.
    let (p, mut t) = ur.state(ur.goals()[0]);
    t[8] = 1;
    assert!(matches!(ur.rank_of(&p, &t), Err(ParseError::Refused(m)) if m.contains("no move changes")));
}

#[test]
fn tightened_coordinates_round_trip() {
    for (text, step) in [(SQUARES, 1), (CUBE_UR, 9_973)] {
        let p = puzzle(text, Metric::Face);
        for r in (0..p.states()).step_by(step) {
            let (pieces, twists) = p.state(r);
            assert_eq!(p.rank_of(&pieces, &twists), Ok(r), "{}", p.definition().name);
        }
    }
    // Moves from the goal, as the definition's lines and back.
    let ur = puzzle(CUBE_UR, Metric::Face);
    let r = ur.parse("R U R' U R U2 R'").expect("moves");
    assert_eq!(ur.parse(&ur.render(r)), Ok(r));
    // Listed arrangements: the ranks are exactly those the moves make.
    let corners = puzzle(UR_CORNERS, Metric::Face);
    assert_eq!((corners.states(), corners.plan()), (120 * 243, "split"));
    let swapped = corners.parse("2 1 3 4 5 6 7 8");
    assert!(
        matches!(&swapped, Err(ParseError::Refused(m)) if m.contains("the moves make 120 arrangements")),
        "{swapped:?}"
    );
    assert!(
        corners
            .invariant()
            .contains("the moves make 120 of CORNERS's 720 arrangements")
    );
    let pentagon = puzzle(PENTAGON, Metric::Face);
    assert_eq!(pentagon.states(), 10);
    let hexagon = puzzle(HEXAGON, Metric::Face);
    assert_eq!((hexagon.states(), hexagon.group_order()), (12 * 3, Some(36)));
}

#[test]
fn the_squares_group_equals_a080627() {
    let p = puzzle(SQUARES, Metric::Face);
    let want = [
        1, 6, 27, 120, 519, 1932, 6484, 20310, 55034, 113892, 178495, 179196, 89728, 16176, 1488, 144,
    ];
    assert_eq!(levels(&p), want);
    assert_eq!(want.iter().sum::<u64>(), 663_552);
    // A plain search over explicit states agrees on a smaller subgroup, <U2, R2>, from the
    // whole cube's file.
    let u2r2: String = SQUARES
        .split("\nMove ")
        .enumerate()
        .filter(|(i, part)| *i == 0 || part.starts_with("U2") || part.starts_with("R2"))
        .map(|(i, part)| {
            if i == 0 {
                part.to_string()
            } else {
                format!("\nMove {part}")
            }
        })
        .collect();
    let small = puzzle(&u2r2, Metric::Face);
    assert_eq!(levels(&small), plain_levels(&u2r2, Metric::Face));
    assert_eq!(levels(&small).iter().sum::<u64>(), 12);
}

#[test]
fn binned_flips_of_the_whole_stack_are_the_plain_ones() {
    let p = puzzle(&pancakes(9, false), Metric::Face);
    let bins = p.bins().expect("pancakes of 9 flip the whole stack alone");
    assert_eq!((bins.groups, bins.span, bins.len), (9, 40_320, 5_040));
    let binned = p.binned().expect("a binned puzzle");
    let (mut memo, mut binned_memo) = (Memo::default(), Memo::default());
    let mut sent = 0;
    for rank in 0..p.states() {
        let mut plain = Vec::new();
        p.for_each_predecessor(&mut memo, rank, |pred| plain.push(pred));
        let mut other = Vec::new();
        binned.for_each_predecessor(&mut binned_memo, rank, |pred| {
            if pred & Bins::FLAG == 0 {
                other.push(pred);
                return;
            }
            let (bin, index) = Bins::decode(pred);
            // From the group of the rank's bottom pancake to the group of its top one.
            assert_eq!(bin % bins.groups, rank / bins.span, "rank {rank}");
            let mut images = Vec::new();
            assert_eq!(p.unbin(bin, [index].into_iter(), |r| images.push(r)), 0);
            let image = images[0];
            assert_eq!(image / bins.span, bin / bins.groups, "rank {rank}");
            sent += 1;
            other.push(image);
        });
        plain.sort_unstable();
        other.sort_unstable();
        assert_eq!(plain, other, "rank {rank}");
        let image = binned.binned_image(&mut binned_memo, rank).expect("the swap's image");
        let mut images = Vec::new();
        let (bin, index) = Bins::decode(image);
        p.unbin(bin, [index].into_iter(), |r| images.push(r));
        assert!(plain.contains(&images[0]), "rank {rank}");
    }
    assert_eq!(sent, p.states());
    // The other plans have no such move; nor has a stack whose bottom two move together.
    assert!(puzzle(POCKET_HELD, Metric::Face).bins().is_none());
    assert!(puzzle(&pancakes(5, true), Metric::Face).bins().is_none());
}

/// `--omit` takes a set out of every part that names it and renumbers the `Illegal` lines
/// of the sets after it; a move left moving nothing is dropped.
#[test]
fn omitting_a_set_renumbers_the_illegal_lines_and_drops_still_moves() {
    let text = "Set A 2 1\nSet B 3 1\nSolved\nA\n1 2\nB\n1 2 3\nEnd\nIllegal B 1 2\nMove X\nA\n2 1\nB\n1 2 3\nEnd\nMove Y\nA\n1 2\nB\n2 3 1\nEnd\n";
    let mut def = parse_definition(text).expect("the definition");
    def.omit_sets(&["A"]).expect("A left out");
    assert_eq!(def.sets.len(), 1);
    assert_eq!(def.illegal.iter().map(|l| l.set).collect::<Vec<_>>(), [0]);
    assert_eq!(def.moves.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["Y"]);
    let mut def = parse_definition(text).expect("the definition");
    assert_eq!(def.omit_sets(&["B"]), Ok(()));
    assert!(def.illegal.is_empty());
}

/// Whether the class route may apply is read without building: the cube's corners are
/// tabulated, its edges alone (479,001,600 arrangements) are not.
#[test]
fn the_class_route_is_ruled_out_before_building() {
    let def = parse_definition(POCKET).expect("the pocket cube");
    assert!(PermPuzzle::may_rank_by_class(&def, Metric::Face));
    let mut def = parse_definition(CUBE).expect("the cube");
    def.omit_sets(&["CORNERS"]).expect("the edges alone");
    assert!(!PermPuzzle::may_rank_by_class(&def, Metric::Face));
}

/// Random positions are drawn uniformly: 100 draws a position of the pyramorphix's 96
/// reach each of them, none far from 100 times (a deviation of 6 standard deviations
/// either way: the seed fixes the draws, so the test cannot flicker).
#[test]
fn random_positions_are_drawn_uniformly() {
    let mut def = parse_definition(include_str!("../../../examples/pyramorphix.tws")).expect("a definition");
    def.set_rotations_apart();
    let p = PermPuzzle::new(def, "pyramorphix", Metric::Face).expect("a puzzle");
    let drawn = p.random_positions(96 * 100, 7).expect("a group chain");
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for text in &drawn {
        let (pieces, twists) = p.parse_state(text).expect("a position the puzzle reads");
        *seen.entry(p.rank_of(&pieces, &twists).expect("a rank")).or_default() += 1;
    }
    assert_eq!(seen.len(), 96);
    assert!(seen.values().all(|&n| (40..=160).contains(&n)), "{seen:?}");
    assert_ne!(p.random_positions(5, 8), p.random_positions(5, 7));
    assert_eq!(p.random_positions(5, 7), p.random_positions(5, 7));
}

/// Random positions of a group too large for a table are positions its invariants allow
/// (each is checked as `--solve` checks what it reads).
#[test]
fn random_cube_positions_keep_the_cubes_invariants() {
    let def = parse_definition(CUBE).expect("the cube");
    let cube = PermPuzzle::reader(def, "3x3x3", Metric::Face, 1).expect("a reader");
    let drawn = cube.random_positions(200, 51).expect("a group chain");
    let mut distinct = drawn.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 200);
    for text in &drawn {
        let (pieces, twists) = cube.parse_state(text).expect("a position the puzzle reads");
        cube.check(&pieces, &twists).expect("the cube's invariants");
    }
}

/// The face-turning octahedron's corners and edges with a corner held, written from its
/// geometry by `scripts/fto-definition.py`: the count T. Rokicki's search found, the
/// symmetries that keep the held corner (the square's 4 rotations about its axis and 4
/// mirrors, each with the inverse), and the class ranking's size.
#[test]
fn the_held_octahedron_has_its_published_count_and_16_symmetries() {
    let text = include_str!("../../../examples/fto-corners-edges.tws");
    let p = puzzle(text, Metric::Face)
        .with_symmetry(crate::puzzle::SymmetryChoice::default())
        .expect("its group");
    assert_eq!(p.group_order(), Some(229_920_768_000));
    // Its corners are one coordinate, the 960 states the moves make of them (of 5!/2 x 4^4),
    // ranked above the edges' 12!/2: they fall into 131 classes under the 8 symmetries.
    let top = p.coords.list.last().map(|c| (c.kind, c.size));
    assert_eq!(top, Some((coords::Kind::Joint, 960)));
    assert_eq!(p.states(), 131 * 239_500_800);
    let group = p.symmetry.group.as_ref().expect("a group");
    assert_eq!(group.order, 16);
    assert_eq!(
        group.made_of,
        "4 rotations and 4 mirrors of the whole puzzle, each with the inverse of the state"
    );
}

/// The held octahedron's first levels are T. Rokicki's (cubing/twips issue 114, 2025: 1, 16,
/// 208, 2,688, 34,752, 444,736 ... to 366 at 13), by a plain search over explicit positions,
/// which needs no planes for its 229,920,768,000 positions.
#[test]
fn the_held_octahedrons_first_levels_are_the_published_ones() {
    let def = parse_definition(include_str!("../../../examples/fto-corners-edges.tws")).expect("the octahedron");
    let p = PermPuzzle::reader(def, "fto", Metric::Face, 1).expect("a reader");
    let s = p.structure();
    let goal = (s.solved_pieces.clone(), s.solved_twists.clone());
    let mut seen = std::collections::HashSet::from([goal.clone()]);
    let (mut frontier, mut levels) = (vec![goal], vec![1]);
    for _ in 0..5 {
        let mut next = Vec::new();
        for (pieces, twists) in &frontier {
            for m in p.moves() {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                p.apply(m, pieces, twists, &mut a, &mut b);
                if seen.insert((a.clone(), b.clone())) {
                    next.push((a, b));
                }
            }
        }
        levels.push(next.len());
        frontier = next;
    }
    assert_eq!(levels, [1, 16, 208, 2_688, 34_752, 444_736]);
}

/// The 3x3x3's edges, the first seven told apart and the other five alike, with every
/// edge's flip: the pattern database the solver builds at 4 GiB.
const EDGES_7: &str = "Set EDGES 12 2
Solved
EDGES
1 2 3 4 5 6 7 8 8 8 8 8
End
Move U
EDGES
4 1 2 3 5 6 7 8 9 10 11 12
End
Move D
EDGES
1 2 3 4 6 7 8 5 9 10 11 12
End
Move R
EDGES
1 2 3 9 5 6 7 12 8 10 11 4
End
Move L
EDGES
1 11 3 4 5 10 7 8 9 2 6 12
End
Move F
EDGES
10 2 3 4 9 6 7 8 1 5 11 12
1 0 0 0 1 0 0 0 1 1 0 0
End
Move B
EDGES
1 2 12 4 5 6 11 8 9 10 3 7
0 0 1 0 0 0 1 0 0 0 1 1
End
";

#[test]
fn a_coordinate_too_big_for_a_table_is_moved_once_a_run() {
    // 12!/5! = 3,991,680 arrangements x 18 moves: past a coordinate's table, so worked out
    // once a run of the 2,048 flips; its neighbours are those unranked, moved and ranked.
    let p = puzzle(EDGES_7, Metric::Face);
    assert_eq!((p.plan(), p.states()), ("split", 3_991_680 * 2_048));
    let mut plain = p.clone();
    plain.coords.plan = Plan::Generic;
    for start in (0..p.states()).step_by((p.states() / 40) as usize) {
        let (mut memo, mut plain_memo) = (Memo::default(), Memo::default());
        // Ascending, as the engine hands them out, across the end of a run.
        for rank in start..start + 2_500 {
            let (mut found, mut expected) = (Vec::new(), Vec::new());
            p.neighbours(&mut memo, rank, |n| found.push(n));
            plain.neighbours(&mut plain_memo, rank, |n| expected.push(n));
            assert_eq!(found, expected, "rank {rank}");
        }
    }
}
