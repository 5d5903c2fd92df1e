#!/usr/bin/env bash
# Proof speed and memory of `slimetrail solve` (issue 4 targets: the 7x7 centre
# start in under 0.1 s, the 7x7 e5 start in under 0.2 s, on one core; memory
# within the Hash setting plus a few MB).
#
# Usage: scripts/bench-solve.sh [RUNS] [HASH_MB...]
#   RUNS     runs per start and hash size; medians are reported (default 5)
#   HASH_MB  hash sizes to try (default: 16 64 256)
# For each start (d4, the centre, and e5) and hash size it reports the verdict,
# the medians of the proof's time and nodes as printed by `solve` ("proof: ..."),
# of solve's total time (with the line and the search for the length), of the wall
# time of the whole process, and of the peak resident memory (/usr/bin/time -v).
set -euo pipefail
runs=${1:-5}
shift || true
hashes=("$@")
[ ${#hashes[@]} -gt 0 ] || hashes=(16 64 256)
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin slimetrail
bin=target/release/slimetrail
[ -x /usr/bin/time ] || { echo "bench-solve: /usr/bin/time is missing: expected GNU time for -v" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

small_cap=4 # SMALL_BOARD_TABLE_MB in src/search/engine.rs
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

printf '%-5s %7s  %-26s %8s %11s %8s %8s %10s %9s\n' \
    start hash verdict proof_s proof_nodes total_s wall_s maxrss_MB over_table
for start in d4 e5; do
    for hash in "${hashes[@]}"; do
        : >"$out/proof_s"; : >"$out/nodes"; : >"$out/total_s"; : >"$out/wall_s"; : >"$out/rss"
        verdict=""
        for _ in $(seq "$runs"); do
            /usr/bin/time -v -o "$out/time" "$bin" solve --size 7x7 --start "$start" --hash "$hash" >"$out/stdout"
            verdict=$(head -n 1 "$out/stdout" | sed -E 's/: .*//')
            # "proof: <nodes> nodes in <seconds> s (<rate> M nodes/s)"
            # "total with the line and the length: <nodes> nodes in <seconds> s"
            awk '/^proof:/ {print $2}' "$out/stdout" >>"$out/nodes"
            awk '/^proof:/ {print $5}' "$out/stdout" >>"$out/proof_s"
            awk -F': ' '/^total/ {split($2, a, " "); print a[4]}' "$out/stdout" >>"$out/total_s"
            awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' \
                "$out/time" >>"$out/wall_s"
            awk -F': ' '/Maximum resident set size/ {print $2/1024}' "$out/time" >>"$out/rss"
        done
        rss=$(median <"$out/rss")
        printf '%-5s %5sMB  %-26s %8s %11s %8s %8s %10.1f %9.1f\n' \
            "$start" "$hash" "$verdict" "$(median <"$out/proof_s")" "$(median <"$out/nodes")" \
            "$(median <"$out/total_s")" "$(median <"$out/wall_s")" "$rss" \
            "$(awk -v r="$rss" -v h="$hash" -v c="$small_cap" 'BEGIN {print r-(h<c?h:c)}')"
    done
done
echo "(medians of $runs runs, one core; seconds; over_table = maxrss_MB - table; on 7x7 the"
echo " table is min(hash, $small_cap MB): boards of up to 49 squares use no more)"

# Memory where the whole Hash is used: 8x8 for 3 seconds touches every page of the table.
for hash in "${hashes[@]}"; do
    /usr/bin/time -v -o "$out/time" "$bin" solve --size 8x8 --hash "$hash" --time 3 >/dev/null
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2/1024}' "$out/time")
    printf '8x8 e5, 3 s: hash %s MB, maxrss %.1f MB, over the hash %.1f MB\n' \
        "$hash" "$rss" "$(awk -v r="$rss" -v h="$hash" 'BEGIN {print r-h}')"
done
