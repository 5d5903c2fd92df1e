#!/usr/bin/env bash
# Miss rate of two builds in one run: scripts/bench-missrate-9x9.sh (or the 8x8
# one) for build OLD, then for NEW, alternating, for each movetime and round, so
# that both meet the same machine and the same positions (one truth cache). Prints
# each run's misses as it ends and a table at the end. Both builds are driven over
# the protocol, so any two slimetrail binaries can be compared.
#
# Usage: scripts/bench-missrate-ab.sh OLD NEW [ROUNDS] [MS...]
#   OLD, NEW  paths of the two engine binaries
#   ROUNDS    rounds of OLD-then-NEW for each movetime (default 2)
#   MS...     movetimes in milliseconds (default 100 1000)
# Environment (defaults in brackets): MISSRATE_BOARD 9x9 or 8x8 [9x9],
#   MISSRATE_N positions [200], MISSRATE_SEED [1], MISSRATE_TRUTH_NODES
#   [8000000 on 9x9, 20000000 on 8x8], MISSRATE_PLIES [12-26 on 9x9; the 8x8
#   script's own range on 8x8].
# Example (the figures of issue 29's note):
#   scripts/bench-missrate-ab.sh /tmp/c1fecfa target/release/slimetrail 1 100 1000
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    sed -n '2,17p' "$0" >&2
    exit 2
fi
declare -A binary=([OLD]=$1 [NEW]=$2)
rounds=${3:-2}
shift $(($# < 3 ? $# : 3))
movetimes=("$@")
[ ${#movetimes[@]} -gt 0 ] || movetimes=(100 1000)
for build in "${binary[OLD]}" "${binary[NEW]}"; do
    if [ ! -x "$build" ]; then
        echo "bench-missrate-ab: $build is not an executable file: expected the path of an engine binary" >&2
        exit 2
    fi
done
case "$rounds" in
'' | *[!0-9]* | 0)
    echo "bench-missrate-ab: ROUNDS is '$rounds': expected a positive whole number" >&2
    exit 2
    ;;
esac
board=${MISSRATE_BOARD:-9x9}
case "$board" in
9x9)
    script=scripts/bench-missrate-9x9.sh
    truth=${MISSRATE_TRUTH_NODES:-8000000}
    export MISSRATE_PLIES=${MISSRATE_PLIES:-12-26}
    ;;
8x8)
    script=scripts/bench-missrate-8x8.sh
    truth=${MISSRATE_TRUTH_NODES:-20000000}
    ;;
*)
    echo "bench-missrate-ab: MISSRATE_BOARD is '$board': expected 9x9 or 8x8" >&2
    exit 2
    ;;
esac
n=${MISSRATE_N:-200}
seed=${MISSRATE_SEED:-1}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for ms in "${movetimes[@]}"; do
    for round in $(seq "$rounds"); do
        for label in OLD NEW; do
            build=${binary[$label]}
            log=$(mktemp)
            # The benchmark exits non-zero when it finds a miss: that is a result here.
            SLIMETRAIL_TEST_ENGINE=$build "$script" "$n" "$ms" "$seed" "$truth" protocol >"$log" 2>&1 || true
            winning=$(sed -n 's/^with a winning move *//p' "$log")
            misses=$(sed -n 's/^misses *//p' "$log")
            if [ -z "$winning" ] || [ -z "$misses" ]; then
                echo "bench-missrate-ab: the run of $label ($build) at ${ms} ms printed no result; its output:" >&2
                cat "$log" >&2
                rm -f "$log"
                exit 1
            fi
            echo "$label ${ms} ms round $round: $misses misses of $winning"
            grep '^miss ' "$log" | grep -v '^miss rate' | sed 's/^/    /' || true
            echo "$label $ms $misses $winning" >>"$results"
            rm -f "$log"
        done
    done
done
echo
echo "| build | movetime | misses of positions with a winning move, each round |"
echo "|---|---|---|"
for ms in "${movetimes[@]}"; do
    for label in OLD NEW; do
        runs=$(awk -v l="$label" -v m="$ms" '$1 == l && $2 == m { printf "%s%s of %s", sep, $3, $4; sep = ", " }' "$results")
        echo "| $label (${binary[$label]}) | $ms ms | $runs |"
    done
done
