#!/usr/bin/env bash
# sample-scr.sh - write COUNT positions drawn uniformly at random among all the positions of
# a definition file (`analyze --sample any`, the same for the same SEED) as a twsearch
# scramble file, one `Scramble` block each, so that analyze and twsearch solve the very
# same positions: `scripts/sample-scr.sh examples/3x3x3.tws 10 51 > random.scr`.
#
# usage: scripts/sample-scr.sh FILE.tws [COUNT [SEED]]     (default: 10 0)
# environment: ANALYZE=path of the binary (default: target/release/analyze, built if absent)
set -euo pipefail
file=${1:?usage: scripts/sample-scr.sh FILE.tws [COUNT [SEED]]}
count=${2:-10}
seed=${3:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ANALYZE:-$root/target/release/analyze}
[ -x "$bin" ] || (cd "$root" && cargo build --release >&2)
# The sets in file order: a line of positions holds them in that order, `/` between them.
sets=$(awk '$1 == "Set" { print $2 }' "$file")
"$bin" --rules "$file" --sample any "$count" --seed "$seed" --as-lines --quiet |
    awk -v sets="$sets" 'BEGIN { n = split(sets, name, "\n") }
    {
        printf "Scramble r%d\n", NR
        k = split($0, part, " / ")
        for (i = 1; i <= k; i++) {
            split(part[i], pt, ", ")
            if (pt[2] == "") { pt[2] = pt[1]; gsub(/[0-9]+/, "0", pt[2]) }
            print name[i]; print pt[1]; print pt[2]
        }
        print "End\n"
    }'
