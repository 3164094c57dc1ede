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

use crate::util::quote;
use std::fmt;

/// Largest definition read: the biggest community files are a few hundred kilobytes.
pub const MAX_BYTES: usize = 1 << 20;

/// Most pieces in a set, and most orientations: what twsearch accepts too.
pub const MAX_PIECES: usize = 255;
const MAX_ORIENTATIONS: usize = 127;

/// What the reader understands, for error messages.
pub const SUPPORTED: &str =
    "supported: Name, Set NAME PIECES ORIENTATIONS, Solved (or StartState) ... End, Move NAME ... End, # comments";

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

/// A definition file read into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The `Name` line, or `Unnamed`.
    pub name: String,
    /// The sets, in file order.
    pub sets: Vec<SetDef>,
    /// The solved state (the identity when the file has no `Solved` block).
    pub solved: State,
    /// The moves, in file order (their powers are not expanded here).
    pub moves: Vec<MoveDef>,
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
        return err(line, format!("{what} wildcards `?` are not supported ({SUPPORTED})"));
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
        if first == "?" {
            return err(line, format!("wildcards `?` are not supported ({SUPPORTED})"));
        }
        if is_number(first) {
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
                e.2 = Some(twists(line, tokens, def)?);
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

/// A line of orientations, each below the set's orientations.
fn twists(line: usize, tokens: &[&str], def: &SetDef) -> Result<Vec<usize>, DefinitionError> {
    let o = usize::from(def.orientations);
    let mut twists = Vec::with_capacity(def.size);
    for t in tokens {
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

/// An open block: its reader and, for a `Move` block, the move's name and line.
type OpenBlock = (BlockReader, Option<(String, usize)>);

/// What the definition has given so far, outside the blocks being read.
#[derive(Default)]
struct Parts {
    name: Option<String>,
    sets: Vec<SetDef>,
    solved: Option<State>,
    moves: Vec<MoveDef>,
}

impl Parts {
    /// A line outside the blocks, starting with a keyword; the block it opens, if any.
    fn keyword(&mut self, line: usize, tokens: &[&str]) -> Result<Option<OpenBlock>, DefinitionError> {
        match tokens[0] {
            "Name" => self.name_line(line, tokens)?,
            "Set" => self.set_line(line, tokens)?,
            "Solved" | "StartState" => return self.solved_line(line, tokens).map(Some),
            "Move" => return self.move_line(line, tokens).map(Some),
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
        if self.moves.iter().any(|m| m.name == move_name) {
            return err(line, format!("move {} defined twice", quote(move_name)));
        }
        if move_name.contains(['/', ',']) || move_name.ends_with('\'') {
            return err(
                line,
                format!(
                    "a move name cannot be {} (no / or , and no ' at its end)",
                    quote(move_name)
                ),
            );
        }
        Ok((
            BlockReader::new(&self.sets, Block::Move, line),
            Some((move_name.to_string(), line)),
        ))
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
        let solved = self.solved.unwrap_or_else(|| {
            let (pieces, twists) = sets.iter().map(SetDef::identity).unzip();
            State { pieces, twists }
        });
        Ok(Definition {
            name: self.name.unwrap_or_else(|| "Unnamed".into()),
            sets,
            solved,
            moves: self.moves,
        })
    }
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

fn solved_state(sets: &[SetDef], lines: Lines, zero_based: bool) -> State {
    let mut state = State {
        pieces: Vec::new(),
        twists: Vec::new(),
    };
    for (set, entry) in sets.iter().zip(lines) {
        match entry {
            None => {
                let (pieces, twists) = set.identity();
                state.pieces.push(pieces);
                state.twists.push(twists);
            }
            Some((_, pieces, twists)) => {
                let shift = usize::from(!zero_based);
                state.pieces.push(pieces.iter().map(|&p| (p - shift) as u8).collect());
                state
                    .twists
                    .push(twists.map_or_else(|| vec![0; set.size], |t| t.iter().map(|&v| v as u8).collect()));
            }
        }
    }
    state
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
