#!/usr/bin/env bash
# Feeds the engine hostile input, one fresh process per case, and after each case
# checks that it is alive and answers `isready` (or, for the end-of-input cases,
# that it exits with status 0 after its `bestmove`s). Reports the cases tried, the
# crashes (a signal, a non-zero status, or no `readyok` within 60 s: must be 0) and
# the peak resident memory of any engine process (VmHWM, Linux).
#
# Usage: scripts/hostile-engine.sh [ENGINE]
#   ENGINE defaults to the dev build (cargo build; opt-level 3), or $SLIMETRAIL_ENGINE.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-${SLIMETRAIL_ENGINE:-}}
if [[ -z $engine ]]; then
    cargo build --quiet --bin slimetrail
    engine="${CARGO_TARGET_DIR:-target}/debug/slimetrail"
fi
exec python3 - "$engine" <<'PYTHON'
import os, queue, subprocess, sys, threading, time

ENGINE = sys.argv[1]
WAIT = 60.0

class Engine:
    def __init__(self):
        self.proc = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env={**os.environ, "RUST_LOG": "off"})
        self.lines = queue.Queue()
        self.reading = threading.Event()
        self.reading.set()
        self.peak = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.reading.wait()
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def until(self, pred, timeout=WAIT):
        end = time.time() + timeout
        got = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.time()))
            except queue.Empty:
                return got, False
            if line is None:
                return got, False
            got.append(line)
            if pred(line):
                return got, True

    def rss_peak(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        self.peak = max(self.peak, int(line.split()[1]))
        except OSError:
            pass
        return self.peak

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass

def ready_after(feed):
    """Feeds the case, then stops any search and asks isready."""
    e = Engine()
    feed(e)
    # Commands wait for the search before them, and each search that only stop
    # ends needs its own stop: send plenty (stop without a search is ignored).
    e.send(b"\n" + b"stop\n" * 1000 + b"isready\n")
    _, ok = e.until(lambda l: l == "readyok")
    peak = e.rss_peak()
    e.send("quit\n")
    try:
        status = e.proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        e.proc.kill(); status = "hung at quit"
    return ok and status == 0, f"readyok={ok} status={status}", peak

def exits_after(feed, bestmoves):
    """Feeds the case and closes the input: status 0 and the expected bestmoves."""
    e = Engine()
    feed(e)
    e.close()
    got, _ = e.until(lambda l: False, timeout=WAIT)
    peak = e.rss_peak()
    try:
        status = e.proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        e.proc.kill(); status = "hung"
    n = sum(1 for l in got if l.startswith("bestmove"))
    return status == 0 and n == bestmoves, f"status={status} bestmoves={n}/{bestmoves}", peak

def lines(*ls):
    return lambda e: e.send("".join(l + "\n" for l in ls))

def raw(data):
    return lambda e: e.send(data)

def not_reading(data, seconds=2.0):
    """Writes `data` while nobody reads the engine's output, then reads again."""
    def feed(e):
        e.reading.clear()
        writer = threading.Thread(target=e.send, args=(data,), daemon=True)
        writer.start()
        time.sleep(seconds)
        e.rss_peak()
        e.reading.set()
        writer.join(timeout=WAIT)
    return feed

def drain_then(feed_lines, expect):
    """Sends lines and waits for `expect` occurrences of bestmove."""
    def feed(e):
        e.send(feed_lines)
        for _ in range(expect):
            e.until(lambda l: l.startswith("bestmove"))
    return feed

big = 1 << 20
cases = [
    ("Hash far beyond the machine", lines("setoption name Hash value 65536", "setoption name Hash value 30000",
                                           "setoption name Hash value 1000000000", "go depth 3")),
    ("Hash out of range and malformed", lines("setoption name Hash value 0", "setoption name Hash value -1",
                                               "setoption name Hash value 99999999999999999999999",
                                               "setoption name Hash value", "setoption name Hash", "go depth 2")),
    ("Hash at the advertised maximum, newgame, search on 11x11",
     lines("ugi", "setoption name Hash value 1000000", "newgame size 11x11", "go movetime 200", "uginewgame")),
    ("large Hash on 7x7 newgame loop", lines("setoption name Hash value 2048",
                                             *["uginewgame\ngo depth 2"] * 20)),
    ("Threads extremes", lines("setoption name Threads value 64", "go movetime 100",
                               "setoption name Threads value 0", "setoption name Threads value 1000000",
                               "newgame size 11x11", "go movetime 100")),
    ("Level, MoveOverhead, Seed extremes", lines("setoption name Level value 0", "setoption name Level value 11",
                                                 "setoption name Level value 1", "go depth 9",
                                                 "setoption name MoveOverhead value 5000", "go movetime 10",
                                                 "setoption name Seed value 9223372036854775807",
                                                 "setoption name Seed value 9223372036854775808")),
    ("unknown option and reply words", lines("setoption name Ponder value true", "setoption",
                                             "bestmove d4", "readyok", "info string x", "id name x",
                                             "option name x type spin", "response true")),
    ("a 10 MiB line", raw(b"x" * (10 * big) + b"\n")),
    ("a 10 MiB line without a line feed, then isready", raw(b"go " * (3 * big) + b"\n")),
    ("NUL bytes", raw(b"is\0ready\n\0\0\0\ngo\0 depth 3\n\0\n")),
    ("CRLF and lone CR", raw(b"isready\r\ngo depth 2\r\n\r\r\r\nposition startpos moves c3\r\n")),
    ("invalid UTF-8 and random bytes", raw(bytes((i * 7919 + 13) % 256 for i in range(200000)))),
    ("flood of go infinite / stop", lines(*["go infinite\nstop"] * 500)),
    ("flood of go infinite without stop", lines(*["go infinite"] * 200)),
    ("flood of stop and isready", lines(*["stop\nisready"] * 2000)),
    ("commands right after stop in one write", drain_then(
        "go infinite\nstop\nposition startpos moves e4\ngo depth 3\nperft 2\nsolve depth 2\n", 3)),
    ("1 M lines of d while not reading the output", not_reading(b"d\n" * 1_000_000)),
    ("go limits at the edges", lines("go nodes 0", "go nodes 1", "go depth 0", "go movetime 0",
                                     "go p1time -5 p2time -5", "go p1time 0 p2time 0 movestogo 0",
                                     "go nodes 18446744073709551615 movetime 50",
                                     "go depth 4294967295 movetime 50",
                                     "go movetime 18446744073709551615", "stop")),
    ("bad go limits", lines("go depth -1", "go nodes 18446744073709551616", "go depth 1 depth 2",
                            "go p1time 5", "go fast", "go movetime")),
    ("UCI words and case", lines("uci", "ucinewgame", "GO", "help", "Isready", "position startpos moves e2e4")),
    ("position garbage", lines("position fen ////// 1", "position fen 12/12/12 1", "position startpos moves " + "c3 " * 5000,
                               "position fen 3/1s1/3 1 moves a1 b1 c1", "newgame size 99x99", "newgame size 0x0",
                               "newgame start z9", "move z9", "move")),
    ("finished game", lines("position fen 3/1s1/3 1 moves a1", "go depth 3", "solve", "eval", "d", "legal",
                            "query result")),
    ("developer commands stopped", lines("perft 30", "stop", "solve", "stop", "bench", "newgame size 11x11",
                                         "solve infinite", "stop", "perft 12", "stop")),
]
eof_cases = [
    ("EOF during go infinite", lines("go infinite"), 1),
    ("EOF during go movetime 500", lines("position startpos", "go movetime 500"), 1),
    ("EOF with searches waiting", lines("go depth 4", "go depth 4", "go nodes 5000"), 3),
    ("EOF during solve infinite on 11x11", lines("newgame size 11x11", "solve infinite"), 1),
    ("EOF in the middle of a line", raw(b"go depth 3\ngo dep"), 1),
    ("quit during a search with waiting commands", lines("go infinite", "d", "go depth 3", "quit"), 1),
]

crashes = 0
peak = 0
tried = 0
for name, feed in cases:
    ok, detail, p = ready_after(feed)
    tried += 1; peak = max(peak, p); crashes += not ok
    print(f"{'ok   ' if ok else 'CRASH'} {name}: {detail}, peak RSS {p // 1024} MiB", flush=True)
for name, feed, n in eof_cases:
    ok, detail, p = exits_after(feed, n)
    tried += 1; peak = max(peak, p); crashes += not ok
    print(f"{'ok   ' if ok else 'CRASH'} {name}: {detail}, peak RSS {p // 1024} MiB", flush=True)
print(f"cases tried: {tried}, crashes: {crashes}, peak RSS: {peak // 1024} MiB")
sys.exit(1 if crashes else 0)
PYTHON
