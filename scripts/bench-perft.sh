#!/usr/bin/env bash
# Bulk perft speed from the 7x7 centre start, in leaves per second, on one core.
#
# Usage: scripts/bench-perft.sh [DEPTH] [RUNS]
#   DEPTH  plies to count (default 12: 220,291,468 leaves)
#   RUNS   repetitions; the median speed is reported (default 5)
# Also reports the same count forced onto 128-bit boards, which shows what
# the 11x11-capable representation would cost the 7x7 path.
set -euo pipefail
depth=${1:-12}
runs=${2:-5}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin slimetrail
bin=target/release/slimetrail

median_rate() {
    local rates=()
    for _ in $(seq "$runs"); do
        rates+=("$("$bin" perft "$depth" "$@" --json |
            python3 -c 'import json, sys; print("%.1f" % (json.load(sys.stdin)["leaves_per_second"] / 1e6))')")
    done
    printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

echo "perft $depth from the 7x7 centre start, median of $runs runs, one core"
echo "  64-bit boards : $(median_rate) M leaves/s"
echo "  128-bit boards: $(median_rate --wide) M leaves/s"
"$bin" perft "$depth" | tail -n 1
