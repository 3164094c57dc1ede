#!/usr/bin/env bash
# bench-disk.sh - the search with its planes on disk (--disk) side by side with the same
# search in memory, alternated, and the reports compared byte for byte.
#
# usage: scripts/bench-disk.sh MEMORY ARGS...
#   e.g. scripts/bench-disk.sh 16MiB --puzzle sliding --rows 3 --cols 4
#        scripts/bench-disk.sh 32MiB --rules pancakes-12.tws
# Prints one markdown row: the in-memory and on-disk wall time (best of BENCH_REPEATS, default
# 1) and peak resident memory, their ratio, the bytes the disk run read and wrote, and the
# largest the disk folder grew. Exits non-zero if the reports differ (run.json aside).
#
# environment: BENCH_REPEATS=N, BENCH_DISK=DIR (default: a fresh folder under /tmp),
#              BENCH_NO_BUILD=1 (use the existing target/release/analyze)

set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
MEMORY=$1
shift
REPEATS=${BENCH_REPEATS:-1}
[ -n "${BENCH_NO_BUILD:-}" ] || cargo build --release --quiet
BIN=target/release/analyze
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
DISK=${BENCH_DISK:-$WORK/planes}

# Runs "$@" under /usr/bin/time; prints "seconds peak-KiB".
timed() {
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" > /dev/null 2> "$WORK/stderr" || {
        cat "$WORK/stderr" >&2
        exit 1
    }
    cat "$WORK/time"
}

# The disk folder's largest size (KiB) while "$@" runs, sampled every 50 ms.
watch_disk() {
    local pid peak=0 kb
    "$@" &
    pid=$!
    while kill -0 "$pid" 2> /dev/null; do
        kb=$(du -sk "$DISK" 2> /dev/null | cut -f1) || kb=0
        [ "${kb:-0}" -gt "$peak" ] && peak=$kb
        sleep 0.05
    done
    wait "$pid"
    echo "$peak" > "$WORK/peak-disk"
}

best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }

mem_s="" disk_s=""
for round in $(seq 1 "$REPEATS"); do
    rm -rf "$WORK/memory" "$WORK/disk" "$DISK"
    read -r s kb < <(timed "$BIN" "$@" --out "$WORK/memory")
    [ "$(best "$mem_s" "$s")" = "$s" ] && mem_s=$s mem_kb=$kb
    watch_disk timed "$BIN" "$@" --out "$WORK/disk" --disk "$DISK" --memory "$MEMORY" > "$WORK/disk-time"
    read -r s kb < "$WORK/disk-time"
    [ "$(best "$disk_s" "$s")" = "$s" ] && disk_s=$s disk_kb=$kb
    traffic=$(grep -o '[0-9.]* [KMGT]*i*B* read and [0-9.]* [KMGT]*i*B* written' "$WORK/stderr" || echo n/a)
    echo "round $round: memory $mem_s s, disk $disk_s s ($traffic)" >&2
done
diff -r -x run.json "$WORK/memory" "$WORK/disk" > /dev/null || { echo "the reports differ" >&2; exit 1; }
echo "| $* | $MEMORY | $mem_s s | $((mem_kb / 1024)) MiB | $disk_s s | $((disk_kb / 1024)) MiB | $(awk -v a="$disk_s" -v b="$mem_s" 'BEGIN { printf "%.2f", a / b }') | $traffic | $(($(cat "$WORK/peak-disk") / 1024)) MiB |"
