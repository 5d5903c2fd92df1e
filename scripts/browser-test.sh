#!/usr/bin/env bash
# The browser GUI in a real browser: starts `slimetrail gui`, drives headless Chromium
# through WebDriver (plain HTTP from Python's standard library, no client package), plays
# a new 7x7 game against Level 1 to the end by clicking squares, checks the announced
# result against the rules, exercises an illegal click, undo, redo, analysis, hint and PGN
# export, and saves screenshots at the start, mid-game and at the end.
#
# Installs Chromium and its WebDriver from Debian packages when they are missing (needs
# root and the package mirror). Screenshots go to $OUT (default target/browser-test/).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "browser-test: installing chromium and chromium-driver from Debian" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

cargo build --bin slimetrail
TARGET="${CARGO_TARGET_DIR:-target}"
BIN="$TARGET/debug/slimetrail"
OUT="${OUT:-$TARGET/browser-test}"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
SERVER_PID=""
DRIVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    [ -n "$DRIVER_PID" ] && kill "$DRIVER_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" gui --port 0 >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 100); do
    [ -s "$WORK/server.out" ] && break
    sleep 0.1
done
URL="$(head -n 1 "$WORK/server.out")"
[ -n "$URL" ] || { echo "browser-test: the server printed no URL" >&2; cat "$WORK/server.err" >&2; exit 1; }

DRIVER_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
chromedriver --port="$DRIVER_PORT" >"$WORK/driver.log" 2>&1 &
DRIVER_PID=$!

timeout 300 python3 - "$URL" "http://127.0.0.1:$DRIVER_PORT" "$OUT" "$WORK/profile" "$(command -v chromium)" <<'PY'
import base64, json, sys, time, urllib.request, urllib.error

URL, DRIVER, OUT, PROFILE, CHROMIUM = sys.argv[1:6]

def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(DRIVER + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)["value"]
    except urllib.error.HTTPError as e:
        raise SystemExit(f"WebDriver {method} {path}: {e.code} {e.read()[:500]!r}")

for _ in range(100):
    try:
        urllib.request.urlopen(DRIVER + "/status", timeout=2)
        break
    except Exception:
        time.sleep(0.1)

args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", f"--user-data-dir={PROFILE}", "--window-size=1000,760"]
caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
        "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}}
sid = call("POST", "/session", caps)["sessionId"]
S = f"/session/{sid}"

def js(script, *a):
    return call("POST", S + "/execute/sync", {"script": script, "args": list(a)})

def find(css):
    found = call("POST", S + "/element", {"using": "css selector", "value": css})
    return next(iter(found.values()))

def click(css):
    call("POST", S + f"/element/{find(css)}/click", {})

def text(css):
    return js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css)

def wait(what, fn, limit=30):
    deadline = time.time() + limit
    while time.time() < deadline:
        value = fn()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"browser-test: timed out waiting for {what}; turn: {text('#turn')!r}, "
                     f"error: {text('#error')!r}")

def shot(name):
    png = base64.b64decode(call("GET", S + "/screenshot"))
    with open(f"{OUT}/{name}.png", "wb") as f:
        f.write(png)
    print(f"browser-test: screenshot {OUT}/{name}.png ({len(png)} bytes)")

def moves():
    return js("return [...document.querySelectorAll('#moves .mv:not(.redo)')].map(m => m.textContent);")

def engine_status():
    return text("#engine-status")

