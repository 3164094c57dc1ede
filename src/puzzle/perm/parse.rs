//! Reads the common subset of the ksolve / twsearch definition format.
//!
//! ```text
//! Name PocketCube            # optional
//! Set CORNER 8 3             # name, pieces, orientations
//! Solved                     # optional (StartState: the same, pieces counted from 0)
//! CORNER
//! 1 2 3 4 5 6 7 8            # the piece at each position; a repeated number: identical pieces
//! 0 0 0 0 0 0 0 0            # optional orientations
//! End
//! Move U                     # the state the move makes from the solved one:
//! CORNER                     # position i receives the piece at position perm[i]
//! 4 1 2 3 5 6 7 8
//! 0 0 0 0 0 0 0 0            # twist of each piece, listed where the piece starts
//! End
//! ```
//!
//! The conventions are twsearch's (its `readksolve.cpp`): permutations are passive (a move
//! line says which position's piece comes to each position), and a move's orientation
//! line is indexed by the piece's position *before* the move, so applying a move `(p, w)`
//! to a state `(s, o)` gives `s'[i] = s[p[i]]` and `o'[i] = o[p[i]] + w[p[i]]` modulo the
//! set's orientations. Sets a move does not name stay still.
//!
//! Beyond the blocks, twsearch's other lines:
//!
//! ```text
//! MoveSequence Sune R U R' U R U2 R'   # a move of cost 1: the moves (any power) left to right
//! MoveAlias Ri R'                      # a name accepted in positions, never a generator
//! Illegal SLICE 3 17 18                # after Solved: pieces 17 and 18 never stand at position 3
//! ```
//!
//! A `?` in the solved state's orientation line leaves that piece's orientation open: it
//! does not matter, so states that differ only there are one position (identical pieces
//! must agree). A `?` for a piece itself (an unknown piece) is refused.
//!
//! Moves named as twsearch names whole-puzzle rotations (`x`, `y`, `z`, or ending in `v`:
//! `Fv`, `DFRv`) are read as any move; [`Definition::set_rotations_apart`] then keeps them
//! out of the generators, for either format.
//!
//! A sequence may name moves, sequences and aliases defined anywhere in the file; it is
//! searched like any move (its powers under the face metric, its inverse under the
//! quarter one). An illegal state is never entered: the search neither stops at nor passes
//! through it.

use crate::util::quote;
use std::collections::HashMap;
use std::fmt;

/// Largest definition read: the biggest community files are a few hundred kilobytes.
pub const MAX_BYTES: usize = 1 << 20;

/// Most pieces in a set, and most orientations: what twsearch accepts too.
pub const MAX_PIECES: usize = 255;
const MAX_ORIENTATIONS: usize = 127;

/// Most `MoveSequence` and `MoveAlias` lines, and most powers of one move: the search
/// takes at most 1024 moves in all.
pub const MAX_SEQUENCES: usize = 1024;

/// What the reader understands, for error messages.
pub const SUPPORTED: &str = "supported: Name, Set NAME PIECES ORIENTATIONS, Solved (or StartState) ... End (orientations may be `?`), Move NAME ... End, MoveSequence NAME MOVES..., MoveAlias NAME MOVE, Illegal SET POSITION PIECES..., # comments";

/// Why a definition was refused: a one-line message and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionError {
    /// 1-based line the problem is on (0: the text as a whole).
    pub line: usize,
    /// What is wrong, in one line.
    pub message: String,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for DefinitionError {}

/// One set of pieces: `Set NAME PIECES ORIENTATIONS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetDef {
    /// The set's name, e.g. `CORNER`.
    pub name: String,
    /// Positions (and pieces) in the set.
    pub size: usize,
    /// Orientations each piece can take (1: none).
    pub orientations: u8,
}

impl SetDef {
    /// The set's pieces in place and untwisted: a set a block leaves out, or the goal
    /// without a `Solved` block.
    fn identity(&self) -> (Vec<u8>, Vec<u8>) {
        ((0..self.size as u8).collect(), vec![0; self.size])
    }
}

/// A position: for each set, the piece at each position and its orientation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// `pieces[set][position]`: the piece's label, from 0 (labels as written, minus one).
    pub pieces: Vec<Vec<u8>>,
    /// `twists[set][position]`: the piece's orientation, below the set's orientations.
    pub twists: Vec<Vec<u8>>,
}

/// A move as written: for each set, where each position's piece comes from and the twist
/// added to each piece (indexed by destination, i.e. already `w[p[i]]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveDef {
    /// Its name, e.g. `U`.
    pub name: String,
    /// The line of its `Move` keyword.
    pub line: usize,
    /// `from[set][i]`: the position whose piece the move brings to position `i`.
    pub from: Vec<Vec<u8>>,
    /// `twist[set][i]`: added to the orientation of the piece arriving at position `i`.
    pub twist: Vec<Vec<u8>>,
}

