//! Runs a tournament: output paths and engines are checked first; then N workers each
//! play one game at a time with their own engine processes (reused across games); the
//! main thread records every finished game in the state file and the PGN file, keeps the
//! standings, shows progress, and stops the match when the SPRT crosses a bound or at
//! Ctrl-C (then writing the summary of the games finished).

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use super::error::{ArenaError, OutputFile};
use super::files::check_writable;
use super::game::{GameSlot, play_game};
use super::openings::OpeningBook;
use super::player::{Player, check_engine, make_player};
use super::progress::Progress;
use super::records::open_records;
use super::rerun::keep_finished;
use super::schedule::ScheduledGame;
use super::settings::Settings;
use super::summary::{Finished, Standings, Summary};
use crate::client::{EngineLog, TrafficLog, signals};
use crate::record::{Comments, GameRecord, GameReport, Venue, write_game};

/// Where a tournament writes, and how many games it plays at once.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Games played at once.
    pub concurrency: usize,
    /// The PGN file.
    pub pgn: Option<PathBuf>,
    /// Whether PGN records carry the engines' comments.
    pub pgn_comments: Comments,
    /// The event name of the records and the summary.
    pub event: String,
    /// The JSON summary.
    pub json: Option<PathBuf>,
    /// The log of engine stderr and process events.
    pub log: Option<PathBuf>,
    /// The log of every protocol line to and from every engine.
    pub protocol_log: Option<PathBuf>,
    /// A line on stderr per finished game.
    pub show_games: bool,
    /// The state file.
    pub state: PathBuf,
    /// Continue from the state file instead of starting over.
    pub resume: bool,
    /// Start over even if the state file holds finished games.
    pub force: bool,
    /// Show the progress line on stderr.
    pub progress: bool,
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
    for (file, path) in [
        (OutputFile::Pgn, &options.pgn),
        (OutputFile::Json, &options.json),
        (OutputFile::Log, &options.log),
        (OutputFile::ProtocolLog, &options.protocol_log),
        (OutputFile::State, &Some(options.state.clone())),
    ] {
        if let Some(path) = path {
            check_writable(path).map_err(|error| ArenaError::File { file, error })?;
        }
    }
    // A finished tournament's files are kept under new names; an unfinished one stays.
    if !options.resume && !options.force {
        let records: Vec<&Path> = [options.pgn.as_deref(), options.json.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        let kept = keep_finished(&options.state, &records).map_err(|error| ArenaError::File {
            file: OutputFile::State,
            error,
        })?;
        if !kept.is_empty() {
            let moved: Vec<String> = kept
                .iter()
                .map(|(from, to)| format!("{} as {}", from.display(), to.display()))
                .collect();
            eprintln!(
                "note: {} holds a finished tournament; kept {}; starting a new one",
                options.state.display(),
                moved.join(", ")
            );
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
    let traffic =
        TrafficLog::open(options.protocol_log.as_deref(), options.resume).map_err(|error| {
            ArenaError::Log {
                file: OutputFile::ProtocolLog,
                error,
            }
        })?;
    let log = EngineLog::open(options.log.as_deref(), options.resume)
        .map_err(|error| ArenaError::Log {
            file: OutputFile::Log,
            error,
        })?
        .with_traffic(traffic);
    for spec in &settings.engines {
        if let Err(e) = check_engine(spec, &log) {
            if signals::interrupted() {
                return Err(ArenaError::Interrupted {
                    finished: None,
                    saved: done.len(),
                    scheduled: games.len(),
                });
            }
            return Err(ArenaError::Engine(e));
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
    let mut standings = Standings::new(names).with_sprt(sprt);
    for r in &reports {
        standings.add(r);
    }
    let venue = Venue::here_and_now(&options.event);
    let stop = AtomicBool::new(false);
    // Once the SPRT has decided, pairs already begun are finished, and no new pair begins.
    let decided = AtomicBool::new(standings.sprt_decided());
    let begun: HashSet<usize> = reports.iter().map(|r| r.pair).collect();
    let workers = options.concurrency.max(1).min(queue.len());
    let queue = Mutex::new(Queue {
        games: queue,
        begun,
    });
    let mut progress = Progress::new(options.progress, options.show_games, games.len());
    let mut failure = None;
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for w in 0..workers {
            let tx = tx.clone();
            let (queue, stop, decided, book, log) = (&queue, &stop, &decided, &book, &log);
            let spawned = thread::Builder::new()
                .name(format!("arena-worker-{w}"))
                .spawn_scoped(scope, move || {
                    worker(settings, book, queue, [stop, decided], &tx, log)
                });
            if let Err(e) = spawned {
                failure = Some(ArenaError::Worker(e));
                stop.store(true, Ordering::SeqCst);
            }
        }
        drop(tx);
        for record in rx {
            // After Ctrl-C, games end because their engines were killed: not recorded.
            if failure.is_some() || signals::interrupted() {
                continue;
            }
            let text = write_game(&record, &venue, options.pgn_comments);
            // The state first: it is the source of truth, and --resume rebuilds the PGN from it.
            let written = state
                .append(&record.report, &text)
                .map_err(ArenaError::from)
                .and_then(|()| pgn.as_mut().map_or(Ok(()), |pgn| pgn.append(&text)));
            if let Err(e) = written {
                failure = Some(e);
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            standings.add(&record.report);
            progress.finished(&record.report, standings.games());
            reports.push(record.report);
            if standings.sprt_decided() {
                decided.store(true, Ordering::SeqCst);
            }
            progress.show(&standings, sprt.as_ref(), false);
        }
    });
    progress.show(&standings, sprt.as_ref(), true);
    if let Some(e) = failure {
        return Err(e);
    }
    let summary = Summary::new(&options.event, settings, games.len(), &reports)?;
    if let Some(path) = &options.json {
        summary.save(path).map_err(|error| ArenaError::File {
            file: OutputFile::Json,
            error,
        })?;
    }
    let finished = Finished {
        standings,
        scheduled: games.len(),
        sprt,
    };
    if signals::interrupted() {
        return Err(ArenaError::Interrupted {
            finished: Some(Box::new(finished)),
            saved: reports.len(),
            scheduled: games.len(),
        });
    }
    Ok(finished)
}

/// The games still to play, and the pairs of which a game has been handed out or played.
struct Queue {
    games: VecDeque<ScheduledGame>,
    begun: HashSet<usize>,
}

impl Queue {
    /// The next game; once `decided`, only the second game of a pair already begun.
    fn next(&mut self, decided: bool) -> Option<ScheduledGame> {
        let index = if decided {
            self.games
                .iter()
                .position(|g| self.begun.contains(&g.pair))?
        } else {
            0
        };
        let game = self.games.remove(index)?;
        self.begun.insert(game.pair);
        Some(game)
    }
}

/// One worker: takes the next game from the queue until it is empty or the match stops.
fn worker(
    settings: &Settings,
    book: &OpeningBook,
    queue: &Mutex<Queue>,
    [stop, decided]: [&AtomicBool; 2],
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
        let next = queue
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .next(decided.load(Ordering::SeqCst));
        let Some(game) = next else {
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