try:
    call("POST", S + "/url", {"url": URL})
    wait("the engine", lambda: engine_status() == "(ready)")
    # The page opens on a 7x7 game from d4, human first against Level 1.
    label = js("return document.querySelector('[data-sq=\"d4\"]').getAttribute('aria-label');")
    assert label.startswith("d4, snail"), label
    # A new 7x7 game against Level 1 from the dialog.
    click("#new")
    js("""document.getElementById('width').value = '7';
          document.getElementById('height').value = '7';
          document.getElementById('width').dispatchEvent(new Event('change'));
          document.getElementById('start').value = 'd4';
          document.getElementById('mode').value = 'human engine';
          document.getElementById('level').value = '1';
          document.getElementById('movetime').value = '100';""")
    click("#newgame-ok")
    wait("the new game", lambda: text("#announce") == "New game.")
    assert moves() == [], moves()
    legal = js("return [...document.querySelectorAll('#board .sq.legal')].map(b => b.getAttribute('aria-label'));")
    assert len(legal) == 8 and all(l.endswith("legal move") for l in legal), legal
    shot("start")

    # An illegal click explains why.
    click('[data-sq="d4"]')
    wait("the illegal-click message", lambda: "snail's own square" in (text("#error") or ""))
    # The keyboard: arrow keys move between squares, Enter plays the focused one.
    js("document.querySelector('[data-sq=\"d4\"]').focus();")
    d4 = find('[data-sq="d4"]')
    call("POST", S + f"/element/{d4}/value", {"text": "\ue015"})
    focused = wait("the focus on d3", lambda: js("return document.activeElement.dataset.sq === 'd3';"))
    d3 = find('[data-sq="d3"]')
    call("POST", S + f"/element/{d3}/value", {"text": "\ue007"})
    wait("the keyboard move", lambda: moves()[:1] == ["d3"])

    def human_turn():
        return js("return !document.getElementById('announce').classList.contains('over') && "
                  "document.querySelectorAll('#board .sq.legal').length > 0 && "
                  "document.getElementById('engine-status').textContent !== '(thinking)';")

    def play_one():
        before = len(moves())
        square = js("return document.querySelector('#board .sq.legal').dataset.sq;")
        click(f'[data-sq="{square}"]')
        wait("the move", lambda: len(moves()) > before)
        return square

    human_moves = 0
    checked_extras = False
    while True:
        wait("a human turn or the end", lambda: human_turn() or
             js("return document.getElementById('announce').classList.contains('over');"))
        if js("return document.getElementById('announce').classList.contains('over');"):
            break
        if human_moves == 2 and not checked_extras:
            checked_extras = True
            # Undo takes back the human's move and the engine's reply; redo replays them.
            n = len(moves())
            click("#undo")
            wait("undo", lambda: len(moves()) == n - 2)
            click("#redo")
            wait("redo", lambda: len(moves()) == n)
            # A hint marks a legal square.
            click("#hint")
            hint = wait("the hint", lambda: js("const h = document.querySelector('#board .sq.hint'); return h && h.dataset.sq;"))
            assert "legal move" in js("return document.querySelector('#board .sq.hint').getAttribute('aria-label');")
            # Analysis shows the engine's thinking and its line.
            click("#analysis")
            wait("the analysis", lambda: "depth" in (text("#think-line") or ""), 60)
            wait("the line on the board", lambda: js("return document.querySelectorAll('#lines circle').length > 0;"))
            shot("mid")
            click("#analysis")
            wait("analysis off", lambda: text("#think-line") == "")
            # PGN export.
            click("#records summary")
            click("#show-pgn")
            pgn = js("return document.getElementById('record').value;")
            assert '[Board "7x7"]' in pgn and '[Result "*"]' in pgn, pgn
            assert " ".join(moves()[:2]) in pgn, pgn
            wait("a human turn", human_turn)
        play_one()
        human_moves += 1
        if human_moves > 40:
            raise SystemExit("browser-test: the game does not end")

    # The result by the rules of the game, from the move list.
    W = H = 7
    played = moves()
    snail, slimed = (3, 3), set()
    side = 1
    for m in played:
        f, r = ord(m[0]) - ord("a"), int(m[1:]) - 1
        assert max(abs(f - snail[0]), abs(r - snail[1])) == 1 and (f, r) not in slimed, m
        slimed.add(snail)
        snail = (f, r)
        side = 3 - side
    if snail == (0, 0):
        winner, reason = 1, "goal"
    elif snail == (W - 1, H - 1):
        winner, reason = 2, "goal"
    else:
        free = [(snail[0] + dx, snail[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (dx or dy) and 0 <= snail[0] + dx < W and 0 <= snail[1] + dy < H
                and (snail[0] + dx, snail[1] + dy) not in slimed]
        assert not free, f"the page says the game is over, but {free} are free"
        winner, reason = 3 - side, "no legal move"
    announced = text("#announce")
    assert announced.startswith(f"Player {winner} wins"), (announced, played)
    assert reason in announced, (announced, reason)
    live = js("return document.getElementById('announce').getAttribute('aria-live');")
    assert live == "polite", live
    click("#show-position")
    position = js("return document.getElementById('record').value;")
    assert position.count("/") == H - 1 and position.split()[-1] in ("1", "2"), position
    click("#show-pgn")
    pgn = js("return document.getElementById('record').value;")
    result = "1-0" if winner == 1 else "0-1"
    assert f'[Result "{result}"]' in pgn, pgn
    shot("end")
    # The record imports back: the same moves and result.
    click("#undo")
    wait("undo at the end", lambda: len(moves()) < len(played))
    click("#import")
    wait("the import", lambda: text("#announce") == announced and moves() == played)
    # A phone-sized viewport still shows the whole board.
    call("POST", S + "/window/rect", {"width": 390, "height": 844})
    width = js("return document.getElementById('board').getBoundingClientRect().right;")
    assert width <= js("return window.innerWidth;"), width
    shot("phone")
    print(f"browser-test: {len(played)} plies, {announced}")
finally:
    call("DELETE", S)
PY
echo "browser-test: passed"
