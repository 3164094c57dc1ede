//! `report.md`: a page a person reads top to bottom: the puzzle, the totals with their
//! closed forms, the farthest configurations drawn as boards, the charts and the classes.

use super::thousands;
use crate::analysis::Analysis;
use std::io::{self, Write};

/// Antipodes drawn as boards; the rest are listed in one-line notation.
const DRAWN: usize = 6;
/// Rows of the distance and class tables shown inline; longer tables stay in the CSVs.
const INLINE_ROWS: usize = 64;

/// `reachable` as a closed form when it is a simple one, e.g. `9!/2` or `2^23`.
pub fn reachable_formula(a: &Analysis) -> Option<String> {
    let r = u128::from(a.reachable());
    if r == a.configurations {
        Some(a.configurations_formula.clone())
    } else if r * 2 == a.configurations {
        Some(format!("{}/2", a.configurations_formula))
    } else if r.is_power_of_two() && r > 1 {
        Some(format!("2^{}", r.trailing_zeros()))
    } else {
        None
    }
}

fn with_formula(formula: Option<String>, n: impl Into<u128>) -> String {
    match formula {
        Some(f) => format!("{f} = {}", thousands(n)),
        None => thousands(n),
    }
}

/// `text` from a user's file (a rules file's `name`) as Markdown that shows it as written:
/// HTML's `<`, `>` and `&` as entities, Markdown's marks after a backslash (`|` too, so it
/// stays in its table cell), and line breaks as spaces, so it stays on its line.
pub fn escape(text: &str) -> String {
    crate::util::markdown_text(text)
}

/// Writes the page.
pub fn write_report(a: &Analysis, mut w: impl Write) -> io::Result<()> {
    writeln!(w, "# {}\n", escape(&a.title))?;
    writeln!(w, "{}\n", a.rules)?;
    write_totals(a, &mut w)?;
    write_farthest(a, &mut w)?;
    write_distances(a, &mut w)?;
    write_classes(a, &mut w)?;
    if let Some(atlas) = &a.atlas {
        super::atlas::write_section(atlas, a.reachable(), a.cols, &mut w)?;
    }
    writeln!(w, "Files: `distances.csv`, `classes.csv`, `summary.json`.\n")?;
    // The version only: a date or a command line would make every run's page differ, and
    // the committed reports are compared byte for byte. `run.json` has the rest.
    writeln!(
        w,
        "---\nComputed by analyze {}; `run.json` beside this page names the commit, the command line, the date, the machine and the time taken.",
        env!("CARGO_PKG_VERSION")
    )?;
    Ok(())
}

/// `## Totals`: the counts with their closed forms, the distances, the classes.
fn write_totals(a: &Analysis, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "## Totals\n")?;
    writeln!(w, "| | |\n|---|---:|")?;
    let all = with_formula(Some(a.configurations_formula.clone()), a.configurations);
    let reached = with_formula(reachable_formula(a), a.reachable());
    // The words of README's table: a configuration is any arrangement (a definition's
    // pieces taken apart and put back, twisted at will), a state one that reaches the goal.
    writeln!(w, "| configurations, reachable or not | {all} |")?;
    writeln!(w, "| states (configurations that can reach the goal) | {reached} |")?;
    if a.symmetric() {
        writeln!(
            w,
            "| up to its {} symmetries ({}) | {} |",
            a.symmetry.order,
            a.symmetry.made_of,
            classes(a.reachable_classes())
        )?;
    }
    writeln!(w, "| maximum distance | {} |", a.distance_text(a.max_distance()))?;
    writeln!(w, "| antipodes (at the maximum) | {} |", antipodes_text(a))?;
    writeln!(w, "| mean distance | {:.4} {} |", a.mean_distance(), a.metric)?;
    writeln!(
        w,
        "| solvability classes | {} ({} solvable) |",
        a.classes.len(),
        a.classes.iter().filter(|c| c.solvable).count()
    )?;
    if let Some(rank) = a.gf2_rank {
        writeln!(w, "| rank of the moves over GF(2) | {rank} |")?;
    }
    if let Some(start) = a.start_distance {
        let text = start.map_or_else(|| "unsolvable".to_string(), |d| a.distance_text(d));
        writeln!(w, "| from the classic start | {text} |")?;
    }
    writeln!(w)
}

