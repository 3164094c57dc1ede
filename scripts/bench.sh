#!/usr/bin/env bash
# bench.sh - time `analyze` against plain single-threaded baselines.
#
# Builds target/release/analyze (cargo build --release), compiles the C
# baselines in scripts/baseline/ into target/baseline/, then runs each
# selected case with every tool under /usr/bin/time and prints a markdown
# table to stdout: best (min) wall seconds over the repeats, peak RSS in MiB,
# states per second, and each tool's wall time and RSS relative to the C
# baseline (rust/C). A command that fails or times out is reported as "n/a".
# Progress and errors go to stderr.
#
# usage: scripts/bench.sh [CASE...]        (no CASE, or "all": every case)
# cases: eight sliding-2x5 sliding-3x4 sliding-2x6 nine-tails-5x5 lights-out-5x5
#        weighted-nine-tails-5x5 (Dial's search; compare with nine-tails-5x5)
#        sliding-3x4-heuristics (the full heuristic atlas: its runs alternate with
#        plain sliding-3x4 runs, and a line under the table gives what the atlas adds)
#        perm: permutation puzzles side by side with twsearch, the table of
#        scripts/bench-perm.sh (alone: it takes TWSEARCH=PATH and its own arguments)
#
# environment:
#   BENCH_REPEATS=N        runs per measurement, best wall time kept (default 3)
#   BENCH_SLOW=1           also run the C baseline for sliding-3x4
#                          (about 260 s and 1.4 GiB per run on a 2-core Xeon)
#   BENCH_SLOW_REPEATS=N   runs for that slow baseline (default 1)
#   BENCH_TIMEOUT=S        time limit for a single run in seconds (default 1800)
#   BENCH_NO_BUILD=1       skip `cargo build --release`, use the existing binary
#   BENCH_RUST_BIN=PATH    binary to time instead of target/release/analyze

set -euo pipefail
export LC_ALL=C

ALL_CASES=(eight sliding-2x5 sliding-3x4 sliding-3x4-heuristics sliding-2x6 nine-tails-5x5 weighted-nine-tails-5x5 lights-out-5x5)

usage() {
    sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEATS=${BENCH_REPEATS:-3}
SLOW=${BENCH_SLOW:-0}
SLOW_REPEATS=${BENCH_SLOW_REPEATS:-1}
TIMEOUT=${BENCH_TIMEOUT:-1800}
NO_BUILD=${BENCH_NO_BUILD:-0}
RUST_BIN=${BENCH_RUST_BIN:-$ROOT/target/release/analyze}
BASE_DIR="$ROOT/target/baseline"
TIME_BIN=/usr/bin/time

log() {
    printf '%s\n' "$*" >&2
}

# ---------------------------------------------------------------- arguments
CASES=()
for arg in "$@"; do
    case "$arg" in
        -h | --help)
            usage
            exit 0
            ;;
        all) CASES=("${ALL_CASES[@]}") ;;
        perm) exec "$ROOT/scripts/bench-perm.sh" "${@:2}" ;;
        eight | sliding-2x5 | sliding-3x4 | sliding-3x4-heuristics | sliding-2x6 | nine-tails-5x5 | weighted-nine-tails-5x5 | lights-out-5x5)
            CASES+=("$arg")
            ;;
        *)
            log "unknown case '$arg' (known: ${ALL_CASES[*]})"
            exit 2
            ;;
    esac
