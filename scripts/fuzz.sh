#!/usr/bin/env bash
# fuzz.sh - fuzz the command-line and notation parsers for a bounded time.
# usage: scripts/fuzz.sh [SECONDS]   (default 60)
# Starts from the hand-written inputs in tests/fuzz/seeds/. Installs cargo-fuzz if missing.
# libFuzzer needs nightly compiler flags; on a stable toolchain RUSTC_BOOTSTRAP=1 unlocks
# them. Crashes are saved under tests/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../tests/fuzz"
seconds=${1:-60}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# New inputs go to corpus/parsers (not committed); seeds/ holds hand-written hostile inputs.
mkdir -p corpus/parsers
RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir . parsers corpus/parsers seeds -- -max_total_time="$seconds"
