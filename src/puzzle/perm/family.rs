//! The family of permutation puzzles read from ksolve/twsearch definition files
//! (`--rules FILE.tws`) or cubing.js KPuzzle definitions (`--rules FILE.kpuzzle.json`), with
//! `--metric face|quarter` and `--moves A,B,...`; the pocket cube with one corner held
//! (shipped in `examples/`) joins `--all`.

use super::{Metric, PermPuzzle, text};
use crate::puzzle::family::{Family, Parts, SizeArgs};
use std::path::Path;
use std::sync::Arc;

/// The pocket cube with one corner held, which `--all` analyses.
const POCKET_CUBE: (&str, &str) = (
    "pocket-cube-held.tws",
    include_str!("../../../examples/pocket-cube-held.tws"),
);

/// The keywords a definition's first line may start with (comments and blank lines aside).
const FIRST_KEYWORDS: [&str; 2] = ["Name", "Set"];

/// `--rules FILE.tws` or `FILE.kpuzzle.json`: a permutation puzzle from its definition.
pub struct PermFamily;

/// A definition read and checked, under the metric chosen.
#[derive(Debug, Clone)]
pub struct Definition {
    /// The report id: the definition's `Name` (or the file's name, see [`label`]) in lower
    /// case, words joined by `-`, `-moves-` and the moves `--moves` chose, and `-quarter`
    /// under the quarter metric.
    id: String,
    /// The definition parsed, built into the puzzle when the job runs.
    def: Arc<super::Definition>,
    metric: Metric,
    /// Ranks the search covers (with [`Definition::unranked`], all assemblies of the pieces).
    states: u128,
    /// Why the definition cannot be ranked, if it cannot (it is then searched packed).
    unranked: Option<String>,
    /// Bits of a packed state (`None`: past 128, not searched packed).
    packed_bits: Option<u32>,
    /// The positions the moves reach, where Schreier–Sims counts them before the search.
    reach: Option<u128>,
    /// Which moves of a KPuzzle file are generators and which rotations were left out, for
    /// stderr.
    note: Option<String>,
    /// The number of the first piece in positions: 1 as in `.tws`, 0 as in KPuzzle.
    first_piece: u32,
    /// Why the definition cannot be enumerated (its rank space passes 64 bits), if so: it
    /// is then only solved, by heuristic search ([`Definition::parts`]).
    beyond: Option<String>,
    /// Whether a search one rank per class may hold fewer ranks than positions
    /// ([`PermPuzzle::may_rank_by_class`]): the checks of memory build it only then.
    by_class: bool,
}

impl PartialEq for Definition {
    fn eq(&self, other: &Self) -> bool {
        (&self.id, &self.def, self.metric) == (&other.id, &other.def, other.metric)
    }
}