impl MoveDef {
    /// The move that leaves every piece where it is.
    fn identity(sets: &[SetDef], name: &str, line: usize) -> Self {
        let (from, twist) = sets.iter().map(SetDef::identity).unzip();
        MoveDef {
            name: name.to_string(),
            line,
            from,
            twist,
        }
    }

    fn is_identity(&self) -> bool {
        self.from
            .iter()
            .all(|f| f.iter().enumerate().all(|(i, &p)| usize::from(p) == i))
            && self.twist.iter().flatten().all(|&t| t == 0)
    }

    /// `self` then `next` (named as `self`): position `i` receives what `next` brings there
    /// from the position `self` filled.
    fn then(&self, next: &MoveDef, sets: &[SetDef]) -> MoveDef {
        let mut m = self.clone();
        for (s, set) in sets.iter().enumerate() {
            for i in 0..set.size {
                let f = usize::from(next.from[s][i]);
                m.from[s][i] = self.from[s][f];
                m.twist[s][i] = (self.twist[s][f] + next.twist[s][i]) % set.orientations;
            }
        }
        m
    }

    /// Its powers named as twsearch names them ([`power_name`]): `U`, `U2`, `U'` for a move
    /// of order 4.
    fn powers(&self, sets: &[SetDef]) -> Result<Vec<MoveDef>, DefinitionError> {
        let mut powers = vec![self.clone()];
        while let Some(last) = powers.last() {
            let next = last.then(self, sets);
            if next.is_identity() {
                break;
            }
            if powers.len() >= MAX_SEQUENCES {
                return err(
                    self.line,
                    format!("move {} has an order above {MAX_SEQUENCES}", self.name),
                );
            }
            powers.push(next);
        }
        let order = powers.len() + 1;
        for (j, p) in powers.iter_mut().enumerate() {
            p.name = power_name(&self.name, turns(j + 1, order));
        }
        Ok(powers)
    }
}

/// The `power`-th power of a move of `order` as quarter turns: the power, or its inverse's
/// negated when that is smaller (`3` of order 4 is `-1`).
pub fn turns(power: usize, order: usize) -> i64 {
    let (power, order) = (power as i64, order as i64);
    if order - power < power { power - order } else { power }
}

/// A power's name, twsearch's: `U`, `U2`, `U'`, `U2'` for `turns` 1, 2, -1, -2.
pub fn power_name(name: &str, turns: i64) -> String {
    match turns {
        1 => name.to_string(),
        -1 => format!("{name}'"),
        t if t < 0 => format!("{name}{}'", -t),
        t => format!("{name}{t}"),
    }
}

/// An `Illegal` line: a state with one of `pieces` at `position` of `set` is never entered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// The set's index.
    pub set: usize,
    /// The position in the set, from 0.
    pub position: usize,
    /// The piece labels, from 0 (as written, minus one).
    pub pieces: Vec<u8>,
    /// The line it is on.
    pub line: usize,
}

/// A definition file read into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The `Name` line, or `Unnamed`.
    pub name: String,
    /// The sets, in file order.
    pub sets: Vec<SetDef>,
    /// The solved state (the identity when the file has no `Solved` block).
    pub solved: State,
    /// The moves, in file order, then the sequences, composed (their powers are not
    /// expanded here).
    pub moves: Vec<MoveDef>,
    /// The aliases, composed: names positions may use, never generators.
    pub aliases: Vec<MoveDef>,
    /// The `Illegal` lines.
    pub illegal: Vec<Illegal>,
    /// The whole-puzzle turns set apart from the moves ([`Definition::set_rotations_apart`]):
    /// they change how the puzzle is held, not its position, so they are no generators
    /// unless `--moves` names them; kept for what can use them (symmetries).
    pub rotations: Vec<MoveDef>,
    /// `orientation_mod[set][position]`: the orientation of the goal's piece there is
    /// known modulo this divisor of the set's orientations, and travels with the piece:
    /// the orientations for a piece tracked fully, 1 for a `?` (it does not matter), a
    /// proper divisor for a KPuzzle `orientationMod`. Identical pieces agree.
    pub orientation_mod: Vec<Vec<u8>>,
}

