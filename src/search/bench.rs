//! `bench`: a fixed set of positions searched to a fixed depth, for a node count
//! that identifies the search's behaviour and a speed figure.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::Position;

use super::engine::Engine;
use super::limits::Limits;

/// Positions of many sizes and phases, from openings to sealed endgames.
pub const BENCH_POSITIONS: [&str; 19] = [
    "7/7/7/3s3/7/7/7 1",
    "2x4/1xx4/1xx4/s2x3/7/7/7 1",
    "x6/xx5/xxx4/xxxx3/xxs4/7/7 1",
    "4x2/2xx1x1/1x1x1xx/x1xxxx1/xxsxx2/4xx1/5x1 1",
    "xxxx3/1xxx3/1xxxx1s/1xxxxx1/1xxxxx1/2xxxxx/3xx2 1",
    "8/8/8/4s3/8/8/8/8 1",
    "5x2/5sx1/5x2/4xxx1/4xx2/8/8/8 1",
    "xxx5/xxxxx3/1x2x3/xx2x3/xx6/xx6/2x5/2s5 1",
    "8/8/1x6/sxxxx3/xxxxxxx1/1xxxxxx1/2xxxxxx/2xxxxxx 1",
    "xsxxx4/xx1x5/3x5/3x5/4x4/9/9/9/9 1",
    "1xxxx4/x1xxxxx2/xx2xxx2/1x1xxxxs1/4xxx2/5xx2/9/9/9 2",
    "11/11/11/11/11/5s5/11/11/11/11/11 1",
    "2sxxxxxx2/4xxx1x2/5x3x1/9x1/7xxxx/5xxx3/11/11/11/11/11 1",
    "11/4x6/4xxx4/2x1xxx4/1xxxx1x4/3xxx1xxx1/3xx1x1xxx/4xxxxxxx/4x1xxs1x/4xxxxx2/5xxxx2 2",
    "s4/1xx2/1xx2/5/5 1",
    "6/6/5x/1x1xxx/sxx1x1/2xx2/6/6 1",
    "10/10/10/5x1x2/4xxxxx1/4xxxxx1/3s1xxx2 2",
    "3/3/3/3/3/1x1/1x1/x2/s2/3/3 2",
    "3xx6/2sxxx5/2x1x6/3x7 1",
];

/// Default depth of `bench`.
pub const BENCH_DEPTH: u32 = 9;

/// The result of one bench position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position searched.
    pub position: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Processor time the searching thread used: unlike `time`, it leaves out the
    /// time the thread waited while other programs had the processor.
    pub cpu_time: Duration,
}

impl Engine {
    /// Searches every bench position to `depth` with the scored search alone, each
    /// from an empty table, and calls `each` after every position. The node counts
    /// depend only on the code, never on timing.
    pub fn bench(&mut self, depth: u32, each: &mut dyn FnMut(&BenchLine)) -> Vec<BenchLine> {
        let stop = AtomicBool::new(false);
        let mut lines = Vec::new();
        for text in BENCH_POSITIONS {
            let position: Position = text.parse().expect("bench positions are valid");
            self.new_game();
            // Allocating a table for this size, and touching every page of a new
            // one, is set-up, not search: outside the timing.
            let megabytes = self.table.megabytes();
            self.prepare_table(position.size());
            if self.table.megabytes() != megabytes {
                self.table.touch();
            }
            let cpu_started = thread_cpu_time();
            let started = Instant::now();
            let outcome = self.search(&position, &Limits::depth(depth), &stop, &mut |_| {});
            let time = started.elapsed();
            let line = BenchLine {
                position: text.to_string(),
                nodes: outcome.info.nodes,
                time,
                cpu_time: thread_cpu_time().saturating_sub(cpu_started),
            };
            each(&line);
            lines.push(line);
        }
        lines
    }
}

/// Processor time used by the calling thread so far (on systems without a
/// per-thread clock: the time since the first call).
fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid, writable timespec; the clock id is a constant
        // every Unix the crate builds on supports.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            return Duration::new(now.tv_sec as u64, now.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::EngineOptions;

    #[test]
    fn bench_positions_are_valid_and_playable() {
        for text in BENCH_POSITIONS {
            let position: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(!position.outcome().is_over(), "{text}");
            assert_eq!(position.to_string(), text);
        }
    }

    #[test]
    fn bench_node_counts_repeat_exactly() {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 4,
            ..EngineOptions::default()
        });
        let first: Vec<u64> = engine
            .bench(4, &mut |_| {})
            .iter()
            .map(|l| l.nodes)
            .collect();
        let second: Vec<u64> = engine
            .bench(4, &mut |_| {})
            .iter()
            .map(|l| l.nodes)
            .collect();
        assert_eq!(first, second);
        assert!(first.iter().all(|&n| n > 0));
    }
}
