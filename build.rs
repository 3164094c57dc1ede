//! Records the git commit the binary is built from, for `run.json`: a figure a researcher
//! cites should name the exact code that computed it. Outside a git checkout (a crate
//! package, a tarball) the commit is `not a git checkout`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    // Built again when HEAD moves: a commit, a checkout, a branch's new commit.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let (Some(reference), Some(common)) = (
            git(&["symbolic-ref", "-q", "HEAD"]),
            git(&["rev-parse", "--git-common-dir"]),
        ) {
            println!("cargo:rerun-if-changed={common}/{reference}");
        }
    } else {
        println!("cargo:rerun-if-changed=build.rs");
    }
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "not a git checkout".into());
    println!("cargo:rustc-env=ANALYZE_COMMIT={commit}");
}
