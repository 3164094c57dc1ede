#!/usr/bin/env bash
# vs-twsearch-symm.sh - count definitions up to rotations and inverses with both twsearch
# (`twsearch -F -g`: its sorting search by symmetry) and analyze (`--symmetry
# rotations+inverse`), check that every distance's classes equal twsearch's `cnt` and its
# positions twsearch's `scnt`, and print one markdown row a file: time and peak memory of each,
# and of analyze with `--symmetry none` (whose positions must be the same).
#
# usage: TWSEARCH=/path/to/twsearch scripts/vs-twsearch-symm.sh FILE.tws...
#
# environment:
#   TWSEARCH=PATH      twsearch's binary (required; built from github.com/rokicki/twsearch)
#   BENCH_NO_BUILD=1   skip `cargo build --release`, use the existing binary
#   BENCH_TIMEOUT=S    seconds each tool may take on a file (default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${TWSEARCH:?set TWSEARCH to the twsearch binary}"
[ "${BENCH_NO_BUILD:-}" = 1 ] || cargo build --release >&2
bin=$PWD/target/release/analyze
limit=${BENCH_TIMEOUT:-600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# time_of LOG: "12.3 s, 45.6 MiB" from /usr/bin/time's last line "%e %M".
time_of() { tail -n 1 "$1" | awk '{ printf "%.2f s, %.1f MiB", $1, $2 / 1024 }'; }

echo "| file | positions | classes | equal | twsearch -F -g | analyze | analyze --symmetry none |"
echo "|---|---:|---:|---|---:|---:|---:|"
for file in "$@"; do
    name=$(basename "$file" .tws)
    tw=$work/$name.tw
    an=$work/$name.an
    if ! /usr/bin/time -f "%e %M" timeout "$limit" "$TWSEARCH" -F -g "$file" >"$tw" 2>&1; then
        echo "| $name | | | twsearch did not finish in $limit s | | | |"
        continue
    fi
    if ! /usr/bin/time -f "%e %M" timeout "$limit" "$bin" --rules "$file" --symmetry rotations+inverse \
        --out "$work/out-$name" >"$an" 2>&1; then
        echo "| $name | | | analyze did not finish in $limit s: $(grep -m1 error "$an" || true) | $(time_of "$tw") | | |"
        continue
    fi
    # twsearch: "Dist d cnt c tot t scnt s stot u in ..." -> "d,s,c"; analyze: distances.csv.
    awk '$1 == "Dist" && $4 > 0 { print $2 "," $8 "," $4 }' "$tw" >"$work/tw.csv"
    tail -n +2 "$work/out-$name"/*/distances.csv | cut -d, -f1-3 >"$work/an.csv"
    plain=$work/$name.plain
    none="did not finish in $limit s"
    if /usr/bin/time -f "%e %M" timeout "$limit" "$bin" --rules "$file" --symmetry none \
        --out "$work/none-$name" >"$plain" 2>&1; then
        none=$(time_of "$plain")
        tail -n +2 "$work/none-$name"/*/distances.csv | cut -d, -f1-2 >"$work/none.csv"
        cut -d, -f1-2 "$work/an.csv" | cmp -s - "$work/none.csv" || none="$none, positions differ"
    fi
    equal=no
    cmp -s "$work/tw.csv" "$work/an.csv" && equal=yes
    positions=$(awk -F, '{ s += $2 } END { printf "%\047d", s }' "$work/an.csv")
    classes=$(awk -F, '{ s += $3 } END { printf "%\047d", s }' "$work/an.csv")
    echo "| $name | $positions | $classes | $equal | $(time_of "$tw") | $(time_of "$an") | $none |"
done
