#!/usr/bin/env bash
# Protocol response times of the release engine, through real pipes:
#   isready -> readyok while `go infinite` runs (target: immediate, well under 10 ms)
#   stop -> bestmove                             (target: within 10 ms)
# Each round starts `go infinite` on the 7x7 start and lets it run 50 ms first.
#
# Usage: scripts/protocol-latency.sh [ROUNDS]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin slimetrail
SLIMETRAIL_TEST_ENGINE=target/release/slimetrail PROTOCOL_LATENCY_ROUNDS=${1:-20} \
    cargo test --quiet --test tests protocol_latency -- --ignored --nocapture 2>&1 |
    grep -E 'ms|error|panicked'