/// The antipodes' count, with their classes where counted up to symmetry.
fn antipodes_text(a: &Analysis) -> String {
    match a.symmetric() {
        true => format!("{} in {}", thousands(a.antipodes()), classes(a.antipode_classes())),
        false => thousands(a.antipodes()),
    }
}

/// `n classes`, or `1 class`.
fn classes(n: u64) -> String {
    format!("{} class{}", thousands(n), if n == 1 { "" } else { "es" })
}

/// `## The goal and the farthest configurations`: the goals and the first antipodes
/// drawn as boards, the rest of the examples in one-line notation.
fn write_farthest(a: &Analysis, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "## The goal and the farthest {}s\n", a.noun())?;
    writeln!(w, "Goal{}:\n", if a.goal_drawings.len() > 1 { "s" } else { "" })?;
    writeln!(w, "```text\n{}\n```\n", side_by_side(&a.goal_drawings))?;
    let shown = a.antipode_drawings.len();
    let which = if a.symmetric() && a.antipodes() > 1 {
        let classes = a.antipode_classes();
        match classes as usize > shown {
            true => format!(
                ", in {} up to symmetry. Here is one of each of the first {shown}",
                self::classes(classes)
            ),
            false => format!(", in {} up to symmetry, one of each here", self::classes(classes)),
        }
    } else if a.antipodes() <= 1 {
        String::new()
    } else if a.antipodes() as usize > shown {
        format!(". Here are {shown} of them, the first in the search's numbering")
    } else {
        String::new()
    };
    writeln!(
        w,
        "{} {}{} need{} {}, the most of any{which}:\n",
        thousands(a.antipodes()),
        a.noun(),
        if a.antipodes() == 1 { "" } else { "s" },
        if a.antipodes() == 1 { "s" } else { "" },
        a.distance_text(a.max_distance()),
    )?;
    let drawn = &a.antipode_drawings[..a.antipode_drawings.len().min(DRAWN)];
    writeln!(w, "```text\n{}\n```\n", side_by_side(drawn))?;
    // Each example with its moves is listed below; raw ones only where no moves are known.
    if a.antipode_examples.len() > DRAWN && a.antipode_moves.len() < a.antipode_examples.len() {
        writeln!(
            w,
            "More: {}\n",
            a.antipode_examples[DRAWN..]
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    if !a.antipode_moves.is_empty() {
        let every = a.antipode_moves.len() == a.antipode_examples.len();
        let text = match (a.antipode_moves.len(), a.antipodes()) {
            (1, 1) => "From the goal, these moves reach it (a shortest way):",
            (1, _) => "From the goal, these moves reach the first (a shortest way):",
            _ if every => "From the goal, these moves reach each of them (a shortest way each):",
            _ => "From the goal, these moves reach the first of them (each a shortest way):",
        };
        writeln!(w, "{text}\n")?;
        for (example, moves) in a.antipode_examples.iter().zip(&a.antipode_moves) {
            writeln!(w, "- `{example}`: `{moves}`")?;
        }
        writeln!(w)?;
    }
    Ok(())
}

/// `## Distances`: the charts, and the table of levels when it is short enough.
fn write_distances(a: &Analysis, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "## Distances ({})\n", a.metric)?;
    if let Some(sequence) = super::oeis::find(&a.levels) {
        writeln!(
            w,
            "This table is OEIS [{}]({}), {}.\n",
            sequence.id,
            sequence.url(),
            sequence.name
        )?;
    }
    writeln!(w, "![{}s by distance](distances.png)\n", a.noun())?;
    writeln!(w, "![{}s by distance, log scale](distances-log.png)\n", a.noun())?;
    writeln!(w, "![how the search grew](growth.png)\n")?;
    if a.levels.len() <= INLINE_ROWS && a.symmetric() {
        writeln!(
            w,
            "| distance | {}s | classes up to symmetry | cumulative |\n|---:|---:|---:|---:|",
            a.noun()
        )?;
        let mut cumulative = 0;
        for (d, (&n, &c)) in a.levels.iter().zip(&a.level_classes).enumerate() {
            cumulative += n;
            let (n, c, cumulative) = (thousands(n), thousands(c), thousands(cumulative));
            writeln!(w, "| {d} | {n} | {c} | {cumulative} |")?;
        }
    } else if a.levels.len() <= INLINE_ROWS {
        writeln!(w, "| distance | {}s | cumulative |\n|---:|---:|---:|", a.noun())?;
        let mut cumulative = 0;
        for (d, &n) in a.levels.iter().enumerate() {
            cumulative += n;
            writeln!(w, "| {d} | {} | {} |", thousands(n), thousands(cumulative))?;
        }
    } else {
        writeln!(w, "The table has {} rows: see `distances.csv`.", a.levels.len())?;
    }
    writeln!(w)
}

