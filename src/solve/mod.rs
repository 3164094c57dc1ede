//! Shortest solutions of single positions (`--solve`).

use crate::job::Spec;
use anyhow::Result;
use std::io::Write;

/// Solves each of `states` for `spec` and prints one block each, then a summary table.
pub fn run(spec: &Spec, states: &[String], threads: usize, quiet: bool, out: &mut impl Write) -> Result<()> {
    let _ = (spec, states, threads, quiet, out);
    anyhow::bail!("--solve is not available yet")
}
