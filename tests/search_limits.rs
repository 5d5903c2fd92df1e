//! `go` under its limits: the engine always plays the move of a completed scored
//! search, however short the time, and a depth limit leaves the proof search on.

use crate::common;

use std::sync::atomic::AtomicBool;

use common::Engine as Driver;
use slimetrail::board::{Position, Size};
use slimetrail::search::{Engine, EngineOptions, Limits, Score};

/// Player 1 to move; g1 is safe but loses in two plies, e2 holds.
const TRAP: &str = "9/9/9/9/4x4/4xx1xx/6xxx/5xxxx/4xs2x 1";

/// The lines of one `go` on `fen` by an engine with `threads` threads, up to and
/// including `bestmove`.
fn go_on_threads(fen: &str, limits: &str, threads: usize) -> Vec<String> {
    let mut engine = Driver::start();
    engine.send(&format!("setoption name Threads value {threads}"));
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go {limits}"));
    engine.until(|line| line.starts_with("bestmove"))
}

fn assert_searched_and_not_trapped(limits: &str) {
    assert_searched_and_not_trapped_on_threads(limits, 1);
}

fn assert_searched_and_not_trapped_on_threads(limits: &str, threads: usize) {
    let lines = go_on_threads(TRAP, limits, threads);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "go {limits}: no completed search reported before the move:\n{}",
        lines.join("\n")
    );
    let best = lines.last().map(String::as_str);
    assert_ne!(
        best,
        Some("bestmove g1"),
        "go {limits}: g1 loses in two plies:\n{}",
        lines.join("\n")
    );
}

#[test]
fn a_short_movetime_still_plays_a_searched_move() {
    assert_searched_and_not_trapped("movetime 30");
}

#[test]
fn a_one_millisecond_movetime_still_plays_a_searched_move() {
    assert_searched_and_not_trapped("movetime 1");
}

#[test]
fn a_one_millisecond_movetime_on_two_threads_still_plays_a_searched_move() {
    assert_searched_and_not_trapped_on_threads("movetime 1", 2);
}

#[test]
fn a_tiny_clock_still_plays_a_searched_move() {
    assert_searched_and_not_trapped("p1time 5 p2time 5");
}

/// `go depth 1` ran a first proof slice of 100,000 nodes after its one iteration, so
/// a match between depth-1 engines measured the proof search, not the arena: the
/// proof's share now follows the scored search's nodes.
#[test]
fn a_shallow_depth_limit_costs_only_its_iterations() {
    let position = Position::start(Size::DEFAULT);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let stop = AtomicBool::new(false);
    for (depth, most) in [(1, 2_000), (2, 2_000), (4, 20_000)] {
        engine.new_game();
        let outcome = engine.search(&position, &Limits::depth(depth), &stop, &mut |_| {});
        assert!(
            outcome.info.nodes <= most,
            "go depth {depth} from the 7x7 start searched {} nodes, expected at most {most}",
            outcome.info.nodes
        );
        assert_eq!(outcome.info.depth, depth, "{:?}", outcome.info);
    }
}

#[test]
fn a_depth_limit_leaves_the_proof_search_on() {
    let size: Size = "7x7".parse().expect("7x7 is a board size");
    let position = Position::start_named(size, "e5").expect("e5 is on a 7x7 board");
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let stop = AtomicBool::new(false);
    let outcome = engine.search(&position, &Limits::depth(20), &stop, &mut |_| {});
    assert!(
        matches!(outcome.info.score, Some(Score::Mate(_))),
        "go depth 20 on 7x7 e5 should prove the win: {:?}",
        outcome.info
    );
    // A bound on effort that does not depend on the machine: nodes, not seconds.
    assert!(
        outcome.info.nodes < 20_000_000,
        "go depth 20 on 7x7 e5 searched {} nodes",
        outcome.info.nodes
    );
}

