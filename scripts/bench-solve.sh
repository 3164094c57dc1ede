#!/usr/bin/env bash
# bench-solve.sh - time `analyze --solve` on known positions and print a markdown table.
#
# Builds target/release/analyze (cargo build --release), makes sure the 4x4 pattern
# databases and the 8-puzzle distance table are in the cache (building them once if
# needed, timed on its own line), then solves each position in its own run and prints
# one row per position: board, position, moves found, moves expected, the wall time of
# the whole command (process start, cache load and search), and for the heuristic search
# the positions it expanded and, for runs of a second or more, how many per second of
# that wall time. Progress goes to stderr.
#
# Positions: the two hardest 8-puzzle positions (31 moves); Korf's random 15-puzzle
# instances 16, 12, 9, 19, 8 and 1 (42 to 57 moves), turned to this tool's goal
# (1 2 ... 15 0) by a half turn and relabelling tile t as 16 - t; and the two 80-move
# positions of Bruengger et al. (the hardest 4x4 positions), unless BENCH_SKIP_HARD=1.
#
# With BENCH_KORF=1 it instead solves all of Korf's 100 instances (examples/korf100.txt,
# converted the same way) in one command, checks each length against the published one,
# and prints one row per instance and the totals: wall time of the whole command, the
# positions expanded, and the mean per instance.
#
# usage: scripts/bench-solve.sh
#
# environment:
#   BENCH_NO_BUILD=1       skip `cargo build --release`, use the existing binary
#   BENCH_BIN=PATH         binary to time instead of target/release/analyze
#   BENCH_TIMEOUT=S        time limit for one position in seconds (default 1800)
#   BENCH_THREADS=N        --threads for every run (default: one per core)
#   BENCH_SKIP_HARD=1      leave out the 80-move positions
#   BENCH_PDB=663|78       --pdb for the 4x4 runs (default: the tool's default, 7-8 once
#                          built); with 78 the cache step builds the 7-8 tables if needed
#   BENCH_KORF=1           Korf's 100 instances instead of the table above
#   ANALYZE_CACHE_DIR=DIR  the cache folder (default $XDG_CACHE_HOME/analyze or
#                          ~/.cache/analyze)

set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BENCH_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/analyze}
TIMEOUT=${BENCH_TIMEOUT:-1800}
THREADS=()
if [[ -n ${BENCH_THREADS:-} ]]; then
    THREADS=(--threads "$BENCH_THREADS")
fi
PDB=()
if [[ -n ${BENCH_PDB:-} ]]; then
    PDB=(--pdb "$BENCH_PDB")
fi

if [[ ${BENCH_NO_BUILD:-0} != 1 ]]; then
    echo "building release binary..." >&2
    (cd "$ROOT" && cargo build --release --quiet)
