//! Reads a cubing.js KPuzzle definition (JSON, as twips' samples and cubing.js ship them)
//! into the same [`Definition`] a `.tws` file gives:
//!
//! ```text
//! { "name": "2x2x2",
//!   "orbits": [{ "orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3 }],
//!   "defaultPattern": { "CORNERS": { "pieces": [0, 1, ...], "orientation": [0, 0, ...] } },
//!   "moves": { "U": { "CORNERS": { "permutation": [1, 2, 3, 0, ...], "orientationDelta": [0, ...] } } },
//!   "derivedMoves": { "D": "[x2: U]" } }
//! ```
//!
//! A KPuzzle move is applied as `new.pieces[i] = old.pieces[permutation[i]]` and
//! `new.orientation[i] = old.orientation[permutation[i]] + orientationDelta[i]`
//! (cubing.js `combine.ts`): the permutation is our `from` and the deltas, indexed where
//! the piece arrives, are our `twist`, unchanged. Numbers count from 0.
//!
//! A key given twice in one object (a move, an orbit) is refused: JSON readers keep one of
//! them silently. So is a derived move named like a given move: cubing.js would take the
//! given move and never read the sequence, which the file's author meant as something.

use super::Definition;
use super::parse::{DefinitionError, MAX_BYTES, MAX_PIECES, MoveDef, SetDef, State, err, full_moduli};
use super::sequence::{self, Term, Transform};
use crate::util::quote;
use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, de};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

/// Most orientations of an orbit, as in a `.tws` file.
const MAX_ORIENTATIONS: usize = 127;

/// Most moves, given and derived together: what a search takes once powers are expanded.
pub const MAX_MOVES: usize = 1024;

/// Most pieces in all orbits: far past the community's largest puzzles (a 7x7x7 has a few
/// hundred), and it bounds what every move and every step of a derived move costs.
pub const MAX_POSITIONS: usize = 4096;

/// What the reader understands, for error messages.
const SUPPORTED: &str = "a KPuzzle definition: name, orbits [{orbitName, numPieces, numOrientations}], defaultPattern, moves {permutation, orientationDelta}, derivedMoves";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Json {
    name: Option<String>,
    orbits: Vec<Orbit>,
    default_pattern: Option<Unique<PatternOrbit>>,
    moves: Unique<Unique<MoveOrbit>>,
    #[serde(default)]
    derived_moves: Unique<String>,
}

/// A JSON object whose keys all differ, in file order: JSON readers keep one of a key
/// given twice, which would drop a move or an orbit's data without a word.
struct Unique<V>(IndexMap<String, V>);

impl<V> Default for Unique<V> {
    fn default() -> Self {
        Unique(IndexMap::new())
    }
}

