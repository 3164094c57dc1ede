#!/usr/bin/env bash
# cluster-local.sh - run one search as N processes of analyze on this machine.
#
# Writes a temporary hostfile of N free loopback ports (127.0.0.1), starts
# target/release/analyze N times with ARGS plus --hosts FILE --process I, waits
# for all of them, and returns the first non-zero exit status (0 if all
# succeed). When one process fails, the others are stopped. The hostfile is
# removed at the end. Process 0 writes the report (--out as usual); the
# processes' notes on stderr name their index.
#
# usage: scripts/cluster-local.sh N ARGS...
# e.g.   scripts/cluster-local.sh 3 --puzzle sliding --rows 3 --cols 4 --out reports
#
# environment:
#   ANALYZE_BIN=PATH   the binary to run (default: target/release/analyze; build it
#                      first with cargo build --release)

set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[1-9][0-9]*$ ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
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

for ((i = 0; i < N; i++)); do
    "$BIN" "$@" --hosts "$TMP/hosts" --process "$i" &
    PIDS+=($!)
done

# Wait for the processes as they end; the first failure stops the others.
status=0
running=("${PIDS[@]}")
while ((${#running[@]} > 0)); do
    code=0
    ended=
    wait -n -p ended "${running[@]}" || code=$?
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
exit "$status"
