#!/usr/bin/env python3
"""Times the way of an engine's `info` line to the browser: from the moment the engine
writes it to the moment its Server-Sent Event arrives at a client of `slimetrail gui`.

The engine is this script itself (`--engine`): it stamps each `info` line with the wall
clock in microseconds as its `nodes` count, and the client subtracts that from the time
the event with those nodes arrives. Loopback only; bounded in count and time.

    python3 scripts/gui-latency.py [--bin target/debug/slimetrail] [--samples 60]
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"


def engine():
    """A minimal protocol engine whose `info` lines carry the time they were written."""
    searching = threading.Event()
    out_lock = threading.Lock()

    def say(line):
        with out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def search():
        depth = 0
        while searching.is_set() and depth < 10_000:
            depth += 1
            say(f"info depth {depth} score cp 0 nodes {time.time_ns() // 1000} pv c3")
            time.sleep(0.15)
        say("bestmove c3")

    worker = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ugi":
            say("id name stamp")
            say("ugiok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "go":
            searching.set()
            worker = threading.Thread(target=search, daemon=True)
            worker.start()
        elif words[0] == "stop":
            searching.clear()
            if worker:
                worker.join(5)
        elif words[0] == "quit":
            return


def request(port, method, path, body=b""):
    with socket.create_connection((HOST, port), timeout=10) as s:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        s.sendall(head.encode() + body)
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    status = int(reply.split(b" ", 2)[1])
    return status, reply.split(b"\r\n\r\n", 1)[1]


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/debug/slimetrail")
    ap.add_argument("--samples", type=int, default=60)
    ap.add_argument("--no-pace", action="store_true",
                    help="for a build before --pace existed")
    ap.add_argument("--engine", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.engine:
        return engine()
    gui = subprocess.Popen(
        [args.bin, "gui", "--port", "0"] + ([] if args.no_pace else ["--pace", "0"]) + ["--engine",
         f"cmd={sys.executable}", f"arg={os.path.abspath(__file__)}", "arg=--engine"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(gui.stdout.readline().strip().rstrip("/").rsplit(":", 1)[1])
        _, body = request(port, "POST", "/api/sessions")
        sid = json.loads(body)["id"]
        events = socket.create_connection((HOST, port), timeout=10)
        events.sendall(f"GET /api/sessions/{sid}/events HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
        reader = events.makefile("rb")
        request(port, "POST", f"/api/sessions/{sid}/commands",
                b"setoption name Analysis value true")
        latencies, seen = [], set()
        deadline = time.time() + 60
        while len(latencies) < args.samples and time.time() < deadline:
            line = reader.readline()
            if not line:
                break
            arrived = time.time_ns() // 1000
            if not line.startswith(b"data: "):
                continue
            nodes = (json.loads(line[6:]).get("thinking") or {}).get("nodes")
            if nodes and nodes not in seen:
                seen.add(nodes)
                latencies.append((arrived - nodes) / 1000.0)
        request(port, "POST", f"/api/sessions/{sid}/close")
        if not latencies:
            print("no info line reached the page")
            return 1
        print(f"info line -> SSE event: {len(latencies)} samples, "
              f"p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms, "
              f"max {max(latencies):.2f} ms; "
              f"{sum(1 for x in latencies if x > 10)} over 10 ms (the 10-a-second cap on thinking)")
    finally:
        gui.kill()
        gui.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