impl Definition {
    /// Keeps only the moves `names` (`--moves`), in file order, then the rotations named
    /// (which stay among the rotations too); refuses a name that is not a move, sequence
    /// or rotation of the file, with the list of them, or a name given twice.
    pub fn choose_moves(&mut self, names: &[&str]) -> Result<(), String> {
        let known = |name: &str| self.moves.iter().chain(&self.rotations).any(|m| m.name == name);
        for (i, name) in names.iter().enumerate() {
            if !known(name) {
                let all: Vec<&str> = self
                    .moves
                    .iter()
                    .chain(&self.rotations)
                    .map(|m| m.name.as_str())
                    .collect();
                // The first moves only: a definition may have hundreds.
                const SHOWN: usize = 24;
                let more = match all.len() {
                    n if n > SHOWN => format!(" ... ({n} in all)"),
                    _ => String::new(),
                };
                let listed: Vec<String> = all.iter().take(SHOWN).map(|m| crate::util::terminal_text(m)).collect();
                return Err(format!(
                    "{} is not a move of the definition (its moves are {}{more})",
                    quote(name),
                    listed.join(" ")
                ));
            }
            if names[..i].contains(name) {
                return Err(format!("{} is named twice", quote(name)));
            }
        }
        let chosen = self.rotations.iter().filter(|r| names.contains(&r.name.as_str()));
        let chosen: Vec<MoveDef> = chosen.cloned().collect();
        self.moves.extend(chosen);
        self.moves.retain(|m| names.contains(&m.name.as_str()));
        Ok(())
    }

    /// Leaves out the sets `names` (`--omit`, twsearch's `--omit`): their pieces, their
    /// places in every move, alias, rotation and the goal, and their `Illegal` lines. A
    /// move that then moves nothing is dropped (it would be a loop on every position).
    /// Refuses a name that is not a set of the file (with the list of them), a name given
    /// twice, every set left out, or no move left that moves a piece.
    pub fn omit_sets(&mut self, names: &[&str]) -> Result<(), String> {
        let all: Vec<String> = self.sets.iter().map(|s| s.name.clone()).collect();
        for (i, name) in names.iter().enumerate() {
            if !all.iter().any(|s| s == name) {
                return Err(format!(
                    "{} is not a set of the definition (its sets are {})",
                    quote(name),
                    all.join(" ")
                ));
            }
            if names[..i].contains(name) {
                return Err(format!("{} is named twice", quote(name)));
            }
        }
        if names.len() == all.len() {
            return Err("leaves out every set: keep at least one".into());
        }
        let kept: Vec<usize> = (0..all.len()).filter(|&s| !names.contains(&all[s].as_str())).collect();
        let keep = |v: &mut Vec<Vec<u8>>| *v = kept.iter().map(|&s| std::mem::take(&mut v[s])).collect();
        for m in self
            .moves
            .iter_mut()
            .chain(&mut self.aliases)
            .chain(&mut self.rotations)
        {
            keep(&mut m.from);
            keep(&mut m.twist);
        }
        keep(&mut self.solved.pieces);
        keep(&mut self.solved.twists);
        keep(&mut self.orientation_mod);
        self.illegal.retain(|l| kept.contains(&l.set));
        for l in &mut self.illegal {
            l.set = kept.iter().position(|&s| s == l.set).unwrap_or(l.set);
        }
        self.sets = kept.iter().map(|&s| self.sets[s].clone()).collect();
        self.moves.retain(|m| !m.is_identity());
        if self.moves.is_empty() {
            return Err("leaves no move that moves a piece".into());
        }
        Ok(())
    }

    /// Moves the whole-puzzle turns ([`is_rotation`]) from the moves to
    /// [`Definition::rotations`], in file order.
    pub fn set_rotations_apart(&mut self) {
        let (rotations, moves) = std::mem::take(&mut self.moves)
            .into_iter()
            .partition(|m| is_rotation(&m.name));
        (self.rotations, self.moves) = (rotations, moves);
    }

    /// The rotations not searched, by name.
    pub fn rotations_left_out(&self) -> Vec<&str> {
        let searched = |name: &str| self.moves.iter().any(|m| m.name == name);
        self.rotations
            .iter()
            .map(|r| r.name.as_str())
            .filter(|&name| !searched(name))
            .collect()
    }
}

/// Whether a move turns the whole puzzle, by twsearch's convention: `x`, `y`, `z`, or a
/// name ending in `v` (`Rv`, `DFRv`). Such a move only changes how the puzzle is held, so
/// searching it would count each position once per way of holding it.
pub fn is_rotation(name: &str) -> bool {
    matches!(name, "x" | "y" | "z") || (name.len() > 1 && name.ends_with('v'))
}

/// A definition error at `line` (0: the file as a whole).
pub(super) fn err<T>(line: usize, message: impl Into<String>) -> Result<T, DefinitionError> {
    Err(DefinitionError {
        line,
        message: message.into(),
    })
}

/// The lines that carry tokens, numbered from 1: a `#` starts a comment to the end of its
/// line (twsearch takes whole comment lines only), and lines left blank are dropped.
fn token_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            (
                i + 1,
                l.split('#').next().unwrap_or("").split_whitespace().collect::<Vec<_>>(),
            )
        })
        .filter(|(_, t)| !t.is_empty())
}

/// Reads a number in `min..=max`.
fn number(line: usize, token: &str, min: usize, max: usize, what: &str) -> Result<usize, DefinitionError> {
    if token == "?" {
        return err(
            line,
            format!("{what} wildcards `?` are not supported (only a solved state's orientations may be `?`)"),
        );
    }
    match token.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(_) => err(line, format!("{what} {} is out of range {min} to {max}", quote(token))),
        Err(_) => err(line, format!("{what} {} is not a number", quote(token))),
    }
}

