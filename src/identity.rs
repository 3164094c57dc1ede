//! A search's identity: one 128-bit hash of everything that decides its result, so that
//! two things meant to be one search (the processes of a `--hosts` run, a checkpoint and
//! its resume, a cached table and the puzzle asking for it) can never be two.
//!
//! An identity is built from named parts, each a canonical text (`family`, `size`,
//! `moves`, `goal`, ...): the family and its size options, the canonical content of a
//! rules or definition file (never its comments, layout or line numbers), the goal, and
//! the options that change the output. Each part is hashed on its own, so that a mismatch
//! can say *what* differs (`moves`) without either side sending the texts themselves;
//! the whole identity is the hash of the parts' names and hashes, in order.
//!
//! SHA-256 truncated to 128 bits: a collision by accident is out of the question, and
//! one made on purpose would need a second file crafted against a first one's hash, far
//! beyond anyone's means.

use sha2::{Digest, Sha256};
use std::fmt;

/// Bytes of a hash (128 bits).
pub const BYTES: usize = 16;

/// Longest part name, in bytes (they are short words chosen by the code).
const MAX_NAME: usize = 32;

/// Most parts an identity has (a wire form claiming more is refused).
const MAX_PARTS: usize = 32;

/// The identity of one search: named parts, each hashed, and their hash.
#[derive(Clone, PartialEq, Eq)]
pub struct Identity {
    parts: Vec<(String, [u8; BYTES])>,
}

impl Identity {
    /// The identity of `parts`, each a name and its canonical text, in a fixed order.
    pub fn new<N: AsRef<str>, T: AsRef<str>>(parts: impl IntoIterator<Item = (N, T)>) -> Self {
        let mut identity = Identity { parts: Vec::new() };
        for (name, text) in parts {
            identity = identity.with(name.as_ref(), text.as_ref());
        }
        identity
    }

    /// This identity with one more part (an option that changes the output, say).
    pub fn with(mut self, name: &str, text: &str) -> Self {
        self.parts.push((name.to_string(), hash(&[text.as_bytes()])));
        self
    }

    /// The hash of the whole: every part's name and hash, in order.
    pub fn hash(&self) -> [u8; BYTES] {
        let mut pieces: Vec<&[u8]> = Vec::new();
        for (name, part) in &self.parts {
            pieces.push(name.as_bytes());
            pieces.push(part);
        }
        hash(&pieces)
    }

    /// The whole hash in hexadecimal (32 digits).
    pub fn hex(&self) -> String {
        hex(&self.hash())
    }

    /// The first 12 hexadecimal digits of the hash: enough to tell a file apart in a
    /// folder by its name (the file itself carries the whole hash).
    pub fn short(&self) -> String {
        self.hex()[..12].to_string()
    }

    /// The parts whose hash differs from `other`'s, by name, in order; a part only one
    /// side has counts as differing. Empty exactly when the identities are equal.
    pub fn differences(&self, other: &Identity) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for (name, part) in &self.parts {
            if other.part(name) != Some(part) {
                names.push(name.clone());
            }
        }
        for (name, _) in &other.parts {
            if self.part(name).is_none() && !names.contains(name) {
                names.push(name.clone());
            }
        }
        names
    }

    fn part(&self, name: &str) -> Option<&[u8; BYTES]> {
        self.parts.iter().find(|(n, _)| n == name).map(|(_, p)| p)
    }

    /// The identity as bytes, for a greeting or a file header: the count of parts, then
    /// each name's length, name and hash.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = vec![self.parts.len() as u8];
        for (name, part) in &self.parts {
            bytes.push(name.len() as u8);
            bytes.extend(name.as_bytes());
            bytes.extend(part);
        }
        bytes
    }

    /// Reads [`Identity::to_bytes`]'s form from the start of `bytes`; returns the identity
    /// and the bytes it took, or why the bytes are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<(Identity, usize), String> {
        let short = || "a search identity cut short".to_string();
        let count = usize::from(*bytes.first().ok_or_else(short)?);
        if count > MAX_PARTS {
            return Err(format!("a search identity of {count} parts (at most {MAX_PARTS})"));
        }
        let mut at = 1;
        let mut parts = Vec::with_capacity(count);
        for _ in 0..count {
            let len = usize::from(*bytes.get(at).ok_or_else(short)?);
            let name = bytes.get(at + 1..at + 1 + len).ok_or_else(short)?;
            let name = std::str::from_utf8(name)
                .ok()
                .filter(|n| len <= MAX_NAME && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                .ok_or("a search identity with an unreadable part name")?;
            at += 1 + len;
            let part: [u8; BYTES] = bytes
                .get(at..at + BYTES)
                .and_then(|p| p.try_into().ok())
                .ok_or_else(short)?;
            at += BYTES;
            parts.push((name.to_string(), part));
        }
        Ok((Identity { parts }, at))
    }
}

