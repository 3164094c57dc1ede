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

/// The `index`-th of the subsets of `k` of the items `0..n` (`index` below `binomial(n,
/// k)`), as a mask of `n` bits: the combinatorial number system, each element the largest
/// `c` below the previous with `binomial(c, i) <= index`.
pub fn subset(n: u32, k: u32, mut index: u64) -> u64 {
    let (mut mask, mut c) = (0u64, n);
    for i in (1..=k).rev() {
        c -= 1;
        while binomial(c, i) > index {
            c -= 1;
        }
        mask |= 1 << c;
        index -= binomial(c, i);
    }
    mask
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

/// Text read from a file (a scramble's name, a cache file's name, a set or move name), fit
/// for the terminal: control characters, escape sequences among them (colours, a window
/// title), and the characters that reorder text (bidirectional controls) shown escaped as
/// `\u{1b}`, never sent; the rest as written.
pub fn terminal_text(text: &str) -> String {
    let reorders = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    text.chars()
        .map(|c| {
            if c.is_control() || reorders(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Text from a user's file as Markdown that shows it as written: HTML's and Markdown's
/// marks escaped (`<script>` stays text, `# x` no heading), a line break a space, and
/// control characters shown escaped as the terminal shows them.
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '*' | '_' | '`' | '[' | ']' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push_str(&terminal_text(c.encode_utf8(&mut [0; 4]))),
        }
    }
    out
}

/// How much of a text a peer sent is shown.
const SHOWN: usize = 80;

/// Text a peer sent, fit for one line of stderr: control and other unprintable characters
/// escaped (`\n`, `\u{1b}`), and cut after [`SHOWN`] characters with `...`.
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\'' | '"' => out.push(c),
            _ => out.extend(c.escape_debug()),
        }
        if out.chars().nth(SHOWN).is_some() {
            out = out.chars().take(SHOWN).collect();
            out.push_str("...");
            break;
        }
    }
    out
}

/// `time` as `YYYY-MM-DD HH:MM` in UTC.
pub fn utc_minute(time: std::time::SystemTime) -> String {
    let (year, month, day, hour, minute, _) = utc(time);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}")
}

/// `time` as ISO 8601 in UTC to the second, `YYYY-MM-DDTHH:MM:SSZ` (`run.json`'s dates).
pub fn utc_iso(time: std::time::SystemTime) -> String {
    let (year, month, day, hour, minute, second) = utc(time);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
}

/// `time`'s UTC calendar date and time of day.
fn utc(time: std::time::SystemTime) -> (i64, u32, u32, i64, i64, i64) {
    let seconds = match time.duration_since(std::time::SystemTime::UNIX_EPOCH) {
        Ok(since) => since.as_secs() as i64,
        Err(before) => -(before.duration().as_secs() as i64),
    };
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    (year, month, day, rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`: eras of 400 years, years starting in March so the leap day is last).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Bytes free to an unprivileged user on the file system holding `path`, if known.
pub fn free_space(path: &std::path::Path) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let stat = rustix::fs::statvfs(path).ok()?;
        Some(stat.f_bavail.saturating_mul(stat.f_frsize))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
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
    fn subsets_are_numbered_one_to_one() {
        let masks: std::collections::BTreeSet<u64> = (0..binomial(7, 3)).map(|i| subset(7, 3, i)).collect();
        assert_eq!(masks.len(), 35);
        assert!(masks.iter().all(|m| m.count_ones() == 3 && *m < 1 << 7));
        assert_eq!(subset(60, 60, 0), (1 << 60) - 1);
        assert_eq!(subset(5, 0, 0), 0);
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

    #[test]
    fn peer_text_is_shown_escaped_on_one_short_line() {
        assert_eq!(
            shown("analyze 1.0 eight over a:1 b:2"),
            "analyze 1.0 eight over a:1 b:2"
        );
        assert_eq!(
            shown("a\nerror: fake\u{1b}[31m\u{202e}"),
            "a\\nerror: fake\\u{1b}[31m\\u{202e}"
        );
        let long = shown(&"\u{7}".repeat(1 << 16));
        assert_eq!(long, format!("{}...", "\\u{7}".repeat(16)));
        assert_eq!(shown(&"x".repeat(80)), "x".repeat(80));
        assert_eq!(shown(&"x".repeat(81)), format!("{}...", "x".repeat(80)));
    }

    #[test]
    fn text_from_files_shows_its_marks_and_never_sends_a_control() {
        assert_eq!(
            terminal_text("a\u{1b}]0;owned\u{7}b\u{202e}c é"),
            "a\\u{1b}]0;owned\\u{7}b\\u{202e}c é"
        );
        assert_eq!(
            markdown_text("<script>x</script>\n# h *b* \u{1b}[31m"),
            "&lt;script&gt;x&lt;/script&gt; \\# h \\*b\\* \\u{1b}\\[31m"
        );
    }

    #[test]
    fn dates_are_utc_calendar_minutes() {
        use std::time::{Duration, SystemTime};
        let at = |s: u64| utc_minute(SystemTime::UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01 00:00");
        assert_eq!(at(951_782_400), "2000-02-29 00:00");
        assert_eq!(at(1_795_603_800), "2026-11-25 10:50");
        assert_eq!(at(4_107_542_399), "2100-02-28 23:59");
        let iso = |s: u64| utc_iso(SystemTime::UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(iso(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(iso(1_795_603_807), "2026-11-25T10:50:07Z");
    }
}
