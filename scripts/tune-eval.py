#!/usr/bin/env python3
"""Fits the evaluation's weights to the results of played games (Texel-style tuning).

Reads the games of an arena PGN file, replays each through the engine and asks `eval`
for the terms of every position from ply MIN_PLY (default 4) up to the first move whose
comment carries a mate score (from there on the engine played a proven result, so the
evaluation played no part). Each position is labelled 1 if the side to move went on to
win, else 0. A term divided by its weight in src/search/eval.rs is its raw feature; a
logistic regression of the labels on the raw features (Newton's method, no intercept:
the evaluation is antisymmetric) gives new weights, scaled so that SCALE centipoints
make one unit of log-odds (default 300).

    scripts/tune-eval.py [--min-ply N] [--max-ply N] [--scale S] ENGINE games.pgn...

Prints the number of positions, the log-loss of the weights in use (at their best
scale) and of the fitted ones, and the fitted weights. It needs nothing beyond Python.
"""

import argparse
import math
import os
import re
import subprocess
import sys

TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
TOKEN = re.compile(r'\{[^}]*\}|[a-z]\d+|\d+\.')
MATE = re.compile(r'[+-]M\d+')
WEIGHT = re.compile(r'^\s*(\w+):\s*(-?\d+),\s*$')


def weights_in_use(root):
    """The weights of `pub const WEIGHTS` in src/search/eval.rs, by term name."""
    weights, inside = {}, False
    with open(os.path.join(root, "src", "search", "eval.rs"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("pub const WEIGHTS"):
                inside = True
            elif inside and line.startswith("};"):
                break
            elif inside and (m := WEIGHT.match(line)):
                weights[m.group(1)] = int(m.group(2))
    if not weights:
        sys.exit("tune-eval: no `pub const WEIGHTS` found in src/search/eval.rs")
    return weights


def read_games(paths):
    """(tags, moves, index of the first move played from a proven result) per game."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for chunk in text.split("\n[Event "):
            tags = dict(TAG.match(line).groups() for line in chunk.splitlines()
                        if TAG.match(line))
            body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
            moves, proven_from = [], None
            for token in TOKEN.findall(body):
                if token.startswith("{"):
                    if proven_from is None and moves and MATE.search(token):
                        proven_from = len(moves) - 1
                elif not token.endswith("."):
                    moves.append(token)
            if tags.get("Result") in ("1-0", "0-1") and moves:
                yield tags, moves, len(moves) if proven_from is None else proven_from


def positions(engine, games, min_ply, max_ply):
    """(raw terms by name, label) of every position to fit."""
    commands, labels = [], []
    for tags, moves, proven_from in games:
        size = tags.get("Board", "7x7")
        start = f" start {tags['Start']}" if "Start" in tags else ""
        commands.append(f"newgame size {size}{start}")
        winner = 1 if tags["Result"] == "1-0" else 2
        for ply, move in enumerate(moves[:proven_from]):
            if min_ply <= ply <= max_ply:
                commands.append("eval")
                labels.append(1 if ply % 2 + 1 == winner else 0)
            commands.append(f"move {move}")
    commands.append("quit")
    run = subprocess.run([engine], input="\n".join(commands) + "\n",
                         capture_output=True, text=True, check=True)
    rows, current = [], None
    for line in run.stdout.splitlines():
        words = line.split()
        if words[:3] == ["info", "string", "eval"] and len(words) == 5:
            name, value = words[3], int(words[4])
            if name == "total":
                current = {}
                rows.append(current)
            elif current is not None:
                current[name] = value
        elif words[:4] == ["info", "string", "eval", "the"]:
            rows.append(None)
    if len(rows) != len(labels):
        sys.exit(f"tune-eval: {len(rows)} evaluations for {len(labels)} positions: "
                 "expected one `eval total` per position")
    return [(r, y) for r, y in zip(rows, labels) if r is not None]


def log_loss(data, w):
    total = 0.0
    for x, y in data:
        z = sum(a * b for a, b in zip(w, x))
        total += math.log1p(math.exp(-z)) if y else math.log1p(math.exp(z))
    return total / len(data)


def fit(data, n):
    """Logistic regression by Newton's method, with a small ridge for stability."""
    w = [0.0] * n
    for _ in range(25):
        grad = [0.0] * n
        hess = [[1e-6 * len(data) if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in data:
            z = sum(a * b for a, b in zip(w, x))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(n):
                grad[i] += (p - y) * x[i]
                for j in range(n):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def solve(a, b):
    """Solves a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-ply", type=int, default=4)
    parser.add_argument("--max-ply", type=int, default=200)
    parser.add_argument("--scale", type=float, default=300.0)
    parser.add_argument("engine")
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    weights = weights_in_use(root)
    if any(v == 0 for v in weights.values()):
        sys.exit(f"tune-eval: a weight of 0 hides its raw feature: {weights}; "
                 "expected every weight non-zero")
    names = list(weights)
    games = list(read_games(args.pgn))
    rows = positions(args.engine, games, args.min_ply, args.max_ply)
    data = [([r[n] / weights[n] for n in names], y) for r, y in rows]
    print(f"{len(games)} games, {len(data)} positions from ply {args.min_ply}")
    current = [weights[n] for n in names]
    scale = fit([([sum(a * b for a, b in zip(current, x))], y) for x, y in data], 1)[0]
    print(f"weights in use: log-loss {log_loss(data, [scale * c for c in current]):.5f} "
          f"(one unit of log-odds per {1 / scale:.0f} centipoints)")
    w = fit(data, len(names))
    print(f"fitted:         log-loss {log_loss(data, w):.5f} (constant: {math.log(2):.5f})")
    for name, value in zip(names, w):
        print(f"    {name}: {round(args.scale * value)},")


if __name__ == "__main__":
    main()