fn is_number(token: &str) -> bool {
    token.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// Which block is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    Solved { zero_based: bool },
    Move,
}

/// A `Solved` or `Move` block's lines, read until `End`: per set named, its numbers lines.
struct BlockReader {
    sets: Vec<SetDef>,
    block: Block,
    start: usize,
    /// Per set: the permutation line and the optional orientation line, with line numbers.
    lines: Lines,
    current: Option<usize>,
}

impl BlockReader {
    fn new(sets: &[SetDef], block: Block, start: usize) -> Self {
        Self {
            sets: sets.to_vec(),
            block,
            start,
            lines: vec![None; sets.len()],
            current: None,
        }
    }

    fn what(&self) -> &'static str {
        match self.block {
            Block::Solved { .. } => "the solved state",
            Block::Move => "the move",
        }
    }

    /// Takes one line of the block; `Ok(true)` at its `End`.
    fn take(&mut self, line: usize, tokens: &[&str]) -> Result<bool, DefinitionError> {
        let first = tokens[0];
        if first == "End" {
            if tokens.len() > 1 {
                return err(
                    line,
                    format!("`End` takes nothing after it, found {}", quote(tokens[1])),
                );
            }
            self.check_current_complete(line)?;
            return Ok(true);
        }
        if is_number(first) || first == "?" {
            self.take_numbers(line, tokens)?;
        } else {
            self.take_set_name(line, tokens)?;
        }
        Ok(false)
    }

    /// A line of numbers: the current set's pieces, then its orientations.
    fn take_numbers(&mut self, line: usize, tokens: &[&str]) -> Result<(), DefinitionError> {
        let Some(set) = self.current else {
            return err(line, format!("numbers before a set name in {}", self.what()));
        };
        let def = &self.sets[set];
        if tokens.len() != def.size {
            return err(
                line,
                format!(
                    "set {} has {} pieces, this line has {} numbers",
                    def.name,
                    def.size,
                    tokens.len()
                ),
            );
        }
        let entry = self.lines[set].as_mut().map(|e| (e.1.is_empty(), e));
        match entry {
            Some((true, e)) => {
                e.0 = line;
                e.1 = pieces(line, tokens, self.block)?;
            }
            Some((false, e)) if e.2.is_none() => {
                let twists = twists(line, tokens, def, self.block)?;
                check_open(line, def, &e.1, &twists)?;
                e.2 = Some(twists);
            }
            _ => {
                return err(
                    line,
                    format!(
                        "a third line of numbers for set {} (a set has a piece line and an optional orientation line)",
                        def.name
                    ),
                );
            }
        }
        Ok(())
    }

    /// A line that is not numbers nor `End`: the name of the next set, alone.
    fn take_set_name(&mut self, line: usize, tokens: &[&str]) -> Result<(), DefinitionError> {
        let first = tokens[0];
        self.check_current_complete(line)?;
        if tokens.len() != 1 {
            return err(
                line,
                format!(
                    "expected a set name alone or `End` in {}, found {} words",
                    self.what(),
                    tokens.len()
                ),
            );
        }
        let Some(set) = self.sets.iter().position(|s| s.name == first) else {
            let names: Vec<&str> = self.sets.iter().map(|s| s.name.as_str()).collect();
            return err(
                line,
                format!("unknown set {} (the sets are {})", quote(first), names.join(", ")),
            );
        };
        if self.lines[set].is_some() {
            return err(line, format!("set {first} given twice in {}", self.what()));
        }
        self.lines[set] = Some((line, Vec::new(), None));
        self.current = Some(set);
        Ok(())
    }

    fn check_current_complete(&self, line: usize) -> Result<(), DefinitionError> {
        if let Some(set) = self.current
            && self.lines[set].as_ref().is_some_and(|e| e.1.is_empty())
        {
            return err(line, format!("set {} has no line of pieces", self.sets[set].name));
        }
        Ok(())
    }
}

/// A line of pieces: numbered from 1, or from 0 in a `StartState` block.
fn pieces(line: usize, tokens: &[&str], block: Block) -> Result<Vec<usize>, DefinitionError> {
    let (min, max) = match block {
        Block::Solved { zero_based: true } => (0, MAX_PIECES - 1),
        _ => (1, MAX_PIECES),
    };
    tokens.iter().map(|t| number(line, t, min, max, "piece")).collect()
}

/// An orientation written `?` in a solved state: [`OPEN`].
const OPEN: usize = usize::MAX;

