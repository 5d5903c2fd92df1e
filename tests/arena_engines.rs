//! Engines that misbehave in ways that used to hang the arena, leak processes or record
//! the wrong reason: floods of output, lines too long, children left behind, stale and
//! unrequested `bestmove` lines, and harmless output (blank lines, `ponder`, unknown
//! `info` fields) that must not lose.

use crate::arena_support;

use arena_support::*;

/// The games of a match of `good` against a mock with `flags` (and extra engine words).
fn against_mock(
    dir: &TempDir,
    flags: &[&str],
    extra: &str,
    rounds: u32,
) -> (std::process::Output, Vec<serde_json::Value>) {
    let mut args = mock_engine(dir, "good", &[]);
    args.extend(mock_engine(dir, "odd", flags));
    args.extend(words(extra));
    args.extend(words(&format!(
        "--each depth=1 --rounds {rounds} --quiet --state st.jsonl --json s.json --pgn g.pgn"
    )));
    let output = run_within(dir, &args, 60);
    let games = if dir.path("s.json").exists() {
        games(&summary(&dir.path("s.json")))
    } else {
        Vec::new()
    };
    (output, games)
}

/// The games `odd` lost, each with its termination and detail.
fn odd_losses(games: &[serde_json::Value]) -> Vec<(String, String)> {
    games
        .iter()
        .filter(|g| {
            let winner = g["winner"].as_u64().unwrap() as usize - 1;
            g["players"][winner] == "good"
                && !["goal-reached", "no-legal-move"].contains(&g["termination"].as_str().unwrap())
        })
        .map(|g| {
            (
                g["termination"].as_str().unwrap().to_string(),
                g["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_flooding_engine_loses_within_its_timeout() {
    let dir = TempDir::new("arena-flood-go");
    // Long enough that the start-up handshake of a loaded machine fits in it.
    let (output, games) = against_mock(&dir, &["--flood", "1"], "timeout=1500", 1);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games.len(), 2);
    for (termination, detail) in odd_losses(&games) {
        assert_eq!(termination, "hang", "{detail}");
        assert!(detail.contains("no bestmove within 1500 ms"), "{detail}");
    }
    assert_eq!(odd_losses(&games).len(), 2);
    assert_all_gone(&all_pids(&dir));
}

#[test]
fn a_flooding_handshake_stops_the_arena_before_the_first_game() {
    for (at, missing) in [
        ("ugi", "no ugiok within 1500 ms"),
        ("isready", "no readyok to isready within 1500 ms"),
    ] {
        let dir = TempDir::new(&format!("arena-flood-{at}"));
        let (output, games) = against_mock(&dir, &["--flood", at], "timeout=1500", 1);
        assert!(
            !output.status.success(),
            "a failed start-up must fail the run"
        );
        let err = text(&output.stderr);
        assert!(err.contains("name=odd") && err.contains(missing), "{err}");
        assert!(games.is_empty());
        assert_all_gone(&all_pids(&dir));
    }
}

#[test]
fn an_engine_flooding_instead_of_quitting_is_killed_in_time() {
    let dir = TempDir::new("arena-flood-quit");
    let (output, games) = against_mock(&dir, &["--flood-at-quit"], "", 2);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games.len(), 4);
    assert!(odd_losses(&games).is_empty(), "{games:?}");
    assert_all_gone(&all_pids(&dir));
}

#[test]
fn a_line_too_long_loses_as_line_too_long() {
    let dir = TempDir::new("arena-long-line");
    let (output, games) = against_mock(&dir, &["--long-line-at", "1"], "", 1);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let losses = odd_losses(&games);
    assert_eq!(losses.len(), 2, "{games:?}");
    for (termination, detail) in losses {
        assert_eq!(termination, "protocol-violation", "{detail}");
        assert!(detail.contains("line too long"), "{detail}");
    }
}

#[test]
fn children_left_by_an_exited_engine_are_killed() {
    let dir = TempDir::new("arena-grandchild");
    let orphans = dir.file("orphans.list");
    let (output, games) = against_mock(&dir, &["--grandchild", &orphans, "--crash-at", "1"], "", 2);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games.len(), 4);
    let orphans: Vec<i32> = std::fs::read_to_string(dir.path("orphans.list"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let survivors = kill_survivors(&orphans);
    // One child per start of the crashing engine: the start-up check and each game.
    assert_eq!(orphans.len(), 5, "{orphans:?}");
    assert!(
        survivors.is_empty(),
        "children outlived their engine: {survivors:?}"
    );
}

#[test]
fn a_second_bestmove_is_discarded_and_loses_nothing() {
    let dir = TempDir::new("arena-double-bestmove");
    let (output, games) = against_mock(&dir, &["--double-bestmove"], "", 2);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games.len(), 4);
    assert!(odd_losses(&games).is_empty(), "{:?}", odd_losses(&games));
}

#[test]
fn an_unrequested_bestmove_loses_as_unrequested() {
    let dir = TempDir::new("arena-early-bestmove");
    let (output, games) = against_mock(&dir, &["--early-bestmove"], "", 1);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let losses = odd_losses(&games);
    assert_eq!(losses.len(), 2, "{games:?}");
    for (termination, detail) in losses {
        assert_eq!(termination, "protocol-violation", "{detail}");
        assert!(detail.contains("unrequested bestmove"), "{detail}");
    }
}

#[test]
fn blank_lines_ponder_and_unknown_info_fields_are_accepted() {
    let dir = TempDir::new("arena-extras");
    let (output, games) = against_mock(&dir, &["--extras"], "", 2);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games.len(), 4);
    assert!(odd_losses(&games).is_empty(), "{:?}", odd_losses(&games));
}

#[test]
fn control_characters_are_escaped_in_game_records() {
    let dir = TempDir::new("arena-escapes");
    let (output, games) = against_mock(&dir, &["--garbage-at", "1"], "", 1);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(odd_losses(&games).len(), 2);
    let pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    assert!(pgn.contains("[TerminationDetails \""), "{pgn}");
    assert!(
        !pgn.contains('\r') && !pgn.contains('\u{1b}'),
        "raw control characters in the PGN: {pgn:?}"
    );
}
