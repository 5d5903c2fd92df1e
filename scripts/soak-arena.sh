#!/usr/bin/env bash
# Soak test of the arena's records: a long run is killed at random moments (kill -9,
# SIGINT, SIGTERM) and resumed after each kill until it completes; then the state file,
# the PGN file and the JSON summary must agree game by game, and no process of the run
# may be left.
#
# Usage: scripts/soak-arena.sh [ROUNDS] [KILLS]
#   ROUNDS  game pairs of the tournament of three mock engines (default 5000: 30000 games)
#   KILLS   interruptions at most before the run is let finish (default 40)
# Environment: CARGO_TARGET_DIR (where the debug build is), SOAK_MIN_MS / SOAK_MAX_MS
# (the random time each run gets before it is killed; default 150..1500 ms).
set -euo pipefail
rounds=${1:-5000}
max_kills=${2:-40}
min_ms=${SOAK_MIN_MS:-150}
max_ms=${SOAK_MAX_MS:-1500}
cd "$(dirname "$0")/.."
cargo build --quiet --bin slimetrail-arena
arena=${CARGO_TARGET_DIR:-$PWD/target}/debug/slimetrail-arena
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

engine() {
    echo --engine "name=$1" "cmd=$arena" arg=mock-engine arg=--pid-file "arg=$work/$1.pids" "arg=--seed" "arg=$2"
}
# shellcheck disable=SC2046
args=($(engine x 1) $(engine y 2) $(engine z 3)
    --each depth=1 --rounds "$rounds" --concurrency 2 --quiet
    --state "$work/state.jsonl" --pgn "$work/games.pgn" --json "$work/summary.json")

kills=0
runs=0
declare -A by_signal=([KILL]=0 [INT]=0 [TERM]=0)
resume=()
while :; do
    runs=$((runs + 1))
    "$arena" "${args[@]}" "${resume[@]}" >"$work/out.txt" 2>"$work/err.txt" &
    pid=$!
    resume=(--resume)
    if ((kills < max_kills)); then
        sleep "$(awk -v a="$min_ms" -v b="$max_ms" -v r="$RANDOM" 'BEGIN { printf "%.3f", (a + (b - a) * r / 32767) / 1000 }')"
        if kill -0 "$pid" 2>/dev/null; then
            signal=$(shuf -n1 -e KILL INT TERM)
            kill -s "$signal" "$pid" 2>/dev/null || true
            set +e
            wait "$pid"
            code=$?
            set -e
            if ((code == 0)); then
                echo "run $runs finished before the $signal"
                break
            fi
            expected=$([[ $signal == KILL ]] && echo 137 || echo 130)
            if ((code != expected)); then
                echo "run $runs: exit code $code after SIG$signal; expected $expected" >&2
                cat "$work/err.txt" >&2
                exit 1
            fi
            kills=$((kills + 1))
            by_signal[$signal]=$((by_signal[$signal] + 1))
            saved=$(($(wc -l <"$work/state.jsonl") - 1))
            echo "kill $kills: SIG$signal after run $runs, $saved games saved"
            continue
        fi
    fi
    set +e
    wait "$pid"
    code=$?
    set -e
    if ((code != 0)); then
        echo "run $runs failed with exit code $code" >&2
        cat "$work/err.txt" >&2
        exit 1
    fi
    break
done

python3 - "$work" "$rounds" <<'PY'
import json, os, re, sys
work, rounds = sys.argv[1], int(sys.argv[2])
total = rounds * 6  # three engines round-robin: three pairings, two games per round each
lines = open(os.path.join(work, "state.jsonl")).read().split("\n")
assert lines[-1] == "", "the state file does not end with a whole line"
state = [json.loads(l) for l in lines[1:-1]]
numbers = [g["number"] for g in state]
assert sorted(numbers) == list(range(total)), f"state: {len(numbers)} games, {len(set(numbers))} distinct, of {total}"
summary = json.load(open(os.path.join(work, "summary.json")))
# The JSON numbers games and pairs from 1 and lists the opening's moves; the state
# numbers them from 0 and keeps the opening as one string.
by_number = {g["number"] - 1: g for g in summary["games"]}
assert len(summary["games"]) == total and len(by_number) == total, "JSON games"
keys = ["round", "players", "winner", "termination", "detail", "plies", "moves", "start"]
for g in state:
    j = by_number[g["number"]]
    for k in keys:
        assert g[k] == j[k], f"game {g['number']}: {k} is {g[k]!r} in the state and {j[k]!r} in the JSON"
    assert g["pair"] + 1 == j["pair"], f"game {g['number']}: pair {g['pair']} in the state, {j['pair']} in the JSON"
    assert g["opening"] == " ".join(j["opening"]), f"game {g['number']}: opening {g['opening']!r} in the state, {j['opening']!r} in the JSON"
pgn = open(os.path.join(work, "games.pgn")).read()
assert pgn.endswith("\n\n"), "the PGN does not end with a whole record"
records = [r for r in re.split(r"(?m)^(?=\[Event )", pgn) if r.strip()]
assert len(records) == total, f"{len(records)} PGN records for {total} games"
for g, record in zip(state, records):
    rnd = re.search(r'\[Round "(\d+)\.(\d+)"\]', record)
    assert rnd and int(rnd.group(2)) - 1 == g["number"], f"PGN record out of step with the state at game {g['number']}"
    result = "1-0" if g["winner"] == 1 else "0-1"
    assert f'[Result "{result}"]' in record and record.rstrip().endswith(result), f"game {g['number']}: PGN result"
    assert f'[P1 "{g["players"][0]}"]' in record, f"game {g['number']}: PGN players"
print(f"checked {total} games: state, JSON and PGN agree game by game")
PY

survivors=()
for file in "$work"/*.pids; do
    while read -r p; do
        if [[ -e /proc/$p/stat ]] && ! grep -q ') Z' "/proc/$p/stat"; then
            survivors+=("$p")
        fi
    done <"$file"
done
started=$(cat "$work"/*.pids | wc -l)
if ((${#survivors[@]} > 0)); then
    echo "engine processes left behind: ${survivors[*]}" >&2
    kill -9 "${survivors[@]}" 2>/dev/null || true
    exit 1
fi
echo "survived $kills kills (SIGKILL ${by_signal[KILL]}, SIGINT ${by_signal[INT]}, SIGTERM ${by_signal[TERM]}) in $runs runs; all $started engine processes of the run are gone"
