//! Scripted sessions with the real engine over pipes: every command and its replies.

use crate::common;

use common::{Engine, is_error, message};
use slimetrail::board::{Position, Size, perft};
use slimetrail::protocol::{Info, Message};

fn bestmove_of(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
}

/// Lines of a search up to its `bestmove`, checked: every line a message, search
/// `info` lines first, then exactly one summary `info` with nodes, nps and time.
fn finish_search(engine: &Engine) -> Vec<String> {
    let lines = engine.until(|l| l.starts_with("bestmove"));
    for line in &lines {
        message(line);
    }
    let summary = &lines[lines.len() - 2];
    match message(summary) {
        Message::Info(Info {
            nodes: Some(_),
            nps: Some(_),
            time: Some(_),
            depth: None,
            pv,
            ..
        }) if pv.is_empty() => {}
        _ => panic!("expected a summary info line before bestmove, got {summary:?}"),
    }
    lines
}

#[test]
fn ugi_identifies_the_engine_and_lists_its_options() {
    let mut engine = Engine::start();
    let lines = engine.ask("ugi");
    assert_eq!(
        lines[0],
        format!("id name Slimetrail {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(options.len(), 6, "{lines:?}");
    for (option, name) in options.iter().zip([
        "Hash",
        "Threads",
        "Level",
        "MoveOverhead",
        "Seed",
        "OwnBook",
    ]) {
        assert!(
            matches!(message(option), Message::DeclareOption(d) if d.name == name),
            "{option}"
        );
    }
    assert_eq!(lines.last().map(String::as_str), Some("ugiok"));
}

#[test]
fn go_depth_reports_progress_then_one_bestmove() {
    let mut engine = Engine::start();
    let legal = engine.ask("legal");
    engine.send("go depth 3");
    let lines = finish_search(&engine);
    let first = message(&lines[0]);
    assert!(
        matches!(&first, Message::Info(info) if info.depth == Some(1) && info.score.is_some() && !info.pv.is_empty()),
        "{lines:?}"
    );
    let best = bestmove_of(&lines).unwrap();
    assert!(
        legal[0].split(' ').any(|m| m == best),
        "{best} in {legal:?}"
    );
    assert!(engine.sync().is_empty(), "nothing after bestmove");
}

#[test]
fn go_with_clocks_nodes_and_movetime_ends_by_itself() {
    let mut engine = Engine::start();
    for go in [
        "go movetime 30",
        "go nodes 2000",
        "go p1time 1000 p2time 1000 p1inc 10 p2inc 10 movestogo 5",
        "go p1time -50 p2time -50",
        "go depth 2 movetime 100000",
    ] {
        engine.send(go);
        let lines = finish_search(&engine);
        assert!(bestmove_of(&lines).is_some(), "{go}: {lines:?}");
        assert!(engine.sync().is_empty(), "{go}: one bestmove only");
    }
}

#[test]
fn stop_ends_go_infinite_and_isready_is_served_during_the_search() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.send("isready");
    let before = engine.until(|l| l == "readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    // `d` needs the engine idle: it waits for the search, and stop still acts at once.
    engine.send("d");
    engine.send("stop");
    let lines = finish_search(&engine);
    assert!(bestmove_of(&lines).is_some());
    let diagram = engine.until(|l| l.starts_with("info string Position: "));
    assert!(diagram.iter().all(|l| !is_error(l)), "{diagram:?}");
    assert!(engine.sync().is_empty(), "exactly one bestmove");
    assert_eq!(engine.position(), "7/7/7/3s3/7/7/7 1");
}

#[test]
fn a_bare_go_keeps_its_result_until_stop() {
    let mut engine = Engine::start();
    // On 3x3 the search proves the win at once, then waits for stop.
    engine.ask("position fen 3/1s1/3 1");
    engine.send("go");
    let waiting = engine.sync();
    assert!(
        !waiting.iter().any(|l| l.starts_with("bestmove")),
        "{waiting:?}"
    );
    engine.send("stop");
    let lines = finish_search(&engine);
    assert_eq!(bestmove_of(&lines).as_deref(), Some("a1"));
    engine.send("stop");
    assert!(engine.sync().is_empty(), "a second stop does nothing");
}

#[test]
fn solve_reports_a_verdict_then_bestmove() {
    let mut engine = Engine::start();
    engine.ask("position fen 3/1s1/3 1");
    engine.send("solve");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.contains(&"info string solve win length 1 move a1".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove a1");
    engine.send("solve depth 2 infinite");
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("stop");
    assert_eq!(
        engine.until(|l| l.starts_with("bestmove")).last().unwrap(),
        "bestmove a1"
    );
}

#[test]
fn moves_queries_and_the_end_of_a_game() {
    let mut engine = Engine::start();
    assert_eq!(engine.ask("query p1turn"), ["response true"]);
    assert_eq!(engine.ask("query gameover"), ["response false"]);
    assert_eq!(engine.ask("query result"), ["response none"]);
    assert!(engine.ask("move c3").is_empty());
    assert_eq!(engine.ask("query p1turn"), ["response false"]);
    assert!(engine.ask("move b2").is_empty());
    assert!(engine.ask("move a1").is_empty(), "a game-ending move");
    assert_eq!(engine.ask("query gameover"), ["response true"]);
    assert_eq!(engine.ask("query result"), ["response p1win"]);
    let diagram = engine.diagram();
    assert!(
        diagram.contains(&"info string Last move: b2 -> a1".to_string()),
        "{diagram:?}"
    );
    assert!(
        diagram
            .iter()
            .any(|l| l.contains("Game over: player 1 wins (goal reached)."))
    );
    assert_eq!(engine.ask("legal"), ["info string legal none"]);
    // A player with no legal move loses.
    engine.ask("position fen sx1/xx1/3 1");
    assert_eq!(engine.ask("query result"), ["response p2win"]);
}

#[test]
fn go_and_solve_on_a_finished_game_answer_an_error_and_no_move() {
    let mut engine = Engine::start();
    engine.ask("position fen 3/1s1/3 1 moves a1");
    for command in ["go depth 3", "solve", "go infinite"] {
        let lines = engine.ask(command);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with(&format!(
                "info string error {}: the game is over (player 1 won, goal reached): expected",
                command.split(' ').next().unwrap()
            )),
            "{lines:?}"
        );
        assert_eq!(lines[1], "bestmove (none)");
    }
}

#[test]
fn new_games_and_positions() {
    let mut engine = Engine::start();
    engine.ask("newgame size 9x5");
    assert_eq!(engine.position(), "9/9/4s4/9/9 1");
    engine.ask("position startpos moves d2");
    assert_eq!(
        engine.position(),
        "9/9/4x4/3s5/9 2",
        "startpos is the game's start"
    );
    engine.ask("uginewgame start e5");
    assert_eq!(
        engine.position(),
        "7/7/4s2/7/7/7/7 1",
        "a bare newgame is 7x7"
    );
    engine.ask("position fen 5/5/2s2/5/5 2 moves d4 e5");
    assert_eq!(engine.position(), "4s/3x1/2x2/5/5 2");
    assert_eq!(engine.ask("query result"), ["response p2win"]);
    engine.ask("newgame");
    assert_eq!(engine.position(), "7/7/7/3s3/7/7/7 1");
}

#[test]
fn developer_commands_print_info_strings() {
    let mut engine = Engine::start();
    let diagram = engine.diagram();
    assert_eq!(diagram.len(), 13, "{diagram:?}");
    assert_eq!(diagram[5], "info string 4  | . . . @ . . . |  4");
    assert_eq!(
        engine.ask("legal"),
        ["info string legal c3 c4 c5 d3 d5 e3 e4 e5"]
    );
    let eval = engine.ask("eval");
    assert!(eval[0].starts_with("info string eval total "), "{eval:?}");
    assert!(eval.len() >= 2, "the terms follow the total: {eval:?}");
    // perft runs like a search: isready is answered at once, the counts follow.
    engine.send("perft 4");
    let counts = engine.until(|l| l.starts_with("info string total"));
    assert_eq!(counts.len(), 9, "{counts:?}");
    assert_eq!(
        counts[0],
        format!(
            "info string c3: {}",
            perft(
                &Position::start(Size::DEFAULT).after(Size::DEFAULT.parse_square("c3").unwrap()),
                3
            )
        )
    );
    let total = perft(&Position::start(Size::DEFAULT), 4);
    assert_eq!(counts[8], format!("info string total {total}"));
    engine.send("perft 0");
    assert_eq!(engine.line(), "info string total 1");
}

#[test]
fn bench_reports_every_position_and_a_total_that_adds_up() {
    let mut engine = Engine::start();
    engine.send("bench");
    let lines = engine.until(|l| l.starts_with("info string bench total"));
    let positions: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string bench position"))
        .collect();
    assert_eq!(
        positions.len(),
        slimetrail::search::BENCH_POSITIONS.len(),
        "{lines:?}"
    );
    let nodes_of = |line: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|&w| w == "nodes")
            .expect("a nodes field");
        words[at + 1].parse().expect("a node count")
    };
    let sum: u64 = positions.iter().map(|l| nodes_of(l)).sum();
    let total = lines.last().expect("a total line");
    assert_eq!(nodes_of(total), sum, "{total}");
    assert!(sum > 0);
    for line in &lines {
        message(line);
    }
    // The engine is idle again and its position untouched.
    assert!(engine.sync().is_empty());
    assert_eq!(engine.position(), "7/7/7/3s3/7/7/7 1");
}

