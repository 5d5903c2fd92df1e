//! Property test: no input crashes, hangs or corrupts the engine.
//!
//! Each case feeds a random mix of commands (in any order), random bytes, invalid
//! UTF-8 and long lines to the real binary, then checks that it still answers
//! `isready`, that every line it wrote is a valid message, that it never announced
//! more moves than searches were asked for, and that `quit` ends it.
//!
//! Bounded for `cargo test` (64 cases, well under a second); `PROTOCOL_FUZZ_CASES=N` runs more, as
//! `scripts/fuzz-protocol.sh` does.

use crate::common;

use common::{Engine, message};
use proptest::prelude::*;

const COMMAND_LINES: &[&str] = &[
    "ugi",
    "isready",
    "stop",
    "stop",
    "go",
    "go infinite",
    "go depth 2",
    "go movetime 5",
    "go nodes 300",
    "go p1time 50 p2time 50",
    "solve depth 3",
    "solve movetime 5",
    "perft 3",
    "d",
    "legal",
    "eval",
    "bench",
    "query p1turn",
    "query gameover",
    "query result",
    "newgame",
    "newgame size 3x3",
    "uginewgame size 11x4 start b2",
    "position startpos",
    "position startpos moves c3 b2",
    "position fen 3/1s1/3 1",
    "position fen 5/5/2s2/5/5 2 moves d4",
    "setoption name Hash value 2",
    "setoption name Level value 1",
    "setoption name Level value 0",
    "bestmove d4",
    "go depth",
];

/// One piece of input.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => proptest::sample::select(COMMAND_LINES).prop_map(|c| format!("{c}\n").into_bytes()),
        2 => (0u8..11, 0u8..11).prop_map(|(f, r)| format!("move {}{}\n", (b'a' + f) as char, r + 1).into_bytes()),
        1 => proptest::collection::vec(any::<u8>(), 0..80),
        1 => "\\PC{0,40}\n".prop_map(String::into_bytes),
        1 => Just(b"\xff\xfe\xc0 go\n".to_vec()),
        1 => (1usize..200_000).prop_map(|n| {
            let mut line = vec![b'x'; n];
            line.push(b'\n');
            line
        }),
    ]
}

fn cases() -> u32 {
    std::env::var("PROTOCOL_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64)
}

fn check(pieces: &[Vec<u8>]) -> Result<(), TestCaseError> {
    let mut engine = Engine::start();
    for piece in pieces {
        engine.send_bytes(piece);
    }
    // End any unfinished line, stop every search that only `stop` ends (commands
    // wait for the search before them, so each needs its own), then the engine must
    // still answer.
    engine.send_bytes(&b"\nstop".repeat(pieces.len() + 1));
    engine.send_bytes(b"\nisready\n");
    let mut lines = engine.until(|l| l == "readyok");
    engine.send("stop");
    lines.extend(engine.sync());
    engine.send("quit");
    let (status, rest) = engine.wait_exit();
    lines.extend(rest);
    prop_assert!(status.success(), "exit status {status}");
    for line in &lines {
        message(line);
    }
    let requested = pieces
        .iter()
        .filter(|p| p.starts_with(b"go") || p.starts_with(b"solve"))
        .count();
    let announced = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    prop_assert!(
        announced <= requested,
        "{announced} bestmoves for {requested} searches"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_input_never_breaks_the_engine(pieces in proptest::collection::vec(piece(), 0..24)) {
        check(&pieces)?;
    }
}
