#!/usr/bin/env bash
# Miss rate of `go movetime` on 9x9 from e5: positions of 2 to 30 plies, the truth
# from the engine's exact proof (within TRUTH_NODES nodes a position; positions
# whose truth is not proven within it are skipped and counted), cached in
# target/missrate-9x9-truth.tsv so that a second run (another build, another
# movetime) proves nothing again (positions unproven within the limit are tried
# again only with a larger TRUTH_NODES: the cache also keeps each position left
# unproven, with its limit). MISSRATE_PLIES=A-B in the environment sets another
# range of plies (default 2-30): the defaults keep mostly positions that `go` proves
# too, and a range such as 12-26 with TRUTH_NODES=8000000 tells builds apart. Bounded: with the defaults (80 positions, 2 M nodes a proof) one run
# costs at most about 2 x 80 proofs of 2 M nodes and 80 searches.
#
# Usage: scripts/bench-missrate-9x9.sh [N] [MS] [SEED] [TRUTH_NODES] [VIA] [THREADS]
#   N            positions (default 80)
#   MS           movetime in milliseconds (default 100)
#   SEED         seed of the position generator (default 1)
#   TRUTH_NODES  node limit of each proof of the truth (default 2000000)
#   VIA, THREADS as for scripts/bench-missrate.sh; with VIA=protocol,
#                SLIMETRAIL_TEST_ENGINE names the binary searched (another build)
# Exits non-zero if there was a miss.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
export MISSRATE_STARTS=e5
export MISSRATE_PLIES=${MISSRATE_PLIES:-2-30}
export MISSRATE_TRUTH_NODES=${4:-2000000}
export MISSRATE_CACHE=${MISSRATE_CACHE:-$PWD/target/missrate-9x9-truth.tsv}
exec scripts/bench-missrate.sh "${1:-80}" "${2:-100}" "${3:-1}" "${5:-engine}" 9x9 "${6:-1}"
