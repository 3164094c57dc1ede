//! The geometric symmetries of a rectangular board, and the choice among those a puzzle
//! keeps (`--symmetry`): shared by the puzzles on a board (coins, sliding tiles), which
//! each test which of them map their moves and goal onto themselves.

use super::{Geometric, Symmetry, SymmetryChoice};

/// One symmetry of an `rows x cols` board: where each cell goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardSym {
    /// `to[cell]`: the cell that `cell` goes to (cells row by row).
    pub to: Vec<usize>,
    /// Whether it keeps the board's orientation (a rotation) rather than reversing it.
    pub rotation: bool,
}

/// The board's symmetries, the identity first: a square's 4 rotations and 4 reflections,
/// a rectangle's identity, half turn and 2 reflections. On a board one cell wide some of
/// these move no cell or move cells alike (a row's half turn reads it backwards, as does
/// one of its reflections): each permutation is listed once, so that the group's order
/// counts permutations, and one that a reflection makes counts as a reflection (a row read
/// backwards, as flip-k's is; `rotations` then keeps the identity alone).
pub fn board_symmetries(rows: usize, cols: usize) -> Vec<BoardSym> {
    let mut distinct: Vec<BoardSym> = Vec::new();
    for s in geometric_maps(rows, cols) {
        match distinct.iter().position(|d| d.to == s.to) {
            // The identity stays a rotation, whatever else makes it.
            Some(0) => {}
            Some(i) => distinct[i].rotation &= s.rotation,
            None => distinct.push(s),
        }
    }
    distinct
}

/// The square's 8 or the rectangle's 4 maps, the identity first, whether or not some
/// coincide.
fn geometric_maps(rows: usize, cols: usize) -> Vec<BoardSym> {
    // Each as (rotation?, the image of (r, c)), the last four only on a square.
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    let maps: [(bool, Map); 8] = [
        (true, |r, c, _, _| (r, c)),
        (true, |r, c, h, w| (h - 1 - r, w - 1 - c)),
        (false, |r, c, h, _| (h - 1 - r, c)),
        (false, |r, c, _, w| (r, w - 1 - c)),
        (true, |r, c, _, w| (c, w - 1 - r)),
        (true, |r, c, h, _| (h - 1 - c, r)),
        (false, |r, c, _, _| (c, r)),
        (false, |r, c, h, w| (w - 1 - c, h - 1 - r)),
    ];
    let count = if rows == cols { 8 } else { 4 };
    maps[..count]
        .iter()
        .map(|&(rotation, map)| BoardSym {
            to: (0..rows * cols)
                .map(|cell| {
                    let (r, c) = map(cell / cols, cell % cols, rows, cols);
                    r * cols + c
                })
                .collect(),
            rotation,
        })
        .collect()
}

/// The symmetries of `kept` (the identity first) that `choice` asks for, with the group
/// as reports name it, or the one line saying that the group asked for does not exist.
/// `inverse` says whether a position's inverse may count too (never for boards).
pub fn choose(kept: Vec<BoardSym>, choice: SymmetryChoice, shape: &str) -> Result<(Vec<BoardSym>, Symmetry), String> {
    let found = describe(&kept, shape);
    if choice.inverse == Some(true) {
        return Err(choice.missing(&format!("{}: {}, and no inverse", found.order, found.made_of)));
    }
    let chosen: Vec<BoardSym> = match choice.group {
        None | Some(Geometric::All) => kept,
        Some(Geometric::Rotations) => kept.into_iter().filter(|s| s.rotation).collect(),
        Some(Geometric::None) => kept.into_iter().take(1).collect(),
    };
    if chosen.len() == 1 && choice.asks_for_more() {
        return Err(choice.missing(&format!("{}: {}", found.order, found.made_of)));
    }
    let group = describe(&chosen, shape);
    Ok((chosen, group))
}

