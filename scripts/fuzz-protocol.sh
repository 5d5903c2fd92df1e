#!/usr/bin/env bash
# A longer fuzz run of the engine protocol than `cargo test` does.
#
# 1. The property test tests/protocol_fuzz.rs with many more cases: random mixes of
#    commands in any order, random bytes, invalid UTF-8 and long lines; after each
#    case the engine must answer isready, write only valid messages, and quit cleanly.
# 2. Raw random bytes from /dev/urandom, 1 MiB per run, piped straight into the
#    release binary for SECONDS seconds; after each run it must still answer isready.
#
# Usage: scripts/fuzz-protocol.sh [CASES] [SECONDS]   (defaults: 5000 cases, 60 s)
set -euo pipefail
cases=${1:-5000}
seconds=${2:-60}
cd "$(dirname "$0")/.."

echo "property test with $cases cases"
PROTOCOL_FUZZ_CASES=$cases cargo test --quiet --test tests protocol_fuzz

cargo build --release --quiet --bin slimetrail
bin=target/release/slimetrail
echo "raw random input for $seconds s"
input=$(mktemp)
output=$(mktemp)
trap 'rm -f "$input" "$output"' EXIT
runs=0
end=$((SECONDS + seconds))
while [ "$SECONDS" -lt "$end" ]; do
    { head -c 1048576 /dev/urandom; printf '\nstop\nisready\n'; } >"$input"
    status=0
    timeout 30 "$bin" <"$input" >"$output" 2>/dev/null || status=$?
    # readyok may be followed by the bestmove of a search that random bytes started.
    if [ "$status" -ne 0 ] || ! grep -qx readyok "$output"; then
        kept=fuzz-failure-$runs.bin
        cp "$input" "$kept"
        echo "run $runs: exit status $status, readyok $(grep -cx readyok "$output") times; input kept in $kept"
        exit 1
    fi
    runs=$((runs + 1))
done
echo "ok: $runs runs of 1 MiB random input, each answered isready and exited cleanly"