/// A line of orientations, each below the set's orientations; in a solved state, `?`
/// ([`OPEN`]) for an orientation that does not matter.
fn twists(line: usize, tokens: &[&str], def: &SetDef, block: Block) -> Result<Vec<usize>, DefinitionError> {
    let o = usize::from(def.orientations);
    let mut twists = Vec::with_capacity(def.size);
    for t in tokens {
        if *t == "?" {
            if block == Block::Move {
                return err(
                    line,
                    "a move's orientation cannot be `?` (only a solved state's orientations may be)",
                );
            }
            twists.push(OPEN);
            continue;
        }
        let v = number(line, t, 0, MAX_PIECES, "orientation")?;
        if v >= o {
            return err(
                line,
                format!(
                    "orientation {v} out of range: set {} has {o} orientation{} (0 to {})",
                    def.name,
                    if o == 1 { "" } else { "s" },
                    o - 1
                ),
            );
        }
        twists.push(v);
    }
    Ok(twists)
}

/// Refuses a solved state whose identical pieces disagree on whether their orientation
/// matters (twsearch's rule: a label is one kind of piece).
fn check_open(line: usize, def: &SetDef, pieces: &[usize], twists: &[usize]) -> Result<(), DefinitionError> {
    for (i, (&p, &t)) in pieces.iter().zip(twists).enumerate() {
        if let Some(j) = (0..i).find(|&j| pieces[j] == p && (twists[j] == OPEN) != (t == OPEN)) {
            return err(
                line,
                format!(
                    "set {}: slots {} and {i_1} hold identical pieces ({p}), but only one has its orientation `?` (identical pieces agree)",
                    def.name,
                    j + 1,
                    i_1 = i + 1
                ),
            );
        }
    }
    Ok(())
}

/// An open block: its reader and, for a `Move` block, the move's name and line.
type OpenBlock = (BlockReader, Option<(String, usize)>);

/// A `MoveSequence` or `MoveAlias` line, composed once the whole file is read (it may
/// name moves defined after it).
struct Sequence {
    name: String,
    line: usize,
    moves: Vec<String>,
    alias: bool,
}

impl Sequence {
    fn keyword(&self) -> &'static str {
        if self.alias { "MoveAlias" } else { "MoveSequence" }
    }
}

/// What the definition has given so far, outside the blocks being read.
#[derive(Default)]
struct Parts {
    name: Option<String>,
    sets: Vec<SetDef>,
    solved: Option<(State, Vec<Vec<u8>>)>,
    moves: Vec<MoveDef>,
    sequences: Vec<Sequence>,
    illegal: Vec<Illegal>,
}

impl Parts {
    /// A line outside the blocks, starting with a keyword; the block it opens, if any.
    fn keyword(&mut self, line: usize, tokens: &[&str]) -> Result<Option<OpenBlock>, DefinitionError> {
        match tokens[0] {
            "Name" => self.name_line(line, tokens)?,
            "Set" => self.set_line(line, tokens)?,
            "Solved" | "StartState" => return self.solved_line(line, tokens).map(Some),
            "Move" => return self.move_line(line, tokens).map(Some),
            "MoveSequence" | "MoveAlias" => self.sequence_line(line, tokens)?,
            "Illegal" => self.illegal_line(line, tokens)?,
            "End" => return err(line, "`End` without a `Solved` or `Move` block"),
            other => {
                return err(line, format!("{} is not supported ({SUPPORTED})", quote(other)));
            }
        }
        Ok(None)
    }

    /// `Name ...`.
    fn name_line(&mut self, line: usize, tokens: &[&str]) -> Result<(), DefinitionError> {
        if self.name.is_some() || !self.sets.is_empty() {
            return err(line, "`Name` must come once, before the sets");
        }
        if tokens.len() < 2 {
            return err(line, "`Name` needs a name after it");
        }
        self.name = Some(tokens[1..].join(" "));
        Ok(())
    }

    /// `Set NAME PIECES ORIENTATIONS`.
    fn set_line(&mut self, line: usize, tokens: &[&str]) -> Result<(), DefinitionError> {
        if self.solved.is_some() || !self.moves.is_empty() {
            return err(line, "`Set` must come before `Solved` and the moves");
        }
        if tokens.len() != 4 {
            return err(
                line,
                "`Set` takes a name, a number of pieces and a number of orientations: `Set CORNER 8 3`",
            );
        }
        let set_name = tokens[1];
        if self.sets.iter().any(|s| s.name == set_name) {
            return err(line, format!("set {} defined twice", quote(set_name)));
        }
        if is_number(set_name) || set_name == "End" {
            return err(line, format!("a set name cannot be {}", quote(set_name)));
        }
        let size = number(line, tokens[2], 1, MAX_PIECES, "the number of pieces")?;
        let orientations = number(line, tokens[3], 1, MAX_ORIENTATIONS, "the number of orientations")?;
        self.sets.push(SetDef {
            name: set_name.to_string(),
            size,
            orientations: orientations as u8,
        });
        Ok(())
    }

