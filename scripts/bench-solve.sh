#!/usr/bin/env bash
# Proof speed and memory of `slimetrail solve`. Targets: the 7x7 centre start (d4)
# in under 0.1 s and the 7x7 e5 start in under 0.2 s, on one core; memory within
# the table plus a few MB.
#
# Usage: scripts/bench-solve.sh [RUNS] [HASH_MB...]
#   RUNS     runs per start and hash size; medians are reported (default 5)
#   HASH_MB  hash sizes to try (default: 16 64 256)
# For each start (d4, the centre, and e5) and hash size it reports the verdict and
# winning move, the medians of the proof's time and nodes, of solve's total time
# (with the line and the search for the length), all from `solve --json`, of the
# wall time of the whole process, and of the peak resident memory (/usr/bin/time -v).
set -euo pipefail
runs=${1:-5}
shift || true
hashes=("$@")
[ ${#hashes[@]} -gt 0 ] || hashes=(16 64 256)
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin slimetrail
bin=target/release/slimetrail
[ -x /usr/bin/time ] || { echo "bench-solve: /usr/bin/time is missing: expected GNU time for -v" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench-solve: python3 is missing: expected it to read solve's JSON" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
# The figures of one `solve --json` report, one a line: verdict, proof seconds,
# proof nodes, total seconds, table MiB.
figures() {
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
verdict = "unsolved" if r["winner"] is None else "player %d wins (%s)" % (r["winner"], r["best_move"])
print(verdict.replace(" ", "_"))
print("%.4f" % (r["proof"]["time_ms"] / 1000))
print(r["proof"]["nodes"])
print("%.4f" % (r["total"]["time_ms"] / 1000))
print(r["table_mb"])' "$1"
}

printf '%-5s %7s  %-26s %8s %11s %8s %8s %10s %9s\n' \
    start hash verdict proof_s proof_nodes total_s wall_s maxrss_MB over_table
for start in d4 e5; do
    for hash in "${hashes[@]}"; do
        : >"$out/proof_s"; : >"$out/nodes"; : >"$out/total_s"; : >"$out/wall_s"; : >"$out/rss"
        verdict="" table_mb=""
        for _ in $(seq "$runs"); do
            /usr/bin/time -v -o "$out/time" "$bin" solve --size 7x7 --start "$start" --hash "$hash" --json >"$out/report.json"
            { read -r verdict; read -r proof_s; read -r nodes; read -r total_s; read -r table_mb; } \
                < <(figures "$out/report.json")
            echo "$proof_s" >>"$out/proof_s"
            echo "$nodes" >>"$out/nodes"
            echo "$total_s" >>"$out/total_s"
            awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' \
                "$out/time" >>"$out/wall_s"
            awk -F': ' '/Maximum resident set size/ {print $2/1024}' "$out/time" >>"$out/rss"
        done
        rss=$(median <"$out/rss")
        printf '%-5s %5sMB  %-26s %8s %11s %8s %8s %10.1f %9.1f\n' \
            "$start" "$hash" "${verdict//_/ }" "$(median <"$out/proof_s")" "$(median <"$out/nodes")" \
            "$(median <"$out/total_s")" "$(median <"$out/wall_s")" "$rss" \
            "$(awk -v r="$rss" -v t="$table_mb" 'BEGIN {print r - t}')"
    done
done
echo "(medians of $runs runs, one core; seconds; over_table = maxrss_MB - the table's MiB"
echo " as solve reports it: boards of up to 49 squares use less than a large hash)"

# Memory where the whole Hash is used: 8x8 for 3 seconds touches every page of the table.
for hash in "${hashes[@]}"; do
    /usr/bin/time -v -o "$out/time" "$bin" solve --size 8x8 --hash "$hash" --time 3 --json >"$out/report.json"
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2/1024}' "$out/time")
    table_mb=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["table_mb"])' "$out/report.json")
    printf '8x8 e5, 3 s: hash %s MB, table %s MB, maxrss %.1f MB, over the table %.1f MB\n' \
        "$hash" "$table_mb" "$rss" "$(awk -v r="$rss" -v t="$table_mb" 'BEGIN {print r - t}')"
done
