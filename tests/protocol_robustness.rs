//! Settings, limits and command order that must hold whatever the caller sends:
//! every advertised `Hash` value is safe, `go nodes N` is exact, no command is lost
//! after `stop`, and the end of input lets the running search finish.

use crate::common;

use common::{Engine, is_error, message};
use slimetrail::protocol::{Info, Message, OptionKind};

/// The `max` of the `Hash` option line.
fn hash_max(engine: &mut Engine) -> i64 {
    engine
        .ask("ugi")
        .iter()
        .find_map(|l| match message(l) {
            Message::DeclareOption(d) if d.name == "Hash" => match d.kind {
                OptionKind::Spin { max, .. } => max,
                _ => None,
            },
            _ => None,
        })
        .expect("a Hash option line with a max")
}

/// The nodes of the summary line before `bestmove`, and the `bestmove` line.
fn summary_nodes(lines: &[String]) -> (u64, String) {
    let best = lines.last().expect("lines up to bestmove").clone();
    match message(&lines[lines.len() - 2]) {
        Message::Info(Info {
            nodes: Some(nodes),
            depth: None,
            ..
        }) => (nodes, best),
        other => panic!("expected a summary line, got {other:?} in {lines:?}"),
    }
}

#[test]
fn a_hash_that_cannot_be_had_is_an_error_and_the_engine_lives_on() {
    let mut engine = Engine::start();
    let max = hash_max(&mut engine);
    // Far beyond the machine: the engine must neither abort nor take it.
    for value in ["65536", "30000", "1000000000"] {
        let replies = engine.ask(&format!("setoption name Hash value {value}"));
        if value.parse::<i64>().unwrap() > max {
            assert!(
                replies.len() == 1 && is_error(&replies[0]),
                "{value}: {replies:?}"
            );
        } else {
            assert!(replies.iter().all(|l| is_error(l)), "{value}: {replies:?}");
        }
    }
    engine.send("go depth 2");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn the_advertised_hash_maximum_fits_in_the_machine() {
    let mut engine = Engine::start();
    let max = hash_max(&mut engine);
    let pages = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
    });
    if let Some(total_kib) = pages {
        assert!(
            max * 1024 <= total_kib,
            "Hash max {max} MiB, memory {total_kib} KiB"
        );
    }
    // The maximum itself is accepted.
    let replies = engine.ask(&format!("setoption name Hash value {max}"));
    assert!(replies.is_empty(), "{replies:?}");
    assert_eq!(engine.ask("uginewgame"), Vec::<String>::new());
}

#[test]
fn a_large_hash_costs_a_small_board_only_what_it_uses() {
    let mut engine = Engine::start();
    engine.ask("setoption name Hash value 2048");
    let small = |engine: &Engine| {
        if let Some(rss) = engine.rss_kib() {
            assert!(rss < 256 * 1024, "resident {rss} KiB on 7x7 with Hash 2048");
        }
    };
    for _ in 0..2 {
        assert!(engine.ask("uginewgame").is_empty());
        small(&engine);
        engine.send("go depth 3");
        engine.until(|l| l.starts_with("bestmove"));
        small(&engine);
    }
}

#[test]
fn commands_sent_right_after_stop_wait_for_the_search_and_are_not_lost() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.send_bytes(b"stop\nposition startpos moves e4\ngo depth 3\n");
    let first = engine.until(|l| l.starts_with("bestmove"));
    let second = engine.until(|l| l.starts_with("bestmove"));
    let all: Vec<&String> = first.iter().chain(&second).collect();
    assert!(all.iter().all(|l| !is_error(l)), "{all:?}");
    // The second search ran on the position sent after stop: e4 is the snail's square.
    assert!(!second.last().unwrap().ends_with(" e4"), "{second:?}");
    assert_eq!(
        engine.ask("d").last().unwrap(),
        "info string Position: 7/7/7/3xs2/7/7/7 2"
    );

    engine.send_bytes(b"perft 4\nlegal\n");
    let lines = engine.sync();
    let total = lines
        .iter()
        .position(|l| l.starts_with("info string total "));
    let legal = lines
        .iter()
        .position(|l| l.starts_with("info string legal "));
    assert!(total.is_some() && legal > total, "{lines:?}");
    assert!(lines.iter().all(|l| !is_error(l)), "{lines:?}");
}

