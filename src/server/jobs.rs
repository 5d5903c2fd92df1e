//! Jobs: the long-running commands (`go`, `solve`, `perft`) on their own thread, and
//! how their results are reported.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

use super::{Event, Output};
use crate::board::{Position, SquareName, perft};
use crate::protocol::{Info, Message};
use crate::search::{
    BENCH_DEPTH, BenchLine, Engine, EngineOptions, Limits, SearchInfo, SearchOutcome, SolveOutcome,
    Verdict,
};

/// What a job does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Task {
    /// `go`: a search.
    Search,
    /// `solve`: a proof attempt.
    Solve,
    /// `perft N`: counting move paths.
    Perft(u32),
    /// `bench`: the fixed bench positions on a fresh engine.
    Bench,
}

/// What a job produced.
pub(super) enum JobResult {
    /// The result of `go`.
    Search(SearchOutcome),
    /// The result of `solve`.
    Solve(SolveOutcome),
    /// Counts per first move, or `None` when stopped before the end.
    Perft(Option<Vec<(SquareName, u64)>>),
    /// Nodes and time per bench position.
    Bench(Vec<BenchLine>),
    /// The job panicked; the engine it held is lost.
    Failed(String),
}

/// A finished job: the engine handed back (if the job had one) and the result.
pub(super) struct JobDone {
    /// The engine, back from the job; `None` for perft or after a panic.
    pub engine: Option<Engine>,
    /// The result.
    pub outcome: JobResult,
}

/// A job that has been started.
pub(super) struct Job {
    /// What it does.
    pub task: Task,
    /// The position it works on.
    pub position: Position,
    /// Set to end the job early.
    pub stop: Arc<AtomicBool>,
    /// Keep the result until `stop` (`go infinite` and a bare `go`).
    pub hold: bool,
    /// A finished result kept until `stop`.
    pub held: Option<JobResult>,
    thread: Option<JoinHandle<()>>,
}

impl Job {
    /// Starts `task` on `position` on a new thread. `engine` is handed over for a
    /// search or solve; for perft it is given straight back.
    pub fn start(
        task: Task,
        position: Position,
        limits: Limits,
        hold: bool,
        engine: Engine,
        output: &Output,
        events: Sender<Event>,
    ) -> (Job, Option<Engine>) {
        let stop = Arc::new(AtomicBool::new(false));
        let (engine_for_job, kept) = match task {
            Task::Perft(_) | Task::Bench => (None, Some(engine)),
            Task::Search | Task::Solve => (Some(engine), None),
        };
        let flag = Arc::clone(&stop);
        let out = output.clone();
        let spawned = std::thread::Builder::new()
            .name("protocol-job".into())
            .spawn(move || {
                let done = run(task, &position, &limits, engine_for_job, &flag, &out);
                let _ = events.send(Event::Done(done));
            });
        let thread = match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                // The job never ran and its engine is lost; the session reports it.
                log::error!("cannot start a thread for the job: {e}");
                None
            }
        };
        let job = Job {
            task,
            position,
            stop,
            hold,
            held: None,
            thread,
        };
        (job, kept)
    }

    /// Whether the job thread could not be started.
    pub fn never_started(&self) -> bool {
        self.thread.is_none()
    }

    /// Asks the job to end now.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether `stop` (or `quit`) has been asked for.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Waits for the job thread to end.
    pub fn join(&mut self) {
        if let Some(thread) = self.thread.take() {
            if thread.join().is_err() {
                log::error!("the job thread ended with a panic");
            }
        }
    }
}

/// The body of a job thread; a panic in the engine becomes [`JobResult::Failed`].
fn run(
    task: Task,
    position: &Position,
    limits: &Limits,
    engine: Option<Engine>,
    stop: &AtomicBool,
    out: &Output,
) -> JobDone {
    let mut engine = engine;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut report = |info: &SearchInfo| out.send(&Message::Info(progress(position, info)));
        match (task, engine.as_mut()) {
            (Task::Search, Some(engine)) => {
                JobResult::Search(engine.search(position, limits, stop, &mut report))
            }
            (Task::Solve, Some(engine)) => {
                JobResult::Solve(engine.solve(position, limits, stop, &mut report))
            }
            (Task::Perft(depth), _) => JobResult::Perft(divide(position, depth, stop)),
            (Task::Bench, _) => {
                // A fresh engine, so that the session's table and options stay as they were.
                let mut bench_engine = Engine::new(EngineOptions {
                    hash_mb: 16,
                    ..EngineOptions::default()
                });
                JobResult::Bench(bench_engine.bench(BENCH_DEPTH, &mut |_| {}))
            }
            (_, None) => JobResult::Failed("no engine was handed to the job".into()),
        }
    }));
    match result {
        Ok(outcome) => JobDone { engine, outcome },
        Err(payload) => {
            let reason = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            JobDone {
                engine: None,
                outcome: JobResult::Failed(reason),
            }
        }
    }
}

