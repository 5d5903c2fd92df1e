//! What a person expects of `slimetrail gui`'s sessions: a reloaded page gets its game
//! back within the grace, the engine's moves come no faster than the pace, and the
//! state says what Level range the engine has.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::arena_support::TempDir;
use crate::gui::{Gui, moves, with_mock};

#[test]
fn a_reloaded_page_gets_its_game_back_within_the_grace() {
    let gui = Gui::start(&["--grace", "3"]);
    let id = gui.open();
    let mut events = gui.events(&id);
    events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    gui.ok(&id, "setoption name MoveTime value 50\nmove c3");
    let replied = events.wait("the engine's move", |s| moves(s).len() == 2);
    // The page reloads: its stream closes and a new one opens for the same session.
    drop(events);
    std::thread::sleep(Duration::from_millis(300));
    let mut again = gui.events(&id);
    let first = again.next();
    assert_eq!(moves(&first), moves(&replied), "{first}");
    assert_eq!(first["pgn"], replied["pgn"]);
    // An id the server does not know is refused with a reason, as JSON.
    let (status, body) = gui.raw("GET", "/api/sessions/0123abcd/events", "", b"");
    assert_eq!(status, 404, "{body}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert!(
        reply["error"].as_str().unwrap().contains("no such session"),
        "{reply}"
    );
    // Without a page for longer than the grace, the session ends.
    drop(again);
    let deadline = Instant::now() + Duration::from_secs(30);
    while gui.sessions() > 0 {
        assert!(Instant::now() < deadline, "the session outlives its grace");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, _) = gui.raw("GET", &format!("/api/sessions/{id}/events"), "", b"");
    assert_eq!(status, 404);
}

#[test]
fn engine_moves_are_paced_so_that_a_person_can_follow_them() {
    let dir = TempDir::new("gui-pace");
    let gui = with_mock(&dir, &["--pace", "250"], &[]);
    let id = gui.open();
    let mut events = gui.events(&id);
    events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    let asked = Instant::now();
    gui.ok(
        &id,
        "setoption name Player1 value engine\nsetoption name Player2 value engine\n\
         setoption name MoveTime value 50\nnewgame size 5x5",
    );
    let over = events.wait("the end", |s| !s["over"].is_null());
    let plies = moves(&over).len() as u32;
    assert!(plies >= 2, "{over}");
    // Each move after the first is shown no sooner than the pace after the one before:
    // the whole game, seen from before it was asked for, takes at least that long.
    let least = Duration::from_millis(250) * (plies - 1);
    assert!(
        asked.elapsed() >= least,
        "{plies} plies in {:?}, expected at least {least:?}",
        asked.elapsed()
    );
}

#[test]
fn the_state_tells_the_engines_level_range_or_that_it_has_none() {
    let gui = Gui::start(&[]);
    let id = gui.open();
    let ready = gui
        .events(&id)
        .wait("the engine ready", |s| s["engine"]["status"] == "ready");
    assert_eq!(
        ready["engine"]["levels"],
        serde_json::json!([1, 10]),
        "{ready}"
    );
    // An engine without a Level option.
    let bare = "while read l; do case $l in ugi) echo 'id name bare'; echo ugiok;; \
                isready) echo readyok;; quit) exit;; esac; done";
    let arg = format!("arg={bare}");
    let gui = Gui::start(&["--engine", "cmd=/bin/sh", "arg=-c", &arg]);
    let id = gui.open();
    let mut events = gui.events(&id);
    let first = events.next();
    if first["engine"]["status"] == "starting" {
        assert!(first["engine"].get("levels").is_none(), "{first}");
    }
    let ready = events.wait("the engine ready", |s| s["engine"]["status"] == "ready");
    assert!(ready["engine"]["levels"].is_null(), "{ready}");
    assert!(ready["engine"].get("levels").is_some(), "{ready}");
}