#[test]
fn go_nodes_is_exact() {
    let mut engine = Engine::start();
    engine.ask("newgame size 9x9");
    for limit in [0u64, 1, 2, 7, 100, 1000, 1024, 1025, 2000, 5000, 40_000] {
        engine.send(&format!("go nodes {limit}"));
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let (nodes, best) = summary_nodes(&lines);
        assert_eq!(nodes, limit, "go nodes {limit}: {lines:?}");
        assert!(best != "bestmove (none)", "{lines:?}");
        for line in &lines {
            if let Message::Info(Info { nodes: Some(n), .. }) = message(line) {
                assert!(n <= limit, "go nodes {limit}: {line}");
            }
        }
    }
}

#[test]
fn go_nodes_is_exact_at_lower_levels_too() {
    let mut engine = Engine::start();
    engine.ask("setoption name Level value 5");
    for limit in [0u64, 1, 50, 3000] {
        engine.send(&format!("go nodes {limit}"));
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let (nodes, _) = summary_nodes(&lines);
        assert!(nodes <= limit, "go nodes {limit}: {lines:?}");
    }
}

#[test]
fn the_end_of_input_lets_the_running_search_finish() {
    let mut engine = Engine::start();
    // The 11x11 start: no proof ends this search before its move time, as one of the
    // 7x7 start can on a quiet machine (a proven position is played at once).
    engine.send("position fen 11/11/11/11/11/5s5/11/11/11/11/11 1");
    engine.send("go movetime 600");
    engine.close_input();
    let (status, lines) = engine.wait_exit();
    assert!(status.success(), "{status:?}");
    let time = lines.iter().rev().find_map(|l| match message(l) {
        Message::Info(Info {
            time: Some(t),
            depth: None,
            ..
        }) => Some(t),
        _ => None,
    });
    assert!(
        time.is_some_and(|t| t >= 500),
        "searched until the movetime: {lines:?}"
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
}

#[test]
fn eval_on_a_finished_game_reports_the_result() {
    let mut engine = Engine::start();
    engine.ask("position fen 3/1s1/3 1 moves a1");
    assert_eq!(
        engine.ask("eval"),
        ["info string eval the game is over: player 1 won (goal reached)"]
    );
}

#[test]
fn board_sizes_are_spelt_one_way_in_messages() {
    let mut engine = Engine::start();
    let replies = engine.ask("newgame start z9");
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].contains("7x7 board"), "{replies:?}");
    assert!(!replies[0].contains('×'), "{replies:?}");
}

#[test]
fn seldepth_is_never_below_depth() {
    let mut engine = Engine::start();
    let check = |engine: &mut Engine, go: &str| {
        engine.send(go);
        let lines = engine.until(|l| l.starts_with("bestmove"));
        for line in &lines {
            if let Message::Info(Info {
                depth: Some(depth),
                seldepth,
                ..
            }) = message(line)
            {
                assert!(seldepth.is_some_and(|s| s >= depth), "{go}: {line}");
            }
        }
    };
    // Player 2 to move wins at once: the game ends within the first ply.
    engine.ask("position fen 3/1s1/3 2");
    check(&mut engine, "go depth 3");
    engine.ask("position startpos");
    check(&mut engine, "go nodes 300000");
    for level in ["1", "3", "6"] {
        engine.ask(&format!("setoption name Level value {level}"));
        check(&mut engine, "go depth 5");
        engine.ask("position fen 3/1s1/3 2");
        check(&mut engine, "go depth 3");
        engine.ask("position startpos");
    }
}