fi
[[ -x $BIN ]] || { echo "no binary at $BIN" >&2; exit 1; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# Fill the cache first so that the rows time solving, not one-time builds.
start=$(now)
"$BIN" "${THREADS[@]}" "${PDB[@]}" --puzzle sliding --rows 4 --cols 4 --solve "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0" >/dev/null
"$BIN" "${THREADS[@]}" --quiet --puzzle eight --solve "1 2 3 4 5 6 7 8 0" >/dev/null
echo "cache ready in $(elapsed "$start" "$(now)") s (4x4 pattern databases, 8-puzzle table)" >&2

# Korf's instance (blank-first goal) in this tool's notation: a half turn, t -> 16 - t.
korf_to_ours() {
    local out=() i t
    local cells=("$@")
    for ((i = 15; i >= 0; i--)); do
        t=${cells[i]}
        if ((t == 0)); then out+=(0); else out+=($((16 - t))); fi
    done
    echo "${out[*]}"
}

if [[ ${BENCH_KORF:-0} == 1 ]]; then
    positions=() expected=() numbers=()
    while read -r number length rest; do
        [[ -z $number || $number == \#* ]] && continue
        read -ra cells <<<"$rest"
        numbers+=("$number") expected+=("$length")
        positions+=("$(korf_to_ours "${cells[@]}")")
    done <"$ROOT/examples/korf100.txt"
    errors=$(mktemp)
    trap 'rm -f "$errors"' EXIT
    echo "solving Korf's ${#positions[@]} instances in one command ..." >&2
    start=$(now)
    "$BIN" "${THREADS[@]}" "${PDB[@]}" --puzzle sliding --rows 4 --cols 4 --solve "${positions[@]}" >/dev/null 2>"$errors"
    seconds=$(elapsed "$start" "$(now)")
    echo "| instance | moves | published | positions | seconds |"
    echo "|---:|---:|---:|---:|---:|"
    total_nodes=0 wrong=0
    for i in "${!positions[@]}"; do
        # The search's note on stderr: `POSITION: N moves, P positions searched, S s`.
        line=$(awk -v p="${positions[i]}: " 'index($0, p) == 1 && /positions searched/' "$errors" | head -1)
        moves=$(sed -n 's/.*: \([0-9][0-9]*\) moves, .*/\1/p' <<<"$line")
        nodes=$(sed -n 's/.* \([0-9][0-9]*\) positions searched.*/\1/p' <<<"$line")
        secs=$(sed -n 's/.*positions searched, \([0-9.]*\) s.*/\1/p' <<<"$line")
        [[ $moves == "${expected[i]}" ]] || wrong=$((wrong + 1))
        total_nodes=$((total_nodes + ${nodes:-0}))
        echo "| ${numbers[i]} | $moves | ${expected[i]} | $nodes | $secs |"
    done
    echo
    echo "all ${#positions[@]} instances: $seconds s for the whole command ($(awk -v s="$seconds" -v n="${#positions[@]}" 'BEGIN { printf "%.3f", s / n }') s each on average), $total_nodes positions expanded, $wrong lengths differing from the published ones"
    exit $((wrong > 0))
fi

# board|position|expected moves
CASES=(
    "eight|8 6 7 2 5 4 3 0 1|31"
    "eight|6 4 7 8 5 0 3 2 1|31"
    "4x4|0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15|42"
    "4x4|1 3 5 6 0 13 14 9 11 4 8 12 10 7 15 2|45"
    "4x4|0 1 15 6 9 10 4 3 14 8 12 11 5 7 2 13|46"
    "4x4|6 14 4 11 7 3 12 15 1 10 0 2 13 8 5 9|46"
    "4x4|9 6 15 2 11 7 3 10 14 12 0 8 13 1 5 4|50"
    "4x4|13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2|57"
)
if [[ ${BENCH_SKIP_HARD:-0} != 1 ]]; then
    CASES+=(
        "4x4|0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1|80"
        "4x4|0 12 10 13 15 11 14 9 3 7 2 5 4 8 6 1|80"
    )
fi

errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

echo "| board | position | moves | expected | seconds | positions | M positions/s |"
echo "|---|---|---:|---:|---:|---:|---:|"
for case in "${CASES[@]}"; do
    IFS='|' read -r board position expected <<<"$case"
    if [[ $board == eight ]]; then
        args=(--puzzle eight)
    else
        args=("${PDB[@]}" --puzzle sliding --rows 4 --cols 4)
    fi
    echo "solving $board $position ..." >&2
    start=$(now)
    nodes="" rate=""
    if output=$(timeout "$TIMEOUT" "$BIN" "${THREADS[@]}" "${args[@]}" --solve "$position" 2>"$errors"); then
        seconds=$(elapsed "$start" "$(now)")
        moves=${output%% *}
        # The search's note on stderr: `...: N moves, P positions searched, S s`.
        nodes=$(sed -n 's/.* \([0-9][0-9]*\) positions searched.*/\1/p' "$errors")
        # Rates of runs under a second would mostly measure process start and loading.
        if [[ -n $nodes ]] && awk -v s="$seconds" 'BEGIN { exit !(s >= 1) }'; then
            rate=$(awk -v n="$nodes" -v s="$seconds" 'BEGIN { printf "%.1f", n / s / 1e6 }')
        fi
    else
        seconds="> $TIMEOUT"
        moves="n/a"
    fi
    cat "$errors" >&2
    echo "| $board | \`$position\` | $moves | $expected | $seconds | $nodes | $rate |"
done