impl Definition {
    /// Reads `text`, from the file whose name without extension is `stem` (a KPuzzle
    /// definition if `json`, the file's extension, says so), under the metric `--metric`
    /// names (`None`: face), with the moves `--moves` chooses (`None`: all but rotations).
    fn read(
        text: &str,
        stem: Option<&str>,
        json: bool,
        metric: Option<&str>,
        moves: Option<&str>,
        omit: Option<&str>,
    ) -> Result<Self, String> {
        let metric = match metric {
            None | Some("face") => Metric::Face,
            Some("quarter") => Metric::Quarter,
            Some(other) => {
                return Err(format!(
                    " --metric {} is not a metric of definition files: use face (each power of a move is one move, the default) or quarter (only a move and its inverse)",
                    crate::util::quote(other)
                ));
            }
        };
        let kpuzzle = is_kpuzzle(text, json);
        let (mut def, note) = read_either(text, kpuzzle, moves.is_some()).map_err(located)?;
        let mut id = kebab(label(&def.name, stem));
        id.push_str(&narrow(&mut def, moves, omit)?);
        if metric == Metric::Quarter && PermPuzzle::quarter_is_face(&def).map_err(located)? {
            return Err(
                " --metric quarter changes nothing here: every move has order 2 or 3, so a move and its inverse are all its powers and both metrics count the same moves (leave out --metric)"
                    .into(),
            );
        }
        if metric == Metric::Quarter {
            id.push_str("-quarter");
        }
        let packed = super::packed::Packing::new(def.clone(), &id, metric);
        let packed_bits = packed.as_ref().ok().map(|p| p.bits());
        let mut beyond = None;
        let (states, unranked, reach) = match PermPuzzle::rank_space(&def, metric) {
            Ok((states, reach)) => match states.map(u64::try_from) {
                Some(Ok(states)) => (u128::from(states), None, reach.positions()),
                // Ranks are 64-bit: said with the figures, before anything is built; only
                // solved, by heuristic search.
                _ => {
                    beyond = Some(too_big(states, &reach));
                    (states.unwrap_or(u128::MAX), None, reach.positions())
                }
            },
            // A ranking limit (an orbit too large to rank), not a fault of the file: the
            // packed form searches it.
            Err(e) if packed.is_ok() => (
                super::structure::assemblies(&def).unwrap_or(u128::MAX),
                Some(e.message),
                super::Reach::of_moves(&def, metric).ok().and_then(|r| r.positions()),
            ),
            // Too large to rank or pack (the megaminx's 30 edges), but readable: only
            // solved, by heuristic search, which ranks projections, never the whole.
            Err(e) if e.line == 0 && super::structure::Structure::for_reading(&def, metric).is_ok() => {
                beyond = Some(unsearchable(&def, metric, e, packed.err()));
                let reach = super::Reach::of_moves(&def, metric).ok().and_then(|r| r.positions());
                (super::structure::assemblies(&def).unwrap_or(u128::MAX), None, reach)
            }
            Err(e) => return Err(unsearchable(&def, metric, e, packed.err())),
        };
        let by_class = unranked.is_none() && PermPuzzle::may_rank_by_class(&def, metric);
        Ok(Definition {
            id,
            metric,
            states,
            unranked,
            packed_bits,
            reach,
            note,
            first_piece: if kpuzzle { 0 } else { 1 },
            beyond,
            by_class,
            def: Arc::new(def),
        })
    }

    /// What the solver's heuristic search reads of it.
    pub fn parts(&self) -> Parts {
        Parts {
            def: self.def.clone(),
            metric: self.metric,
            first: self.first_piece,
            id: self.id.clone(),
        }
    }
}

/// Why a rank space past 64 bits is refused, with the positions the moves reach where the
/// group they generate counts them, else the rank space's figures.
fn too_big(states: Option<u128>, reach: &super::Reach) -> String {
    let thousands = crate::util::thousands;
    let group = "the order of the group they generate, by Schreier–Sims";
    let class = "the goal's class of the invariants found from the moves";
    let (n, what) = match (reach.positions(), states) {
        (Some(n), _) if n > u128::from(u64::MAX) => (n, group),
        (Some(n), _) => {
            let space = states.map_or_else(|| "more than 10^38".into(), thousands);
            return format!(
                " its moves reach {} states ({group}), but its coordinates rank them among {space} ({class}), past 64 bits",
                thousands(n)
            );
        }
        (None, Some(n)) => (n, class),
        (None, None) => return format!(" its moves reach up to more than 10^38 states ({class}); ranks are 64-bit"),
    };
    format!(
        " its moves reach {}{} states ({what}), which would take {} of bit planes at 2 bits a state; ranks are 64-bit, so at most {} states are searched",
        if what == group { "" } else { "up to " },
        thousands(n),
        crate::util::human_bytes(n.div_ceil(4)),
        thousands(u128::from(u64::MAX))
    )
}

