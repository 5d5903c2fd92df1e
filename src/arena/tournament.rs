//! Runs a tournament: output paths and engines are checked first; then N workers each
//! play one game at a time with their own engine processes (reused across games); the
//! main thread records every finished game in the state file and the PGN file, keeps the
//! standings, shows progress, and stops the match when the SPRT crosses a bound or at
//! Ctrl-C (then writing the summary of the games finished).

use std::collections::{HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::error::ArenaError;
use super::files::check_writable;
use super::game::{GameRecord, GameReport, GameSlot, play_game};
use super::openings::OpeningBook;
use super::pgn::{Venue, write_game};
use super::player::{Player, check_engine, make_player};
use super::process::EngineLog;
use super::records::open_records;
use super::schedule::ScheduledGame;
use super::settings::Settings;
use super::signals;
use super::stats::Sprt;
use super::summary::{Standings, Summary, signed_elo, sprt_line, table};
use crate::arena::stats::format_margin;

/// How often the progress line is redrawn on a terminal, and printed otherwise.
const PROGRESS_TTY: Duration = Duration::from_millis(100);
const PROGRESS_PLAIN: Duration = Duration::from_secs(2);

/// Where a tournament writes, and how many games it plays at once.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Games played at once.
    pub concurrency: usize,
    /// The PGN file.
    pub pgn: Option<PathBuf>,
    /// The JSON summary.
    pub json: Option<PathBuf>,
    /// The log of engine stderr and process events.
    pub log: Option<PathBuf>,
    /// The state file.
    pub state: PathBuf,
    /// Continue from the state file instead of starting over.
    pub resume: bool,
    /// Start over even if the state file holds finished games.
    pub force: bool,
    /// Show the progress line on stderr.
    pub progress: bool,
}

/// A finished (or stopped) tournament.
pub struct Finished {
    /// The standings table.
    pub table: String,
}

