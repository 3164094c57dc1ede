#!/usr/bin/env bash
# reports.sh - regenerate the committed reports/ folder from scratch:
# every puzzle at its default size plus a few generalisations (`analyze --all`).
# tests/committed_reports.rs checks that the committed tables equal a fresh run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rm -rf reports
./target/release/analyze --all --out reports --quiet
