//! Rules files: a coin puzzle described in TOML (`--rules FILE.toml`), read into the same
//! [`Coins`] the built-in coin puzzles are made of, so a file and a built-in go through one
//! mechanism: a board, moves that flip fixed cells (optionally only while one cell is
//! heads, optionally with a cost), and goals.
//!
//! Every error names the line and column of the offending value, and what is accepted.
//! The README documents the format field by field.

use super::SearchGraph;
use super::coins::{COINS, CoinMove, Coins, MAX_COINS, PATTERN, cell_name, read_cells};
use super::family::{Family, SizeArgs};
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

/// Largest cost of one move: the search keeps a bit set per pending cost (cost + 2 bit
/// sets in all, 66 x 4 MiB on a 25-coin board).
pub const MAX_COST: i64 = 64;

/// A rules file that cannot be used, with where (when known) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    /// Line and column (from 1) of the offending text, when the parser has them.
    pub at: Option<(usize, usize)>,
    /// What is wrong and what is accepted.
    pub message: String,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, col)) => write!(f, "{line}:{col}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for RulesError {}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Spanned<String>,
    rows: Spanned<i64>,
    cols: Spanned<i64>,
    goals: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    metric: Option<Spanned<String>>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    cells: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(rename = "move")]
    moves: Spanned<Vec<Move>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    name: Spanned<String>,
    flips: Spanned<String>,
    #[serde(default)]
    needs_heads: Option<Spanned<String>>,
    #[serde(default)]
    cost: Option<Spanned<i64>>,
}

/// The report id derived from a puzzle's name: lowercase letters and digits, every other
/// run of characters a single dash (`Merlin's magic square` -> `merlin-s-magic-square`).
pub fn id_from_name(name: &str) -> String {
    crate::util::slug(&name.to_lowercase())
}

/// Reads a rules file's text into a coin puzzle.
pub fn parse_rules(text: &str) -> Result<Coins, RulesError> {
    let file: File = toml::from_str(text).map_err(|e| RulesError {
        at: e.span().map(|span| line_col(text, span.start)),
        message: format!(
            "{} (see the README's \"Rules files\" for the format)",
            e.message().trim_end()
        ),
    })?;
    let name = file.name.get_ref().trim().to_string();
    let id = id_from_name(&name);
    if id.is_empty() {
        return fail(
            text,
            file.name.span(),
            "`name` needs at least one letter or digit: the report id is made from it".into(),
        );
    }
    let board = Board::read(text, &file)?;
    let names = cell_names(text, &file, board)?;
    let moves = read_moves(text, &file, board, &names)?;
    let goals = read_goals(text, &file, board)?;
    let weighted = moves.iter().any(|m| m.cost != 1);
    let metric = read_metric(text, &file, weighted)?;
    // The report is Markdown: a description is shown as written, never as markup.
    let description = file
        .description
        .as_deref()
        .map(crate::util::markdown_text)
        .unwrap_or_else(|| describe(board, &moves, &goals, &metric));
    Ok(Coins::new(id, name, description, (board.rows, board.cols), moves, goals).with_metric(&metric))
}

/// The board's size as the file gives it, checked against [`MAX_COINS`].
#[derive(Clone, Copy)]
struct Board {
    rows: usize,
    cols: usize,
}

impl Board {
    /// `rows` and `cols` of `file`, each from 1 to [`MAX_COINS`], with at most that many
    /// coins in all.
    fn read(text: &str, file: &File) -> Result<Self, RulesError> {
        let side = |value: &Spanned<i64>, what: &str| match usize::try_from(*value.get_ref()) {
            Ok(n @ 1..=MAX_COINS) => Ok(n),
            _ => fail(
                text,
                value.span(),
                format!(
                    "`{what} = {}` is out of range: a board has 1 to {MAX_COINS} {what}",
                    value.get_ref()
                ),
            ),
        };
        let rows = side(&file.rows, "rows")?;
        let cols = side(&file.cols, "cols")?;
        let n = rows * cols;
        if n > MAX_COINS {
            return fail(
                text,
                file.rows.span().start..file.cols.span().end,
                format!(
                    "a {rows}x{cols} board has {n} coins, 2^{n} configurations: the search would need 2^{} bytes for each of its bit sets (4 MiB at the limit) and 2^{} times as long as a 5x5 board; the limit is {MAX_COINS} coins",
                    n - 3,
                    n - MAX_COINS
                ),
            );
        }
        Ok(Self { rows, cols })
    }

    fn coins(self) -> usize {
        self.rows * self.cols
    }

    /// The rank bit of `cell` (cells row by row, the first one the highest bit).
    fn bit(self, cell: usize) -> u64 {
        1u64 << (self.coins() - 1 - cell)
    }

