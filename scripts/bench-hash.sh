#!/usr/bin/env bash
# Proof speed against table size: `slimetrail solve` of one position at several
# --hash sizes, runs alternating between the sizes so that drift in the machine's
# speed hits all of them. A bigger table stores more, so the proof needs fewer
# nodes; but once the table outgrows the processor's last-level cache, each probe
# waits on main memory, and every node gets slower. This shows where the two meet.
#
# Usage: scripts/bench-hash.sh [RUNS] [THREADS] [POSITION] [HASH_MB...]
#   RUNS      runs per size; medians are reported (default 3)
#   THREADS   proof threads (default 1)
#   POSITION  a position string (default "8/8/3xx3/3xxs2/8/8/8/8 1", an 8x8
#             player-2 win four plies from e5, about 47 M nodes)
#   HASH_MB   sizes to try (default: 16 64 256 1024 4096)
# The binary is target/release/slimetrail, or SLIMETRAIL_BIN to measure another build.
set -euo pipefail
runs=${1:-3}
threads=${2:-1}
position=${3:-"8/8/3xx3/3xxs2/8/8/8/8 1"}
shift 3 || shift $#
hashes=("$@")
[ ${#hashes[@]} -gt 0 ] || hashes=(16 64 256 1024 4096)
cd "$(dirname "$0")/.."
if [[ -z ${SLIMETRAIL_BIN:-} ]]; then
    cargo build --release --quiet --bin slimetrail
fi
bin=${SLIMETRAIL_BIN:-target/release/slimetrail}
command -v python3 >/dev/null || { echo "bench-hash: python3 is missing: expected it to read solve's JSON" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

for hash in "${hashes[@]}"; do : >"$out/t$hash"; : >"$out/n$hash"; done
for _ in $(seq "$runs"); do
    for hash in "${hashes[@]}"; do
        "$bin" solve --position "$position" --hash "$hash" --threads "$threads" --json >"$out/r.json"
        python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "proven", "bench-hash: the proof did not finish: " + r["status"]
print(r["proof"]["time_ms"] / 1000, r["proof"]["nodes"])' "$out/r.json" >"$out/line"
        read -r t n <"$out/line"
        echo "$t" >>"$out/t$hash"
        echo "$n" >>"$out/n$hash"
    done
done
echo "position \"$position\", $threads thread(s), medians of $runs run(s)"
printf '%8s %10s %12s %10s\n' hash_MB proof_s nodes M_nodes/s
for hash in "${hashes[@]}"; do
    t=$(median <"$out/t$hash") n=$(median <"$out/n$hash")
    printf '%8s %10.3f %12d %10.2f\n' "$hash" "$t" "$n" "$(python3 -c "print($n / $t / 1e6)")"
done
