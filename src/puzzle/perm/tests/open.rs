//! Orientations a definition leaves open (a `?` in a `.tws` solved state, a KPuzzle
//! `orientationMod`): against the plain search, which forgets them only in the keys of the
//! states it has seen.

use super::super::kpuzzle::parse_kpuzzle;
use super::super::packed::Packing;
use super::*;

/// Four distinct pieces of three orientations, each twisted freely: the first piece's
/// orientation does not matter, so positions come three to one.
const ONE_OPEN: &str = "
Name OneOpen
Set C 4 3
Solved
C
1 2 3 4
? 0 0 0
End
Move A
C
2 3 4 1
1 0 0 0
End
Move B
C
2 1 3 4
End
Move T
C
1 2 3 4
0 0 0 1
End
";

/// The moves keep the twist sum, which fixes one twist from the others, but two pieces'
/// orientations are open: the sum no longer constrains the other two.
const TWO_OPEN_SUM: &str = "
Name TwoOpenSum
Set C 4 3
Solved
C
1 2 3 4
? 0 ? 0
End
Move A
C
2 3 4 1
1 0 0 2
End
Move B
C
2 1 3 4
End
Move T
C
1 2 3 4
0 0 1 2
End
";

/// One set of two orbits, one all open (its twists are no coordinate at all), the other
/// known.
const OPEN_ORBIT: &str = "
Set E 6 2
Solved
E
1 2 3 4 5 6
? ? ? 0 0 0
End
Move X
E
2 3 1 4 5 6
1 0 0 0 0 0
End
Move Y
E
1 2 3 5 6 4
0 0 0 1 0 0
End
";

/// [`OPEN_ORBIT`] beside a set whose identical pieces are open alike, others not
/// (StartState counts from 0).
const ORBITS: &str = "
Name Orbits
Set E 6 2
Set P 4 2
StartState
E
0 1 2 3 4 5
? ? ? 0 0 0
P
0 0 1 1
? ? 0 0
End
Move X
E
2 3 1 4 5 6
1 0 0 0 0 0
End
Move Y
E
1 2 3 5 6 4
0 0 0 1 0 0
P
2 3 4 1
1 0 0 1
End
";

/// A KPuzzle orbit whose pieces differ in `orientationMod`: 2 of 4, 1 (open), fully known.
const KPUZZLE_MIXED: &str = r#"{
  "name": "Mixed",
  "orbits": [{"orbitName": "A", "numPieces": 4, "numOrientations": 4}],
  "defaultPattern": {"A": {"pieces": [0, 1, 2, 3], "orientation": [1, 0, 3, 0], "orientationMod": [2, 1, 0, 0]}},
  "moves": {
    "M": {"A": {"permutation": [1, 2, 3, 0], "orientationDelta": [1, 0, 0, 0]}},
    "N": {"A": {"permutation": [1, 0, 2, 3], "orientationDelta": [0, 3, 2, 0]}}
  }
}"#;

/// The same text with every orientation known.
fn closed(text: &str) -> String {
    text.replace('?', "0")
}

fn checks(text: &str, def: Definition) {
    for metric in [Metric::Face, Metric::Quarter] {
        let p = PermPuzzle::new(def.clone(), "open", metric).expect("a valid definition");
        let name = format!("{} {metric:?}", def.name);
        let plain = plain_levels_of(&def, metric);
        assert_eq!(levels(&p), plain, "{name}");
        let reached: u64 = plain.iter().sum();
        if let Some(n) = p.group_order() {
            assert_eq!(n, reached, "{name}: the goal's orbit by Schreier–Sims");
        }
        for r in 0..p.states() {
            let (pieces, twists) = p.state(r);
            assert_eq!(p.rank_of(&pieces, &twists), Ok(r), "{name}");
            assert_eq!(p.parse(&p.render(r)), Ok(r), "{name}: {}", p.render(r));
        }
        // A class holds every position reached.
        assert!(p.states() >= reached, "{name}");
    }
    // The packed form's moves are the ranked form's, open orientations forgotten.
    let packing = Packing::new(def.clone(), "open", Metric::Face).expect("packed");
    let p = PermPuzzle::new(def, "open", Metric::Face).expect("ranked");
    let (mut pieces, mut twists) = packing.state(packing.goal());
    let (mut p2, mut t2) = (Vec::new(), Vec::new());
    for step in 0..60 {
        let m = (step * 5 + 1) % p.moves().len();
        let mut next = Vec::new();
        packing.successors(packing.key(&pieces, &twists), |_, k| next.push(k));
        p.apply(&p.moves()[m], &pieces, &twists, &mut p2, &mut t2);
        assert_eq!(packing.state(next[m]), (p2.clone(), t2.clone()), "{text}");
        (pieces, twists) = (p2.clone(), t2.clone());
    }
}

#[test]
fn open_orientations_equal_a_plain_search_that_forgets_them() {
    for text in [ONE_OPEN, TWO_OPEN_SUM, OPEN_ORBIT, ORBITS] {
        checks(text, parse_definition(text).expect("a valid definition"));
    }
    checks(KPUZZLE_MIXED, parse_kpuzzle(KPUZZLE_MIXED).expect("a valid KPuzzle"));
}