/// Plays the tournament of `settings`.
pub fn run(settings: &Settings, options: &RunOptions) -> Result<Finished, ArenaError> {
    if settings.engines.len() < 2 {
        return Err(ArenaError::TooFewEngines(settings.engines.len()));
    }
    if settings.sprt.is_some() && settings.engines.len() != 2 {
        return Err(ArenaError::SprtEngines(settings.engines.len()));
    }
    let book = settings.book()?;
    let sprt = settings.sprt()?;
    let games = settings.schedule();
    // Before any game is played: every output can be written, and every engine starts,
    // finishes its handshake and accepts its options.
    for (flag, path) in [
        ("--pgn", &options.pgn),
        ("--json", &options.json),
        ("--log", &options.log),
        ("--state", &Some(options.state.clone())),
    ] {
        if let Some(path) = path {
            check_writable(flag, path)?;
        }
    }
    // The state file first: it is locked, so that nothing of another run's is touched.
    let (mut state, done, mut pgn) = open_records(
        settings,
        &options.state,
        options.pgn.as_deref(),
        options.resume,
        options.force,
    )?;
    let log = EngineLog::open(options.log.as_deref(), options.resume)?;
    for spec in &settings.engines {
        if let Err(e) = check_engine(spec, &log) {
            if signals::interrupted() {
                return Err(ArenaError::Interrupted {
                    table: String::new(),
                    saved: done.len(),
                    scheduled: games.len(),
                });
            }
            return Err(e.into());
        }
    }
    let in_schedule: HashSet<usize> = games.iter().map(|g| g.number).collect();
    let mut reports: Vec<GameReport> = done
        .into_iter()
        .filter(|r| in_schedule.contains(&r.number))
        .collect();
    let played: HashSet<usize> = reports.iter().map(|r| r.number).collect();
    let queue: VecDeque<ScheduledGame> = games
        .iter()
        .filter(|g| !played.contains(&g.number))
        .copied()
        .collect();
    if options.resume {
        log::info!(
            "resuming: {} games saved, {} to play",
            reports.len(),
            queue.len()
        );
    }
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    let mut standings = Standings::new(names);
    for r in &reports {
        standings.add(r);
    }
    let venue = Venue::here_and_now();
    let stop = AtomicBool::new(
        sprt.as_ref()
            .is_some_and(|s| s.decision(&standings.first_pairing()).is_final()),
    );
    let workers = options.concurrency.max(1).min(queue.len());
    let queue = Mutex::new(queue);
    let mut progress = Progress::new(options.progress, games.len());
    let mut failure = None;
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for w in 0..workers {
            let tx = tx.clone();
            let (queue, stop, book, log) = (&queue, &stop, &book, &log);
            let spawned = thread::Builder::new()
                .name(format!("arena-worker-{w}"))
                .spawn_scoped(scope, move || worker(settings, book, queue, stop, &tx, log));
            if let Err(e) = spawned {
                failure = Some(format!("cannot start a worker thread: {e}"));
                stop.store(true, Ordering::SeqCst);
            }
        }
        drop(tx);
        for record in rx {
            // After Ctrl-C, games end because their engines were killed: not recorded.
            if failure.is_some() || signals::interrupted() {
                continue;
            }
            let text = write_game(&record, &venue);
            // The state first: it is the source of truth, and --resume rebuilds the PGN from it.
            let written = state
                .append(&record.report, &text)
                .and_then(|()| pgn.as_mut().map_or(Ok(()), |pgn| pgn.append(&text)));
            if let Err(e) = written {
                failure = Some(e);
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            standings.add(&record.report);
            reports.push(record.report);
            if let Some(sprt) = &sprt {
                if sprt.decision(&standings.first_pairing()).is_final() {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            progress.show(&standings, sprt.as_ref(), false);
        }
    });
    progress.show(&standings, sprt.as_ref(), true);
    if let Some(e) = failure {
        return Err(ArenaError::Described(e));
    }
    let summary = Summary::new(settings, games.len(), &reports)?;
    if let Some(path) = &options.json {
        summary.save(path)?;
    }
    let table = table(&standings, games.len(), sprt.as_ref());
    if signals::interrupted() {
        return Err(ArenaError::Interrupted {
            table,
            saved: reports.len(),
            scheduled: games.len(),
        });
    }
    Ok(Finished { table })
}

/// One worker: takes the next game from the queue until it is empty or the match stops.
fn worker(
    settings: &Settings,
    book: &OpeningBook,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<GameRecord>,
    log: &EngineLog,
) {
    // Engine processes start with their first game, from this thread, and end with it.
    let mut players: Vec<Option<Box<dyn Player + Send>>> = settings
        .engines
        .iter()
        .map(|spec| Some(make_player(spec, settings.seed, log)))
        .collect();
    while !stop.load(Ordering::SeqCst) && !signals::interrupted() {
        let Some(game) = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front() else {
            break;
        };
        let [a, b] = game.engines;
        let (Some(mut first), Some(mut second)) = (players[a].take(), players[b].take()) else {
            break;
        };
        let opening = book.for_pair(game.pair);
        let slot = GameSlot {
            number: game.number,
            round: game.round,
            pair: game.pair,
        };
        let limits = [&settings.engines[a].limits, &settings.engines[b].limits];
        let record = play_game(slot, [first.as_mut(), second.as_mut()], limits, &opening);
        players[a] = Some(first);
        players[b] = Some(second);
        if tx.send(record).is_err() {
            break;
        }
    }
}

/// The live progress line on stderr.
struct Progress {
    enabled: bool,
    tty: bool,
    total: usize,
    last: Option<Instant>,
}

impl Progress {
    fn new(enabled: bool, total: usize) -> Progress {
        Progress {
            enabled,
            tty: std::io::stderr().is_terminal(),
            total,
            last: None,
        }
    }

    /// Redraws the line if it is due (always when `last`).
    fn show(&mut self, standings: &Standings, sprt: Option<&Sprt>, last: bool) {
        if !self.enabled {
            return;
        }
        let every = if self.tty {
            PROGRESS_TTY
        } else {
            PROGRESS_PLAIN
        };
        if !last && self.last.is_some_and(|t| t.elapsed() < every) {
            return;
        }
        self.last = Some(Instant::now());
        let line = progress_line(standings, self.total, sprt);
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r\x1b[2K{line}{}", if last { "\n" } else { "" })
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }
}

/// `[12/40] A vs B 7-5 (58.3%) Elo +58.45 ± 201.30 LLR 0.12 (-2.94, 2.94)`.
pub fn progress_line(standings: &Standings, total: usize, sprt: Option<&Sprt>) -> String {
    let names = standings.engines();
    let (who, tally) = if names.len() == 2 {
        (
            format!("{} vs {}", names[0], names[1]),
            standings.first_pairing(),
        )
    } else {
        (format!("{} vs all", names[0]), standings.engine(0))
    };
    let mut line = format!(
        "[{}/{total}] {who} {}-{}",
        standings.games(),
        tally.wins,
        tally.losses
    );
    if let Some(score) = tally.score() {
        line.push_str(&format!(" ({:.1}%)", score * 100.0));
    }
    if let Some(e) = tally.elo() {
        line.push_str(&format!(
            " Elo {} ± {}",
            signed_elo(e.elo),
            format_margin(e.margin95)
        ));
    }
    if let Some(sprt) = sprt {
        line.push(' ');
        line.push_str(&sprt_line(sprt, &standings.first_pairing()));
    }
    line
}
