//! Small helpers every layer uses: number and size formatting, quoting user text in
//! messages, and exact counting. A leaf module: it imports nothing from the crate, so any
//! layer may use it without pulling a higher layer in.

/// Bits per storage word of the engine's bit sets; the frontier hands puzzles words of this
/// many ranks, and process slices start on multiples of it.
pub const WORD_BITS: u64 = 64;

/// `1234567` as `1,234,567`.
pub fn thousands(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `bytes` in the largest binary unit that keeps it above 1, e.g. `85.6 MiB`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if bytes == 1 {
        "1 byte".into()
    } else if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// `text` in backticks for an error message: at most its first 40 characters (then how
/// long it is), control characters shown as spaces, so the message stays one short line
/// whatever was typed.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let clean = |c: char| if c.is_control() { ' ' } else { c };
    let length = text.chars().count();
    if length <= MAX {
        format!("`{}`", text.chars().map(clean).collect::<String>())
    } else {
        let start: String = text.chars().take(MAX).map(clean).collect();
        format!("`{start}...` ({} characters)", thousands(length as u64))
    }
}

/// `text` as part of a file name: each run of characters other than ASCII letters and
/// digits becomes one `-` (`1 2 3` -> `1-2-3`, `1 2, 0 1 / 3` -> `1-2-0-1-3`).
pub fn slug(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// What a report id gets for a goal other than the puzzle's own: `-goal-` and the goal as
/// written, made a [`slug`] (`1 2 3 0` -> `-goal-1-2-3-0`).
pub fn goal_suffix(goal: &str) -> String {
    format!("-goal-{}", slug(goal))
}

/// `n!`, exact for `n <= 20` (the callers stay at or below 16).
pub fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// `n` choose `r` (0 where `r > n`), exact for `n <= 62`.
pub fn binomial(n: u32, r: u32) -> u64 {
    if r > n {
        return 0;
    }
    let r = r.min(n - r);
    // Each partial product C(n-r+i, i) is an integer, so the division is exact.
    (1..=u64::from(r)).fold(1u64, |acc, i| acc * (u64::from(n - r) + i) / i)
}

/// Opens (creating) the lock file `path` and takes its lock without waiting: `None` when
/// another run holds it. The system releases the lock when the file is closed or the
/// process ends, however it ends.
pub fn try_lock_file(path: &std::path::Path) -> std::io::Result<Option<std::fs::File>> {
    let file = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_counts_and_sizes() {
        assert_eq!(thousands(1_234_567u64), "1,234,567");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(human_bytes(1), "1 byte");
        assert_eq!(human_bytes(1023), "1023 bytes");
        assert_eq!(human_bytes(60 << 20), "60.0 MiB");
    }

    #[test]
    fn slugs_name_files() {
        assert_eq!(slug("1 2 3 4 0 5 6 7 8"), "1-2-3-4-0-5-6-7-8");
        assert_eq!(slug("HTTH"), "HTTH");
        assert_eq!(slug("1 2, 0 1 / 3"), "1-2-0-1-3");
    }

    #[test]
    fn counts_exactly() {
        assert_eq!(factorial(12), 479_001_600);
        assert_eq!(binomial(60, 30), 118_264_581_564_861_424);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn quotes_long_text_on_one_line() {
        assert_eq!(quote("a\nb"), "`a b`");
        assert!(quote(&"x".repeat(50)).ends_with("(50 characters)"));
    }
}
