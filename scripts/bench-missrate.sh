#!/usr/bin/env bash
# Miss rate of `go movetime`: on random positions from every phase, how often does a
# search of MS milliseconds miss a winning move that exists?
# The truth is the engine's exact `solve` without limits, cross-checked by the
# independent oracle of tests/oracle where the region is small enough.
#
# Usage: scripts/bench-missrate.sh [N] [MS] [SEED] [VIA] [SIZE] [THREADS]
#   N     positions (default 2000)
#   MS    movetime in milliseconds (default 100)
#   SEED  seed of the position generator (default 1)
#   VIA   engine: the library in-process, a fresh game per position (default);
#         protocol: the release binary over UGI (uginewgame, position fen, go movetime)
#   SIZE  board size (default 7x7)
#   THREADS  the engine's Threads option (default 1)
# Prints positions, positions with a winning move, misses (position strings), the
# miss rate and the search-time distribution. Exits non-zero if there was a miss.
set -euo pipefail
cd "$(dirname "$0")/.."
export MISSRATE_POSITIONS=${1:-2000}
export MISSRATE_MS=${2:-100}
export MISSRATE_SEED=${3:-1}
export MISSRATE_VIA=${4:-engine}
export MISSRATE_SIZE=${5:-7x7}
export MISSRATE_THREADS=${6:-1}
cargo bench --quiet --bench missrate --no-run
cargo bench --quiet --bench missrate
