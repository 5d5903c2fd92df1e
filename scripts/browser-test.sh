#!/usr/bin/env bash
# The browser GUI in a real browser: starts `slimetrail gui`, drives headless Chromium
# through WebDriver (plain HTTP from Python's standard library, no client package), plays
# a new 7x7 game against Level 1 to the end by clicking squares, checks the announced
# result against the rules, exercises an illegal click, undo, redo, analysis, hint and PGN
# export, and saves screenshots at the start, mid-game and at the end. It checks what a
# player expects: a reload keeps the game (and a gone session falls back to a new game),
# the hint and the analysis give one answer, coordinates clear of every border, the last
# move marked, the export box current after the end, the move list clickable (view, and
# play on from an earlier move), the opponent's goal marked as a losing square that needs
# a second click, strength names, and a dark scheme under prefers-color-scheme: dark.
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

def sq_attr(square, attr):
    return js("const b = document.querySelector(`[data-sq=\"${arguments[0]}\"]`); "
              "return b.getAttribute(arguments[1]);", square, attr)

def cdp(cmd, params):
    return call("POST", S + "/goog/cdp/execute", {"cmd": cmd, "params": params})

def set_record(value):
    js("const r = document.getElementById('record'); r.value = arguments[0]; "
       "r.dispatchEvent(new Event('input'));", value)

