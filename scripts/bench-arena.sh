#!/usr/bin/env bash
# Arena throughput: games per second with depth-1 engines at concurrency 2.
#
# Usage: scripts/bench-arena.sh [ROUNDS] [CONCURRENCY]
#   ROUNDS       game pairs to play per run (default 1000: 2000 games)
#   CONCURRENCY  games at once (default 2)
# Four runs: the default match (no --engine: slimetrail at Level 10 against Level 5) at
# depth 1, the real slimetrail engine at depth 1 with a 1 MB hash (the target for both:
# at least 300 games/s on a 2-core machine), the hidden mock engine (a process that
# answers at once), and the built-in random player (no processes: the arena's own
# overhead).
set -euo pipefail
rounds=${1:-1000}
concurrency=${2:-2}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin slimetrail --bin slimetrail-arena
arena=$PWD/target/release/slimetrail-arena
engine=$PWD/target/release/slimetrail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {
    local label=$1
    shift
    local start end games
    start=$(date +%s.%N)
    "$arena" "$@" --rounds "$rounds" --concurrency "$concurrency" --quiet \
        --state "$work/state.jsonl" --force --json "$work/summary.json" >/dev/null
    end=$(date +%s.%N)
    games=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["games"]))' \
        "$work/summary.json")
    awk -v l="$label" -v g="$games" -v s="$start" -v e="$end" \
        'BEGIN { printf "  %-28s %6d games in %6.2f s: %7.0f games/s\n", l, g, e - s, g / (e - s) }'
}

echo "arena throughput, $rounds rounds (2 games each), concurrency $concurrency"
run "default match depth=1" --each depth=1
run "slimetrail depth=1" \
    --engine name=a "cmd=$engine" --engine name=b "cmd=$engine" --each depth=1 option.Hash=1
run "mock engine depth=1" \
    --engine name=a "cmd=$arena" arg=mock-engine --engine name=b "cmd=$arena" arg=mock-engine \
    --each depth=1
run "random player (no process)" --engine name=a cmd=random --engine name=b cmd=random
