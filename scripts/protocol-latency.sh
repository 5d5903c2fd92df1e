#!/usr/bin/env bash
# Protocol response times of the release engine, through real pipes:
#   isready -> readyok while `go infinite` runs (target: immediate, well under 10 ms)
#   stop -> bestmove                             (target: within 10 ms)
# Each round starts `go infinite` on the start position and lets it run 50 ms first.
#
# Usage: scripts/protocol-latency.sh [ROUNDS] [THREADS] [SIZE]
#   (defaults: 20 rounds, Threads 1, 7x7; for example `scripts/protocol-latency.sh 20 64 11x11`)
#   ENGINE=path measures that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${ENGINE:-}
if [[ -z $engine ]]; then
    cargo build --release --quiet --bin slimetrail
    engine="${CARGO_TARGET_DIR:-target}/release/slimetrail"
fi
SLIMETRAIL_TEST_ENGINE=$engine PROTOCOL_LATENCY_ROUNDS=${1:-20} \
    PROTOCOL_LATENCY_THREADS=${2:-1} PROTOCOL_LATENCY_SIZE=${3:-7x7} \
    cargo test --quiet --test tests protocol_latency -- --ignored --nocapture 2>&1 |
    grep -E 'ms|error|panicked'
