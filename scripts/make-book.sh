#!/usr/bin/env bash
# Writes the built-in 7x7 opening book, src/search/book/7x7.txt: every won position
# within PLIES plies of the d4 and e5 starts whose proof from an empty table needs
# more than HARD_NODES nodes, with the winning move of the engine's own proof.
# The test `every_move_of_the_built_in_book_wins` proves each move again.
#
# Usage: scripts/make-book.sh [PLIES] [HARD_NODES]   (defaults 6 and 50000)
set -euo pipefail
cd "$(dirname "$0")/.."
plies=${1:-6}
hard=${2:-50000}
cargo build --release --quiet
target/release/slimetrail book --size 7x7 --starts d4,e5 --plies "$plies" \
    --hard-nodes "$hard" --out src/search/book/7x7.txt
target/release/slimetrail book --verify src/search/book/7x7.txt