/// Why a definition that can be neither ranked nor packed is refused: first what its moves
/// reach, where Schreier–Sims counts it (the figure that decides whether any search could
/// hold it), then the two limits it meets.
fn unsearchable(
    def: &super::Definition,
    metric: Metric,
    ranked: super::DefinitionError,
    packed: Option<super::DefinitionError>,
) -> String {
    let reach = super::Reach::of_moves(def, metric);
    let (Ok(reach), Some(packed), 0) = (reach, packed, ranked.line) else {
        return located(ranked);
    };
    let (up_to, order, what) = match &reach {
        super::Reach::Positions(order) => ("", order, "the order of the group they generate"),
        super::Reach::Open { positions, .. } => ("", positions, "the goal's orbit in the group they generate"),
        super::Reach::Labelled(order) | super::Reach::Restricted(order) => (
            "up to ",
            order,
            "the order of the group they generate on the labelled pieces",
        ),
        super::Reach::Unknown { points } => {
            return format!(
                " it can be neither ranked: {}; nor packed: {}; and its moves act on {points} points, too many to count their group",
                ranked.message, packed.message
            );
        }
    };
    let planes = order
        .exact()
        .map(|n| {
            format!(
                ", {} of bit planes at 2 bits a state",
                crate::util::human_bytes(n.div_ceil(4))
            )
        })
        .unwrap_or_default();
    format!(
        " its moves reach {up_to}{} states ({what}, by Schreier–Sims){planes}; it can be neither ranked: {}; nor packed: {}",
        order.text(),
        ranked.message,
        packed.message
    )
}

/// Whether a definition is a KPuzzle's JSON rather than a `.tws` text: a `.json` file, or
/// a text starting with `{`.
fn is_kpuzzle(text: &str, json: bool) -> bool {
    json || text.trim_start().starts_with('{')
}

/// Reads a definition in either format ([`is_kpuzzle`]) and sets its rotations apart
/// ([`super::Definition::set_rotations_apart`]). Unless `--moves` chooses (`chosen`), the
/// note says which moves of a KPuzzle file are searched and which rotations were left out.
fn read_either(
    text: &str,
    kpuzzle: bool,
    chosen: bool,
) -> Result<(super::Definition, Option<String>), super::DefinitionError> {
    let mut def = match kpuzzle {
        // serde_json would say `expected value` at its first character: say what it must be.
        true if !text.trim_start().starts_with('{') => {
            return super::parse::err(
                0,
                "a .json definition must be a KPuzzle JSON object, starting with `{` (a twsearch definition takes the extension .tws)",
            );
        }
        true => super::kpuzzle::parse_kpuzzle(text)?,
        false => super::parse_definition(text)?,
    };
    def.set_rotations_apart();
    if chosen {
        return Ok((def, None));
    }
    if def.moves.is_empty() {
        return super::parse::err(
            0,
            "every move is a rotation of the whole puzzle (x, y, z, or a name ending in v): no move to search with (name rotations with --moves to search them)",
        );
    }
    let mut notes = Vec::new();
    if kpuzzle {
        let taken: Vec<&str> = def.moves.iter().map(|m| m.name.as_str()).collect();
        notes.push(format!("moves {}", taken.join(" ")));
    }
    if let Some(left) = text::rotations_left_out(&def) {
        notes.push(format!("{left}; name them with --moves to search them"));
    }
    // Names from the file reach the terminal: shown, never sent as controls.
    Ok((
        def,
        (!notes.is_empty()).then(|| crate::util::terminal_text(&notes.join("; "))),
    ))
}

/// The id's part for the moves `def` keeps of the file's moves `every`: `moves-u-r`, in
/// file order, so `U,R` and `R,U` are one search with one id. Ids are lower case: a move
/// whose name differs from another's only in case (`R` and `r`) is spelt with `upper` where
/// it has capitals, so the two searches keep two folders.
fn moves_id(def: &super::parse::Definition, every: &[String]) -> String {
    let twin = |name: &str| every.iter().any(|o| o != name && o.eq_ignore_ascii_case(name));
    let chosen: Vec<String> = def
        .moves
        .iter()
        .map(
            |m| match twin(&m.name) && m.name.chars().any(|c| c.is_ascii_uppercase()) {
                true => format!("{} upper", m.name.to_ascii_lowercase()),
                false => m.name.clone(),
            },
        )
        .collect();
    kebab(&format!("moves {}", chosen.join(" ")))
}