    /// `Solved` or `StartState`, opening the solved state's block.
    fn solved_line(&self, line: usize, tokens: &[&str]) -> Result<OpenBlock, DefinitionError> {
        let keyword = tokens[0];
        if self.sets.is_empty() {
            return err(line, format!("`{keyword}` before any `Set`"));
        }
        if self.solved.is_some() {
            return err(line, "a second solved state");
        }
        if !self.moves.is_empty() {
            return err(line, format!("`{keyword}` must come before the moves"));
        }
        if tokens.len() != 1 {
            return err(line, format!("`{keyword}` stands alone on its line; its sets follow"));
        }
        let zero_based = keyword == "StartState";
        Ok((BlockReader::new(&self.sets, Block::Solved { zero_based }, line), None))
    }

    /// `Move NAME`, opening the move's block.
    fn move_line(&self, line: usize, tokens: &[&str]) -> Result<OpenBlock, DefinitionError> {
        if self.sets.is_empty() {
            return err(line, "`Move` before any `Set`");
        }
        if tokens.len() != 2 {
            return err(line, "`Move` takes one name: `Move U`");
        }
        let move_name = tokens[1];
        self.check_new_move(line, move_name)?;
        Ok((
            BlockReader::new(&self.sets, Block::Move, line),
            Some((move_name.to_string(), line)),
        ))
    }

    /// Refuses a move, sequence or alias name already given or that positions could not
    /// hold.
    fn check_new_move(&self, line: usize, name: &str) -> Result<(), DefinitionError> {
        let taken = self.moves.iter().any(|m| m.name == name) || self.sequences.iter().any(|q| q.name == name);
        if taken {
            return err(line, format!("move {} defined twice", quote(name)));
        }
        if name.contains(['/', ',']) || name.ends_with('\'') {
            return err(
                line,
                format!("a move name cannot be {} (no / or , and no ' at its end)", quote(name)),
            );
        }
        Ok(())
    }

    /// `MoveSequence NAME MOVES...` or `MoveAlias NAME MOVE`.
    fn sequence_line(&mut self, line: usize, tokens: &[&str]) -> Result<(), DefinitionError> {
        let alias = tokens[0] == "MoveAlias";
        if self.sets.is_empty() {
            return err(line, format!("`{}` before any `Set`", tokens[0]));
        }
        match (alias, tokens.len()) {
            (true, 3) | (false, 3..) => {}
            (true, _) => return err(line, "`MoveAlias` takes a name and one move: `MoveAlias Ri R'`"),
            (false, _) => {
                return err(
                    line,
                    "`MoveSequence` takes a name and the moves it is made of: `MoveSequence Sune R U R' U R U2 R'`",
                );
            }
        }
        if self.sequences.len() == MAX_SEQUENCES {
            return err(
                line,
                format!("more than {MAX_SEQUENCES} `MoveSequence` and `MoveAlias` lines"),
            );
        }
        self.check_new_move(line, tokens[1])?;
        self.sequences.push(Sequence {
            name: tokens[1].to_string(),
            line,
            moves: tokens[2..].iter().map(|t| t.to_string()).collect(),
            alias,
        });
        Ok(())
    }

    /// `Illegal SET POSITION PIECES...`, after the solved state (twsearch's order).
    fn illegal_line(&mut self, line: usize, tokens: &[&str]) -> Result<(), DefinitionError> {
        if self.solved.is_none() {
            return err(line, "`Illegal` must come after the solved state (`Solved` ... `End`)");
        }
        if tokens.len() < 4 {
            return err(
                line,
                "`Illegal` takes a set, a slot and the pieces that may not stand there: `Illegal SLICE 3 17`",
            );
        }
        let Some(set) = self.sets.iter().position(|s| s.name == tokens[1]) else {
            let names: Vec<&str> = self.sets.iter().map(|s| s.name.as_str()).collect();
            return err(
                line,
                format!("unknown set {} (the sets are {})", quote(tokens[1]), names.join(", ")),
            );
        };
        let size = self.sets[set].size;
        let position = number(line, tokens[2], 1, size, "the slot")? - 1;
        let pieces = tokens[3..]
            .iter()
            .map(|t| number(line, t, 1, MAX_PIECES, "the piece").map(|p| (p - 1) as u8))
            .collect::<Result<Vec<u8>, _>>()?;
        // A piece the set does not have could never stand anywhere: a typo, not a rule.
        if let Some((solved, _)) = &self.solved
            && let Some(&piece) = pieces.iter().find(|p| !solved.pieces[set].contains(p))
        {
            return err(
                line,
                format!(
                    "set {} has no piece {} (its pieces are {})",
                    self.sets[set].name,
                    u32::from(piece) + 1,
                    piece_list(&solved.pieces[set])
                ),
            );
        }
        self.illegal.push(Illegal {
            set,
            position,
            pieces,
            line,
        });
        Ok(())
    }

