//! twsearch's scramble files (`.scr`), which `--solve FILE.scr` solves scramble by scramble:
//!
//! ```text
//! Scramble TWIST          # a position, written as a definition's Solved block
//! CORNERS
//! 1 2 3 4 5 6 7 8
//! 1 2 0 0 0 0 0 0
//! End
//! ScrambleAlg SEXY        # a move sequence from the solved state
//! R U R' U'
//! End
//! ```
//!
//! Each block becomes the text of a position in the puzzle's notation (set names followed
//! by their numbers, or the sequence), read by the puzzle like any `--solve` position.

use super::parse::{DefinitionError, MAX_BYTES, err};
use crate::util::quote;

/// One scramble: its name, the line of its block, and the position as notation text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scramble {
    /// The name after `Scramble` or `ScrambleAlg`.
    pub name: String,
    /// The line of its `Scramble` or `ScrambleAlg` keyword.
    pub line: usize,
    /// The block's lines joined by spaces: sets and numbers, or moves.
    pub position: String,
}

/// What the reader understands, for error messages.
const SUPPORTED: &str = "a scramble file holds `Scramble NAME` blocks (sets and numbers, as a Solved block) and `ScrambleAlg NAME` blocks (moves), each ending with `End`";

/// Reads the blocks of a scramble file, in order; `#` starts a comment.
pub fn read_scrambles(text: &str) -> Result<Vec<Scramble>, DefinitionError> {
    if text.len() > MAX_BYTES {
        return err(
            0,
            format!("the file has {} bytes, more than the {MAX_BYTES} accepted", text.len()),
        );
    }
    let mut scrambles = Vec::new();
    let mut open: Option<Scramble> = None;
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split('#').next().unwrap_or("").split_whitespace().collect();
        last = i + 1;
        match (open.as_mut(), words.as_slice()) {
            (_, []) => {}
            (Some(_), ["End"]) => scrambles.extend(open.take()),
            (Some(block), _) => {
                if !block.position.is_empty() {
                    block.position.push(' ');
                }
                block.position.push_str(&words.join(" "));
            }
            (None, ["Scramble" | "ScrambleAlg", name]) => {
                open = Some(Scramble {
                    name: name.to_string(),
                    line: i + 1,
                    position: String::new(),
                });
            }
            (None, [keyword @ ("ScrambleState" | "StartState"), ..]) => {
                return err(
                    i + 1,
                    format!(
                        "`{keyword}` (pieces counted from 0) is not supported: write the block as `Scramble NAME`, pieces from 1"
                    ),
                );
            }
            (None, [first, ..]) => {
                return err(
                    i + 1,
                    format!("{} is not a scramble block's start ({SUPPORTED})", quote(first)),
                );
            }
        }
    }
    if let Some(block) = open {
        return err(
            block.line,
            format!("this block has no `End` (the file ends at line {last})"),
        );
    }
    if scrambles.is_empty() {
        return err(0, format!("no scramble in the file ({SUPPORTED})"));
    }
    Ok(scrambles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_positions_and_sequences_in_order() {
        let text = "# two\nScramble A\nCORNERS\n2 1 3\n0 0 0\nEnd\n\nScrambleAlg B\n  R U # a comment\n R'\nEnd\n";
        let read = read_scrambles(text).expect("scrambles");
        let got: Vec<(&str, usize, &str)> = read
            .iter()
            .map(|s| (s.name.as_str(), s.line, s.position.as_str()))
            .collect();
        assert_eq!(got, [("A", 2, "CORNERS 2 1 3 0 0 0"), ("B", 8, "R U R'")]);
    }

    #[test]
    fn refuses_what_it_does_not_read_with_the_line() {
        let line = |text: &str| read_scrambles(text).expect_err(text);
        assert_eq!(line("ScrambleAlg A\nR\n").line, 1);
        assert!(line("ScrambleAlg A\nR\n").message.contains("no `End`"));
        assert_eq!(line("\nCPOS abc\n").line, 2);
        assert!(line("ScrambleState A\nEnd\n").message.contains("pieces from 1"));
        assert!(line("Scramble\nEnd\n").message.contains("not a scramble block"));
        assert!(line("# nothing\n").message.contains("no scramble"));
    }
}
