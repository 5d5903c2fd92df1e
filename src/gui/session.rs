//! One browser session: its game, its settings and its own engine process, run by one
//! thread that owns them all. HTTP handlers talk to it through a channel; the page's
//! event stream subscribes to it. A session whose page has gone (no event stream for
//! the grace period) or that is closed ends, and its engine with it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::board::Position;
use crate::client::{EngineClient, EngineLog, EngineSetup, Fault, SearchLimits};
use crate::protocol::{GoArgs, PositionBase};

use super::commands::Command;
use super::error::SessionError;
use super::game::{Controller, Game};
use super::jobs::{Job, Proof};
use super::view::{EngineView, Thinking, board_view, thinking_view};

/// Events queued for one page before it counts as too slow and is dropped.
pub const SUBSCRIBER_QUEUE: usize = 256;
/// The page's event streams per session.
pub const MAX_SUBSCRIBERS: usize = 2;

/// Session-wide limits and defaults.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// How to start the engine.
    pub engine: EngineSetup,
    /// How long a session lives without an event stream.
    pub grace: Duration,
    /// How the command line names the cap on sessions, for the message when it is reached.
    pub cap_named: &'static str,
}

/// What a session thread is asked.
pub enum Input {
    /// Commands of the page, answered with the first error or success.
    Commands(Vec<Command>, Reply),
    /// A game read from a PGN record, to replace the current one.
    Import(Game, Reply),
    /// An event stream: the state now and after every change.
    Subscribe(SyncSender<String>, Arc<AtomicBool>, Reply),
    /// The started engine, or why it could not start.
    Started(Result<EngineClient, Fault>),
    /// The page is gone.
    Close,
}

/// Where a session answers a request: success, or why it refused.
pub type Reply = Sender<Result<(), SessionError>>;

/// Why no session can be opened.
#[derive(Debug)]
pub enum OpenError {
    /// As many sessions are open as the server allows.
    Full {
        /// Sessions open.
        open: usize,
        /// The most allowed.
        max: usize,
        /// How the command line names that cap, such as `--max-sessions`.
        cap_named: &'static str,
    },
    /// The session's thread cannot be started.
    Thread(std::io::Error),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Full {
                open,
                max,
                cap_named,
            } => write!(
                f,
                "too many sessions: {open} games are open, the most this server allows \
                 ({cap_named} {max}), each with its own engine process; expected a closed tab \
                 first: close another game's tab, or wait a few seconds for a closed one to end"
            ),
            OpenError::Thread(e) => write!(f, "cannot start a session thread: {e}"),
        }
    }
}

impl std::error::Error for OpenError {}

/// The sessions that are open, at most `max`.
pub struct Registry {
    sessions: Mutex<HashMap<String, Sender<Input>>>,
    max: usize,
    config: SessionConfig,
}

impl Registry {
    /// No sessions yet.
    pub fn new(max: usize, config: SessionConfig) -> Arc<Registry> {
        Arc::new(Registry {
            sessions: Mutex::new(HashMap::new()),
            max,
            config,
        })
    }

    /// Opens a session with its engine; the error says the cap is reached.
    pub fn open(self: &Arc<Registry>) -> Result<String, OpenError> {
        let mut sessions = self.lock();
        if sessions.len() >= self.max {
            return Err(OpenError::Full {
                open: sessions.len(),
                max: self.max,
                cap_named: self.config.cap_named,
            });
        }
        let id = new_id();
        let (tx, rx) = mpsc::channel();
        sessions.insert(id.clone(), tx.clone());
        let registry = Arc::clone(self);
        let session_id = id.clone();
        let spawned = thread::Builder::new()
            .name(format!("session-{}", &id[..8]))
            .spawn(move || {
                let mut session = Session::new(registry.config.clone(), tx, rx);
                session.run();
                // The engine is gone by now: only then does the slot free up.
                registry.lock().remove(&session_id);
            });
        if let Err(e) = spawned {
            sessions.remove(&id);
            return Err(OpenError::Thread(e));
        }
        Ok(id)
    }

    /// The channel of session `id`.
    pub fn get(&self, id: &str) -> Option<Sender<Input>> {
        self.lock().get(id).cloned()
    }