/// Applies `--moves` (the moves that turn) and `--omit` (the sets left out) to `def`; the
/// id's suffixes for them (`-moves-u-r`, `-omit-corners`).
fn narrow(def: &mut super::Definition, moves: Option<&str>, omit: Option<&str>) -> Result<String, String> {
    let names = |flag: &str, list: &str, example: &str| -> Result<Vec<String>, String> {
        let names: Vec<String> = list.split(',').map(str::to_string).collect();
        match names.iter().any(String::is_empty) {
            true => Err(format!(
                " {flag} {}: a name is empty (give names between commas: {flag} {example})",
                crate::util::quote(list)
            )),
            false => Ok(names),
        }
    };
    let mut id = String::new();
    if let Some(list) = moves {
        let chosen = names("--moves", list, "U,R")?;
        let every: Vec<String> = def.moves.iter().chain(&def.rotations).map(|m| m.name.clone()).collect();
        def.choose_moves(&chosen.iter().map(String::as_str).collect::<Vec<_>>())
            .map_err(|e| format!(" --moves {}: {e}", crate::util::quote(list)))?;
        id = format!("-{}", moves_id(def, &every));
    }
    if let Some(list) = omit {
        let sets = names("--omit", list, "CENTERS,EDGES")?;
        def.omit_sets(&sets.iter().map(String::as_str).collect::<Vec<_>>())
            .map_err(|e| format!(" --omit {}: {e}", crate::util::quote(list)))?;
        id = format!("{id}-{}", kebab(&format!("omit {}", sets.join(" "))));
    }
    Ok(id)
}

/// An error as the command line prints it after the file's name: `:LINE: what` (` what`
/// for the file as a whole).
fn located(e: super::DefinitionError) -> String {
    match e.line {
        0 => format!(" {}", e.message),
        line => format!("{line}: {}", e.message),
    }
}

/// What names a definition in reports: its `Name`, or the file's when it has none or the
/// one twsearch's puzzle geometry gives every puzzle it writes (its samples' `2x2x2.tws`
/// and `pyraminx.tws` would otherwise share one report folder).
fn label<'a>(name: &'a str, stem: Option<&'a str>) -> &'a str {
    match stem {
        Some(stem) if matches!(name, "Unnamed" | "PuzzleGeometryPuzzle") => stem,
        _ => name,
    }
}

/// `PocketCubeHeld`, `Pancakes10`, `pocket cube` or `2x2x2` as a report id:
/// `pocket-cube-held`, `pancakes-10`, `pocket-cube`, `2x2x2`. A word starts at a capital
/// after a small letter, at a digit after a word of letters, and after anything else.
fn kebab(name: &str) -> String {
    let mut words = String::new();
    let (mut before, mut last): (Option<char>, Option<char>) = (None, None);
    for c in name.chars() {
        let small = |x: Option<char>| x.is_some_and(|x| x.is_ascii_lowercase());
        let new_word = match last {
            Some(_) if c.is_ascii_uppercase() => small(last),
            Some(_) if c.is_ascii_digit() => small(last) && small(before),
            _ => false,
        };
        if new_word {
            words.push(' ');
        }
        words.push(c);
        (before, last) = match c.is_ascii_alphanumeric() {
            true => (last, Some(c)),
            false => (None, None),
        };
    }
    let id = crate::util::slug(&words.to_ascii_lowercase());
    if id.is_empty() { "definition".into() } else { id }
}

impl Family for PermFamily {
    type Size = Definition;
    type Puzzle = PermPuzzle;