    /// A block read to its `End`: the solved state, or a move.
    fn close(&mut self, block: &mut BlockReader, mv: Option<(String, usize)>) -> Result<(), DefinitionError> {
        let lines = std::mem::take(&mut block.lines);
        match mv {
            None => {
                let zero_based = matches!(block.block, Block::Solved { zero_based: true });
                self.solved = Some(solved_state(&self.sets, lines, zero_based));
            }
            Some((name, at)) => self.moves.push(move_def(&self.sets, name, at, lines)?),
        }
        Ok(())
    }

    /// The definition, once every line is read; refuses one without sets or moves.
    fn finish(self, last_line: usize) -> Result<Definition, DefinitionError> {
        if self.sets.is_empty() {
            return err(last_line, format!("no `Set` in the definition ({SUPPORTED})"));
        }
        if self.moves.is_empty() {
            return err(last_line, "no `Move` in the definition");
        }
        let sets = self.sets;
        let (solved, orientation_mod) = self.solved.unwrap_or_else(|| {
            let (pieces, twists) = sets.iter().map(SetDef::identity).unzip();
            (State { pieces, twists }, full_moduli(&sets))
        });
        if let Some(i) = self
            .illegal
            .iter()
            .find(|i| i.pieces.contains(&solved.pieces[i.set][i.position]))
        {
            return err(i.line, "this line makes the solved state itself illegal");
        }
        let composed = compose(&sets, &self.moves, &self.sequences)?;
        let (mut moves, mut aliases) = (self.moves, Vec::new());
        for (q, m) in self.sequences.iter().zip(composed) {
            if q.alias { aliases.push(m) } else { moves.push(m) }
        }
        Ok(Definition {
            name: self.name.unwrap_or_else(|| "Unnamed".into()),
            sets,
            solved,
            moves,
            aliases,
            illegal: self.illegal,
            rotations: Vec::new(),
            orientation_mod,
        })
    }
}