impl<V> Deref for Unique<V> {
    type Target = IndexMap<String, V>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Unique<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> de::Visitor<'de> for Keys<V> {
            type Value = Unique<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = IndexMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    if out.contains_key(&key) {
                        return Err(de::Error::custom(format!(
                            "{} is given twice in one object",
                            quote(&key)
                        )));
                    }
                    let value = map.next_value()?;
                    out.insert(key, value);
                }
                Ok(Unique(out))
            }
        }
        deserializer.deserialize_map(Keys(PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Orbit {
    orbit_name: String,
    num_pieces: usize,
    num_orientations: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PatternOrbit {
    pieces: Vec<usize>,
    orientation: Vec<usize>,
    orientation_mod: Option<Vec<usize>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MoveOrbit {
    permutation: Vec<usize>,
    orientation_delta: Vec<usize>,
}

/// Reads a KPuzzle definition: every move, given and derived, in file order (given first).
pub fn parse_kpuzzle(text: &str) -> Result<Definition, DefinitionError> {
    if text.len() > MAX_BYTES {
        return err(
            0,
            format!(
                "the definition has {} bytes, more than the {MAX_BYTES} accepted",
                text.len()
            ),
        );
    }
    let json: Json = serde_json::from_str(text).map_err(syntax)?;
    let sets = orbits(&json.orbits)?;
    let (solved, orientation_mod) = default_pattern(&sets, json.default_pattern.as_deref())?;
    let total = json.moves.len() + json.derived_moves.len();
    if json.moves.is_empty() {
        return err(0, format!("no moves in the definition ({SUPPORTED})"));
    }
    if total > MAX_MOVES {
        return err(
            0,
            format!("{total} moves (given and derived), more than the {MAX_MOVES} accepted"),
        );
    }
    let mut moves = Vec::with_capacity(total);
    for (name, orbits) in json.moves.iter() {
        check_name(name, moves.iter().map(|m: &MoveDef| m.name.as_str()))?;
        moves.push(move_def(&sets, name, orbits)?);
    }
    derive(&sets, &json.derived_moves, &mut moves)?;
    Ok(Definition {
        name: json.name.unwrap_or_else(|| "Unnamed".into()),
        sets,
        solved,
        moves,
        aliases: Vec::new(),
        illegal: Vec::new(),
        rotations: Vec::new(),
        orientation_mod,
    })
}

/// A JSON error at its line, with the column: serde_json's own words.
fn syntax(e: serde_json::Error) -> DefinitionError {
    let text = e.to_string();
    let what = text.rsplit_once(" at line ").map_or(text.as_str(), |(what, _)| what);
    DefinitionError {
        line: e.line(),
        message: format!("column {}: {what} ({SUPPORTED})", e.column()),
    }
}

/// The sets, as the orbits define them.
fn orbits(orbits: &[Orbit]) -> Result<Vec<SetDef>, DefinitionError> {
    if orbits.is_empty() {
        return err(0, format!("no orbits in the definition ({SUPPORTED})"));
    }
    let mut sets: Vec<SetDef> = Vec::new();
    for o in orbits {
        let name = &o.orbit_name;
        if name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || name.contains(|c: char| c.is_whitespace() || c == ',' || c == '/')
        {
            return err(
                0,
                format!(
                    "an orbit cannot be named {} (no space, `,` or `/`, not starting with a digit)",
                    quote(name)
                ),
            );
        }
        if sets.iter().any(|s| &s.name == name) {
            return err(0, format!("orbit {name} defined twice"));
        }
        if !(1..=MAX_PIECES).contains(&o.num_pieces) || !(1..=MAX_ORIENTATIONS).contains(&o.num_orientations) {
            return err(
                0,
                format!(
                    "orbit {name}: {} pieces and {} orientations; 1 to {MAX_PIECES} pieces and 1 to {MAX_ORIENTATIONS} orientations are accepted",
                    o.num_pieces, o.num_orientations
                ),
            );
        }
        sets.push(SetDef {
            name: name.clone(),
            size: o.num_pieces,
            orientations: o.num_orientations as u8,
        });
    }
    let positions: usize = sets.iter().map(|s| s.size).sum();
    if positions > MAX_POSITIONS {
        return err(
            0,
            format!("the orbits hold {positions} pieces in all, more than the {MAX_POSITIONS} accepted"),
        );
    }
    Ok(sets)
}

/// Checks that `values` has one number per piece of `set`, each below `limit`.
fn numbers(set: &SetDef, values: &[usize], limit: usize, what: &str) -> Result<(), DefinitionError> {
    if values.len() != set.size {
        return err(
            0,
            format!(
                "{what} has {} numbers, orbit {} has {} pieces",
                values.len(),
                set.name,
                set.size
            ),
        );
    }
    match values.iter().find(|&&v| v >= limit) {
        Some(v) => err(0, format!("{what}: {v} is out of range 0 to {}", limit - 1)),
        None => Ok(()),
    }
}

/// The solved state: `defaultPattern`, each orbit it leaves out in place; and each
/// position's orientation modulus, from `orientationMod`.
fn default_pattern(
    sets: &[SetDef],
    pattern: Option<&IndexMap<String, PatternOrbit>>,
) -> Result<(State, Vec<Vec<u8>>), DefinitionError> {
    let mut state = State {
        pieces: sets.iter().map(|s| (0..s.size as u8).collect()).collect(),
        twists: sets.iter().map(|s| vec![0; s.size]).collect(),
    };
    let mut moduli = full_moduli(sets);
    for (name, orbit) in pattern.into_iter().flatten() {
        let Some(s) = sets.iter().position(|set| &set.name == name) else {
            return err(
                0,
                format!(
                    "defaultPattern names orbit {}, which orbits does not define",
                    quote(name)
                ),
            );
        };
        let what = format!("defaultPattern.{name}");
        numbers(&sets[s], &orbit.pieces, sets[s].size, &format!("{what}.pieces"))?;
        moduli[s] = orientation_mod(&sets[s], &orbit.pieces, orbit.orientation_mod.as_deref(), &what)?;
        let top = usize::from(*moduli[s].iter().max().unwrap_or(&1));
        numbers(&sets[s], &orbit.orientation, top, &format!("{what}.orientation"))?;
        if let Some(i) = (0..sets[s].size).find(|&i| orbit.orientation[i] >= usize::from(moduli[s][i])) {
            return err(
                0,
                format!(
                    "{what}.orientation: {} at {i} is not below its orientationMod {}",
                    orbit.orientation[i], moduli[s][i]
                ),
            );
        }
        state.pieces[s] = orbit.pieces.iter().map(|&p| p as u8).collect();
        state.twists[s] = orbit.orientation.iter().map(|&o| o as u8).collect();
    }
    Ok((state, moduli))
}

/// The orientation modulus of each piece of an orbit: `orientationMod[i]` says the
/// orientation of the piece at `i` is known only modulo that divisor of the orbit's
/// orientations (0: fully known; 1: not at all). It travels with the piece, so identical
/// pieces must agree.
fn orientation_mod(
    set: &SetDef,
    pieces: &[usize],
    mods: Option<&[usize]>,
    what: &str,
) -> Result<Vec<u8>, DefinitionError> {
    let n = usize::from(set.orientations);
    let Some(mods) = mods else {
        return Ok(vec![set.orientations; set.size]);
    };
    let what = format!("{what}.orientationMod");
    numbers(set, mods, n, &what)?;
    if let Some(m) = mods.iter().find(|&&m| m != 0 && n % m != 0) {
        return err(
            0,
            format!("{what}: {m} does not divide the orbit's {n} orientations (0, or a proper divisor of {n})"),
        );
    }
    let moduli: Vec<u8> = mods.iter().map(|&m| if m == 0 { n } else { m } as u8).collect();
    for i in 0..set.size {
        if let Some(j) = (0..i).find(|&j| pieces[j] == pieces[i] && moduli[j] != moduli[i]) {
            return err(
                0,
                format!(
                    "{what}: the identical pieces at {j} and {i} (both {}) have different moduli ({} and {}); identical pieces agree",
                    pieces[i], mods[j], mods[i]
                ),
            );
        }
    }
    Ok(moduli)
}

/// A name a move may have: one word a sequence can name.
fn check_name<'a>(name: &str, taken: impl IntoIterator<Item = &'a str>) -> Result<(), DefinitionError> {
    if name.is_empty() || name.ends_with('\'') || name.contains(|c: char| c.is_whitespace() || "()[],:/".contains(c)) {
        return err(
            0,
            format!(
                "a move cannot be named {} (no space, brackets, `,` `:` `/`, and no ' at its end)",
                quote(name)
            ),
        );
    }
    if taken.into_iter().any(|t| t == name) {
        return err(0, format!("move {} defined twice", quote(name)));
    }
    Ok(())
}

/// A given move: per orbit its permutation and deltas, orbits it leaves out untouched.
fn move_def(sets: &[SetDef], name: &str, orbits: &IndexMap<String, MoveOrbit>) -> Result<MoveDef, DefinitionError> {
    let t = Transform::identity(sets);
    let (mut from, mut twist) = (t.from, t.twist);
    for (orbit_name, orbit) in orbits {
        let Some(s) = sets.iter().position(|set| &set.name == orbit_name) else {
            return err(
                0,
                format!(
                    "move {name} names orbit {}, which orbits does not define",
                    quote(orbit_name)
                ),
            );
        };
        let set = &sets[s];
        let what = format!("move {name}, orbit {orbit_name}");
        numbers(set, &orbit.permutation, set.size, &format!("{what}: the permutation"))?;
        let mut seen = vec![false; set.size];
        if let Some(p) = orbit
            .permutation
            .iter()
            .find(|&&p| std::mem::replace(&mut seen[p], true))
        {
            return err(
                0,
                format!(
                    "{what}: the permutation is not one: {p} appears twice (each of 0 to {} once)",
                    set.size - 1
                ),
            );
        }
        numbers(
            set,
            &orbit.orientation_delta,
            usize::from(set.orientations),
            &format!("{what}: orientationDelta"),
        )?;
        from[s] = orbit.permutation.iter().map(|&p| p as u8).collect();
        twist[s] = orbit.orientation_delta.iter().map(|&d| d as u8).collect();
    }
    Ok(MoveDef {
        name: name.to_string(),
        line: 0,
        from,
        twist,
    })
}

/// Refuses a derived move named like a given move, or named as no move may be.
fn check_derived_names(derived: &IndexMap<String, String>, moves: &[MoveDef]) -> Result<(), DefinitionError> {
    for name in derived.keys() {
        if moves.iter().any(|m| &m.name == name) {
            return err(
                0,
                format!(
                    "derived move {} is named like a given move: a name is either in moves or in derivedMoves, not both",
                    quote(name)
                ),
            );
        }
        check_name(name, moves.iter().map(|m| m.name.as_str()))?;
    }
    Ok(())
}

/// The derived moves each derived move's sequence names (as indices past the `given`
/// moves), each once: a derived move is evaluated once these are (Kahn's order).
fn derived_needs(sequences: &[Vec<Term>], given: usize) -> Vec<Vec<usize>> {
    sequences
        .iter()
        .map(|seq| {
            let mut named = Vec::new();
            seq.iter().for_each(|t| t.for_each_move(&mut |m| named.push(m)));
            named.retain(|&m| m >= given);
            named.sort_unstable();
            named.dedup();
            named
        })
        .collect()
}

/// Adds the derived moves to `moves`, each once the moves its sequence names are known;
/// refuses a derived move that names itself through others, or one named like a given move.
fn derive(
    sets: &[SetDef],
    derived: &IndexMap<String, String>,
    moves: &mut Vec<MoveDef>,
) -> Result<(), DefinitionError> {
    let given = moves.len();
    check_derived_names(derived, moves)?;
    let names: Vec<&str> = moves
        .iter()
        .map(|m| m.name.as_str())
        .chain(derived.keys().map(|k| k.as_str()))
        .collect();
    let sequences = derived
        .iter()
        .map(|(name, text)| {
            sequence::parse(text, &names).map_err(|e| DefinitionError {
                line: 0,
                message: format!("derived move {name}: {e}"),
            })
        })
        .collect::<Result<Vec<Vec<Term>>, _>>()?;
    let needs = derived_needs(&sequences, given);
    let mut transforms: Vec<Transform> = moves.iter().map(Transform::of).collect();
    transforms.resize(names.len(), Transform::identity(sets));
    let mut done = vec![false; sequences.len()];
    let mut progress = true;
    while progress {
        progress = false;
        for d in 0..sequences.len() {
            if !done[d] && needs[d].iter().all(|&m| done[m - given]) {
                transforms[given + d] = sequence::evaluate(&sequences[d], &transforms, sets);
                done[d] = true;
                progress = true;
            }
        }
    }
    if let Some(stuck) = done.iter().position(|&d| !d) {
        let cycle = cycle(stuck, &needs, &done, given);
        let names: Vec<&str> = cycle.iter().map(|&d| names[given + d]).collect();
        return err(
            0,
            format!(
                "derived moves refer to each other in a cycle: {} -> {}",
                names.join(" -> "),
                names[0]
            ),
        );
    }
    for (name, t) in derived.keys().zip(transforms.drain(given..)) {
        moves.push(MoveDef {
            name: name.to_string(),
            line: 0,
            from: t.from,
            twist: t.twist,
        });
    }
    Ok(())
}

/// A cycle among the derived moves left unresolved, from `start`: each unresolved move
/// names one, so following them from any comes back round.
fn cycle(start: usize, needs: &[Vec<usize>], done: &[bool], given: usize) -> Vec<usize> {
    let mut path = vec![start];
    let mut at = start;
    loop {
        let Some(next) = needs[at].iter().map(|&m| m - given).find(|&m| !done[m]) else {
            return path;
        };
        if let Some(first) = path.iter().position(|&p| p == next) {
            return path.split_off(first);
        }
        path.push(next);
        at = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::parse_definition;

    /// The six-face pocket cube as a twsearch definition: the reference.
    const TWS: &str = include_str!("../../../examples/pocket-cube.tws");
    /// The shipped KPuzzle pocket cube: U, R, F and the rotations.
    const SHIPPED: &str = include_str!("../../../examples/pocket-cube.kpuzzle.json");

    /// The six faces from U and two rotations, the others as conjugates, in the corner
    /// numbering of `pocket-cube.tws` (from 0): an independent check of the conversion and
    /// of the order conjugates are composed in.
    const SIX_FACES: &str = r#"{
      "name": "SixFaces",
      "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
      "defaultPattern": {"CORNERS": {"pieces": [0, 1, 2, 3, 4, 5, 6, 7], "orientation": [0, 0, 0, 0, 0, 0, 0, 0]}},
      "moves": {
        "U": {"CORNERS": {"permutation": [3, 0, 1, 2, 4, 5, 6, 7], "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0]}},
        "x": {"CORNERS": {"permutation": [4, 5, 1, 0, 7, 6, 2, 3], "orientationDelta": [2, 1, 2, 1, 1, 2, 1, 2]}},
        "y": {"CORNERS": {"permutation": [3, 0, 1, 2, 7, 4, 5, 6], "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0]}}
      },
      "derivedMoves": {"D": "[x2: U]", "R": "[z': U]", "L": "[z: U]", "F": "[x: U]", "B": "[x': U]", "z": "[x: y]"}
    }"#;

    fn moves_by_name(def: &Definition) -> std::collections::HashMap<&str, Transform> {
        def.moves.iter().map(|m| (m.name.as_str(), Transform::of(m))).collect()
    }

    #[test]
    fn derived_faces_equal_the_twsearch_definitions_moves() {
        let tws = parse_definition(TWS).expect("the .tws example");
        let reference = moves_by_name(&tws);
        for text in [SIX_FACES, SHIPPED] {
            let def = parse_kpuzzle(text).expect("a KPuzzle");
            assert_eq!((&def.sets, &def.solved), (&tws.sets, &tws.solved));
            let ours = moves_by_name(&def);
            let faces: Vec<&str> = ours.keys().copied().filter(|n| reference.contains_key(n)).collect();
            assert!(faces.len() >= 3, "{faces:?}");
            for face in faces {
                assert_eq!(ours[face], reference[face], "{face}");
            }
        }
        // A derived move named before the one it uses (`z`) is still resolved.
        let six = parse_kpuzzle(SIX_FACES).expect("a KPuzzle");
        assert_eq!(six.moves.len(), 9);
    }

    #[test]
    fn the_layout_of_the_json_does_not_change_the_definition() {
        // Fields and orbit entries reordered, all on one line, orientations of a move
        // given before its permutation.
        let relaid = SIX_FACES
            .replace('\n', " ")
            .replace(
                r#""permutation": [3, 0, 1, 2, 4, 5, 6, 7], "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0]"#,
                r#""orientationDelta": [0,0,0,0,0,0,0,0], "permutation": [3,0,1,2,4,5,6,7]"#,
            )
            .replace(
                r#"{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}"#,
                r#"{"numOrientations": 3, "orbitName": "CORNERS", "numPieces": 8}"#,
            );
        assert_ne!(relaid, SIX_FACES);
        assert_eq!(parse_kpuzzle(&relaid), parse_kpuzzle(SIX_FACES));
    }

    /// A one-orbit puzzle of 3 pieces with 4 orientations, with the default pattern's and
    /// the move's orbit data replaced.
    fn tiny(pattern: &str, mv: &str, derived: &str) -> Result<Definition, DefinitionError> {
        parse_kpuzzle(&format!(
            r#"{{"name": "T", "orbits": [{{"orbitName": "A", "numPieces": 3, "numOrientations": 4}}],
            "defaultPattern": {{"A": {pattern}}}, "moves": {{"M": {{"A": {mv}}}}}, "derivedMoves": {{{derived}}}}}"#
        ))
    }

    const PATTERN: &str = r#"{"pieces": [0, 1, 2], "orientation": [0, 0, 0]}"#;
    const MOVE: &str = r#"{"permutation": [1, 2, 0], "orientationDelta": [1, 3, 0]}"#;

    #[test]
    fn a_derived_move_named_like_a_given_move_is_refused_naming_it() {
        let e = tiny(PATTERN, MOVE, r#""P": "M2", "M": "P""#).expect_err("refused");
        assert_eq!(
            e.message,
            "derived move `M` is named like a given move: a name is either in moves or in derivedMoves, not both"
        );
        // Named once, it is read.
        let def = tiny(PATTERN, MOVE, r#""P": "M2""#).expect("valid");
        let names: Vec<&str> = def.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["M", "P"]);
        assert_eq!(def.moves[1].from, [vec![2, 0, 1]]);
    }

    #[test]
    fn bad_definitions_get_one_line_saying_what_is_wrong() {
        let message = |pattern: &str, mv: &str, derived: &str| {
            let e = tiny(pattern, mv, derived).expect_err("refused");
            assert!(!e.message.contains('\n'), "{e}");
            e.message
        };
        let not_one = r#"{"permutation": [1, 1, 0], "orientationDelta": [0, 0, 0]}"#;
        assert!(message(PATTERN, not_one, "").contains("move M, orbit A: the permutation is not one: 1 appears twice"));
        let past = r#"{"permutation": [1, 3, 0], "orientationDelta": [0, 0, 0]}"#;
        assert!(message(PATTERN, past, "").contains("3 is out of range 0 to 2"));
        let twisted = r#"{"permutation": [1, 2, 0], "orientationDelta": [0, 4, 0]}"#;
        assert!(message(PATTERN, twisted, "").contains("orientationDelta: 4 is out of range 0 to 3"));
        let short = r#"{"pieces": [0, 1], "orientation": [0, 0]}"#;
        assert!(message(short, MOVE, "").contains("has 2 numbers, orbit A has 3 pieces"));
        let cycle = message(PATTERN, MOVE, r#""P": "M Q", "Q": "R2", "R": "(P M)2""#);
        assert!(cycle.contains("cycle: P -> Q -> R -> P"), "{cycle}");
        let unknown = message(PATTERN, MOVE, r#""P": "M [M, N]""#);
        assert!(unknown.contains("derived move P: `N` is not a move"), "{unknown}");
        let twice = message(PATTERN, MOVE, r#""P": "M", "Q": "M", "P": "M2""#);
        assert!(twice.contains("`P` is given twice in one object"), "{twice}");
        let orbit = r#"{"permutation": [1, 2, 0], "orientationDelta": [0, 0, 0]}, "A": {"permutation": [0, 1, 2], "orientationDelta": [0, 0, 0]}"#;
        assert!(message(PATTERN, orbit, "").contains("`A` is given twice in one object"));
        let field = r#"{"pieces": [0, 1, 2], "orientation": [0, 0, 0], "pieces": [0, 1, 2]}"#;
        assert!(message(field, MOVE, "").contains("duplicate field `pieces`"));
        let many: Vec<String> = (0..10_000).map(|i| format!(r#""D{i}": "M""#)).collect();
        assert!(
            message(PATTERN, MOVE, &many.join(",")).contains("10001 moves (given and derived), more than the 1024")
        );
    }

    #[test]
    fn malformed_json_is_named_by_line_and_column() {
        let e = parse_kpuzzle("{\n  \"orbits\": [\n}").expect_err("malformed");
        assert_eq!(e.line, 3);
        assert!(e.message.starts_with("column 1: "), "{e}");
        let e = parse_kpuzzle(r#"{"orbits": []}"#).expect_err("no moves");
        assert!(e.message.contains("missing field `moves`"), "{e}");
        let e = parse_kpuzzle(r#"{"orbits": [], "moves": {"M": {}}}"#).expect_err("no orbits");
        assert!(e.message.contains("no orbits"), "{e}");
        let orbit = |i: usize| format!(r#"{{"orbitName": "O{i}", "numPieces": 255, "numOrientations": 1}}"#);
        let orbits: Vec<String> = (0..17).map(orbit).collect();
        let e = parse_kpuzzle(&format!(
            r#"{{"orbits": [{}], "moves": {{"M": {{}}}}}}"#,
            orbits.join(",")
        ))
        .expect_err("too many pieces");
        assert!(e.message.contains("4335 pieces in all, more than the 4096"), "{e}");
    }
}
