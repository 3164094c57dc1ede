//! The committed `reports/` folder must be what `analyze --all` writes today
//! (`scripts/reports.sh` regenerates it), byte for byte: what varies from run to run (the
//! wall time, the threads) is in each folder's `run.json`, which git ignores. So the
//! README's first command, `analyze --puzzle eight`, leaves a clone clean. The `--all` run
//! compared is `cli`'s (one run of the default searches, checked there and here).

use crate::util::{Sandbox, report_files};
use std::fs;
use std::path::Path;

/// Every file of `fresh` but `run.json` is in `committed` with the same bytes, and
/// `committed` holds no other file: replacing it with `fresh` changes nothing git sees.
fn assert_same_folder(committed: &Path, fresh: &Path) {
    let names = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .filter(|name| name != "run.json")
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        names(committed),
        names(fresh),
        "{} is stale: run scripts/reports.sh",
        committed.display()
    );
    for name in names(fresh) {
        let (old, new) = (committed.join(&name), fresh.join(&name));
        if new.is_dir() {
            continue;
        }
        let same = fs::read(&old).ok() == fs::read(&new).ok();
        assert!(same, "{} is stale: run scripts/reports.sh", old.display());
    }
}

/// `fresh`, the output of `analyze --all`, is the committed `reports/` folder: every
/// puzzle folder and the index, byte for byte. Called by the test that runs `--all` (one
/// run checked twice, not two runs of the biggest default searches).
pub fn assert_committed(fresh: &Path) {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    assert_same_folder(&committed, fresh);
    for entry in fs::read_dir(fresh).expect("fresh output") {
        let entry = entry.expect("entry");
        if entry.path().is_dir() {
            assert_same_folder(&committed.join(entry.file_name()), &entry.path());
        }
    }
}

#[test]
fn the_first_command_of_the_readme_rewrites_nothing_committed() {
    // `cargo run --release -- --puzzle eight` writes reports/eight: exactly what is committed
    // (the A* table included), its run.json aside.
    let sandbox = Sandbox::new();
    sandbox.run(&["--puzzle", "eight", "--quiet"]).success();
    assert_eq!(sandbox.list("reports/eight"), report_files("eight"));
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/eight");
    assert_same_folder(&committed, &sandbox.path("reports/eight"));
}