/// A set's piece labels as a `.tws` file numbers them (from 1): `1 to 8`, or the labels
/// one by one where some repeat or are missing.
fn piece_list(labels: &[u8]) -> String {
    let mut sorted = labels.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let contiguous = sorted.iter().enumerate().all(|(i, &l)| usize::from(l) == i);
    match (contiguous, sorted.last()) {
        (true, Some(&last)) if last > 0 => format!("1 to {}", u32::from(last) + 1),
        _ => sorted
            .iter()
            .map(|&l| (u32::from(l) + 1).to_string())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Every orientation known fully: each set's orientations at each of its positions.
pub(super) fn full_moduli(sets: &[SetDef]) -> Vec<Vec<u8>> {
    sets.iter().map(|s| vec![s.orientations; s.size]).collect()
}

/// The sequences and aliases composed, in file order. Each may name any power of a move,
/// sequence or alias: those it names are composed first (depth first, on a stack of its
/// own, so a chain of a thousand sequences needs no deep recursion), and a sequence
/// reached again while open is a cycle.
fn compose(sets: &[SetDef], moves: &[MoveDef], sequences: &[Sequence]) -> Result<Vec<MoveDef>, DefinitionError> {
    if sequences.is_empty() {
        return Ok(Vec::new());
    }
    let mut powers: HashMap<String, MoveDef> = HashMap::new();
    for m in moves {
        powers.extend(m.powers(sets)?.into_iter().map(|p| (p.name.clone(), p)));
    }
    let index: HashMap<&str, usize> = sequences
        .iter()
        .enumerate()
        .map(|(i, q)| (q.name.as_str(), i))
        .collect();
    let mut done: Vec<Option<MoveDef>> = vec![None; sequences.len()];
    let mut open = vec![false; sequences.len()];
    for start in 0..sequences.len() {
        let mut stack = vec![start];
        while let Some(&s) = stack.last() {
            if done[s].is_some() {
                stack.pop();
                continue;
            }
            open[s] = true;
            let q = &sequences[s];
            let mut composed = MoveDef::identity(sets, &q.name, q.line);
            let mut waiting = None;
            for name in &q.moves {
                if let Some(m) = powers.get(name) {
                    composed = composed.then(m, sets);
                    continue;
                }
                // `Sune`, `Sune'`, `Sune2'` name a sequence not composed yet.
                let bare = name.trim_end_matches('\'');
                let base = bare.trim_end_matches(|c: char| c.is_ascii_digit());
                match [name.as_str(), bare, base].iter().find_map(|n| index.get(n)) {
                    Some(&d) if done[d].is_none() => {
                        waiting = Some(d);
                        break;
                    }
                    _ => return err(q.line, unknown_move(q, name, moves, sequences)),
                }
            }
            match waiting {
                Some(d) if open[d] => {
                    let from = stack.iter().position(|&o| o == d).unwrap_or(0);
                    let cycle: Vec<&str> = stack[from..]
                        .iter()
                        .chain([&d])
                        .map(|&o| sequences[o].name.as_str())
                        .collect();
                    return err(
                        q.line,
                        format!("the sequences {} name each other in a cycle", cycle.join(" -> ")),
                    );
                }
                Some(d) => stack.push(d),
                None => {
                    if composed.is_identity() {
                        return err(
                            q.line,
                            format!("{} {} moves nothing: its moves cancel out", q.keyword(), q.name),
                        );
                    }
                    powers.extend(composed.powers(sets)?.into_iter().map(|p| (p.name.clone(), p)));
                    done[s] = Some(composed);
                    open[s] = false;
                    stack.pop();
                }
            }
        }
    }
    Ok(done.into_iter().flatten().collect())
}

/// Why a sequence's move is refused: it names no power of a move, with the names it may use.
fn unknown_move(q: &Sequence, name: &str, moves: &[MoveDef], sequences: &[Sequence]) -> String {
    let names: Vec<&str> = moves
        .iter()
        .map(|m| m.name.as_str())
        .chain(sequences.iter().map(|q| q.name.as_str()))
        .collect();
    let more = if names.len() > 30 { " ..." } else { "" };
    format!(
        "{} {}: {} is not a move (the moves are {}{more}, each with its powers: U2, U')",
        q.keyword(),
        q.name,
        quote(name),
        names[..names.len().min(30)].join(" ")
    )
}

/// Reads a definition. Refuses, with the line and what is supported, every keyword outside
/// the subset and every malformed block.
pub fn parse_definition(text: &str) -> Result<Definition, DefinitionError> {
    if text.len() > MAX_BYTES {
        return err(
            0,
            format!(
                "the definition has {} bytes, more than the {} accepted",
                text.len(),
                MAX_BYTES
            ),
        );
    }
    let mut parts = Parts::default();
    let mut reader: Option<OpenBlock> = None;
    let mut last_line = 0;
    for (line, tokens) in token_lines(text) {
        last_line = line;
        if let Some((block, mv)) = reader.as_mut() {
            if block.take(line, &tokens)? {
                parts.close(block, mv.take())?;
                reader = None;
            }
            continue;
        }
        reader = parts.keyword(line, &tokens)?;
    }
    if let Some((block, _)) = reader {
        return err(
            block.start,
            format!("this block has no `End` (the file ends at line {last_line})"),
        );
    }
    parts.finish(last_line)
}

/// Per set of a block: the line of its pieces, the pieces, and the optional twists.
type Lines = Vec<Option<(usize, Vec<usize>, Option<Vec<usize>>)>>;

/// The solved state and each position's orientation modulus (1 where it is `?`).
fn solved_state(sets: &[SetDef], lines: Lines, zero_based: bool) -> (State, Vec<Vec<u8>>) {
    let mut state = State {
        pieces: Vec::new(),
        twists: Vec::new(),
    };
    let mut moduli = full_moduli(sets);
    for ((set, entry), moduli) in sets.iter().zip(lines).zip(&mut moduli) {
        match entry {
            None => {
                let (pieces, twists) = set.identity();
                state.pieces.push(pieces);
                state.twists.push(twists);
            }
            Some((_, pieces, twists)) => {
                let shift = usize::from(!zero_based);
                state.pieces.push(pieces.iter().map(|&p| (p - shift) as u8).collect());
                let twists = twists.unwrap_or_else(|| vec![0; set.size]);
                for (m, &t) in moduli.iter_mut().zip(&twists) {
                    if t == OPEN {
                        *m = 1;
                    }
                }
                state
                    .twists
                    .push(twists.iter().map(|&v| if v == OPEN { 0 } else { v as u8 }).collect());
            }
        }
    }
    (state, moduli)
}

fn move_def(sets: &[SetDef], name: String, at: usize, lines: Lines) -> Result<MoveDef, DefinitionError> {
    let mut mv = MoveDef {
        name,
        line: at,
        from: Vec::new(),
        twist: Vec::new(),
    };
    for (set, entry) in sets.iter().zip(lines) {
        match entry {
            None => {
                let (from, twist) = set.identity();
                mv.from.push(from);
                mv.twist.push(twist);
            }
            Some((line, pieces, twists)) => {
                let mut seen = vec![false; set.size];
                for &p in &pieces {
                    if p > set.size || std::mem::replace(&mut seen[p - 1], true) {
                        let what = if p > set.size {
                            "is past the set's size"
                        } else {
                            "appears twice"
                        };
                        return err(
                            line,
                            format!(
                                "move {} is not a permutation of set {}: {p} {what} (each of 1 to {} once)",
                                mv.name, set.name, set.size
                            ),
                        );
                    }
                }
                let from: Vec<u8> = pieces.iter().map(|&p| (p - 1) as u8).collect();
                // The file lists the twist where the piece starts; keep it where it arrives.
                let written = twists.unwrap_or_else(|| vec![0; set.size]);
                mv.twist
                    .push(from.iter().map(|&f| written[usize::from(f)] as u8).collect());
                mv.from.push(from);
            }
        }
    }
    Ok(mv)
}