    /// The rank bits of the cells marked in `cells`.
    fn mask(self, cells: &[bool]) -> u64 {
        cells
            .iter()
            .enumerate()
            .filter(|(_, on)| **on)
            .fold(0, |mask, (i, _)| mask | self.bit(i))
    }
}

/// Cell names: `rRcC` always, and the names of `cells` when given.
fn cell_names(text: &str, file: &File, board: Board) -> Result<HashMap<String, usize>, RulesError> {
    let Board { rows, cols } = board;
    let n = board.coins();
    let mut names: HashMap<String, usize> = (0..n).map(|i| (cell_name(i, cols), i)).collect();
    if let Some(cells) = &file.cells {
        if cells.get_ref().len() != n {
            return fail(
                text,
                cells.span(),
                format!(
                    "`cells` names {} cells; the {rows}x{cols} board has {n}, named row by row",
                    cells.get_ref().len()
                ),
            );
        }
        for (i, cell) in cells.get_ref().iter().enumerate() {
            let label = cell.get_ref().trim();
            if label.is_empty() || label.chars().any(char::is_whitespace) {
                return fail(text, cell.span(), format!("cell name `{label}` must be a single word"));
            }
            if let Some(&j) = names.get(label)
                && j != i
            {
                return fail(
                    text,
                    cell.span(),
                    format!("cell name `{label}` is already cell {}", cell_name(j, cols)),
                );
            }
            names.insert(label.to_string(), i);
        }
    }
    Ok(names)
}

/// The `[[move]]` tables, at least one, each with its own name.
fn read_moves(
    text: &str,
    file: &File,
    board: Board,
    names: &HashMap<String, usize>,
) -> Result<Vec<CoinMove>, RulesError> {
    let mut moves: Vec<CoinMove> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    if file.moves.get_ref().is_empty() {
        return fail(
            text,
            file.moves.span(),
            "no moves: add at least one [[move]] table".into(),
        );
    }
    for m in file.moves.get_ref() {
        let move_name = m.name.get_ref().trim().to_string();
        if move_name.is_empty() {
            return fail(text, m.name.span(), "a move's `name` must not be empty".into());
        }
        if let Some(line) = seen.insert(move_name.clone(), line_col(text, m.name.span().start).0) {
            return fail(
                text,
                m.name.span(),
                format!("two moves are named `{move_name}` (the other on line {line}): each move needs its own name"),
            );
        }
        moves.push(read_move(text, m, move_name, board, names, file.cells.is_some())?);
    }
    Ok(moves)
}

/// One `[[move]]` table, named `move_name`: the cells it flips, the cell that must be heads
/// (`named_cells` when the file names its cells) and its cost.
fn read_move(
    text: &str,
    m: &Move,
    move_name: String,
    board: Board,
    names: &HashMap<String, usize>,
    named_cells: bool,
) -> Result<CoinMove, RulesError> {
    let Board { rows, cols } = board;
    let cells = read_cells(m.flips.get_ref(), (rows, cols), &PATTERN).map_err(|e| RulesError {
        at: Some(line_col(text, m.flips.span().start)),
        message: format!("move `{move_name}`: `flips`: {e}"),
    })?;
    let mask = board.mask(&cells);
    if mask == 0 {
        return fail(
            text,
            m.flips.span(),
            format!("move `{move_name}` flips nothing: mark at least one cell with x"),
        );
    }
    let needs_heads = match &m.needs_heads {
        None => None,
        Some(cell) => {
            let label = cell.get_ref().trim();
            match names.get(label) {
                Some(&i) => Some(board.bit(i)),
                None => {
                    return fail(
                        text,
                        cell.span(),
                        format!(
                            "move `{move_name}`: `needs_heads = \"{label}\"` is not a cell of the {rows}x{cols} board: write r1c1 to r{rows}c{cols}{}",
                            if named_cells { ", or a name from `cells`" } else { "" }
                        ),
                    );
                }
            }
        }
    };
    let cost = match &m.cost {
        None => 1,
        Some(cost) => match *cost.get_ref() {
            c @ 1..=MAX_COST => c as u32,
            c => {
                return fail(
                    text,
                    cost.span(),
                    format!("move `{move_name}`: `cost = {c}` is out of range: a move costs 1 to {MAX_COST}"),
                );
            }
        },
    };
    Ok(CoinMove {
        name: move_name,
        mask,
        needs_heads,
        cost,
    })
}