/// The `info` line of a progress report.
pub(super) fn progress(position: &Position, info: &SearchInfo) -> Info {
    let size = position.size();
    Info {
        depth: Some(info.depth),
        // The deepest ply reached, which a search of depth N has reached at least.
        seldepth: Some(info.seldepth.max(info.depth)),
        score: info.score.map(|score| (score, info.bound)),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        hashfull: Some(info.hashfull),
        time: Some(millis(info)),
        pv: info.pv.iter().map(|&square| size.name(square)).collect(),
        ..Info::default()
    }
}

/// The last `info` line of a search: nodes, nps and time.
fn summary(info: &SearchInfo) -> Message {
    Message::Info(Info {
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        time: Some(millis(info)),
        ..Info::default()
    })
}

fn millis(info: &SearchInfo) -> u64 {
    u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX)
}

/// The move to announce: the engine's choice, else any legal move, else none.
fn announced(position: &Position, best: Option<crate::board::Square>) -> Option<SquareName> {
    let square = best.or_else(|| {
        let fallback = position.moves().first();
        if fallback.is_some() {
            log::warn!("the engine returned no move; announcing the first legal one");
        }
        fallback
    })?;
    Some(position.size().name(square))
}

/// Writes the result of a finished job.
pub(super) fn report(output: &Output, task: Task, position: &Position, outcome: JobResult) {
    match outcome {
        JobResult::Search(result) => {
            output.send(&summary(&result.info));
            output.send(&Message::BestMove(announced(position, result.best_move)));
        }
        JobResult::Solve(result) => {
            output.send(&summary(&result.info));
            let mut line = match result.verdict {
                Some(Verdict::Win) => "solve win".to_string(),
                Some(Verdict::Loss) => "solve loss".to_string(),
                None => "solve unknown".to_string(),
            };
            if let Some(length) = result.length {
                line.push_str(&format!(" length {length}"));
            }
            let best = announced(position, result.best_move);
            if let Some(square) = best {
                line.push_str(&format!(" move {square}"));
            }
            output.text(line);
            output.send(&Message::BestMove(best));
        }
        JobResult::Perft(Some(counts)) => {
            let total: u64 = counts.iter().map(|&(_, n)| n).sum();
            for (name, count) in counts {
                output.text(format!("{name}: {count}"));
            }
            let total = if let Task::Perft(0) = task { 1 } else { total };
            output.text(format!("total {total}"));
        }
        JobResult::Perft(None) => output.text("perft stopped before the end: no total"),
        JobResult::Bench(lines) => {
            for (i, line) in lines.iter().enumerate() {
                output.text(format!(
                    "bench position {} nodes {} time {} {}",
                    i + 1,
                    line.nodes,
                    line.time.as_millis(),
                    line.position
                ));
            }
            let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
            let time: std::time::Duration = lines.iter().map(|l| l.time).sum();
            let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
            output.text(format!(
                "bench total nodes {nodes} time {} nps {nps}",
                time.as_millis()
            ));
        }
        JobResult::Failed(reason) => {
            output.error(&format!(
                "the {} failed ({reason}): expected it to finish; the engine has been reset",
                match task {
                    Task::Search => "search",
                    Task::Solve => "solve",
                    Task::Perft(_) => "perft",
                    Task::Bench => "bench",
                }
            ));
            if matches!(task, Task::Search | Task::Solve) {
                output.send(&Message::BestMove(announced(position, None)));
            }
        }
    }
}

/// Plies below which a subtree is counted in one call, without looking at `stop`.
const UNSTOPPABLE_DEPTH: u32 = 6;

/// Per-move counts sorted by square name, or `None` if `stop` was set first.
fn divide(position: &Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(SquareName, u64)>> {
    let mut counts = Vec::new();
    if depth > 0 {
        for to in position.moves() {
            let count = count(&position.after(to), depth - 1, stop)?;
            counts.push((position.size().name(to), count));
        }
    }
    counts.sort_by_key(|(name, _)| name.to_string());
    Some(counts)
}

fn count(position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNSTOPPABLE_DEPTH || position.goal_reached().is_some() {
        return Some(perft(position, depth));
    }
    let mut total = 0;
    for to in position.moves() {
        total += count(&position.after(to), depth - 1, stop)?;
    }
    Some(total)
}