impl Identity {
    /// The identity as one word of text (the hexadecimal of [`Identity::to_bytes`]), for a
    /// description that travels as text, such as the processes' greeting.
    pub fn encode(&self) -> String {
        hex(&self.to_bytes())
    }

    /// Reads [`Identity::encode`]'s word.
    pub fn decode(text: &str) -> Result<Identity, String> {
        let bad = || "not a search identity".to_string();
        if text.len() % 2 != 0 || !text.is_ascii() {
            return Err(bad());
        }
        let bytes = (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|_| bad()))
            .collect::<Result<Vec<u8>, String>>()?;
        match Identity::from_bytes(&bytes)? {
            (identity, used) if used == bytes.len() => Ok(identity),
            _ => Err(bad()),
        }
    }
}

/// The parts named by [`Identity::differences`] in words, for a message:
/// `the moves, the goal (--goal)`.
pub fn describe(parts: &[String]) -> String {
    let word = |part: &str| match part {
        "family" => "the puzzle family".to_string(),
        "id" => "the puzzle (its id)".to_string(),
        "size" => "the size options".to_string(),
        "board" => "the board".to_string(),
        "moves" => "the moves".to_string(),
        "goals" => "the goals".to_string(),
        "goal" => "the goal (--goal)".to_string(),
        "metric" => "the metric".to_string(),
        "text" => "the title or rules text".to_string(),
        "name" => "the definition's Name".to_string(),
        "sets" => "the sets of pieces".to_string(),
        "solved" => "the solved state".to_string(),
        "heuristics" => "--heuristics".to_string(),
        "ranking" => "how states are numbered (another version of analyze?)".to_string(),
        other => format!("`{other}`"),
    };
    parts.iter().map(|p| word(p)).collect::<Vec<_>>().join(", ")
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({}:", self.short())?;
        for (name, _) in &self.parts {
            write!(f, " {name}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Identity {
    /// The whole hash in hexadecimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

/// SHA-256 of the pieces, each preceded by its length (so no two lists of pieces hash
/// alike by their concatenation), truncated to [`BYTES`].
fn hash(pieces: &[&[u8]]) -> [u8; BYTES] {
    let mut sha = Sha256::new();
    for piece in pieces {
        sha.update((piece.len() as u64).to_le_bytes());
        sha.update(piece);
    }
    let digest = sha.finalize();
    let mut out = [0; BYTES];
    out.copy_from_slice(&digest[..BYTES]);
    out
}

/// Lower-case hexadecimal digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_give_equal_identities_and_any_change_is_named() {
        let a = Identity::new([("family", "rules"), ("moves", "A B"), ("goal", "")]);
        let b = Identity::new([("family", "rules"), ("moves", "A B"), ("goal", "")]);
        assert_eq!(a, b);
        assert_eq!(a.hex(), b.hex());
        assert!(a.differences(&b).is_empty());
        let c = Identity::new([("family", "rules"), ("moves", "A C"), ("goal", "")]);
        assert_ne!(a.hex(), c.hex());
        assert_eq!(a.differences(&c), ["moves"]);
        let d = a.clone().with("heuristics", "on");
        assert_eq!(a.differences(&d), ["heuristics"]);
        assert_eq!(d.differences(&a), ["heuristics"]);
    }

    #[test]
    fn parts_do_not_run_into_each_other() {
        let a = Identity::new([("moves", "ab"), ("goal", "c")]);
        let b = Identity::new([("moves", "a"), ("goal", "bc")]);
        assert_ne!(a.hex(), b.hex());
    }

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let a = Identity::new([("family", "perm"), ("solved", "x")]).with("heuristics", "off");
        let mut bytes = a.to_bytes();
        bytes.extend(b"tail");
        let (b, used) = Identity::from_bytes(&bytes).expect("its own bytes");
        assert_eq!(a, b);
        assert_eq!(&bytes[used..], b"tail");
        for cut in 0..used {
            assert!(Identity::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(Identity::from_bytes(&[200]).is_err());
        assert_eq!(Identity::decode(&a.encode()), Ok(a.clone()));
        for bad in ["", "0", "zz", &a.encode()[2..], &format!("{}00", a.encode())] {
            assert!(Identity::decode(bad).is_err(), "{bad}");
        }
        assert!(Identity::from_bytes(&[1, 3, 0x1b, b'[', b'm']).is_err());
    }
}