/// The goals as ranks, at least one, in the file's order without repeats.
fn read_goals(text: &str, file: &File, board: Board) -> Result<Vec<u64>, RulesError> {
    if file.goals.get_ref().is_empty() {
        return fail(
            text,
            file.goals.span(),
            "no goals: give at least one H/T string, e.g. goals = [\"HHHH\"]".into(),
        );
    }
    let mut goals = Vec::new();
    for goal in file.goals.get_ref() {
        let coins = read_cells(goal.get_ref(), (board.rows, board.cols), &COINS).map_err(|e| RulesError {
            at: Some(line_col(text, goal.span().start)),
            message: format!("goal `{}`: {e}", goal.get_ref()),
        })?;
        let rank = board.mask(&coins);
        if !goals.contains(&rank) {
            goals.push(rank);
        }
    }
    Ok(goals)
}

/// The word distances are measured in: the file's `metric`, else `cost` when some move
/// costs more than 1, else `moves`.
fn read_metric(text: &str, file: &File, weighted: bool) -> Result<String, RulesError> {
    Ok(match &file.metric {
        Some(metric) => {
            let word = metric.get_ref().trim();
            if word.is_empty() || !word.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
                return fail(
                    text,
                    metric.span(),
                    format!("`metric = \"{word}\"` must be one word, e.g. \"flips\""),
                );
            }
            word.to_string()
        }
        None if weighted => "cost".into(),
        None => "moves".into(),
    })
}

/// The description of a file that gives none: the board, the moves and the goals.
fn describe(board: Board, moves: &[CoinMove], goals: &[u64], metric: &str) -> String {
    let Board { rows, cols } = board;
    let n = board.coins();
    let weighted = moves.iter().any(|m| m.cost != 1);
    let goal_text: Vec<String> = goals
        .iter()
        .map(|&g| (0..n).map(|i| if g & board.bit(i) == 0 { 'H' } else { 'T' }).collect())
        .collect();
    format!(
        "{n} coins on a {rows}x{cols} board, each heads (H) or tails (T). {} moves, each flipping a fixed set of coins{}{}. Goal{}: {}; distances are to the nearest goal{}.",
        moves.len(),
        if moves.iter().any(|m| m.needs_heads.is_some()) {
            ", some only while a given coin is heads"
        } else {
            ""
        },
        if weighted { ", at a cost" } else { "" },
        if goals.len() > 1 { "s" } else { "" },
        goal_text.join(", "),
        if weighted {
            format!(" in {metric}")
        } else {
            String::new()
        }
    )
}

/// The error `message` about the value at `span` of `text`.
fn fail<T>(text: &str, span: Range<usize>, message: String) -> Result<T, RulesError> {
    Err(RulesError {
        at: Some(line_col(text, span.start)),
        message,
    })
}

/// Line and column (from 1, in characters) of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `--rules FILE.toml`: a coin puzzle described in a rules file.
pub struct RulesFamily;

impl Family for RulesFamily {
    type Size = Arc<Coins>;
    type Puzzle = Coins;

    fn name(&self) -> &'static str {
        "rules"
    }

    fn about(&self) -> Option<&'static str> {
        None
    }

    fn flags(&self) -> (&'static [&'static str], &'static str) {
        (&[], " (a rules file gives its own board: rows and cols in the file)")
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["toml"]
    }

    /// TOML: `key = value` or a `[table]`.
    fn recognises(&self, first_line: &str) -> bool {
        first_line.starts_with('[') || first_line.contains('=')
    }

    fn read(&self, _: &Path, text: &str, _: &SizeArgs) -> Result<Arc<Coins>, String> {
        parse_rules(text)
            .map(Arc::new)
            .map_err(|e| format!("{}{e}", if e.at.is_some() { "" } else { " " }))
    }

    fn id(&self, coins: &Arc<Coins>) -> String {
        coins.id.clone()
    }

    /// The rules as read: the board, the moves (names, masks, conditions, costs), the
    /// goals, what distances count, and the title and rules text the report prints.
    fn canonical(&self, coins: &Arc<Coins>) -> Vec<(&'static str, String)> {
        let moves = coins
            .moves
            .iter()
            .map(|m| format!("{} {:#x} {:?} {}", m.name, m.mask, m.needs_heads, m.cost))
            .collect::<Vec<_>>()
            .join("\n");
        vec![
            ("board", format!("{}x{}", coins.rows, coins.cols)),
            ("moves", moves),
            ("goals", format!("{:?}", coins.goals)),
            ("metric", coins.metric.clone()),
            ("text", format!("{}\n{}", coins.title, coins.rules)),
        ]
    }

    fn states(&self, coins: &Arc<Coins>) -> u128 {
        1u128 << coins.coins()
    }

    fn max_move_cost(&self, coins: &Arc<Coins>) -> u32 {
        coins.max_move_cost()
    }

    fn build(&self, coins: &Arc<Coins>) -> Result<Coins, String> {
        Ok(Coins::clone(coins))
    }
}