/// The group of `syms` as reports name it: `the square's 4 rotations and 4 reflections`.
fn describe(syms: &[BoardSym], shape: &str) -> Symmetry {
    let rotations = syms.iter().filter(|s| s.rotation).count();
    let reflections = syms.len() - rotations;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let made_of = match (rotations, reflections) {
        (1, 0) => "the identity alone".to_string(),
        (1, 1) if shape == "row" => "the identity and the row read backwards".to_string(),
        (1, r) => format!("the identity and {} of the {shape}", plural(r, "reflection")),
        (n, 0) => format!("the {shape}'s {}", plural(n, "rotation")),
        (n, r) => format!(
            "the {shape}'s {} and {}",
            plural(n, "rotation"),
            plural(r, "reflection")
        ),
    };
    Symmetry {
        order: syms.len() as u64,
        made_of,
    }
}

/// The shape's name in a group's description.
pub fn shape_name(rows: usize, cols: usize) -> &'static str {
    match (rows, cols) {
        (1, _) | (_, 1) => "row",
        _ if rows == cols => "square",
        _ => "rectangle",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every map is a permutation, the maps are distinct, and they are closed under
    /// composition: a group of 8 on a square, 4 on a rectangle.
    #[test]
    fn a_board_has_the_dihedral_group() {
        for (rows, cols) in [(3, 3), (4, 4), (4, 3), (2, 5)] {
            let syms = board_symmetries(rows, cols);
            assert_eq!(syms.len(), if rows == cols { 8 } else { 4 });
            assert_eq!(syms[0].to, (0..rows * cols).collect::<Vec<_>>());
            for s in &syms {
                let mut seen = s.to.clone();
                seen.sort_unstable();
                assert_eq!(seen, (0..rows * cols).collect::<Vec<_>>());
                for t in &syms {
                    let both: Vec<usize> = (0..rows * cols).map(|c| t.to[s.to[c]]).collect();
                    let product = syms.iter().find(|u| u.to == both).expect("closed");
                    assert_eq!(product.rotation, s.rotation == t.rotation);
                }
            }
        }
    }

    /// A board one cell wide has fewer distinct symmetries than its shape suggests: a row
    /// two (itself and read backwards), a single cell one; each is listed once.
    #[test]
    fn a_row_has_two_symmetries_and_a_cell_one() {
        for ((rows, cols), order) in [((1, 5), 2), ((4, 1), 2), ((1, 1), 1), ((2, 2), 8), ((2, 1), 2)] {
            let syms = board_symmetries(rows, cols);
            assert_eq!(syms.len(), order, "{rows}x{cols}");
            for (i, s) in syms.iter().enumerate() {
                assert!(syms[..i].iter().all(|t| t.to != s.to), "{rows}x{cols}: listed twice");
            }
        }
        let row = board_symmetries(1, 4);
        assert_eq!((row[1].to.clone(), row[1].rotation), (vec![3, 2, 1, 0], false));
        let (_, group) = choose(row, SymmetryChoice::default(), shape_name(1, 4)).expect("the row's");
        assert_eq!(
            (group.order, group.made_of.as_str()),
            (2, "the identity and the row read backwards")
        );
    }

    #[test]
    fn the_group_asked_for_or_one_line() {
        let all = board_symmetries(3, 3);
        let (syms, group) = choose(all.clone(), SymmetryChoice::default(), "square").expect("all");
        assert_eq!(
            (syms.len(), group.made_of.as_str()),
            (8, "the square's 4 rotations and 4 reflections")
        );
        let rotations = "rotations".parse().expect("a choice");
        assert_eq!(choose(all.clone(), rotations, "square").expect("rotations").0.len(), 4);
        let mirror = vec![all[0].clone(), all[6].clone()];
        let refused = choose(mirror, rotations, "square").expect_err("no rotation");
        assert!(
            refused.contains("found: 2: the identity and 1 reflection of the square"),
            "{refused}"
        );
        let none = choose(all.clone(), SymmetryChoice::NONE, "square").expect("none");
        assert_eq!(none.1, Symmetry::trivial());
        assert!(choose(all, "all+inverse".parse().expect("a choice"), "square").is_err());
    }
}
