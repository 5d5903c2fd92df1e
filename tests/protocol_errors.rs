//! Bad input through the real binary: exactly one error line, a warning on stderr,
//! and the state exactly as before.

use crate::common;

use common::{Engine, is_error, message};

/// Sends `line` and checks it is answered by exactly one error line containing
/// `expected`, leaving the position unchanged.
fn rejected(engine: &mut Engine, line: &str, expected: &str) {
    let before = engine.diagram();
    let turn = engine.ask("query p1turn");
    let replies = engine.ask(line);
    assert_eq!(replies.len(), 1, "{line:?}: {replies:?}");
    assert!(is_error(&replies[0]), "{line:?}: {replies:?}");
    assert!(replies[0].contains(expected), "{line:?}: {}", replies[0]);
    let says_what_is_expected = ["expected", "must", "never"]
        .iter()
        .any(|word| replies[0].contains(word));
    assert!(says_what_is_expected, "{line:?}: {}", replies[0]);
    message(&replies[0]);
    assert_eq!(engine.diagram(), before, "{line:?} changed the position");
    assert_eq!(
        engine.ask("query p1turn"),
        turn,
        "{line:?} changed the turn"
    );
}

#[test]
fn malformed_commands_are_rejected_without_effect() {
    let mut engine = Engine::start();
    engine.ask("position startpos moves c3 b3");
    let cases = [
        ("foo", "unknown command 'foo'"),
        ("goo", "unknown command 'goo'"),
        (
            "go depth abc",
            "go: expected a number after 'depth', found 'abc'",
        ),
        ("go depth 1 depth 2", "'depth' is given twice"),
        ("go depth 99999999999", "out of range"),
        ("go p1time 100", "incomplete clock"),
        ("go fast", "unknown limit 'fast'"),
        ("solve nodes", "expected a number after 'nodes'"),
        ("perft x", "expected a number after 'perft'"),
        ("query whose", "expected p1turn, gameover or result"),
        ("isready please", "unexpected 'please'"),
        ("newgame size 13x13", "out of range"),
        ("newgame start g7", "goal corner"),
        ("newgame start e9", "off the 7x7 board"),
        ("bestmove d3", "'bestmove' is a reply that engines send"),
        ("readyok", "'readyok' is a reply"),
        ("info string hello", "'info' is a reply"),
    ];
    for (line, expected) in cases {
        rejected(&mut engine, line, expected);
    }
}

#[test]
fn illegal_and_unparsable_moves_are_rejected_without_effect() {
    let mut engine = Engine::start();
    engine.ask("move c3");
    let cases = [
        ("move d4", "d4 is slimed: expected one of"),
        ("move e5", "e5 is not next to the snail on c3"),
        ("move c3", "snail's own square"),
        ("move h1", "h1 is off the 7x7 board"),
        ("move 3c", "'3c' is not a square"),
        ("move", "expected a square"),
        ("move b2 b1", "unexpected 'b1'"),
    ];
    for (line, expected) in cases {
        rejected(&mut engine, line, expected);
    }
    engine.ask("position fen 3/1s1/3 1 moves a1");
    rejected(
        &mut engine,
        "move b1",
        "the game is over (player 1 won, goal reached)",
    );
}

#[test]
fn bad_positions_leave_the_old_one_in_place() {
    let mut engine = Engine::start();
    engine.ask("move e5");
    let cases = [
        (
            "position fen 7/7/7/3q3/7/7/7 1",
            "unexpected character 'q' in row 4",
        ),
        ("position fen 7/7/7/3s3/7/7/7", "side to move is missing"),
        (
            "position fen 6x/7/7/3s3/7/7/7 1",
            "goal corner g7 is slimed",
        ),
        (
            "position fen 7/7/7/3s3/7/7/7 1 moves c3 d4",
            "move 2 (d4) cannot be played: d4 is slimed",
        ),
        ("position startpos moves c3 c3", "move 2 (c3)"),
        (
            "position startpos moves c3 b2 a1 b1",
            "move 4 (b1) cannot be played: the game is over",
        ),
        (
            "position startpos moves q9",
            "move 1 (q9) cannot be played: q9 is off the 7x7 board",
        ),
        (
            "position startpos moves 9q",
            "bad move: '9q' is not a square",
        ),
        ("position somewhere", "expected 'startpos' or 'fen"),
    ];
    for (line, expected) in cases {
        rejected(&mut engine, line, expected);
    }
}

#[test]
fn bad_options_are_rejected() {
    let mut engine = Engine::start();
    let cases = [
        (
            "setoption name Ponder value true",
            "unknown option 'Ponder': expected one of Hash",
        ),
        ("setoption name Hash value 0", "Hash 0 is out of range"),
        ("setoption name Hash value 65537", "out of range"),
        ("setoption name Level value 11", "Level 11 is out of range"),
        (
            "setoption name Threads value many",
            "bad Threads value 'many'",
        ),
        ("setoption name Hash", "needs 'value N'"),
        ("setoption Hash 5", "expected 'name'"),
    ];
    for (line, expected) in cases {
        rejected(&mut engine, line, expected);
    }
}

#[test]
fn errors_are_reported_once_on_stdout_not_again_on_stderr() {
    let mut engine = Engine::start();
    let replies = engine.ask("frobnicate");
    assert_eq!(replies.len(), 1, "{replies:?}");
    engine.send("quit");
    engine.wait_exit();
    let stderr = engine.stderr();
    assert!(!stderr.contains("frobnicate"), "{stderr}");
}

#[test]
fn ugly_bytes_get_an_error_line_and_change_nothing() {
    let mut engine = Engine::start();
    engine.ask("move d5");
    let before = engine.diagram();
    engine.send_bytes(b"go \xff\xfe depth 3\n");
    let replies = engine.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].contains("not valid UTF-8"), "{replies:?}");
    let mut long = vec![b'm'; 10 * 1024 * 1024];
    long.push(b'\n');
    engine.send_bytes(&long);
    let replies = engine.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(
        replies[0].contains("too long (10485760 bytes): expected at most"),
        "{replies:?}"
    );
    engine.send_bytes(b"\n\n   \t\r\n");
    assert!(engine.sync().is_empty(), "blank lines are ignored");
    engine.send_bytes("🐌 ✓\0\u{1b}[2J\n".as_bytes());
    let replies = engine.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].starts_with("info string error unknown command '🐌'"));
    assert_eq!(engine.diagram(), before);
}

#[test]
fn commands_during_a_search_wait_for_it_and_are_carried_out_in_order() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    for line in [
        "move c3",
        "position startpos moves c3",
        "newgame size 5x5",
        "setoption name Hash value 2",
        "go depth 1",
        "perft 1",
        "query result",
    ] {
        engine.send(line);
    }
    engine.send("stop");
    let first = engine.until(|l| l.starts_with("bestmove"));
    let rest = engine.until(|l| l.starts_with("response "));
    let all: Vec<&String> = first.iter().chain(&rest).collect();
    assert!(all.iter().all(|l| !is_error(l)), "{all:?}");
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{rest:?}"
    );
    assert!(rest.iter().any(|l| l == "info string total 8"), "{rest:?}");
    assert_eq!(rest.last().unwrap(), "response none");
    assert_eq!(engine.position(), "5/5/2s2/5/5 1");
    assert!(engine.sync().is_empty(), "nothing more");
}
