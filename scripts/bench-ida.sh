#!/usr/bin/env bash
# bench-ida.sh - time `analyze --solve` (IDA* with pattern databases) on scrambles of a
# definition file (default: the 3x3x3) and print their lengths and times, then the median and
# maximum time; optionally twsearch on the very same scrambles.
#
# The scrambles are random move sequences of LENGTH moves (no move's base twice in a row: the
# bases are the file's `Move` lines), each move a power named as twsearch names it, drawn with
# a 64-bit linear congruential generator from SEED, so the same arguments give the same
# positions. They are written to a twsearch scramble file and solved in one command with
# --json (the pattern databases are built once, cached, then loaded; their build is timed
# on its own). Progress goes to stderr.
#
# usage: scripts/bench-ida.sh [COUNT [LENGTH [SEED]]]     (default: 10 14 51)
#
# environment:
#   BENCH_FILE=FILE.tws  the definition (default: examples/3x3x3.tws; paths from the root)
#   BENCH_POWERS="..."   the powers drawn, as suffixes, `1` for the move itself (default:
#                        "1 2 '", a cube's; "1 '" for moves of order 3, "1 2 2' '" of order 5)
#   BENCH_SCR=PATH       keep the scramble file there (default: a temporary file)
#   BENCH_NO_BUILD=1     skip `cargo build --release`, use the existing binary
#   BENCH_MEMORY=SIZE    --memory for the pattern databases (default: the tool's, 1GiB)
#   BENCH_THREADS=N      --threads (default: one per core)
#   TWSEARCH=PATH        then run `twsearch -M MiB FILE SCR` on the same scrambles (MiB:
#                        BENCH_TWSEARCH_M, default 1024), under /usr/bin/time -v
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10}
length=${2:-14}
seed=${3:-51}
[ "${BENCH_NO_BUILD:-}" = 1 ] || cargo build --release >&2
bin=target/release/analyze
file=${BENCH_FILE:-examples/3x3x3.tws}
powers=${BENCH_POWERS:-"1 2 '"}
if [ -n "${BENCH_SCR:-}" ]; then
    scr=$BENCH_SCR
else
    scr=$(mktemp --suffix=.scr)
    trap 'rm -f "$scr"' EXIT
fi
faces=$(awk '$1 == "Move" { printf "%s ", $2 }' "$file")
awk -v count="$count" -v length_="$length" -v seed="$seed" -v faces_="$faces" -v powers_="$powers" 'BEGIN {
    nf = split(faces_, faces, " "); np = split(powers_, powers, " ");
    x = seed; m = 2^32;
    for (i = 1; i <= count; i++) {
        printf "ScrambleAlg s%d\n", i; last = 0; line = "";
        for (j = 0; j < length_; j++) {
            do { x = (x * 1664525 + 1013904223) % m; f = int(x / 65536) % nf + 1 } while (f == last);
            x = (x * 1664525 + 1013904223) % m; p = int(x / 65536) % np + 1;
            line = line faces[f] (powers[p] == "1" ? "" : powers[p]) " "; last = f;
        }
        print line; print "End";
    }
}' >"$scr"
args=(--rules "$file")
[ -n "${BENCH_MEMORY:-}" ] && args+=(--memory "$BENCH_MEMORY")
[ -n "${BENCH_THREADS:-}" ] && args+=(--threads "$BENCH_THREADS")
start=$(date +%s%N)
"$bin" "${args[@]}" --quiet --solve "U" >/dev/null
echo "pattern databases built or loaded, and one move solved: $(( ($(date +%s%N) - start) / 1000000 )) ms" >&2
echo "| scramble | moves | nodes | seconds |"
echo "|---|---:|---:|---:|"
summary=$(cat <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in sys.stdin]
for r in rows:
    print("| %s | %s | %s | %.3f |" % (r["state"], r["length"], r["nodes"], r["seconds"]))
times = [r["seconds"] for r in rows]
print("\nmedian %.3f s, max %.3f s over %d scrambles" % (statistics.median(times), max(times), len(times)))
PY
)
"$bin" "${args[@]}" --quiet --json --solve "$scr" | python3 -c "$summary"
if [ -n "${TWSEARCH:-}" ]; then
    echo "twsearch -M ${BENCH_TWSEARCH_M:-1024} $file $scr:" >&2
    /usr/bin/time -v "$TWSEARCH" -M "${BENCH_TWSEARCH_M:-1024}" "$file" "$scr"
fi
