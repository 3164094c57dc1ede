#!/usr/bin/env bash
# cluster-local.sh - run one search as N processes of analyze on this machine.
#
# Writes a temporary hostfile of N free loopback ports (127.0.0.1), starts
# target/release/analyze N times with ARGS plus --hosts FILE --process I, waits
# for all of them, and returns the first non-zero exit status (0 if all
# succeed). When one process fails, the others are stopped. The hostfile is
# removed at the end. Process 0 writes the report (--out as usual). Each
# process's stderr comes out line by line prefixed with its index, `[I] `, so
# the lines of different processes never run into each other (the progress
# bar, which needs a terminal, is not shown); stdout is passed on as is. In
# ARGS, `{I}` stands for the process's index, so that processes on one machine
# each keep their planes on disk in their own folder.
#
# usage: scripts/cluster-local.sh N ARGS...
# e.g.   scripts/cluster-local.sh 3 --puzzle sliding --rows 3 --cols 4 --out reports
#        scripts/cluster-local.sh 3 --puzzle sliding --rows 3 --cols 4 --out reports \
#            --disk /tmp/planes-{I} --memory 16MiB
#
# environment:
#   ANALYZE_BIN=PATH   the binary to run (default: target/release/analyze; build it
#                      first with cargo build --release)

set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[1-9][0-9]*$ ]]; then
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
N=$1
shift
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${ANALYZE_BIN:-$ROOT/target/release/analyze}
if [[ ! -x $BIN ]]; then
    echo "error: $BIN not found: build it with cargo build --release (or set ANALYZE_BIN)" >&2
    exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/cluster-local.XXXXXX")
PIDS=()
PREFIXERS=()
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# N free ports: bound to port 0 by the kernel, then released just before use.
python3 - "$N" >"$TMP/hosts" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
for s in socks:
    print(f"127.0.0.1:{s.getsockname()[1]}")
EOF

# Copies its input to stderr a whole line at a time, each prefixed with `[$1] `;
# a last line without its newline (a process stopped while writing it) is marked.
prefix() {
    local line
    while IFS= read -r line; do
        printf '[%s] %s\n' "$1" "$line" >&2
    done
    if [[ -n $line ]]; then
        printf '[%s] %s (cut off)\n' "$1" "$line" >&2
    fi
}

# Each process writes its stderr into a pipe read by its own prefixer. Both ends
# are opened here, before either starts (holding it open for reading and writing
# first, so neither open blocks), so a process that dies at once cannot leave its
# prefixer waiting for a writer; the prefixer sees the end when the process ends.
for ((i = 0; i < N; i++)); do
    mkfifo "$TMP/stderr-$i"
    exec {hold}<>"$TMP/stderr-$i" {from}<"$TMP/stderr-$i" {to}>"$TMP/stderr-$i" {hold}>&-
    prefix "$i" <&"$from" {from}<&- {to}>&- &
    PREFIXERS+=($!)
    args=()
    for arg in "$@"; do
        args+=("${arg//\{I\}/$i}")
    done
    "$BIN" "${args[@]}" --hosts "$TMP/hosts" --process "$i" 2>&"$to" {from}<&- {to}>&- &
    PIDS+=($!)
    exec {from}<&- {to}>&-
done

# Wait for the processes as they end; the first failure stops the others.
status=0
running=("${PIDS[@]}")
while ((${#running[@]} > 0)); do
    code=0
    ended=
    wait -n -p ended "${running[@]}" 2>/dev/null || code=$?
    if [[ -z ${ended-} ]]; then
        # wait -n forgets a job bash has already reaped and noted ("no such job"):
        # plain wait still has its status.
        code=0
        for pid in "${running[@]}"; do
            if ! kill -0 "$pid" 2>/dev/null; then
                ended=$pid
                wait "$pid" || code=$?
                break
            fi
        done
        if [[ -z $ended ]]; then
            sleep 0.1
            continue
        fi
    fi
    left=()
    for pid in "${running[@]}"; do
        [[ $pid == "$ended" ]] || left+=("$pid")
    done
    running=("${left[@]}")
    if ((code != 0 && status == 0)); then
        status=$code
        for pid in "${running[@]}"; do
            kill "$pid" 2>/dev/null || true
        done
    fi
done
PIDS=()
# Every process has ended: its prefixer ends once it has passed on the last line.
wait "${PREFIXERS[@]}" || true
exit "$status"
