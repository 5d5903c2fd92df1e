#!/usr/bin/env python3
"""Stress test of `slimetrail gui` on loopback (127.0.0.1 only): hostile clients in
phases while a normal client plays games and checks the health page, with its request
latency p50/p99 per phase, and the server's threads, descriptors and memory during and
after. Every loop is bounded in count and time; the whole run stops by itself.

Phases:
  idle     2,000 idle connections (server under `prlimit --nofile=1024`)
  slow     100 slow-body and 100 slow-header clients (one byte a second)
  headers  10 requests with 100 MB headers
  tabs     50 tabs opening a session, its event stream, then closing

    python3 scripts/gui-stress.py [--bin target/debug/slimetrail]
"""

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"
PHASE_SECONDS = 12


class Server:
    def __init__(self, binary, nofile):
        self.proc = subprocess.Popen(
            ["prlimit", f"--nofile={nofile}:{nofile}", binary, "gui", "--port", "0",
             "--max-sessions", "16", "--grace", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = self.proc.stdout.readline().strip()
        self.port = int(url.rstrip("/").rsplit(":", 1)[1])
        self.pid = self.proc.pid

    def stats(self):
        status = open(f"/proc/{self.pid}/status").read()
        field = lambda name: int(next(l.split()[1] for l in status.splitlines() if l.startswith(name)))
        return {
            "threads": field("Threads:"),
            "fds": len(os.listdir(f"/proc/{self.pid}/fd")),
            "rss_mb": field("VmRSS:") / 1024,
            "peak_rss_mb": field("VmHWM:") / 1024,
            "engines": len(children(self.pid)),
        }


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def request(port, method, path, body=b"", timeout=30):
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
        s.sendall(head.encode() + body)
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    return int(reply.split(b" ", 2)[1]), reply.split(b"\r\n\r\n", 1)[1]


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


class NormalClient(threading.Thread):
    """Plays games against Level 1 and checks the health page, timing every request."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.phase, self.stop = port, "start", threading.Event()
        self.latency, self.failures, self.games, self.moves = {}, {}, 0, 0
        self.lock = threading.Lock()

    def timed(self, method, path, body=b""):
        started = time.monotonic()
        try:
            status, reply = request(self.port, method, path, body)
        except OSError as e:
            with self.lock:
                self.failures.setdefault(self.phase, []).append(str(e))
            return None, None
        with self.lock:
            self.latency.setdefault(self.phase, []).append((time.monotonic() - started) * 1000)
            if status >= 500:
                self.failures.setdefault(self.phase, []).append(f"{status} {reply[:80]!r}")
        return status, reply

    def run(self):
        deadline = time.monotonic() + 20 * 60
        while not self.stop.is_set() and time.monotonic() < deadline:
            status, reply = self.timed("POST", "/api/sessions")
            if status != 201:
                time.sleep(0.5)
                continue
            sid = json.loads(reply)["id"]
            self.play(sid)
            self.timed("POST", f"/api/sessions/{sid}/close")

    def play(self, sid):
        try:
            events = socket.create_connection((HOST, self.port), timeout=30)
            events.sendall(f"GET /api/sessions/{sid}/events HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n\r\n".encode())
            reader = events.makefile("rb")
            self.timed("POST", f"/api/sessions/{sid}/commands", b"setoption name MoveTime value 50")
            for _ in range(400):
                if self.stop.is_set():
                    return
                line = reader.readline()
                if not line:
                    return
                if not line.startswith(b"data: "):
                    continue
                state = json.loads(line[6:])
                if state["over"]:
                    self.games += 1
                    return
                if state["to_move"] == 1 and state["engine"]["status"] == "ready" and state["legal"]:
                    status, _ = self.timed("POST", f"/api/sessions/{sid}/commands",
                                           f"move {state['legal'][0]}".encode())
                    if status == 200:
                        self.moves += 1
        except OSError as e:
            self.failures.setdefault(self.phase, []).append(f"events: {e}")
        finally:
            try:
                events.close()
            except Exception:
                pass


class Sampler(threading.Thread):
    """The server's threads, descriptors and memory every quarter second, by phase."""

    def __init__(self, server, client):
        super().__init__(daemon=True)
        self.server, self.client, self.stop = server, client, threading.Event()
        self.samples = {}

    def run(self):
        deadline = time.monotonic() + 20 * 60
        while not self.stop.is_set() and time.monotonic() < deadline:
            try:
                self.samples.setdefault(self.client.phase, []).append(self.server.stats())
            except OSError:
                return
            time.sleep(0.25)


class HealthChecker(threading.Thread):
    """The normal client's second tab: the health page ten times a second."""

    def __init__(self, client):
        super().__init__(daemon=True)
        self.client = client

    def run(self):
        deadline = time.monotonic() + 20 * 60
        while not self.client.stop.is_set() and time.monotonic() < deadline:
            self.client.timed("GET", "/api/health")
            time.sleep(0.1)


def hold(seconds, server, samples):
    time.sleep(seconds)


def idle_phase(server, samples):
    sockets, refused = [], 0
    for _ in range(2000):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.connect((HOST, server.port))
            sockets.append(s)
        except OSError:
            refused += 1
            s.close()
    hold(PHASE_SECONDS, server, samples)
    for s in sockets:
        s.close()
    return f"{len(sockets)} connected, {refused} not connected in 2 s"


def slow_phase(server, samples):
    ends = {"body": [], "header": []}
    _, reply = request(server.port, "POST", "/api/sessions")
    sid = json.loads(reply)["id"]

    def slow(kind):
        try:
            s = socket.create_connection((HOST, server.port), timeout=PHASE_SECONDS + 5)
            if kind == "body":
                s.sendall(f"POST /api/sessions/{sid}/commands HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n"
                          f"Content-Length: 60000\r\n\r\n".encode())
            else:
                s.sendall(b"GET /api/health HTTP/1.1\r\n")
            started = time.monotonic()
            for _ in range(PHASE_SECONDS):
                s.sendall(b"a")
                time.sleep(1)
            ends[kind].append(f"still open after {time.monotonic() - started:.0f} s")
        except OSError:
            ends[kind].append(f"cut after {time.monotonic() - started:.0f} s")
        finally:
            s.close()

    threads = [threading.Thread(target=slow, args=(k,), daemon=True) for k in ["body"] * 100 + ["header"] * 100]
    for t in threads:
        t.start()
    hold(PHASE_SECONDS, server, samples)
    for t in threads:
        t.join(PHASE_SECONDS + 10)
    summary = []
    for kind, got in ends.items():
        counts = {}
        for g in got:
            counts[g] = counts.get(g, 0) + 1
        summary.append(f"slow {kind}: {dict(sorted(counts.items()))}")
    request(server.port, "POST", f"/api/sessions/{sid}/close")
    return "; ".join(summary)


def header_phase(server, samples):
    results = []

    def huge():
        chunk = b"a" * (1 << 20)
        sent = 0
        try:
            s = socket.create_connection((HOST, server.port), timeout=10)
            s.sendall(f"GET /api/health HTTP/1.1\r\nHost: {HOST}:{server.port}\r\nX-Big: ".encode())
            for _ in range(100):
                s.sendall(chunk)
                sent += 1
            reply = s.recv(100)
            results.append(f"sent all, got {reply[:12]!r}")
        except OSError:
            results.append(f"refused after {sent} MB")
        finally:
            s.close()

    threads = [threading.Thread(target=huge, daemon=True) for _ in range(10)]
    for t in threads:
        t.start()
    hold(4, server, samples)
    for t in threads:
        t.join(60)
    return "; ".join(sorted(set(results)))


def tabs_phase(server, samples):
    outcomes = []

    def tab():
        try:
            status, reply = request(server.port, "POST", "/api/sessions")
            if status != 201:
                outcomes.append(f"open {status}")
                return
            sid = json.loads(reply)["id"]
            with socket.create_connection((HOST, server.port), timeout=30) as s:
                s.sendall(f"GET /api/sessions/{sid}/events HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n\r\n".encode())
                reader = s.makefile("rb")
                for _ in range(50):
                    line = reader.readline()
                    if line.startswith(b"data: ") and json.loads(line[6:])["engine"]["status"] == "ready":
                        break
                time.sleep(0.5)
            request(server.port, "POST", f"/api/sessions/{sid}/close")
            outcomes.append("opened and closed")
        except OSError as e:
            outcomes.append(f"error {e}")

    for batch in range(5):
        threads = [threading.Thread(target=tab, daemon=True) for _ in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    counts = {}
    for o in outcomes:
        counts[o] = counts.get(o, 0) + 1
    return str(counts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/debug/slimetrail")
    args = ap.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    server = Server(args.bin, 1024)
    client = NormalClient(server.port)
    client.start()
    HealthChecker(client).start()
    sampler = Sampler(server, client)
    sampler.start()
    report = []
    try:
        samples = []
        client.phase = "baseline"
        hold(4, server, samples)
        report.append(("baseline", "normal client alone", samples))
        for name, phase in [("idle", idle_phase), ("slow", slow_phase),
                            ("headers", header_phase), ("tabs", tabs_phase)]:
            client.phase = name
            samples = []
            what = phase(server, samples)
            report.append((name, what, samples))
        client.phase = "after"
        samples = []
        hold(4, server, samples)
        report.append(("after", "normal client alone", samples))
        client.stop.set()
        client.join(40)
        time.sleep(4)  # the grace of the last sessions
        after = server.stats()
        status, body = request(server.port, "GET", "/api/health")
    finally:
        client.stop.set()
        pids = children(server.pid)
        server.proc.kill()
        server.proc.wait()
    print(f"server: prlimit --nofile=1024:1024 {args.bin} gui (pid {server.pid})")
    print(f"normal client: {client.games} games finished, {client.moves} moves")
    print(f"{'phase':9} {'req':>5} {'p50 ms':>8} {'p99 ms':>8} {'fail':>5} {'threads':>8} {'fds':>5} {'rss MB':>7} {'peak MB':>8}  what")
    for name, what, _ in report:
        samples = sampler.samples.get(name, [])
        lat = client.latency.get(name, [])
        fails = client.failures.get(name, [])
        top = lambda k: max((s[k] for s in samples), default=float("nan"))
        print(f"{name:9} {len(lat):5} {percentile(lat, 50):8.1f} {percentile(lat, 99):8.1f} {len(fails):5} "
              f"{top('threads'):8} {top('fds'):5} {top('rss_mb'):7.1f} {top('peak_rss_mb'):8.1f}  {what}")
        for f in sorted(set(fails))[:3]:
            print(f"          failure: {f}")
    print(f"after all: threads {after['threads']}, fds {after['fds']}, rss {after['rss_mb']:.1f} MB, "
          f"peak {after['peak_rss_mb']:.1f} MB, health {status} {body.decode()}, "
          f"engine processes {len(pids)}")
    return 0 if not pids and status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