done
if [[ ${#CASES[@]} -eq 0 ]]; then
    CASES=("${ALL_CASES[@]}")
fi

if [[ ! -x $TIME_BIN ]]; then
    log "GNU time is required at $TIME_BIN"
    exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# -------------------------------------------------------------------- build
if [[ $NO_BUILD != 1 ]]; then
    log "building analyze (cargo build --release) ..."
    if ! (cd "$ROOT" && cargo build --release --quiet) >&2; then
        log "warning: cargo build failed; rust rows will be n/a"
    fi
fi
if [[ ! -x $RUST_BIN ]]; then
    log "warning: $RUST_BIN not found; rust rows will be n/a"
fi

log "compiling C baselines into $BASE_DIR ..."
mkdir -p "$BASE_DIR"
gcc -O2 -Wall -o "$BASE_DIR/sliding_bfs" "$ROOT/scripts/baseline/sliding_bfs.c"
gcc -O2 -Wall -o "$BASE_DIR/coins_bfs" "$ROOT/scripts/baseline/coins_bfs.c"
PY_BASELINE="$ROOT/scripts/baseline/sliding_bfs.py"

# -------------------------------------------------------------- measurement
# measure RUNS CHECK CMD...
# Runs CMD RUNS times. Sets M_WALL (best wall seconds) and M_RSS (largest
# peak RSS in KiB), or both to "n/a" if any run fails or its check fails.
# CHECK: "" no check; "out" the --out directory $TMP/out must be non-empty;
# a number: the command's "total N" output line must print that number.
# Wall time comes from bash's EPOCHREALTIME around the run (microseconds;
# GNU time's %e only has 10 ms steps), falling back to %e without it. Peak
# RSS is GNU time's %M.
measure() {
    local runs=$1 check=$2
    shift 2
    local i line e_wall wall rss total t0 t1 status best="" peak=0
    M_WALL=n/a
    M_RSS=n/a
    for ((i = 1; i <= runs; i++)); do
        rm -rf "$TMP/out"
        t0=${EPOCHREALTIME:-}
        status=0
        "$TIME_BIN" -f "%e %M" -o "$TMP/time.txt" \
            timeout "$TIMEOUT" "$@" >"$TMP/stdout.txt" 2>"$TMP/stderr.txt" || status=$?
        if ((status != 0)); then
            if ((status == 124)); then
                log "  timed out after ${TIMEOUT} s: $*"
            else
                log "  failed (exit $status): $* ($(tail -n 1 "$TMP/stderr.txt" 2>/dev/null || true))"
            fi
            return 0
        fi
        t1=${EPOCHREALTIME:-}
        line=$(tail -n 1 "$TMP/time.txt")
        read -r e_wall rss <<<"$line"
        if [[ -n $t0 && -n $t1 ]]; then
            wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        else
            wall=$e_wall
        fi
        case "$check" in
            "") ;;
            out)
                if [[ -z $(ls -A "$TMP/out" 2>/dev/null || true) ]]; then
                    log "  no output: $* wrote nothing to --out"
                    return 0
                fi
                ;;
            *)
                total=$(awk '$1 == "total" { print $2 }' "$TMP/stdout.txt")
                if [[ $total != "$check" ]]; then
                    log "  wrong result: $* printed total '$total', expected $check"
                    return 0
                fi
                ;;
        esac
        if [[ -z $best ]] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$wall
        fi
        if ((rss > peak)); then
            peak=$rss
        fi
        log "  run $i/$runs: ${wall} s, ${rss} KiB"
    done
    M_WALL=$best
    M_RSS=$peak
}

# Lines printed under the table.
NOTES=()

# alternate NAME ARGS PLAIN_ARGS (space-separated): runs the rust binary with ARGS
# and with PLAIN_ARGS by turns, REPEATS times each; sets M_WALL and M_RSS for
# ARGS and adds a note of what ARGS add to PLAIN_ARGS, best wall against best.
alternate() {
    local name=$1 i best="" plain="" peak=0 failed=0
    local -a args plain_args
    read -r -a args <<<"$2"
    read -r -a plain_args <<<"$3"
    for ((i = 1; i <= REPEATS; i++)); do
        log "$name: rust, plain"
        measure 1 out "$RUST_BIN" "${plain_args[@]}" --out "$TMP/out" --quiet
        [[ $M_WALL == n/a ]] && failed=1
        if [[ $M_WALL != n/a ]] && { [[ -z $plain ]] || awk -v a="$M_WALL" -v b="$plain" 'BEGIN { exit !(a < b) }'; }; then
            plain=$M_WALL
        fi
        log "$name: rust"
        measure 1 out "$RUST_BIN" "${args[@]}" --out "$TMP/out" --quiet
        [[ $M_WALL == n/a ]] && failed=1
        if [[ $M_WALL != n/a ]] && { [[ -z $best ]] || awk -v a="$M_WALL" -v b="$best" 'BEGIN { exit !(a < b) }'; }; then
            best=$M_WALL
        fi
        if [[ $M_RSS != n/a ]] && ((M_RSS > peak)); then
            peak=$M_RSS
        fi
    done
    if ((failed)); then
        M_WALL=n/a
        M_RSS=n/a
        NOTES+=("$name: a run failed, nothing to compare")
        return 0
    fi
    M_WALL=$best
    M_RSS=$peak
    NOTES+=("$(awk -v n="$name" -v a="$best" -v b="$plain" -v r="$REPEATS" -v p="${plain_args[*]}" 'BEGIN {
        printf "%s: %.0f%% more wall time than `%s` (best %.3f s against %.3f s; %d alternated runs of each).", n, 100 * (a / b - 1), p, a, b, r }')")
}

# row CASE TOOL RUNS STATES WALL RSS_KIB C_WALL C_RSS_KIB
row() {
    awk -v case_="$1" -v tool="$2" -v runs="$3" -v states="$4" \
        -v wall="$5" -v rss="$6" -v cwall="$7" -v crss="$8" '
        function ratio(a, b) {
            if (a == "n/a" || b == "n/a" || b + 0 <= 0) return "n/a"
            r = a / b
            return (r >= 0.1) ? sprintf("%.2f", r) : sprintf("%.3g", r)
        }
        BEGIN {
            mib = (rss == "n/a") ? "n/a" : sprintf("%.1f", rss / 1024)
            if (wall == "n/a") rate = "n/a"
            else if (wall + 0 <= 0) rate = "n/a"
            else rate = sprintf("%.2f", states / wall / 1e6)
            if (tool == "c" && wall != "n/a") { rw = "1.00"; rr = "1.00" }
            else { rw = ratio(wall, cwall); rr = ratio(rss, crss) }
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                case_, tool, states, runs, wall, mib, rate, rw, rr
        }'
}

