//! Every parser that reads user input must return a value or an error, never panic: the
//! command line, rules and definition files (`.tws`, KPuzzle JSON) as the registry reads
//! them, a `--disk` folder's manifest, move sequences, scramble files, `--goal`, and each
//! puzzle's notation for `--solve`.
#![no_main]

use analyze::cli::Cli;
use analyze::puzzle::coin_lines::coin_lines;
use analyze::puzzle::family::SizeArgs;
use analyze::puzzle::flip_k::FlipK;
use analyze::puzzle::lights_out::lights_out;
use analyze::puzzle::nine_tails::nine_tails;
use analyze::puzzle::perm;
use analyze::puzzle::prelude::*;
use analyze::puzzle::sliding::Sliding;
use analyze::registry;
use clap::Parser;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// Whatever `puzzle` accepts is a rank that renders back to text it reads as the same rank.
fn round_trip<P: Puzzle>(puzzle: &P, text: &str) {
    if let Ok(rank) = puzzle.parse(text) {
        assert!(rank < puzzle.states(), "{}: {text:?} gave rank {rank}", puzzle.id());
        assert_eq!(puzzle.parse(&puzzle.render(rank)), Ok(rank), "{}: {text:?}", puzzle.id());
    }
}

fuzz_target!(|data: &[u8]| {
    // Any bytes, as `--rules` reads a definition (a byte-order mark dropped, else Latin-1).
    let _ = analyze::puzzle::perm::parse_definition(&analyze::cli::rules_text(data.to_vec()));
    // Any bytes, as a resumed `--disk` search reads its folder's manifest.json.
    let _ = analyze::engine::disk::parse_manifest(data);
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The command line: words of the input as arguments. No file is read: a hostfile or
    // rules file it names is missing.
    if let Ok(cli) = Cli::try_parse_from(std::iter::once("analyze").chain(text.split_whitespace())) {
        let _ = cli.into_command(Some(1 << 34), &|_| Err(std::io::ErrorKind::NotFound.into()));
    }
    // Rules and definition files, as `--rules` reads them (by extension, then by their
    // first line), and the rules parser itself.
    let args = SizeArgs::default();
    // The same text again with `--moves` choosing its first words, as a definition's moves.
    let chosen = SizeArgs {
        moves: Some(text.split_whitespace().take(3).collect::<Vec<_>>().join(",")),
        ..SizeArgs::default()
    };
    for name in ["rules.toml", "cube.tws", "cube.kpuzzle.json", "rules"] {
        let path = Path::new(name);
        if let Some(family) = registry::for_file(path, text) {
            let _ = family.read(path, text, &args);
            let _ = family.read(path, text, &chosen);
        }
    }
    let _ = analyze::puzzle::rules::parse_rules(text);
    // KPuzzle definitions, move sequences and twsearch scramble files.
    let _ = perm::kpuzzle::parse_kpuzzle(text);
    let _ = perm::sequence::parse(text, &["R", "U", "R2", "flip1", "flip10"]);
    let _ = perm::scramble::read_scrambles(text);
    // `--goal` on every family at its default size.
    for family in registry::FAMILIES.iter().filter(|f| f.about().is_some()) {
        if let Ok(job) = family.choose(&args) {
            let _ = job.with_goal(text);
        }
    }
    // Each puzzle's notation, as `--solve` reads it.
    round_trip(&Sliding::eight(), text);
    if let Some(board) = Sliding::new(2, 3) {
        round_trip(&board, text);
    }
    round_trip(&nine_tails(3, 3), text);
    round_trip(&lights_out(4, 3), text);
    round_trip(&coin_lines(3), text);
    round_trip(&FlipK::new(7, 5), text);
    // A permutation puzzle's positions and move sequences (`[M: N2]`, `(M N)3'`), with
    // every orientation known and with the first piece's open (`?`).
    let moves = "Move M\nA\n2 3 1 4\n1 0 0 0\nEnd\nMove N\nA\n1 2 4 3\nEnd\n";
    for solved in ["", "Solved\nA\n1 2 3 4\n? 0 0 0\nEnd\n"] {
        let tiny = format!("Set A 4 3\n{solved}{moves}");
        if let Ok(puzzle) = perm::PermPuzzle::from_text(&tiny, "tiny", perm::Metric::Face) {
            round_trip(&puzzle, text);
        }
    }
});