try:
    call("POST", S + "/url", {"url": URL})
    wait("the engine", lambda: engine_status() == "(ready)")
    # A kept session that the server no longer has: the page falls back to a new game.
    js("sessionStorage.setItem('slimetrail-session', '00000000000000000000000000000000');")
    call("POST", S + "/refresh", {})
    wait("the fallback to a new game", lambda: "had ended" in (text("#announce") or ""))
    assert js("return sessionStorage.getItem('slimetrail-session');") != "0" * 32
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
    # Every coordinate is clear of the square's border (goal and hint borders are 4px)
    # and nothing covers it.
    hidden = js("""return [...document.querySelectorAll('#board .sq')].filter((b) => {
        const r = b.getBoundingClientRect(), label = b.querySelector('.name');
        const n = label.getBoundingClientRect();
        const top = document.elementFromPoint((n.left + n.right) / 2, (n.top + n.bottom) / 2);
        return n.left - r.left < 4 || n.top - r.top < 4 || n.right > r.right - 4
            || n.bottom > r.bottom - 4 || top !== label; }).map((b) => b.dataset.sq);""")
    assert hidden == [], f"coordinates hidden on {hidden}"
    # Strength names alongside the levels.
    names = js("return [...document.querySelectorAll('#level option')].map(o => o.textContent);")
    assert names[0] == "Level 1: beginner" and names[9] == "Level 10: full strength", names
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

    # The last move is marked, from and to.
    wait("the engine's reply", lambda: len(moves()) == 2 and human_turn())
    reply = moves()[1]
    assert "last move to here" in sq_attr(reply, "aria-label"), sq_attr(reply, "aria-label")
    assert "last move from here" in sq_attr("d3", "aria-label"), sq_attr("d3", "aria-label")
    # A reload keeps the game: the same session, the same moves.
    kept = js("return sessionStorage.getItem('slimetrail-session');")
    before = moves()
    call("POST", S + "/refresh", {})
    wait("the game after a reload", lambda: moves() == before and human_turn())
    # Two reloads at once: the old streams are not yet known to be gone (the server allows
    # two per session), so the page retries until its stream is taken.
    call("POST", S + "/refresh", {})
    call("POST", S + "/refresh", {})
    wait("the game after two reloads", lambda: moves() == before and human_turn())
    assert js("return sessionStorage.getItem('slimetrail-session');") == kept

    def play_one():
        before = len(moves())
        square = js("const s = document.querySelector('#board .sq.legal:not(.loses)') || "
                    "document.querySelector('#board .sq.legal'); return s.dataset.sq;")
        click(f'[data-sq="{square}"]')
        if "loses" in js(f"return document.querySelector('[data-sq=\"{square}\"]').className;"):
            click(f'[data-sq="{square}"]')  # the second click plays a losing square
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
            # One answer: the boxed hint is the first move of the analysis's line.
            boxed, line = js("""return [[...document.querySelectorAll('#board .sq.hint')].map((b) => b.dataset.sq),
                (document.getElementById('think-line').textContent.match(/line (\\S+)/) || [])[1]];""")
            assert boxed == [line], (boxed, line, text("#announce"))
            # With analysis on, the hint is the analysis's (and says so), not a second search's.
            said = text("#announce")
            assert said.startswith(("Hint: " + line, "The hint ")) and "analysis" in said, said
            shot("mid")
            click("#analysis")
            wait("analysis off", lambda: text("#think-line") == "")
            # The move list: a click shows the position after that move, view only.
            played = moves()
            click("#moves .mv")
            wait("the earlier position", lambda: sq_attr(played[0], "aria-label").startswith(f"{played[0]}, snail"))
            assert js("return !document.getElementById('browse').hidden && "
                      "document.querySelectorAll('#board .sq.legal').length === 0;")
            click("#to-game")
            wait("back to the game", human_turn)
            assert moves() == played
            # Play on from an earlier move: the later moves are taken back.
            js("document.querySelectorAll('#moves .mv')[1].click();")
            wait("the position after two moves", lambda: sq_attr(played[1], "aria-label").startswith(f"{played[1]}, snail"))
            click("#play-here")
            wait("the take-back", lambda: moves() == played[:2] and human_turn())
            assert text("#announce") == "Taken back to the position after 2 moves.", text("#announce")
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
    result = "1-0" if winner == 1 else "0-1"
    # The record box shown mid-game followed the game to its end.
    box = js("return document.getElementById('record').value;")
    assert f'[Result "{result}"]' in box and f" {played[-1]} {result}" in box, box
    click("#show-position")
    position = js("return document.getElementById('record').value;")
    assert position.count("/") == H - 1 and position.split()[-1] in ("1", "2"), position
    click("#show-pgn")
    pgn = js("return document.getElementById('record').value;")
    assert f'[Result "{result}"]' in pgn, pgn
    shot("end")
    # The record imports back: the same moves and result.
    click("#undo")
    wait("undo at the end", lambda: len(moves()) < len(played))
    # The box follows the game until one types in it: paste the finished game's record.
    assert f'[Result "{result}"]' not in js("return document.getElementById('record').value;")
    set_record(pgn)
    click("#import")
    wait("the import", lambda: text("#announce") == announced and moves() == played)
    # The opponent's goal is a losing square, not an ordinary legal dot: it needs a second
    # click; the squares next to it are marked too, and one's own goal wins.
    set_record("7/5s1/7/7/7/7/7 1")
    click("#import")
    wait("the position by the goal", lambda: sq_attr("f6", "aria-label").startswith("f6, snail") and human_turn())
    assert "legal move, loses at once" in sq_attr("g7", "aria-label"), sq_attr("g7", "aria-label")
    assert "loses" in sq_attr("g7", "class") and "risky" in sq_attr("f7", "class")
    assert "then steps into its goal" in sq_attr("g6", "aria-label"), sq_attr("g6", "aria-label")
    assert "risky" not in sq_attr("e5", "class") and "legal" in sq_attr("e5", "class")
    shot("goal-warning")
    click('[data-sq="g7"]')
    wait("the warning", lambda: "loses at once" in (text("#error") or ""))
    assert moves() == []
    click('[data-sq="g7"]')
    wait("the losing move", lambda: (text("#announce") or "").startswith("Player 2 wins"))
    set_record("7/7/7/7/7/1s5/7 1")
    click("#import")
    wait("the position by one's own goal", lambda: sq_attr("b2", "aria-label").startswith("b2, snail") and human_turn())
    assert "wins at once" in sq_attr("a1", "aria-label"), sq_attr("a1", "aria-label")
    # Issue 26's import: a game from a position string, exported and imported, keeps its slime.
    set_record("7/7/2x4/2xs3/7/7/7 1 moves d3 c3")
    click("#import")
    wait("the position-string game", lambda: moves() == ["d3", "c3"] and human_turn())
    click("#show-position")
    assert js("return document.getElementById('record').value;") == "7/7/2x4/2xx3/2sx3/7/7 1"
    click("#show-pgn")
    set_record(js("return document.getElementById('record').value;"))
    click("#new")
    js("document.getElementById('newgame-ok').click();")
    wait("a new game", lambda: moves() == [] and text("#announce") == "New game.")
    click("#import")
    wait("the PGN import", lambda: moves() == ["d3", "c3"] and human_turn())
    click("#show-position")
    got = js("return document.getElementById('record').value;")
    assert got == "7/7/2x4/2xx3/2sx3/7/7 1", got
    # States the server may send, drawn by the page. The issue's 9x9 Level 10 case: the hint
    # (d4) and the analysis's line (f6 g7 g8) disagree: one box, on the analysis's move, and
    # words for why.
    js("""window.realState = state;
        const s = JSON.parse(JSON.stringify(state));
        Object.assign(s, { width: 9, height: 9, start: 'e5', moves: [], redo: [], snail: 'e5',
          slimed: [], legal: ['d4', 'e4', 'f4', 'd5', 'f5', 'd6', 'e6', 'f6'], to_move: 1,
          over: null, players: ['human', 'engine'], level: 10, analysis: true, hint: 'd4',
          notice: 'Hint: d4.', verdict: null, thinking: { purpose: 'analysis', depth: 20,
          score: 'player 1 is better by 0.40 (estimate)', pv: ['f6', 'g7', 'g8'], nodes: 1000 } });
        received(s);""")
    boxed = js("return [...document.querySelectorAll('#board .sq.hint')].map((b) => b.dataset.sq);")
    assert boxed == ["f6"], boxed
    said = text("#announce")
    assert "The hint d4 came from a short search" in said and "prefers f6" in said, said
    # An engine without a Level option: a notice says so.
    assert js("return document.getElementById('no-level').hidden;")
    js("const s = JSON.parse(JSON.stringify(window.realState)); s.engine.levels = null; received(s);")
    assert not js("return document.getElementById('no-level').hidden;")
    js("received(window.realState);")
    assert js("return document.getElementById('no-level').hidden;")
    # The dark scheme follows the system setting.
    cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    rgb = js("return getComputedStyle(document.documentElement).backgroundColor.match(/\\d+/g).map(Number);")
    assert sum(rgb[:3]) < 150, rgb
    shot("dark")
    cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
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
