//! Every parser that reads user input must return a value or an error, never panic:
//! the command line, and each puzzle's notation for `--solve`.
#![no_main]

use analyze::cli::Cli;
use analyze::job::Spec;
use analyze::puzzle::Puzzle;
use clap::Parser;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The command line: words of the input as arguments.
    if let Ok(cli) = Cli::try_parse_from(std::iter::once("analyze").chain(text.split_whitespace())) {
        // No file is read: a hostfile or rules file it names is missing.
        let _ = cli.into_command(Some(1 << 34), &|_| Err(std::io::ErrorKind::NotFound.into()));
    }
    // Rules files.
    let _ = analyze::puzzle::rules::parse_rules(text);
    // Each puzzle's notation; whatever parses must render back to the same rank.
    for spec in [
        Spec::Eight,
        Spec::Sliding { rows: 2, cols: 3 },
        Spec::NineTails { rows: 3, cols: 3 },
        Spec::LightsOut { rows: 4, cols: 3 },
        Spec::CoinLines { size: 3 },
        Spec::FlipK { coins: 7, flip: 5 },
    ] {
        let Some(puzzle) = spec.build() else { continue };
        analyze::with_puzzle!(&puzzle, p => {
            if let Ok(rank) = p.parse(text) {
                assert!(rank < p.states());
                assert_eq!(p.parse(&p.render(rank)), Ok(rank));
            }
        });
    }
});