/// `## Solvability classes`: the invariant, the table of classes, and whether the search
/// reached exactly the configurations the invariant calls solvable.
fn write_classes(a: &Analysis, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "## Solvability classes\n")?;
    writeln!(w, "{}\n", a.invariant)?;
    if let Some(text) = syndrome_guide(a) {
        writeln!(w, "{text}\n")?;
    }
    writeln!(
        w,
        "| class | configurations | solvable | reached | example |\n|---|---:|---|---:|---|"
    )?;
    for c in a.classes.iter().take(INLINE_ROWS) {
        writeln!(
            w,
            "| `{}` | {} | {} | {} | `{}` |",
            c.class,
            thousands(c.configurations),
            if c.solvable { "yes" } else { "no" },
            thousands(c.reached),
            c.example
        )?;
    }
    if a.classes.len() > INLINE_ROWS {
        writeln!(w, "\n{} more classes in `classes.csv`.", a.classes.len() - INLINE_ROWS)?;
    }
    writeln!(w)?;
    if a.solvable_unreached() > 0 {
        writeln!(
            w,
            "The invariant alone would allow {} more configurations than the search reached: the move rules restrict more than the algebra sees.\n",
            thousands(a.solvable_unreached()),
        )
    } else {
        writeln!(
            w,
            "The search reached every configuration the invariant calls solvable and none of the others.\n",
        )
    }
}

/// How to read a class label that is a GF(2) syndrome (coin boards with more than one
/// class): a string of one 0/1 digit per non-pivot coin, first coin first, as
/// `engine::gf2` reduces a configuration and `puzzle::coins` prints it.
fn syndrome_guide(a: &Analysis) -> Option<String> {
    let rank = a.gf2_rank? as usize;
    let free = (a.rows * a.cols).checked_sub(rank).filter(|&f| f > 0)?;
    let is_syndrome = |label: &str| label.len() == free && label.bytes().all(|b| b == b'0' || b == b'1');
    if a.classes.len() < 2 || !a.classes.iter().all(|c| is_syndrome(&c.class)) {
        return None;
    }
    Some(format!(
        "How to read a class label: use moves to turn the {rank} pivot coins (one per independent move) heads up; the label is what is then left on the other {free} coins, read row by row, 1 for tails and 0 for heads. The example of each class that holds no goal is that configuration: its tails spell the label. No move changes the label, so a configuration whose label differs from the goal's can never reach the goal."
    ))
}

/// Boards (multi-line strings) placed next to each other, three spaces apart.
pub fn side_by_side(boards: &[String]) -> String {
    let split: Vec<Vec<&str>> = boards.iter().map(|b| b.lines().collect()).collect();
    let height = split.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = split
        .iter()
        .map(|l| l.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    (0..height)
        .map(|row| {
            split
                .iter()
                .zip(&widths)
                .map(|(lines, &width)| format!("{:width$}", lines.get(row).copied().unwrap_or("")))
                .collect::<Vec<_>>()
                .join("   ")
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_shows_html_and_markdown_marks_as_written() {
        assert_eq!(
            escape("a <b> & c | **d** _e_ `f` [g](h) #i ~j\\\nk"),
            "a &lt;b&gt; &amp; c \\| \\*\\*d\\*\\* \\_e\\_ \\`f\\` \\[g\\](h) \\#i \\~j\\\\ k"
        );
        // The built-in titles are unchanged.
        assert_eq!(escape("8-puzzle (3x3 sliding tiles)"), "8-puzzle (3x3 sliding tiles)");
    }
}
