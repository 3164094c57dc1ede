//! What `--help` and the manual page say beyond the options: the inputs, examples, the
//! environment and the exit statuses, written once as sections that `--help` prints after
//! the options and `--man` renders as sections of their own.

/// The sections, by title: each a list of lines, as `--help` prints them.
pub const SECTIONS: [(&str, &[&str]); 4] = [
    (
        "INPUTS",
        &[
            "--puzzle NAME      a built-in puzzle (--list describes each): eight, sliding, nine-tails,",
            "                   weighted-nine-tails, lights-out, coin-lines, flip-k",
            "--rules FILE.toml  a coin puzzle described in a TOML rules file (board, goals, moves)",
            "--rules FILE.tws   a permutation puzzle in the twsearch/ksolve definition format (also",
            "                   .ksolve, or any file whose first keyword is Name or Set): pocket cube,",
            "                   pancakes, Top Spin, pyraminx ...; --metric face (default) or quarter",
            "STATE              a state: tiles row by row, 0 for the blank (\"8 1 3 4 0 2 7 6 5\"),",
            "                   coins as an H/T string (HHHTTTHHH), a definition's lines (/ between",
            "                   sets) or moves from its solved state (\"R U R' U'\"); for sliding boards",
            "                   also a data file (a line `n` or `rows cols`, then the tiles row by row)",
        ],
    ),
    (
        "EXAMPLES",
        &[
            "analyze --puzzle eight                      reports/eight/: tables, charts, report.md",
            "analyze --puzzle sliding --rows 3 --cols 4  239,500,800 states, a few seconds",
            "analyze --rules examples/pocket-cube-held.tws --metric quarter",
            "analyze --rules examples/pancakes-10.tws --solve \"flip10 flip3\"",
            "analyze --rules examples/merlins-magic-square.toml --solve HTHTHTHTH",
            "analyze --puzzle eight --solve \"8 6 7 2 5 4 3 0 1\" --json",
            "analyze --puzzle eight --sample 20 5        five states 20 moves from the goal",
            "analyze --all --out reports                 every puzzle, with an index",
        ],
    ),
    (
        "ENVIRONMENT",
        &[
            "ANALYZE_CACHE_DIR  the solver's cache folder (distance tables, pattern databases)",
            "XDG_CACHE_HOME     without ANALYZE_CACHE_DIR, the cache is $XDG_CACHE_HOME/analyze",
            "HOME               without either, the cache is $HOME/.cache/analyze",
        ],
    ),
    (
        "EXIT STATUS",
        &[
            "0    success, including a --solve state found unsolvable and a closed stdout",
            "1    the run failed: a folder or stdout could not be written, memory could not be",
            "     allocated, a table could not be built, a process of a shared search was lost",
            "2    bad command line or input: one line on stderr says what is wrong and what is",
            "     accepted; nothing is written",
            "130  interrupted by Ctrl-C or SIGTERM; no partial report is left",
        ],
    ),
];

/// The sections as `--help` prints them after the options.
pub fn after_help() -> String {
    SECTIONS
        .iter()
        .map(|(title, lines)| {
            let mut heading = title.to_lowercase();
            heading[..1].make_ascii_uppercase();
            let body: Vec<String> = lines.iter().map(|line| format!("  {line}")).collect();
            format!("{heading}:\n{}", body.join("\n"))
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The sections in roff, for the manual page: each line kept as it is (no filling).
pub fn man_sections() -> String {
    let mut roff = String::new();
    for (title, lines) in SECTIONS {
        roff.push_str(&format!(".SH \"{title}\"\n.nf\n"));
        for line in lines {
            roff.push_str(&roff_line(line));
            roff.push('\n');
        }
        roff.push_str(".fi\n");
    }
    roff
}

/// A line of text as roff reads it literally: backslashes and hyphens escaped, and a
/// line starting with `.` or `'` not taken for a request.
fn roff_line(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_names_every_section_and_the_man_page_has_them_as_sections() {
        let help = after_help();
        let man = man_sections();
        for (title, _) in SECTIONS {
            assert!(man.contains(&format!(".SH \"{title}\"")), "{man}");
        }
        assert!(help.starts_with("Inputs:\n  --puzzle NAME"), "{help}");
        assert!(help.contains("\n\nExit status:\n  0 "), "{help}");
    }

    #[test]
    fn roff_lines_are_taken_literally() {
        assert_eq!(roff_line("--rules a\\b"), "\\-\\-rules a\\eb");
        assert_eq!(roff_line(".ksolve"), "\\&.ksolve");
    }
}