skip_row() {
    printf '| %s | %s | %s | - | %s | - | - | - | - |\n' "$1" "$2" "$3" "$4"
}

# ------------------------------------------------------------------- cases
# run_case CASE: fills STATES, RUST_ARGS, C_CMD (array, empty if skipped),
# C_SKIP_REASON, PY (1 if the python baseline applies), then measures.
run_case() {
    local name=$1 states c_runs c_skip="" py=0
    local -a rust_args c_cmd=() plain_args=()
    c_runs=$REPEATS
    case "$name" in
        eight)
            states=181440
            rust_args=(--puzzle eight)
            c_cmd=("$BASE_DIR/sliding_bfs" 3 3)
            py=1
            ;;
        sliding-2x5)
            states=1814400
            rust_args=(--puzzle sliding --rows 2 --cols 5)
            c_cmd=("$BASE_DIR/sliding_bfs" 2 5)
            ;;
        sliding-3x4)
            states=239500800
            rust_args=(--puzzle sliding --rows 3 --cols 4)
            if [[ $SLOW == 1 ]]; then
                c_cmd=("$BASE_DIR/sliding_bfs" 3 4)
                c_runs=$SLOW_REPEATS
            else
                c_skip="skipped (set BENCH_SLOW=1)"
            fi
            ;;
        sliding-3x4-heuristics)
            # No C baseline: the figure to compare is sliding-3x4's rust time, measured
            # in alternation with it (the host's speed drifts between cases).
            states=239500800
            rust_args=(--puzzle sliding --rows 3 --cols 4 --heuristics)
            plain_args=(--puzzle sliding --rows 3 --cols 4)
            c_skip="no baseline (compare with sliding-3x4)"
            ;;
        sliding-2x6)
            states=239500800
            rust_args=(--puzzle sliding --rows 2 --cols 6)
            c_skip="skipped (same size as 3x4)"
            ;;
        nine-tails-5x5)
            states=8388608
            rust_args=(--puzzle nine-tails --rows 5 --cols 5)
            c_cmd=("$BASE_DIR/coins_bfs" nine-tails 5 5)
            ;;
        weighted-nine-tails-5x5)
            # No C baseline: the figure to compare is nine-tails-5x5's rust time.
            states=8388608
            rust_args=(--puzzle weighted-nine-tails --rows 5 --cols 5)
            c_skip="no baseline (compare with nine-tails-5x5)"
            ;;
        lights-out-5x5)
            states=8388608
            rust_args=(--puzzle lights-out --rows 5 --cols 5)
            c_cmd=("$BASE_DIR/coins_bfs" lights-out 5 5)
            ;;
        *)
            log "internal error: unknown case $name"
            exit 2
            ;;
    esac

    local c_wall=n/a c_rss=n/a rust_wall=n/a rust_rss=n/a py_wall=n/a py_rss=n/a
    if [[ ${#c_cmd[@]} -gt 0 ]]; then
        log "$name: c"
        measure "$c_runs" "$states" "${c_cmd[@]}"
        c_wall=$M_WALL
        c_rss=$M_RSS
    fi
    if [[ -x $RUST_BIN && ${#plain_args[@]} -gt 0 ]]; then
        alternate "$name" "${rust_args[*]}" "${plain_args[*]}"
        rust_wall=$M_WALL
        rust_rss=$M_RSS
    elif [[ -x $RUST_BIN ]]; then
        log "$name: rust"
        measure "$REPEATS" out "$RUST_BIN" "${rust_args[@]}" --out "$TMP/out" --quiet
        rust_wall=$M_WALL
        rust_rss=$M_RSS
    fi
    if [[ $py == 1 ]]; then
        log "$name: python"
        measure "$REPEATS" "$states" python3 "$PY_BASELINE" 3 3
        py_wall=$M_WALL
        py_rss=$M_RSS
    fi

    row "$name" rust "$REPEATS" "$states" "$rust_wall" "$rust_rss" "$c_wall" "$c_rss"
    if [[ -n $c_skip ]]; then
        skip_row "$name" c "$states" "$c_skip"
    else
        row "$name" c "$c_runs" "$states" "$c_wall" "$c_rss" "$c_wall" "$c_rss"
    fi
    if [[ $py == 1 ]]; then
        row "$name" python "$REPEATS" "$states" "$py_wall" "$py_rss" "$c_wall" "$c_rss"
    fi
}

# -------------------------------------------------------------------- main
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "no commit")
now=$(date -u '+%Y-%m-%d %H:%M UTC')
cores=$(nproc)
echo "# analyze benchmark"
echo
echo "$now, $cores cores, ${cpu:-unknown cpu}, commit $rev."
echo "Wall: best of the runs; RSS: largest peak; C and python are single-threaded baselines."
echo
echo "| case | tool | states | runs | wall s | peak RSS MiB | M states/s | wall vs C | RSS vs C |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in "${CASES[@]}"; do
    run_case "$c"
done
if [[ ${#NOTES[@]} -gt 0 ]]; then
    echo
    printf '%s\n' "${NOTES[@]}"
fi
