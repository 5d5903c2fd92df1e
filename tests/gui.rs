//! `slimetrail gui` without a browser: its HTTP API and Server-Sent Events stream, a
//! whole game against Level 1, bad requests, the session cap, a crashing engine, and
//! tabs that go away (no engine process may be left behind).
//! The server's limits are in `gui_limits`, page reloads and the pace in `gui_pages`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use slimetrail::board::{Outcome, Position, Size};

use crate::arena_support::{ARENA, ENGINE, TempDir};

/// A running `slimetrail gui`, killed when dropped.
pub(crate) struct Gui {
    pub(crate) child: Child,
    pub(crate) addr: String,
}

impl Gui {
    /// `slimetrail gui` with `args`; engine moves are shown at once unless `--pace` says
    /// otherwise.
    pub(crate) fn start(args: &[&str]) -> Gui {
        Gui::start_under(&[], args)
    }

    /// The server run by `wrapper` (such as `prlimit --nofile=N`), if not empty.
    pub(crate) fn start_under(wrapper: &[&str], args: &[&str]) -> Gui {
        let mut command = match wrapper.split_first() {
            Some((program, rest)) => {
                let mut c = Command::new(program);
                c.args(rest).arg(ENGINE);
                c
            }
            None => Command::new(ENGINE),
        };
        command.args(["gui", "--port", "0"]);
        if !args.contains(&"--pace") {
            command.args(["--pace", "0"]);
        }
        let mut child = command
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the first line is not the URL: {line}"))
            .to_string();
        Gui { child, addr }
    }

    /// Sends a request with extra header lines; the status and the body.
    pub(crate) fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &str,
        body: &[u8],
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        let _ = stream.write_all(body);
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let status = reply
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {reply:?}"));
        let body = reply
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    pub(crate) fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, body) = self.raw("POST", path, "", body.as_bytes());
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    pub(crate) fn open(&self) -> String {
        let (status, reply) = self.post("/api/sessions", "");
        assert_eq!(status, 201, "{reply}");
        reply["id"].as_str().unwrap().to_string()
    }

    pub(crate) fn command(&self, id: &str, lines: &str) -> (u16, Value) {
        self.post(&format!("/api/sessions/{id}/commands"), lines)
    }

    pub(crate) fn ok(&self, id: &str, lines: &str) {
        let (status, reply) = self.command(id, lines);
        assert_eq!(status, 200, "{lines}: {reply}");
    }

    pub(crate) fn sessions(&self) -> u64 {
        let (_, body) = self.raw("GET", "/api/health", "", b"");
        serde_json::from_str::<Value>(&body).unwrap()["sessions"]
            .as_u64()
            .unwrap()
    }

    pub(crate) fn events(&self, id: &str) -> Events {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut writer = stream.try_clone().unwrap();
        write!(
            writer,
            "GET /api/sessions/{id}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{status}");
        Events { reader }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The event stream of a session.
pub(crate) struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// The next state sent, within a minute: keep-alive comments alone, which reset
    /// the socket's read timeout, fail the test rather than hang it.
    pub(crate) fn next(&mut self) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut line = String::new();
        loop {
            assert!(
                Instant::now() < deadline,
                "no state on the event stream within a minute, only other lines: last {:?}",
                line.trim_end()
            );
            line.clear();
            let n = self.reader.read_line(&mut line).unwrap();
            assert!(n > 0, "the event stream closed");
            if let Some(json) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(json).unwrap();
            }
        }
    }

    /// The first state for which `until` holds, within a minute.
    pub(crate) fn wait(&mut self, what: &str, until: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let state = self.next();
            if until(&state) {
                return state;
            }
            assert!(
                Instant::now() < deadline,
                "no state with {what}: last {state}"
            );
        }
    }
}

pub(crate) fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// Whether a process is gone (or a zombie waiting to be reaped by init).
fn gone(pid: i32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.is_empty() || stat.contains(") Z")
}