#[test]
fn an_open_orientation_changes_the_count() {
    for text in [ONE_OPEN, TWO_OPEN_SUM] {
        let total = |t: &str| plain_levels(t, Metric::Face).iter().sum::<u64>();
        assert_eq!(total(&closed(text)), 3 * total(text), "{text}");
        let p = puzzle(text, Metric::Face);
        assert_eq!(p.group_order(), Some(total(text)));
        assert!(!p.invariant().contains("keeps C's twist sum"), "{}", p.invariant());
    }
    let kept = puzzle(&closed(TWO_OPEN_SUM), Metric::Face).invariant();
    assert!(kept.contains("every move keeps C's twist sum modulo 3"), "{kept}");
    // Two twists free beside 4! arrangements: no sum left to keep.
    assert_eq!(puzzle(TWO_OPEN_SUM, Metric::Face).states(), 24 * 9);
    assert_eq!(puzzle(&closed(TWO_OPEN_SUM), Metric::Face).states(), 24 * 27);
    assert_eq!(puzzle(&closed(ONE_OPEN), Metric::Face).states(), 24 * 81);
}

#[test]
fn open_orientations_are_counted_and_written_as_the_file_writes_them() {
    let def = parse_definition(ORBITS).expect("valid");
    assert_eq!(def.orientation_mod, [vec![1, 1, 1, 2, 2, 2], vec![1, 1, 2, 2]]);
    // Each orbit's pieces alike: ranked with the tables, the open orbit's twists not at all;
    // the other orbit's pieces and twists together, as the 6 states Y makes of them (of 3 x 8).
    let orbit = puzzle(OPEN_ORBIT, Metric::Face);
    assert_eq!((orbit.plan(), orbit.states()), ("split", 3 * 6));
    // Six arrangements of E, three known twists; P's six arrangements, two known twists.
    let p = puzzle(ORBITS, Metric::Face);
    assert_eq!(p.configurations(), (720 * 8 * 6 * 4, "6! x 4!/(2! x 2!) x 2^5".into()));
    assert_eq!(p.plan(), "generic");
    assert_eq!(
        p.draw(p.goals()[0]),
        "E 1 2 3 4 5 6\n  ? ? ? 0 0 0\nP 1 1 2 2\n  ? ? 0 0"
    );
    // Any twist of an open piece reads as the same position, `?` or a number.
    let goal = p.goals()[0];
    assert_eq!(p.parse("E 1 2 3 4 5 6, 1 0 1 0 0 0 / P 1 1 2 2, 1 ? 0 0"), Ok(goal));
    assert!(
        matches!(p.parse("E 1 2 3 4 5 6, 0 0 0 ? 0 0"), Err(ParseError::Malformed(m)) if m.contains("`?` is not a number"))
    );
    // Pieces open in part of an orbit: a mixed radix, ranked with the pieces in hand.
    let one = puzzle(ONE_OPEN, Metric::Face);
    assert_eq!((one.plan(), one.states()), ("generic", 24 * 27));
    assert!(
        one.invariant()
            .contains("the orientations the definition leaves open do not matter")
    );
}

#[test]
fn a_kpuzzle_orientation_mod_is_an_open_orientation() {
    let def = parse_kpuzzle(KPUZZLE_MIXED).expect("valid");
    assert_eq!(def.orientation_mod, [vec![2, 1, 4, 4]]);
    assert_eq!(def.sets[0].orientations, 4, "the orbit keeps its orientations");
    // One modulus for the whole orbit: the orbit with that many orientations.
    let uniform = KPUZZLE_MIXED
        .replace("[2, 1, 0, 0]", "[2, 2, 2, 2]")
        .replace("[1, 0, 3, 0]", "[1, 0, 1, 0]");
    let twos = PermPuzzle::new(parse_kpuzzle(&uniform).expect("valid"), "u", Metric::Face).expect("valid");
    let halved = uniform
        .replace("\"numOrientations\": 4", "\"numOrientations\": 2")
        .replace(", \"orientationMod\": [2, 2, 2, 2]", "")
        .replace("[0, 3, 2, 0]", "[0, 1, 0, 0]");
    let plain = PermPuzzle::new(parse_kpuzzle(&halved).expect("valid"), "h", Metric::Face).expect("valid");
    assert_eq!(levels(&twos), levels(&plain));
    assert_eq!(twos.plan(), "split");
    let bad = |pattern: &str| {
        parse_kpuzzle(&KPUZZLE_MIXED.replace(
            r#""pieces": [0, 1, 2, 3], "orientation": [1, 0, 3, 0], "orientationMod": [2, 1, 0, 0]"#,
            pattern,
        ))
        .expect_err("refused")
        .message
    };
    assert!(
        bad(r#""pieces": [0, 0, 2, 3], "orientation": [0, 0, 0, 0], "orientationMod": [2, 1, 0, 0]"#)
            .contains("identical pieces at 0 and 1 (both 0) have different moduli (2 and 1)")
    );
    assert!(
        bad(r#""pieces": [0, 1, 2, 3], "orientation": [2, 0, 0, 0], "orientationMod": [2, 1, 0, 0]"#)
            .contains("2 at 0 is not below its orientationMod 2")
    );
    assert!(
        bad(r#""pieces": [0, 1, 2, 3], "orientation": [0, 0, 0, 0], "orientationMod": [3, 1, 0, 0]"#)
            .contains("3 does not divide the orbit's 4 orientations")
    );
}
