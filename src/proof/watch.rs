//! The watch of a shard at work: while it proves a sub-problem, a second thread
//! reads the results of the other shards now and then, and has the proof abandoned
//! as soon as they prove the sub-problem or settle every line through it.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::check::check;
use super::positions::Split;
use super::results::Results;
use super::skip::settled;

/// How often a shard looks at the results of others while it proves a sub-problem.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(2);

/// While a shard proves `name`, sets `abandon` when `stop` is set, or, looking
/// every `interval`, when the results files of `dir` prove `name` or settle every
/// line through it; returns when `done` is set.
pub(super) fn watch(
    dir: &Path,
    split: &Split,
    name: &str,
    stop: &AtomicBool,
    abandon: &AtomicBool,
    done: &AtomicBool,
    interval: Duration,
) {
    let step = Duration::from_millis(50).min(interval);
    let mut waited = Duration::ZERO;
    while !done.load(Ordering::SeqCst) {
        if stop.load(Ordering::SeqCst) {
            abandon.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(step);
        waited += step;
        if waited < interval {
            continue;
        }
        waited = Duration::ZERO;
        // A results file being written may be read half-way: try again later.
        let Ok(results) = Results::read(dir) else {
            continue;
        };
        let checked = check(split, &results);
        if checked.recorded.contains(name) || settled(split, &checked.known, name) {
            abandon.store(true, Ordering::SeqCst);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::testing::{five_split, record_line};
    use crate::scratch::Scratch;

    #[test]
    fn the_watch_abandons_what_others_prove_or_settle_and_ends_when_told() {
        let dir = Scratch::new("runner-watch");
        let split = five_split();
        let name = split.positions[2].to_string();
        let short = Duration::from_millis(1);
        let (stop, abandon, done) = (
            AtomicBool::new(false),
            AtomicBool::new(false),
            AtomicBool::new(false),
        );
        // Done: returns at once, abandoning nothing.
        done.store(true, Ordering::SeqCst);
        watch(dir.path(), &split, &name, &stop, &abandon, &done, short);
        assert!(!abandon.load(Ordering::SeqCst));
        done.store(false, Ordering::SeqCst);
        // Stopped: abandons.
        stop.store(true, Ordering::SeqCst);
        watch(dir.path(), &split, &name, &stop, &abandon, &done, short);
        assert!(abandon.swap(false, Ordering::SeqCst));
        stop.store(false, Ordering::SeqCst);
        // Another shard settles the root: abandons.
        let settling = record_line(&split.positions[0], Some("loss"), None);
        std::fs::write(dir.file("results-2-of-2.jsonl"), format!("{settling}\n")).unwrap();
        watch(dir.path(), &split, &name, &stop, &abandon, &done, short);
        assert!(abandon.swap(false, Ordering::SeqCst));
        // Another shard proves the very sub-problem: abandons.
        let proving = record_line(&split.positions[2], Some("win"), None);
        std::fs::write(dir.file("results-2-of-2.jsonl"), format!("{proving}\n")).unwrap();
        watch(dir.path(), &split, &name, &stop, &abandon, &done, short);
        assert!(abandon.swap(false, Ordering::SeqCst));
        // Results that change nothing for it: goes on watching until done.
        let other = record_line(&split.positions[3], Some("win"), None);
        std::fs::write(dir.file("results-2-of-2.jsonl"), format!("{other}\n")).unwrap();
        std::thread::scope(|scope| {
            scope.spawn(|| watch(dir.path(), &split, &name, &stop, &abandon, &done, short));
            std::thread::sleep(Duration::from_millis(50));
            done.store(true, Ordering::SeqCst);
        });
        assert!(!abandon.load(Ordering::SeqCst));
    }
}
