#!/usr/bin/env bash
# Miss rate of `go movetime` on 8x8 from e5: positions of 2 to 20 plies, the truth
# from the engine's exact proof (within TRUTH_NODES nodes a position; positions
# whose truth is not proven within it are skipped and counted), cached in
# target/missrate-8x8-truth.tsv so that a second run (another build, another
# movetime) proves nothing again.
#
# Usage: scripts/bench-missrate-8x8.sh [N] [MS] [SEED] [TRUTH_NODES] [VIA] [THREADS]
#   N            positions (default 200)
#   MS           movetime in milliseconds (default 100)
#   SEED         seed of the position generator (default 1)
#   TRUTH_NODES  node limit of each proof of the truth (default 20000000)
#   VIA, THREADS as for scripts/bench-missrate.sh
# Exits non-zero if there was a miss.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
export MISSRATE_STARTS=e5
export MISSRATE_PLIES=2-20
export MISSRATE_TRUTH_NODES=${4:-20000000}
export MISSRATE_CACHE=${MISSRATE_CACHE:-$PWD/target/missrate-8x8-truth.tsv}
exec scripts/bench-missrate.sh "${1:-200}" "${2:-100}" "${3:-1}" "${5:-engine}" 8x8 "${6:-1}"
