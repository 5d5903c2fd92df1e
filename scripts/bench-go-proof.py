#!/usr/bin/env python3
"""How fast `go` proves won positions, for one or more builds in one run.

For each position a miss-rate truth cache marks as won (by default the 9x9 one that
scripts/bench-missrate-9x9.sh writes, target/missrate-9x9-truth.tsv), every build in
turn gets `uginewgame`, the position and `go movetime MS`; the time of its first
`info` line with a winning mate score is the position's time to proof. A position
not proven within MS counts as 2 x MS. Prints one line a position (the times, in the
order of the builds) and then, for each build, the positions left unproven, the sum
of the times (each capped at MS) and their geometric mean.

Usage: scripts/bench-go-proof.py [--cache FILE] [--limit N] MS BUILD [BUILD ...]
  MS       movetime of each search, in milliseconds
  BUILD    path of a slimetrail binary (any UGI engine whose mate scores are positive
           for the side to move)
  --cache  truth cache: lines "<position>\\t<win|loss|unproven N>" [target/missrate-9x9-truth.tsv]
  --limit  only the first N won positions [all]
Example (issue 29's note): scripts/bench-go-proof.py 2000 /tmp/before target/release/slimetrail
"""
import argparse
import math
import os
import subprocess
import sys


def fail(message):
    print(f"bench-go-proof: {message}", file=sys.stderr)
    sys.exit(2)


class Engine:
    """One engine process spoken to over the protocol."""

    def __init__(self, path):
        self.path = path
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.ask(["ugi"], "ugiok")

    def ask(self, lines, until):
        """Sends `lines` and returns the output up to the line starting with `until`."""
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        out = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                fail(f"{self.path} exited while we waited for '{until}': expected an engine that answers it")
            out.append(line.split())
            if out[-1][:1] == [until]:
                return out

    def time_to_proof(self, position, ms):
        """Milliseconds until the first winning mate score, or 2 x `ms` if none came."""
        self.ask(["uginewgame", f"position fen {position}", "isready"], "readyok")
        for words in self.ask([f"go movetime {ms}"], "bestmove"):
            if "mate" in words and "time" in words:
                try:
                    mate = int(words[words.index("mate") + 1])
                    time = int(words[words.index("time") + 1])
                except (ValueError, IndexError):
                    fail(f"{self.path} sent '{' '.join(words)}': expected 'score mate N' and 'time MS' with numbers")
                if mate > 0:
                    return time
        return 2 * ms

    def quit(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(add_help=True, usage=__doc__)
    parser.add_argument("--cache", default="target/missrate-9x9-truth.tsv")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("ms", type=int)
    parser.add_argument("builds", nargs="+")
    args = parser.parse_args()
    if args.ms <= 0:
        fail(f"MS is {args.ms}: expected a positive number of milliseconds")
    for build in args.builds:
        if not (os.path.isfile(build) and os.access(build, os.X_OK)):
            fail(f"{build} is not an executable file: expected the path of an engine binary")
    try:
        with open(args.cache) as cache:
            rows = [line.rstrip("\n").split("\t") for line in cache if line.strip()]
    except OSError as error:
        fail(f"cannot read the truth cache {args.cache} ({error}): expected the file "
             "scripts/bench-missrate-9x9.sh writes; run it first")
    won = [row[0] for row in rows if len(row) == 2 and row[1] == "win"]
    if args.limit is not None:
        won = won[:args.limit]
    if not won:
        fail(f"{args.cache} marks no position as won: expected lines '<position>\\t win'")
    engines = [Engine(build) for build in args.builds]
    times = [[] for _ in engines]
    for index, position in enumerate(won):
        row = [engine.time_to_proof(position, args.ms) for engine in engines]
        for column, time in zip(times, row):
            column.append(time)
        print(index + 1, position, *row, flush=True)
    for engine in engines:
        engine.quit()
    print()
    print(f"| build | unproven within {args.ms} ms | sum of times (capped) | geometric mean |")
    print("|---|---|---|---|")
    for build, column in zip(args.builds, times):
        unproven = sum(1 for t in column if t >= 2 * args.ms)
        total = sum(min(t, args.ms) for t in column) / 1000
        mean = math.exp(sum(math.log(max(t, 1)) for t in column) / len(column))
        print(f"| {build} | {unproven} of {len(column)} | {total:.1f} s | {mean:.1f} ms |")


if __name__ == "__main__":
    main()