    /// How many sessions are open.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Sender<Input>>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A session id: 128 random bits in hex, so that other pages cannot guess it.
fn new_id() -> String {
    use std::io::Read as _;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_err() {
        // No /dev/urandom: the clock and the address space are the best left.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let mut rng = crate::rng::Rng::new(nanos as u64 ^ (&bytes as *const _ as u64));
        for b in &mut bytes {
            *b = rng.next_u64() as u8;
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The engine of a session.
pub enum EngineSlot {
    /// Its start-up runs on another thread.
    Starting,
    /// It runs.
    Ready(Box<EngineClient>),
    /// It crashed, hung or could not start: why, for the page.
    Down(String),
}

/// A page's event stream.
struct Subscriber {
    events: SyncSender<String>,
    alive: Arc<AtomicBool>,
}

/// The state of one session, owned by its thread.
pub struct Session {
    pub(super) config: SessionConfig,
    pub(super) game: Game,
    pub(super) players: [Controller; 2],
    pub(super) level: u32,
    pub(super) movetime: u64,
    pub(super) analysis: bool,
    pub(super) engine: EngineSlot,
    pub(super) engine_name: String,
    pub(super) job: Option<Job>,
    /// Counts changes of the game and of who plays; a search of an older one is stale.
    pub(super) generation: u64,
    pub(super) hint_wanted: Option<GoArgs>,
    pub(super) hint: Option<String>,
    pub(super) thinking: Option<Thinking>,
    pub(super) proof: Option<Proof>,
    pub(super) notice: Option<String>,
    subscribers: Vec<Subscriber>,
    inputs: Receiver<Input>,
    to_self: Sender<Input>,
    last_seen: Instant,
    closed: bool,
    pub(super) dirty: bool,
    pub(super) dirty_info: bool,
    last_broadcast: Instant,
}

impl Session {
    fn new(config: SessionConfig, to_self: Sender<Input>, inputs: Receiver<Input>) -> Session {
        Session {
            engine_name: config.engine.launch.name.clone(),
            config,
            game: Game::new(Position::start(Default::default())),
            players: [Controller::Human, Controller::Engine],
            level: 1,
            movetime: 500,
            analysis: false,
            engine: EngineSlot::Starting,
            job: None,
            generation: 0,
            hint_wanted: None,
            hint: None,
            thinking: None,
            proof: None,
            notice: None,
            subscribers: Vec::new(),
            inputs,
            to_self,
            last_seen: Instant::now(),
            closed: false,
            dirty: true,
            dirty_info: false,
            last_broadcast: Instant::now(),
        }
    }

    /// Runs until the page is gone, then stops the engine.
    fn run(&mut self) {
        self.start_engine();
        while !self.closed {
            let wait = if self.job.is_some() {
                Duration::from_millis(10)
            } else {
                Duration::from_millis(250)
            };
            match self.inputs.recv_timeout(wait) {
                Ok(input) => self.handle(input),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            while let Ok(input) = self.inputs.try_recv() {
                self.handle(input);
            }
            self.pump();
            self.schedule();
            self.publish();
            self.check_pages();
        }
        self.subscribers.clear();
        let engine = std::mem::replace(&mut self.engine, EngineSlot::Down(String::new()));
        let starting = matches!(engine, EngineSlot::Starting);
        if let EngineSlot::Ready(engine) = engine {
            engine.quit();
        }
        // An engine still starting arrives as `Started` and is stopped when dropped.
        let deadline = Instant::now() + self.config.engine.timeout + Duration::from_secs(1);
        if starting {
            while let Ok(input) = self
                .inputs
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                if let Input::Started(Ok(engine)) = input {
                    engine.quit();
                    break;
                }
                if let Input::Started(Err(_)) = input {
                    break;
                }
            }
        }
    }

    /// Starts the engine on another thread; it arrives as `Input::Started`.
    pub(super) fn start_engine(&mut self) {
        self.engine = EngineSlot::Starting;
        self.job = None;
        self.dirty = true;
        let command = self.config.engine.clone();
        let back = self.to_self.clone();
        let started = thread::Builder::new()
            .name("engine-start".to_string())
            .spawn(move || {
                let _ = back.send(Input::Started(command.start(&EngineLog::default())));
            });
        if let Err(e) = started {
            self.engine = EngineSlot::Down(format!("cannot start a thread for the engine: {e}"));
        }
    }

    fn handle(&mut self, input: Input) {
        match input {
            Input::Commands(commands, reply) => {
                let mut result = Ok(());
                for command in commands {
                    if let Err(e) = self.command(command) {
                        result = Err(e);
                        break;
                    }
                }
                self.dirty = true;
                let _ = reply.send(result);
            }
            Input::Import(game, reply) => {
                self.replace_game(game);
                self.notice = Some("Game imported from the PGN record.".to_string());
                let _ = reply.send(Ok(()));
            }
            Input::Subscribe(events, alive, reply) => {
                self.subscribers.retain(|s| s.alive.load(Ordering::Relaxed));
                if self.subscribers.len() >= MAX_SUBSCRIBERS {
                    let _ = reply.send(Err(SessionError::TooManyStreams(MAX_SUBSCRIBERS)));
                    return;
                }
                let _ = events.try_send(self.state_json());
                self.subscribers.push(Subscriber { events, alive });
                self.last_seen = Instant::now();
                let _ = reply.send(Ok(()));
            }
            Input::Started(Ok(engine)) => {
                self.engine_name = engine.name().to_string();
                self.engine = EngineSlot::Ready(Box::new(engine));
                self.dirty = true;
            }
            Input::Started(Err(e)) => {
                self.engine =
                    EngineSlot::Down(format!("the engine {e}; restart the engine to try again"));
                self.dirty = true;
            }
            Input::Close => self.closed = true,
        }
    }

    /// Carries out one command of the page.
    fn command(&mut self, command: Command) -> Result<(), SessionError> {
        match command {
            Command::NewGame(setup) => {
                let start = setup.position().map_err(SessionError::NewGame)?;
                self.replace_game(Game::new(start));
                self.notice = Some("New game.".to_string());
            }
            Command::Position(setup) => {
                let start = match setup.base {
                    PositionBase::StartPos => self.game.start(),
                    PositionBase::Fen(position) => position,
                };
                let size = start.size();
                let mut squares = Vec::new();
                for (i, name) in setup.moves.iter().enumerate() {
                    let square =
                        size.resolve(*name)
                            .map_err(|error| SessionError::PositionSquare {
                                number: i + 1,
                                name: *name,
                                error,
                            })?;
                    squares.push(square);
                }
                let game = Game::with_moves(start, &squares).map_err(|(i, error)| {
                    SessionError::PositionMove {
                        number: i + 1,
                        name: setup.moves[i],
                        error,
                    }
                })?;
                self.replace_game(game);
                self.notice = Some("Position imported.".to_string());
            }
            Command::Move(name) => {
                let position = self.game.position();
                let side = position.side_to_move();
                if position.outcome().is_over() {
                    return Err(SessionError::GameOver(name));
                }
                if self.players[side.index()] == Controller::Engine {
                    return Err(SessionError::EnginesTurn {
                        name,
                        player: side.number(),
                    });
                }
                let square = position
                    .size()
                    .resolve(name)
                    .map_err(|error| SessionError::OffBoard { name, error })?;
                let illegal = |error| SessionError::Illegal {
                    name,
                    error,
                    legal: position
                        .moves()
                        .iter()
                        .map(|sq| position.name(sq))
                        .collect(),
                };
                position.check_move(square).map_err(illegal)?;
                self.game.play(square).map_err(illegal)?;
                self.changed();
                self.notice = Some(format!("Player {} played {name}.", side.number()));
            }
            Command::Hint(args) => {
                let position = self.game.position();
                if position.outcome().is_over() {
                    return Err(SessionError::HintGameOver);
                }
                if self.mover() == Controller::Engine {
                    return Err(SessionError::HintEnginesTurn);
                }
                self.hint_wanted = Some(args);
                self.hint = None;
            }
            Command::Stop => self.stop_search(),
            Command::Player(side, controller) => {
                if self.players[side] != controller {
                    self.players[side] = controller;
                    self.changed();
                }
            }
            Command::Level(level) => self.level = level,
            Command::MoveTime(ms) => self.movetime = ms,
            Command::Analysis(on) => {
                self.analysis = on;
                if !on {
                    self.thinking = None;
                }
            }
            Command::Undo => {
                if !self.game.undo() {
                    return Err(SessionError::NothingToUndo);
                }
                while self.mover() == Controller::Engine
                    && self.players.contains(&Controller::Human)
                    && self.game.undo()
                {}
                self.changed();
                self.notice = Some("Move taken back.".to_string());
            }
            Command::Redo => {
                if !self.game.redo() {
                    return Err(SessionError::NothingToRedo);
                }
                while self.mover() == Controller::Engine
                    && self.players.contains(&Controller::Human)
                    && self.game.redo()
                {}
                self.changed();
                self.notice = Some("Move replayed.".to_string());
            }
            Command::Restart => {
                if let EngineSlot::Ready(engine) =
                    std::mem::replace(&mut self.engine, EngineSlot::Starting)
                {
                    engine.quit();
                }
                self.start_engine();
                self.notice = Some("Restarting the engine; the game is kept.".to_string());
            }
        }
        Ok(())
    }

    /// Who plays the side to move.
    pub(super) fn mover(&self) -> Controller {
        self.players[self.game.position().side_to_move().index()]
    }

    /// A new game in place of the current one.
    fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.changed();
    }

    /// The game or who plays changed: searches of before are stale.
    pub(super) fn changed(&mut self) {
        self.generation += 1;
        self.hint_wanted = None;
        self.hint = None;
        self.thinking = None;
        self.proof = None;
        self.dirty = true;
    }

    /// The names of the players in the game record.
    fn pgn_names(&self) -> [String; 2] {
        let name = |c: Controller| match c {
            Controller::Human => "Human".to_string(),
            Controller::Engine => format!("{} (Level {})", self.engine_name, self.level),
        };
        [name(self.players[0]), name(self.players[1])]
    }

    /// The limits of the players in the game record: the move time of an engine, none
    /// for a person.
    fn pgn_limits(&self) -> [SearchLimits; 2] {
        self.players.map(|c| match c {
            Controller::Human => SearchLimits::default(),
            Controller::Engine => SearchLimits {
                movetime: Some(Duration::from_millis(self.movetime)),
                ..SearchLimits::default()
            },
        })
    }

    /// The state as the page gets it.
    fn state_json(&self) -> String {
        let mut view = board_view(
            &self.game,
            self.players,
            self.pgn_names(),
            self.pgn_limits(),
        );
        view.level = self.level;
        view.movetime = self.movetime;
        view.analysis = self.analysis;
        let (status, message) = match &self.engine {
            EngineSlot::Starting => ("starting", None),
            EngineSlot::Ready(_) if self.job.is_some() => ("thinking", None),
            EngineSlot::Ready(_) => ("ready", None),
            EngineSlot::Down(why) => ("down", Some(why.clone())),
        };
        view.engine = EngineView {
            name: self.engine_name.clone(),
            status,
            message,
        };
        view.thinking = self.thinking.as_ref().map(thinking_view);
        view.verdict = self.proof.as_ref().map(|p| p.words(self));
        view.hint = self.hint.clone();
        view.notice = self.notice.clone();
        serde_json::to_string(&view).unwrap_or_else(|e| {
            format!("{{\"kind\":\"error\",\"error\":\"cannot write the state: {e}\"}}")
        })
    }

    /// Sends the state to the pages when it changed; thinking at most ten times a second.
    fn publish(&mut self) {
        let info_due =
            self.dirty_info && self.last_broadcast.elapsed() >= Duration::from_millis(100);
        if !self.dirty && !info_due {
            return;
        }
        self.dirty = false;
        self.dirty_info = false;
        self.last_broadcast = Instant::now();
        let json = self.state_json();
        self.subscribers
            .retain(|s| match s.events.try_send(json.clone()) {
                Ok(()) => true,
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                    s.alive.store(false, Ordering::Relaxed);
                    false
                }
            });
    }

    /// Ends the session when no page has listened for the grace period.
    fn check_pages(&mut self) {
        self.subscribers.retain(|s| s.alive.load(Ordering::Relaxed));
        if !self.subscribers.is_empty() {
            self.last_seen = Instant::now();
        } else if self.last_seen.elapsed() > self.config.grace {
            log::info!(
                "session closed: no page listened for {:?}",
                self.config.grace
            );
            self.closed = true;
        }
    }
}