#[test]
fn options_are_set_by_name_in_any_case() {
    let mut engine = Engine::start();
    for line in [
        "setoption name Hash value 16",
        "setoption name threads value 1",
        "setoption name LEVEL value 3",
        "setoption name Move Overhead value 0",
        "setoption name MoveOverhead value 5000",
    ] {
        assert!(engine.ask(line).is_empty(), "{line}");
    }
    engine.send("go depth 2");
    assert!(bestmove_of(&finish_search(&engine)).is_some());
}

#[test]
fn stop_without_a_search_is_ignored() {
    let mut engine = Engine::start();
    assert!(engine.ask("stop").is_empty());
    assert!(engine.ask("stop").is_empty());
    assert_eq!(engine.position(), "7/7/7/3s3/7/7/7 1");
}

#[test]
fn eof_ends_the_process() {
    let mut engine = Engine::start();
    engine.ask("move c3");
    engine.close_input();
    let (status, rest) = engine.wait_exit();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn quit_ends_the_process_and_ignores_what_follows() {
    let mut engine = Engine::start();
    engine.send("quit");
    engine.send("isready");
    let (status, rest) = engine.wait_exit();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn quit_and_eof_during_a_search_stop_it_and_still_report_its_move() {
    for ending in ["quit", "EOF"] {
        let mut engine = Engine::start();
        engine.send("go infinite");
        engine.sync();
        if ending == "quit" {
            engine.send("quit");
        } else {
            engine.close_input();
        }
        let (status, rest) = engine.wait_exit();
        assert!(status.success(), "{ending}");
        let bestmoves = rest.iter().filter(|l| l.starts_with("bestmove ")).count();
        assert_eq!(bestmoves, 1, "{ending}: {rest:?}");
    }
}

#[test]
fn every_line_of_a_long_session_is_a_valid_message() {
    let mut engine = Engine::start();
    let mut lines = Vec::new();
    for command in ["ugi", "d", "legal", "eval", "move d5", "d"] {
        lines.extend(engine.ask(command));
    }
    engine.send("perft 2");
    lines.extend(engine.until(|l| l.starts_with("info string total")));
    engine.send("solve depth 3");
    lines.extend(engine.until(|l| l.starts_with("bestmove")));
    for line in &lines {
        assert_eq!(&message(line).to_string(), line, "lines are canonical");
    }
}
