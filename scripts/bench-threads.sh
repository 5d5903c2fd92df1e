#!/usr/bin/env bash
# Parallel speed-up of the proof search: `slimetrail solve` with --threads 1 and
# --threads 2 (one shared table) on the 7x7 proofs from d4 and e5 and on three 8x8
# first-move proofs from e5 (after d5, e4 and f4, each a win for player 2).
# Runs alternate, one thread then two, so that drift in the machine's speed hits both.
# Report per position: the medians of proof time and nodes, and the speed-up
# (median time on one thread / median time on two). Needs an idle machine with at
# least two cores.
#
# Usage: scripts/bench-threads.sh [RUNS] [HASH_MB] [ONLY]   (defaults 5, 2048, all)
#   ONLY   run only the positions whose name starts with it, e.g. 7x7 or 8x8
# The binary is target/release/slimetrail, or SLIMETRAIL_BIN to compare another build.
set -euo pipefail
runs=${1:-5}
hash=${2:-2048}
only=${3:-}
cd "$(dirname "$0")/.."
if [[ -z ${SLIMETRAIL_BIN:-} ]]; then
    cargo build --release --quiet --bin slimetrail
fi
bin=${SLIMETRAIL_BIN:-target/release/slimetrail}
command -v python3 >/dev/null || { echo "bench-threads: python3 is missing: expected it to read solve's JSON" >&2; exit 1; }
positions=(
    "7x7 d4|--size 7x7 --start d4"
    "7x7 e5|--size 7x7 --start e5"
    "8x8 e5 d5|--position 8/8/8/3sx3/8/8/8/8 2"
    "8x8 e5 e4|--position 8/8/8/4x3/4s3/8/8/8 2"
    "8x8 e5 f4|--position 8/8/8/4x3/5s2/8/8/8 2"
)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
printf '%-12s %10s %12s %10s %12s %8s\n' position t1_s nodes1 t2_s nodes2 speedup
for entry in "${positions[@]}"; do
    name=${entry%%|*}
    [[ $name == "$only"* ]] || continue
    read -r -a args <<<"${entry#*|}"
    if [[ ${args[0]} == --position ]]; then args=(--position "${args[*]:1}"); fi
    for threads in 1 2; do : >"$out/t$threads"; : >"$out/n$threads"; done
    for _ in $(seq "$runs"); do
        for threads in 1 2; do
            "$bin" solve "${args[@]}" --hash "$hash" --threads "$threads" --json >"$out/r.json"
            python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "proven", r["status"]
print(r["proof"]["time_ms"] / 1000, r["proof"]["nodes"])' "$out/r.json" >"$out/line"
            read -r t n <"$out/line"
            echo "$t" >>"$out/t$threads"
            echo "$n" >>"$out/n$threads"
        done
    done
    t1=$(median <"$out/t1") t2=$(median <"$out/t2")
    n1=$(median <"$out/n1") n2=$(median <"$out/n2")
    printf '%-12s %10.3f %12d %10.3f %12d %8.2f\n' "$name" "$t1" "$n1" "$t2" "$n2" \
        "$(python3 -c "print($t1 / $t2)")"
done
