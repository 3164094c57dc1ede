//! How a definition's puzzle is named and written, shared by its ranked form
//! ([`super::PermPuzzle`]) and its packed one ([`super::packed::PackedPerm`]), which a
//! puzzle too large to rank has alone.

use super::parse::Definition;
use super::structure::{Layout, Metric};
use crate::util::markdown_text;

/// The id's words as a title: `pocket-cube-held` as "Pocket cube held", under the quarter
/// metric "Pocket cube held (in quarter turns)", and with moves chosen by `--moves` (the id's
/// `-moves-u-r`) "3x3x3 with moves U and R", the moves as the definition spells them.
pub fn title(id: &str, metric: Metric, def: &Definition) -> String {
    let id = id.strip_suffix("-quarter").unwrap_or(id);
    let (name, chosen) = match id.split_once("-moves-") {
        Some((name, _)) => (name, true),
        None => (id, false),
    };
    let words = name.replace('-', " ");
    let mut chars = words.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase()).into_iter();
    let mut title: String = first.chain(chars).collect();
    if chosen {
        let names: Vec<&str> = def.moves.iter().map(|m| m.name.as_str()).collect();
        let list = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        };
        title = format!("{title} with move{} {list}", if names.len() == 1 { "" } else { "s" });
    }
    match metric {
        Metric::Face => title,
        Metric::Quarter => format!("{title} (in {})", metric.unit()),
    }
}

/// The sets and moves in a sentence, `moves` counting the metric's moves, as Markdown: the
/// file's names are shown as written.
pub fn rules(def: &Definition, metric: Metric, moves: usize) -> String {
    let sets: Vec<String> = def
        .sets
        .iter()
        .map(|s| {
            if s.orientations > 1 {
                format!(
                    "{} ({} pieces, {} orientations)",
                    markdown_text(&s.name),
                    s.size,
                    s.orientations
                )
            } else {
                format!("{} ({} pieces)", markdown_text(&s.name), s.size)
            }
        })
        .collect();
    let names: Vec<String> = def.moves.iter().map(|m| markdown_text(&m.name)).collect();
    let metric = match metric {
        Metric::Face => "each power of a move counts as one move",
        Metric::Quarter => "only a move and its inverse count as one move",
    };
    let rotations = rotations_left_out(def).map_or_else(String::new, |left| {
        format!(" {}.", markdown_text(&left.replacen("left", "Left", 1)))
    });
    format!(
        "A permutation puzzle from a definition file: sets {}; moves {} ({metric}, {moves} in all).{rotations} The goal is the definition's solved state.",
        sets.join(", "),
        names.join(" "),
    )
}

/// Which rotations of the definition are not searched, if any: `left out 3 rotations (Fv,
/// Dv, Rv): whole-puzzle turns, not moves`, for stderr and the report alike.
pub fn rotations_left_out(def: &Definition) -> Option<String> {
    let left = def.rotations_left_out();
    let s = if left.len() == 1 { "" } else { "s" };
    (!left.is_empty()).then(|| {
        format!(
            "left out {} rotation{s} ({}): whole-puzzle turns, not moves",
            left.len(),
            left.join(", ")
        )
    })
}

/// Rows (a set's pieces, and its twists if it has orientations) and columns (the largest set).
pub fn shape(def: &Definition) -> (usize, usize) {
    let rows = def.sets.iter().map(|s| if s.orientations > 1 { 2 } else { 1 }).sum();
    let cols = def.sets.iter().map(|s| s.size).max().unwrap_or(1);
    (rows, cols)
}

/// The twists at `range`, `?` for a piece whose orientation the definition leaves open.
fn twists_text(layout: &Layout, range: std::ops::Range<usize>, pieces: &[u8], twists: &[u8]) -> String {
    join(range.map(|i| match layout.piece_mod(i, pieces[i]) {
        1 => "?".to_string(),
        _ => twists[i].to_string(),
    }))
}

/// Flattened pieces and twists written set by set, `/` between sets, a set's twists
/// after a comma: `2 1 3 4, 0 0 1 2 / 1 2 3`; pieces numbered from `first` (1 as in a
/// `.tws` file, 0 as in a KPuzzle's).
pub fn render_state(def: &Definition, layout: &Layout, pieces: &[u8], twists: &[u8], first: u32) -> String {
    let mut sets = Vec::new();
    for (s, set) in def.sets.iter().enumerate() {
        let range = layout.offset[s]..layout.offset[s] + set.size;
        let mut text = join(pieces[range.clone()].iter().map(|&p| u32::from(p) + first));
        if set.orientations > 1 {
            text.push_str(", ");
            text.push_str(&twists_text(layout, range, pieces, twists));
        }
        sets.push(text);
    }
    sets.join(" / ")
}

/// Flattened pieces and twists drawn a set a line (its twists on the next line), pieces
/// numbered from `first`.
pub fn draw_state(def: &Definition, layout: &Layout, pieces: &[u8], twists: &[u8], first: u32) -> String {
    let width = def.sets.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut lines = Vec::new();
    for (s, set) in def.sets.iter().enumerate() {
        let range = layout.offset[s]..layout.offset[s] + set.size;
        lines.push(format!(
            "{:width$} {}",
            set.name,
            join(pieces[range.clone()].iter().map(|&x| u32::from(x) + first))
        ));
        if set.orientations > 1 {
            lines.push(format!("{:width$} {}", "", twists_text(layout, range, pieces, twists)));
        }
    }
    lines.join("\n")
}

/// How all assemblies of the pieces arise: factorials in set order, then each orientation
/// count once with its exponent summed over the sets: `8! x 12! x 3^8 x 2^12`, never `1!`
/// or `2^1`.
pub fn assemblies_formula(def: &Definition) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut powers: Vec<(u8, usize)> = Vec::new();
    for (i, s) in def.sets.iter().enumerate() {
        let mut labels = def.solved.pieces[i].clone();
        labels.sort_unstable();
        let repeats: Vec<String> = labels
            .chunk_by(|a, b| a == b)
            .filter(|c| c.len() > 1)
            .map(|c| format!("{}!", c.len()))
            .collect();
        // One piece, or pieces all alike: one arrangement, no factor.
        if labels.first() != labels.last() {
            parts.push(match repeats.is_empty() {
                true => format!("{}!", s.size),
                false => format!("{}!/({})", s.size, repeats.join(" x ")),
            });
        }
        // Each piece's orientations as told apart (fewer where the definition leaves them open).
        for &m in def.orientation_mod[i].iter().filter(|&&m| m > 1) {
            match powers.iter_mut().find(|(base, _)| *base == m) {
                Some((_, exponent)) => *exponent += 1,
                None => powers.push((m, 1)),
            }
        }
    }
    parts.extend(powers.iter().map(|&(base, exponent)| match exponent {
        1 => base.to_string(),
        e => format!("{base}^{e}"),
    }));
    if parts.is_empty() {
        parts.push("1".into());
    }
    parts.join(" x ")
}

/// Items separated by spaces.
pub fn join<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
}