/// The first search on a fresh large table once stalled on huge-page faults (the
/// system defragmenting memory for each first touch of a 2 MiB page): `go movetime
/// 100` on 8x8 with `Hash 1024` took 0.9 s, with the default `Hash 64` up to 0.14 s,
/// and an arena lost such games on time on the first move. A bound on the time would
/// depend on the machine's load, so this checks the causes instead, which do not:
/// after a timed search on a fresh 1 GiB table, the table is not advised for huge
/// pages (no `hg` among the mapping's `VmFlags` in `/proc/PID/smaps`) and was not
/// touched whole (the engine's resident memory stays far below the table's size).
#[cfg(target_os = "linux")]
#[test]
fn a_fresh_large_table_does_not_stall_a_timed_search() {
    let mut engine = Driver::start();
    let declared = engine.ask("ugi");
    let max = declared
        .iter()
        .find(|l| l.starts_with("option name Hash "))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .expect("a Hash option with a maximum");
    let hash_mib = max.min(1024);
    engine.send(&format!("setoption name Hash value {hash_mib}"));
    engine.sync();
    // No `isready` between `position` and `go`: `isready` readies the table for the
    // position's board, which faults it in whole while no clock runs (as `newgame`
    // does); this is the search that comes straight after `position`.
    engine.send("position fen 8/3xxxxx/2x1x2x/2xxxs1x/6xx/6xx/8/8 1");
    engine.send("go movetime 50");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    let smaps = std::fs::read_to_string(format!("/proc/{}/smaps", engine.pid()))
        .expect("the engine's /proc/PID/smaps is readable");
    let tables = large_mappings(&smaps, hash_mib * 1024 / 2);
    assert!(
        !tables.is_empty(),
        "no mapping of at least half the {hash_mib} MiB table in smaps:\n{smaps}"
    );
    for flags in &tables {
        assert!(
            !flags.split_whitespace().any(|flag| flag == "hg"),
            "the table of a timed search is advised for huge pages (VmFlags: {flags}):\n{}",
            lines.join("\n")
        );
    }
    let rss = engine.rss_kib().expect("the engine's resident memory");
    assert!(
        rss < hash_mib * 1024 / 4,
        "the engine holds {rss} KiB after one short search: the {hash_mib} MiB table was \
         touched whole"
    );
}

/// The first search of a game once paid a page fault for every page of the table it
/// touched first: `go movetime 100` on 9x9 right after `newgame`, on the fresh
/// default 64 MiB table, searched 47 K nodes and played a losing move, where the
/// next search of the same position searched 237 K and found the only win. A bound
/// on nodes or time would depend on the machine, so this counts the cause: the
/// engine's minor page faults during that search, from `/proc/PID/stat`. `newgame`
/// now has the system supply the table (16,384 pages of 4 KiB) before `readyok`.
#[cfg(target_os = "linux")]
#[test]
fn the_first_search_of_a_game_finds_the_table_in_memory() {
    let mut engine = Driver::start();
    engine.send("newgame size 9x9");
    engine.sync();
    let before = minor_faults(engine.pid());
    engine.send("position fen 9/9/9/5x3/4xxx1x/5x1xx/3sx1xxx/3xxxx1x/5x3 1");
    engine.send("go nodes 300000");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    let faults = minor_faults(engine.pid()) - before;
    assert!(
        faults < 2_000,
        "{faults} page faults during the first search after newgame: the table was \
         faulted in page by page during it\n{}",
        lines.join("\n")
    );
}

/// The minor page faults of process `pid` so far (field 10 of `/proc/PID/stat`).
#[cfg(target_os = "linux")]
fn minor_faults(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // The command name, in parentheses, may hold spaces: count fields after it.
    let after_name = &stat[stat.rfind(')').expect("a command name in /proc/PID/stat") + 2..];
    after_name
        .split(' ')
        .nth(7)
        .and_then(|field| field.parse().ok())
        .expect("the minor-fault count, field 10 of /proc/PID/stat")
}

/// The `VmFlags` of every mapping in `smaps` of at least `kib` KiB.
#[cfg(target_os = "linux")]
fn large_mappings(smaps: &str, kib: u64) -> Vec<String> {
    let mut found = Vec::new();
    let mut large = false;
    for line in smaps.lines() {
        if let Some(size) = line.strip_prefix("Size:") {
            let size: u64 = size
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .unwrap_or(0);
            large = size >= kib;
        } else if let Some(flags) = line.strip_prefix("VmFlags:") {
            if large {
                found.push(flags.trim().to_string());
            }
        }
    }
    found
}