    fn name(&self) -> &'static str {
        "permutation"
    }

    fn about(&self) -> Option<&'static str> {
        None
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (
            &["--metric", "--moves", "--omit"],
            " (a definition file takes --metric face|quarter, --moves A,B,... and --omit SET,...)",
        )
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["tws", "ksolve", "json"]
    }

    /// A definition starts with `Name` or `Set`, a KPuzzle's JSON with `{`.
    fn recognises(&self, first_line: &str) -> bool {
        first_line.starts_with('{') || FIRST_KEYWORDS.contains(&first_line.split_whitespace().next().unwrap_or(""))
    }

    fn read(&self, path: &Path, text: &str, args: &SizeArgs) -> Result<Definition, String> {
        let stem = path.file_stem().and_then(|s| s.to_str());
        let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let (metric, moves, omit) = (args.metric.as_deref(), args.moves.as_deref(), args.omit.as_deref());
        Definition::read(text, stem, json, metric, moves, omit)
    }

    fn all(&self) -> Vec<Definition> {
        Definition::read(POCKET_CUBE.1, None, false, None, None, None)
            .into_iter()
            .collect()
    }

    fn id(&self, definition: &Definition) -> String {
        definition.id.clone()
    }

    /// The definition as read, without its comments, layout or line numbers: its name, the
    /// sets, the solved state, every move and sequence (name, permutation, twists), the
    /// metric, and the aliases and `Illegal` lines when there are any.
    fn canonical(&self, definition: &Definition) -> Vec<(&'static str, String)> {
        let def = &definition.def;
        let moves = move_lines(&def.moves);
        let mut parts = vec![
            ("name", def.name.clone()),
            ("sets", format!("{:?}", def.sets)),
            ("solved", format!("{:?}", def.solved)),
            ("moves", moves),
            ("metric", format!("{:?}", definition.metric)),
        ];
        // Named only when given, so the identity of a file without them stays as it was.
        if !def.aliases.is_empty() {
            parts.push(("aliases", move_lines(&def.aliases)));
        }
        if !def.illegal.is_empty() {
            let illegal: Vec<String> = def
                .illegal
                .iter()
                .map(|i| format!("{} {} {:?}", def.sets[i.set].name, i.position, i.pieces))
                .collect();
            parts.push(("illegal", illegal.join("\n")));
        }
        parts
    }

    fn note(&self, definition: &Definition) -> Option<String> {
        definition.note.clone()
    }

    fn states(&self, definition: &Definition) -> u128 {
        definition.states
    }

    fn by_class(&self, definition: &Definition) -> bool {
        definition.by_class
    }

    fn beyond(&self, definition: &Definition) -> Option<String> {
        definition.beyond.clone()
    }

    fn definition(&self, definition: &Definition) -> Option<Parts> {
        Some(definition.parts())
    }

    fn unranked(&self, definition: &Definition) -> Option<String> {
        definition.unranked.clone()
    }

    fn packed_bits(&self, definition: &Definition) -> Option<u32> {
        definition.packed_bits
    }

    fn reach(&self, definition: &Definition) -> Option<u128> {
        definition.reach
    }

    fn build_sparse(&self, definition: &Definition, goal: Option<&str>) -> Result<super::packed::Sparse, String> {
        let def = (*definition.def).clone();
        super::packed::Sparse::new(def, &definition.id, definition.metric, definition.first_piece, goal)
    }

    fn build(&self, definition: &Definition) -> Result<PermPuzzle, String> {
        let puzzle = PermPuzzle::new((*definition.def).clone(), &definition.id, definition.metric);
        puzzle
            .map(|p| p.numbered_from(definition.first_piece))
            .map_err(|e| e.to_string())
    }
}

/// Moves as the identity reads them: name, permutation and twists, one a line.
fn move_lines(moves: &[super::parse::MoveDef]) -> String {
    moves
        .iter()
        .map(|m| format!("{} {:?} {:?}", m.name, m.from, m.twist))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::{kebab, label};

    #[test]
    fn names_become_ids() {
        assert_eq!(kebab("PocketCubeHeld"), "pocket-cube-held");
        assert_eq!(kebab("2x2x2"), "2x2x2");
        assert_eq!(kebab("Pancakes10"), "pancakes-10");
        assert_eq!(kebab("BurntPancakes8"), "burnt-pancakes-8");
        assert_eq!(kebab("Top Spin (9)"), "top-spin-9");
        assert_eq!(kebab(""), "definition");
        assert_eq!(label("PuzzleGeometryPuzzle", Some("2x2x2")), "2x2x2");
        assert_eq!(label("Unnamed", Some("my-cube")), "my-cube");
        assert_eq!(label("PocketCubeHeld", Some("cube")), "PocketCubeHeld");
    }
}
