#!/usr/bin/env bash
# bench-3x3x3.sh - time `analyze --solve` (IDA* with pattern databases) on 3x3x3 scrambles
# and print their lengths and times, then the median and maximum time.
#
# The scrambles are random move sequences of LENGTH moves (no face twice in a row), drawn
# with a 64-bit linear congruential generator from SEED, so the same arguments give the same
# positions. They are written to a twsearch scramble file and solved in one command with
# --json (the pattern databases are built once, cached, then loaded; their build is timed
# on its own). Progress goes to stderr.
#
# usage: scripts/bench-3x3x3.sh [COUNT [LENGTH [SEED]]]     (default: 10 14 51)
#
# environment:
#   BENCH_NO_BUILD=1   skip `cargo build --release`, use the existing binary
#   BENCH_MEMORY=SIZE  --memory for the pattern databases (default: the tool's, 1GiB)
#   BENCH_THREADS=N    --threads (default: one per core)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10}
length=${2:-14}
seed=${3:-51}
[ "${BENCH_NO_BUILD:-}" = 1 ] || cargo build --release >&2
bin=target/release/analyze
file=examples/3x3x3.tws
scr=$(mktemp --suffix=.scr)
trap 'rm -f "$scr"' EXIT
awk -v count="$count" -v length_="$length" -v seed="$seed" 'BEGIN {
    split("U D R L F B", faces, " "); split(" 2 '\''", powers, " ");
    x = seed; m = 2^32;
    for (i = 1; i <= count; i++) {
        printf "ScrambleAlg s%d\n", i; last = 0; line = "";
        for (j = 0; j < length_; j++) {
            do { x = (x * 1664525 + 1013904223) % m; f = int(x / 65536) % 6 + 1 } while (f == last);
            x = (x * 1664525 + 1013904223) % m; p = int(x / 65536) % 3;
            line = line faces[f] (p == 0 ? "" : (p == 1 ? "2" : "'\''")) " "; last = f;
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
