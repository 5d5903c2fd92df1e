//! The arena against misbehaving engine processes: every fault loses the game with its
//! reason recorded, the faulty engine is restarted for its next game, the tournament
//! completes, and no engine process is left behind.

use crate::arena_support;

use std::collections::HashSet;

use arena_support::*;

/// A misbehaving engine: name, mock flags, extra engine words, the expected termination
/// and words the recorded detail must contain.
///
/// Every engine gets [`GENEROUS_TIMEOUT`] to answer, so that on a loaded machine a slow
/// start-up is not taken for the fault under test; only the engines whose fault is a
/// missing or late answer (hang) gets a short `timeout` of its own. That is its
/// start-up handshake's deadline too, so it is 1 s: the 200 ms it had before could
/// be too short for a handshake under a loaded parallel test run (as it was for the
/// flood tests of `arena_engines`). Engines that cannot start at all stop the arena
/// before the first game (see `arena_config`).
const GENEROUS_TIMEOUT: &str = "timeout=10000";

type Case = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
    &'static [&'static str],
);

/// A gauntlet of a well-behaved mock against one misbehaving mock of each kind.
#[test]
fn every_fault_loses_with_its_reason_and_the_tournament_completes() {
    let dir = TempDir::new("arena-faults");
    let cases: &[Case] = &[
        (
            "crash",
            &["--crash-at", "1"],
            &[],
            "crash",
            &["crashed: exited with code 3", "mock: crashing at move 1"],
        ),
        (
            "hang",
            &["--hang-at", "1"],
            &["timeout=1000"],
            "hang",
            &["hung: no bestmove within 1000 ms"],
        ),
        (
            "garbage",
            &["--garbage-at", "1"],
            &[],
            "garbage",
            &["sent garbage", "#!? garbage instead of move 1"],
        ),
        (
            "illegal",
            &["--illegal-at", "1"],
            &[],
            "illegal-move",
            &["played", "the snail's own square"],
        ),
        (
            "laggard",
            &["--move-delay", "400"],
            &["tc=0.15", "timemargin=20"],
            "time-forfeit",
            &["lost on time: no bestmove with 150 ms left on its clock (+20 ms margin)"],
        ),
    ];
    let mut args = mock_engine(&dir, "good", &[]);
    for (name, flags, extra, _, _) in cases {
        args.extend(mock_engine(&dir, name, flags));
        args.extend(extra.iter().map(|w| w.to_string()));
    }
    args.extend(words(&format!(
        "--each depth=1 {GENEROUS_TIMEOUT} --format gauntlet --rounds 2 --concurrency 2 --quiet"
    )));
    for (flag, file) in [
        ("--json", "summary.json"),
        ("--pgn", "games.pgn"),
        ("--log", "engines.log"),
        ("--state", "state.jsonl"),
    ] {
        args.push(flag.to_string());
        args.push(dir.file(file));
    }
    let output = run(&dir, &args);
    assert!(
        output.status.success(),
        "arena failed: {}",
        text(&output.stderr)
    );
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "Standings after {} of {} games",
            4 * cases.len(),
            4 * cases.len()
        )),
        "{stdout}"
    );
    assert!(
        !stdout.contains("mock:"),
        "engine stderr leaked into the arena's output: {stdout}"
    );

    let summary = summary(&dir.path("summary.json"));
    let games = games(&summary);
    assert_eq!(games.len(), 4 * cases.len());
    for (name, _, _, termination, details) in cases {
        let theirs: Vec<&serde_json::Value> = games
            .iter()
            .filter(|g| g["players"][0] == *name || g["players"][1] == *name)
            .collect();
        assert_eq!(theirs.len(), 4, "{name} should play 4 games");
        for g in theirs {
            let winner = g["winner"].as_u64().unwrap() as usize - 1;
            assert_eq!(g["players"][winner], "good", "{name} should lose: {g}");
            assert_eq!(g["termination"], *termination, "{name}: {g}");
            let detail = g["detail"].as_str().unwrap();
            assert!(
                detail.starts_with(name),
                "the detail names the culprit: {detail}"
            );
            for word in *details {
                assert!(
                    detail.contains(word),
                    "{name}: `{word}` missing from `{detail}`"
                );
            }
        }
        // A faulty engine gets a fresh process for each game, after the one started
        // once before the first game to check its handshake.
        let started = pids(&dir, name);
        assert_eq!(
            started.len(),
            5,
            "{name} should be started once before the games and once per game: {started:?}"
        );
        assert_eq!(started.iter().collect::<HashSet<_>>().len(), 5);
    }
    // The well-behaved engine is reused across games: at most one process per worker,
    // and the one of the start-up check.
    let good = pids(&dir, "good");
    assert!(
        good.len() >= 2 && good.len() <= 3,
        "good engine started {} times",
        good.len()
    );

    let pgn = std::fs::read_to_string(dir.path("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), games.len());
    assert!(
        pgn.contains("[Termination \"crash\"]") && pgn.contains("[Termination \"time-forfeit\"]")
    );
    let log = std::fs::read_to_string(dir.path("engines.log")).unwrap();
    assert!(log.contains("stderr: mock: crashing at move 1"), "{log}");

    assert_all_gone(&all_pids(&dir));
}

/// A crash in the middle of a game: the moves before it are kept, the game is lost, the
/// engine is restarted and plays (and crashes) again in the next game.
#[test]
fn a_crash_at_a_later_move_keeps_the_moves_before_it() {
    let dir = TempDir::new("arena-late-crash");
    let mut args = mock_engine(&dir, "steady", &[]);
    args.extend(mock_engine(&dir, "crasher", &["--crash-at", "2"]));
    args.extend(words(
        "--each depth=1 --rounds 3 --openings random:0 --quiet --json s.json --state st.jsonl",
    ));
    let output = run(&dir, &args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let games = games(&summary(&dir.path("s.json")));
    assert_eq!(games.len(), 6);
    let crashes: Vec<_> = games
        .iter()
        .filter(|g| g["termination"] == "crash")
        .collect();
    assert!(!crashes.is_empty());
    for g in &crashes {
        // The crasher played its first move: at least two plies before the crash.
        assert!(g["plies"].as_u64().unwrap() >= 2, "{g}");
        assert!(g["detail"].as_str().unwrap().contains("move 2"), "{g}");
    }
    // One fresh process after each crash, the first one, and the start-up check.
    let starts = pids(&dir, "crasher").len();
    assert!(
        starts > crashes.len() && starts <= crashes.len() + 2,
        "{starts} starts for {} crashes",
        crashes.len()
    );
    assert_all_gone(&all_pids(&dir));
}
