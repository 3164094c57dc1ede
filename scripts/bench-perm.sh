#!/usr/bin/env bash
# bench-perm.sh - the whole `analyze` command (search, reports, charts) on permutation-puzzle
# definition files, side by side with twsearch's God's algorithm (`twsearch -t 2 -g FILE`)
# when TWSEARCH names its binary (built elsewhere: this repository ships none of it).
# Runs alternate tool by tool, round by round; prints a markdown table of the best wall time
# and its peak memory per tool, and the ratio analyze/twsearch. The peak (resident set, as
# /usr/bin/time reports it) counts the pages of the binary and its libraries mapped in, the
# same few MiB however large the search; a last, untimed run of each tool also records its
# private peak (anonymous pages: the bit planes, tables, heap and stacks), polled from
# /proc every 5 ms, which is the memory that grows with the puzzle.
#
# usage: scripts/bench-perm.sh [FILE.tws | pancakes-N ...]   (default: the definitions in examples/)
#   pancakes-N   a stack of N pancakes (flips of the top 2..N), written here as a definition
# environment:
#   TWSEARCH=PATH          twsearch's binary, for the side-by-side runs
#   BENCH_REPEATS=N        rounds (default 3)
#   BENCH_RUST_BIN=PATH    the analyze binary (default target/release/analyze, built first)
#   BENCH_TIMEOUT=SECONDS  stop a run after that long (it then reads n/a)
#   BENCH_PRIVATE=0        skip the untimed runs that measure the private peak
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEATS=${BENCH_REPEATS:-3}
BIN=${BENCH_RUST_BIN:-$ROOT/target/release/analyze}
[ -n "${BENCH_RUST_BIN:-}" ] || (cd "$ROOT" && cargo build --release --quiet)
FILES=("$@")
[ ${#FILES[@]} -gt 0 ] || FILES=("$ROOT"/examples/*.tws)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# Runs a command under /usr/bin/time: "seconds peak-KiB", or "n/a n/a" if it failed.
timed() {
    /usr/bin/time -f "%e %M" -o "$OUT/time" ${BENCH_TIMEOUT:+timeout "$BENCH_TIMEOUT"} "$@" > /dev/null 2>&1 \
        && cat "$OUT/time" || echo "n/a n/a"
}

# The largest anonymous (private) resident set of a command, in KiB, polled from
# /proc/PID/smaps_rollup every 5 ms (a zombie's reads empty, which ends the loop).
private_peak() {
    local pid peak=0 kb
    "$@" > /dev/null 2>&1 &
    pid=$!
    while kb=$(awk '/^Anonymous:/ { print $2 }' "/proc/$pid/smaps_rollup" 2> /dev/null) && [ -n "$kb" ]; do
        [ "$kb" -gt "$peak" ] && peak=$kb
        sleep 0.005
    done
    wait "$pid" && echo "$peak" || echo n/a
}

# The smaller of two times ("n/a" loses).
best() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "n/a") print b; else if (b == "n/a" || a + 0 <= b + 0) print a; else print b }'
}

# A stack of $1 pancakes as a definition: move fK reverses the top K.
pancakes() {
    local n=$1 k i
    echo "Name Pancakes$n"
    echo "Set STACK $n 1"
    # twsearch wants the solved state spelled out.
    printf 'Solved\nSTACK\n%s\nEnd\n' "$(seq -s ' ' 1 "$n")"
    for k in $(seq 2 "$n"); do
        echo "Move f$k"
        echo "STACK"
        for i in $(seq 1 "$n"); do
            if [ "$i" -le "$k" ]; then printf '%s ' $((k + 1 - i)); else printf '%s ' "$i"; fi
        done
        echo
        echo "End"
    done
}

for i in "${!FILES[@]}"; do
    if [[ ${FILES[$i]} =~ ^pancakes-([0-9]+)$ ]]; then
        pancakes "${BASH_REMATCH[1]}" > "$OUT/${FILES[$i]}.tws"
        FILES[i]="$OUT/${FILES[$i]}.tws"
    fi
done

echo "| file | analyze (s) | peak (MiB) | private (MiB) | twsearch -t 2 -g (s) | peak (MiB) | private (MiB) | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for file in "${FILES[@]}"; do
    ours=n/a ours_kb=n/a theirs=n/a theirs_kb=n/a
    for round in $(seq 1 "$REPEATS"); do
        read -r s kb < <(timed "$BIN" --quiet --rules "$file" --out "$OUT/reports")
        [ "$(best "$ours" "$s")" = "$s" ] && ours=$s ours_kb=$kb
        if [ -n "${TWSEARCH:-}" ]; then
            read -r s kb < <(timed "$TWSEARCH" -t 2 -g "$file")
            [ "$(best "$theirs" "$s")" = "$s" ] && theirs=$s theirs_kb=$kb
        fi
        echo "$(basename "$file") round $round: analyze $ours s, twsearch $theirs s" >&2
    done
    ours_private=n/a theirs_private=n/a
    if [ "${BENCH_PRIVATE:-1}" != 0 ]; then
        ours_private=$(private_peak "$BIN" --quiet --rules "$file" --out "$OUT/reports")
        [ -z "${TWSEARCH:-}" ] || theirs_private=$(private_peak "$TWSEARCH" -t 2 -g "$file")
    fi
    mib() { [ "$1" = n/a ] && echo n/a || awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { if (a == "n/a" || b == "n/a") print "n/a"; else printf "%.2f", a / b }')
    echo "| $(basename "$file") | $ours | $(mib "$ours_kb") | $(mib "$ours_private") | $theirs | $(mib "$theirs_kb") | $(mib "$theirs_private") | $ratio |"
done
