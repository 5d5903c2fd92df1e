//! Response times of the protocol loop, measured (not asserted) for
//! `scripts/protocol-latency.sh`: `isready` during a search and `stop` until
//! `bestmove`. Ignored by `cargo test`; machines are too noisy for timed assertions.

use crate::common;

use std::time::{Duration, Instant};

use common::Engine;

fn rounds() -> usize {
    std::env::var("PROTOCOL_LATENCY_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20)
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    let median = times[times.len() / 2];
    let worst = times[times.len() - 1];
    println!(
        "{what}: median {:.3} ms, max {:.3} ms over {} rounds",
        median.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3,
        times.len()
    );
}

#[test]
#[ignore = "a measurement, run by scripts/protocol-latency.sh"]
fn measure_isready_and_stop_latency() {
    let mut engine = Engine::start();
    // PROTOCOL_LATENCY_THREADS and PROTOCOL_LATENCY_SIZE (such as 11x11) set the
    // engine's Threads and the board.
    if let Ok(threads) = std::env::var("PROTOCOL_LATENCY_THREADS") {
        engine.ask(&format!("setoption name Threads value {threads}"));
    }
    if let Ok(size) = std::env::var("PROTOCOL_LATENCY_SIZE") {
        engine.ask(&format!("newgame size {size}"));
    }
    let mut ready = Vec::new();
    let mut stop = Vec::new();
    for _ in 0..rounds() {
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(50));
        let asked = Instant::now();
        engine.send("isready");
        engine.until(|l| l == "readyok");
        ready.push(asked.elapsed());
        std::thread::sleep(Duration::from_millis(50));
        let asked = Instant::now();
        engine.send("stop");
        engine.until(|l| l.starts_with("bestmove"));
        stop.push(asked.elapsed());
    }
    report("isready -> readyok during go infinite", ready);
    report("stop -> bestmove", stop);
}
