#!/usr/bin/env bash
# Writes the built-in 8x8 opening book, src/search/book/8x8.txt: every won position
# within PLIES plies of the e5 start whose proof from an empty table needs more than
# HARD_NODES nodes. Only the positions at the last ply are proven (on JOBS threads,
# each with a HASH MiB table); the shallower ones get their values by minimax.
# The leaf proofs are kept in DIR/leaves.tsv as they finish: kill the script and
# run it again, and it proves only the rest. About 50 minutes on 2 cores for the
# defaults (4,312 leaves). `slimetrail book --verify src/search/book/8x8.txt`
# proves every move again (hours); the test `a_sample_of_the_8x8_book_wins`
# proves a sample of it in CI's slow checks (`cargo test -- --ignored slow_checks`).
#
# Usage: scripts/make-book-8x8.sh [DIR] [PLIES] [HARD_NODES] [JOBS] [HASH]
#   (defaults target/book-8x8, 5, 100000, 2, 4096)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/book-8x8}
plies=${2:-5}
hard=${3:-100000}
jobs=${4:-2}
hash=${5:-4096}
cargo build --release --quiet
target/release/slimetrail book --size 8x8 --starts e5 --plies "$plies" \
    --hard-nodes "$hard" --leaves-first "$dir" --jobs "$jobs" --hash "$hash" \
    --out src/search/book/8x8.txt