fn wait_gone(pids: &[i32]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !pids.iter().all(|&p| gone(p)) {
        assert!(
            Instant::now() < deadline,
            "engine processes left: {:?}",
            pids.iter().filter(|&&p| !gone(p)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn pids(file: &std::path::Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

#[test]
fn a_whole_game_against_level_1_follows_the_rules() {
    let gui = Gui::start(&[]);
    let id = gui.open();
    let mut events = gui.events(&id);
    let first = events.next();
    assert_eq!(first["width"], 7);
    assert_eq!(first["snail"], "d4");
    assert_eq!(first["players"], serde_json::json!(["human", "engine"]));
    assert_eq!(first["level"], 1);
    gui.ok(&id, "setoption name MoveTime value 50\nnewgame");
    events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    // Analysis shows the engine's thinking in words.
    gui.ok(&id, "setoption name Analysis value true");
    let thinking = events.wait("analysis", |s| s["thinking"]["depth"].is_u64());
    assert!(thinking["thinking"]["score"].is_string(), "{thinking}");
    // A hint, asked during the analysis, is a legal move.
    gui.ok(&id, "go movetime 100");
    let hinted = events.wait("a hint", |s| s["hint"].is_string());
    let legal = hinted["legal"].as_array().unwrap();
    assert!(legal.contains(&hinted["hint"]), "{hinted}");
    gui.ok(&id, "setoption name Analysis value false");
    let mut played = 0;
    let over = loop {
        let state = events.next();
        if !state["over"].is_null() {
            break state;
        }
        let n = moves(&state).len();
        if state["to_move"] == 1 && n >= played && state["engine"]["status"] != "down" {
            let square = state["legal"][0].as_str().unwrap().to_string();
            gui.ok(&id, &format!("move {square}"));
            played = n + 1;
        }
        assert!(n < 60, "the game does not end: {state}");
    };
    // The announced result is the one the rules give.
    let mut position: Position = Position::start(Size::DEFAULT);
    for m in moves(&over) {
        let square = position.parse_move(&m).unwrap();
        position.play(square);
    }
    let Outcome::Decided { winner, reason } = position.outcome() else {
        panic!("the game is not over by the rules: {over}");
    };
    assert_eq!(over["over"]["winner"], winner.number());
    assert_eq!(over["over"]["reason"], reason.to_string());
    assert!(
        over["over"]["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Player {} wins", winner.number())),
        "{over}"
    );
    let result = if winner.number() == 1 { "1-0" } else { "0-1" };
    assert!(
        over["pgn"]
            .as_str()
            .unwrap()
            .contains(&format!("[Result \"{result}\"]")),
        "{over}"
    );
    // Undo goes back to the human's turn; the PGN imports back.
    gui.ok(&id, "undo");
    let back = events.wait("undo", |s| s["over"].is_null());
    assert_eq!(back["to_move"], 1);
    let pgn = over["pgn"].as_str().unwrap().to_string();
    let (status, reply) = gui.post(&format!("/api/sessions/{id}/pgn"), &pgn);
    assert_eq!(status, 200, "{reply}");
    let imported = events.wait("the import", |s| !s["over"].is_null());
    assert_eq!(moves(&imported), moves(&over));
}

#[test]
fn a_hint_during_live_analysis_is_answered() {
    let gui = Gui::start(&[]);
    let id = gui.open();
    let mut events = gui.events(&id);
    // 11x11 is far from proven: the analysis would run until stopped.
    gui.ok(
        &id,
        "newgame size 11x11\nsetoption name Analysis value true",
    );
    events.wait("analysis", |s| s["thinking"]["purpose"] == "analysis");
    gui.ok(&id, "go movetime 100");
    let hinted = events.wait("a hint", |s| s["hint"].is_string());
    assert!(
        hinted["legal"]
            .as_array()
            .unwrap()
            .contains(&hinted["hint"])
    );
    // The analysis goes on after the hint.
    events.wait("analysis again", |s| s["thinking"]["purpose"] == "analysis");
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let gui = Gui::start(&[]);
    let id = gui.open();
    for (lines, wanted) in [
        ("goo", "unknown command 'goo'"),
        ("move z99", "move"),
        ("move d4", "d4 is the snail's own square"),
        ("go infinite", "a hint needs a limit"),
        ("go depth x", "expected a number after 'depth'"),
        ("bestmove c3", "not something the page can ask"),
        ("setoption name Level value 0", "from 1 to 10"),
        (
            "position startpos moves c3 d4",
            "move 2 (d4) cannot be played",
        ),
        ("undo", "no move to take back"),
        ("", "empty request"),
    ] {
        let (status, reply) = gui.command(&id, lines);
        assert_eq!(status, 400, "{lines}: {reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(error.contains(wanted), "{lines}: {error}");
    }
    let (status, reply) = gui.post(&format!("/api/sessions/{id}/pgn"), "1. c3 d4");
    assert_eq!(status, 400);
    assert!(
        reply["error"].as_str().unwrap().contains("PGN move 2"),
        "{reply}"
    );
    let (status, _) = gui.raw(
        "POST",
        &format!("/api/sessions/{id}/commands"),
        "",
        &[0xff, 0xfe],
    );
    assert_eq!(status, 400);
    let big = "stop\n".repeat(20_000);
    let (status, _) = gui.command(&id, &big);
    assert_eq!(status, 413);
    let (status, _) = gui.command("0123", "move c3");
    assert_eq!(status, 404);
    let (status, _) = gui.raw("GET", "/nothing", "", b"");
    assert_eq!(status, 404);
    let (status, _) = gui.raw(
        "POST",
        "/api/sessions",
        "Origin: http://evil.example\r\n",
        b"",
    );
    assert_eq!(status, 403);
    let mut stream = TcpStream::connect(&gui.addr).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 403"), "{reply}");
    // Still serving, and the game unchanged.
    gui.ok(&id, "move c3");
    // A position string imports (player 2 human, so that no engine move follows it
    // before the stream opens: Level 1 answers at once).
    gui.ok(
        &id,
        "setoption name Player2 value human\nposition fen 7/7/7/3x3/1sx4/7/7 1 moves a2",
    );
    let mut events = gui.events(&id);
    let state = events.next();
    assert_eq!(state["position"], "7/7/7/3x3/1xx4/s6/7 2", "{state}");
    let (status, page) = gui.raw("GET", "/", "", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<title>Slimetrail</title>"));
}

#[test]
fn the_session_cap_answers_with_a_clear_message() {
    let gui = Gui::start(&["--max-sessions", "2", "--grace", "1"]);
    let a = gui.open();
    let _b = gui.open();
    let (status, reply) = gui.post("/api/sessions", "");
    assert_eq!(status, 503, "{reply}");
    let error = reply["error"].as_str().unwrap();
    assert!(
        error.contains("too many sessions") && error.contains("--max-sessions 2"),
        "{error}"
    );
    gui.post(&format!("/api/sessions/{a}/close"), "");
    let deadline = Instant::now() + Duration::from_secs(20);
    while gui.sessions() > 1 {
        assert!(Instant::now() < deadline, "the closed session stays");
        std::thread::sleep(Duration::from_millis(20));
    }
    gui.open();
}

#[test]
fn an_engine_crash_mid_game_keeps_the_game_and_restarts() {
    let dir = TempDir::new("gui-crash");
    let pid_file = dir.file("mock.pids");
    let engine = format!("cmd={ARENA}");
    let pid_arg = format!("arg={pid_file}");
    let gui = Gui::start(&[
        "--engine",
        &engine,
        "arg=mock-engine",
        "arg=--crash-at",
        "arg=2",
        "arg=--pid-file",
        &pid_arg,
    ]);
    let id = gui.open();
    let mut events = gui.events(&id);
    events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    gui.ok(&id, "move c3");
    let replied = events.wait("the engine's move", |s| moves(s).len() == 2);
    let square = replied["legal"][0].as_str().unwrap().to_string();
    gui.ok(&id, &format!("move {square}"));
    let down = events.wait("the crash", |s| s["engine"]["status"] == "down");
    let message = down["engine"]["message"].as_str().unwrap();
    assert!(
        message.contains("crashed") && message.contains("code 3"),
        "{message}"
    );
    assert_eq!(moves(&down).len(), 3, "the game is kept: {down}");
    gui.ok(&id, "restart");
    let resumed = events.wait("the engine's move after the restart", |s| {
        moves(s).len() == 4
    });
    assert_eq!(moves(&resumed)[..3], moves(&down)[..]);
    let started = pids(&dir.path("mock.pids"));
    assert_eq!(started.len(), 2, "one process per start: {started:?}");
    gui.post(&format!("/api/sessions/{id}/close"), "");
    wait_gone(&started);
}

/// A GUI whose engine is the mock engine with these flags; its pids go to `mock.pids`.
pub(crate) fn with_mock(dir: &TempDir, gui_args: &[&str], flags: &[&str]) -> Gui {
    let mut args: Vec<String> = gui_args.iter().map(|a| a.to_string()).collect();
    args.push("--engine".to_string());
    args.push(format!("cmd={ARENA}"));
    args.push("arg=mock-engine".to_string());
    args.push("arg=--pid-file".to_string());
    args.push(format!("arg={}", dir.file("mock.pids")));
    args.extend(flags.iter().map(|f| format!("arg={f}")));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    Gui::start(&refs)
}

#[test]
fn a_hung_engine_is_reported_and_the_game_kept() {
    let dir = TempDir::new("gui-hang");
    let gui = with_mock(&dir, &[], &["--hang-at", "1"]);
    let id = gui.open();
    let mut events = gui.events(&id);
    events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    gui.ok(&id, "setoption name MoveTime value 50\nmove c3");
    let down = events.wait("the hang", |s| s["engine"]["status"] == "down");
    let message = down["engine"]["message"].as_str().unwrap();
    assert!(
        message.contains("stopped answering") && message.contains("restart the engine"),
        "{message}"
    );
    assert_eq!(moves(&down), ["c3"]);
    let hung = pids(&dir.path("mock.pids"));
    wait_gone(&hung);
}

#[test]
fn the_engine_plays_both_sides_in_watch_mode() {
    let dir = TempDir::new("gui-watch");
    let gui = with_mock(&dir, &[], &[]);
    let id = gui.open();
    let mut events = gui.events(&id);
    gui.ok(
        &id,
        "setoption name Player1 value engine\nsetoption name Player2 value engine\n\
         setoption name MoveTime value 50\nnewgame size 5x5",
    );
    let over = events.wait("the end", |s| !s["over"].is_null());
    let mut position: Position = Position::start(Size::new(5, 5).unwrap());
    for m in moves(&over) {
        let square = position.parse_move(&m).unwrap();
        position.play(square);
    }
    assert_eq!(
        position.outcome().winner().map(|w| w.number()),
        over["over"]["winner"].as_u64().map(|w| w as u8),
        "{over}"
    );
}

#[test]
fn a_tab_closed_mid_search_leaves_no_engine_process() {
    let dir = TempDir::new("gui-disconnect");
    let pid_file = dir.file("mock.pids");
    let engine = format!("cmd={ARENA}");
    let pid_arg = format!("arg={pid_file}");
    let gui = Gui::start(&[
        "--grace",
        "1",
        "--engine",
        &engine,
        "arg=mock-engine",
        "arg=--move-delay",
        "arg=60000",
        "arg=--pid-file",
        &pid_arg,
    ]);
    let id = gui.open();
    let mut events = gui.events(&id);
    events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    gui.ok(&id, "setoption name Player1 value engine");
    events.wait("the search", |s| s["engine"]["status"] == "thinking");
    let started = pids(&dir.path("mock.pids"));
    assert_eq!(started.len(), 1);
    drop(events);
    wait_gone(&started);
    let deadline = Instant::now() + Duration::from_secs(20);
    while gui.sessions() > 0 {
        assert!(Instant::now() < deadline, "the session outlives its tab");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn twenty_sessions_opened_and_closed_leave_no_engine_process() {
    let dir = TempDir::new("gui-twenty");
    let pid_file = dir.file("mock.pids");
    let engine = format!("cmd={ARENA}");
    let pid_arg = format!("arg={pid_file}");
    let gui = Gui::start(&[
        "--max-sessions",
        "20",
        "--engine",
        &engine,
        "arg=mock-engine",
        "arg=--pid-file",
        &pid_arg,
    ]);
    for _ in 0..20 {
        let id = gui.open();
        let mut events = gui.events(&id);
        events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
        gui.post(&format!("/api/sessions/{id}/close"), "");
    }
    let started = pids(&dir.path("mock.pids"));
    assert_eq!(started.len(), 20);
    wait_gone(&started);
    let deadline = Instant::now() + Duration::from_secs(30);
    while gui.sessions() > 0 {
        assert!(Instant::now() < deadline, "closed sessions stay open");
        std::thread::sleep(Duration::from_millis(20));
    }
}
