//! One browser session (a [`Room`]): its game, its settings and its engine's seat, run
//! by one thread that owns them all. HTTP handlers talk to it through its input channel;
//! the engine's output is pushed into the same channel, so the thread sleeps until
//! something happens or a deadline of its own comes (a hung engine, a paced move, the
//! grace of a closed page): nothing polls. A session whose page has gone (no event
//! stream for the grace period) or that is closed ends, and its engine with it.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::board::Position;
use crate::client::{EngineLog, SearchLimits};
use crate::protocol::PositionBase;

use super::commands::Command;
use super::error::SessionError;
use super::game::{Controller, Game};
pub use super::inputs::{Input, Reply, SessionConfig};
use super::jobs::{EngineSeat, EngineSlot, Happened, Wanted};
use super::view::{EngineView, board_view, thinking_view};

/// Events queued for one page before it counts as too slow and is dropped.
pub const SUBSCRIBER_QUEUE: usize = 256;
/// The page's event streams per session.
pub const MAX_SUBSCRIBERS: usize = 2;
/// The thinking is sent to the pages at most this often.
const THINKING_EVERY: Duration = Duration::from_millis(100);

/// A page's event stream.
struct Subscriber {
    id: u64,
    events: mpsc::Sender<String>,
}

/// An engine move kept back until the pace allows it to be shown.
struct Held {
    generation: u64,
    name: String,
    due: Instant,
}

/// The state of one session, owned by its thread.
pub struct Room {
    config: SessionConfig,
    game: Game,
    players: [Controller; 2],
    level: u32,
    movetime: u64,
    analysis: bool,
    seat: EngineSeat,
    /// Counts changes of the game and of who plays; a search of an older one is stale.
    generation: u64,
    hint: Option<String>,
    notice: Option<String>,
    subscribers: Vec<Subscriber>,
    inputs: Receiver<Input>,
    to_self: Sender<Input>,
    /// Since when no page has listened, if none does.
    unwatched_since: Option<Instant>,
    closed: bool,
    dirty: bool,
    dirty_thinking: bool,
    last_broadcast: Instant,
    /// When the last move was played, for the pace of the engine's moves.
    last_move: Option<Instant>,
    held: Option<Held>,
}

impl Room {
    /// A session with a new game and its engine not yet started.
    pub fn new(config: SessionConfig, to_self: Sender<Input>, inputs: Receiver<Input>) -> Room {
        Room {
            seat: EngineSeat::new(config.engine.launch.name.clone()),
            config,
            game: Game::new(Position::start(Default::default())),
            players: [Controller::Human, Controller::Engine],
            level: 1,
            movetime: 500,
            analysis: false,
            generation: 0,
            hint: None,
            notice: None,
            subscribers: Vec::new(),
            inputs,
            to_self,
            unwatched_since: Some(Instant::now()),
            closed: false,
            dirty: true,
            dirty_thinking: false,
            last_broadcast: Instant::now(),
            last_move: None,
            held: None,
        }
    }

    /// Runs until the page is gone, then stops the engine.
    pub fn run(&mut self) {
        self.start_engine();
        while !self.closed {
            let input = match self.next_wake() {
                None => match self.inputs.recv() {
                    Ok(input) => Some(input),
                    Err(_) => break,
                },
                Some(at) => {
                    let wait = at.saturating_duration_since(Instant::now());
                    match self.inputs.recv_timeout(wait) {
                        Ok(input) => Some(input),
                        Err(RecvTimeoutError::Timeout) => None,
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                }
            };
            if let Some(input) = input {
                self.handle(input);
            }
            while let Ok(input) = self.inputs.try_recv() {
                self.handle(input);
            }
            self.on_time(Instant::now());
            if self.held.is_none() {
                let wanted = Wanted {
                    game: &self.game,
                    mover: self.mover(),
                    level: self.level,
                    movetime: self.movetime,
                    analysis: self.analysis,
                    generation: self.generation,
                };
                self.dirty |= self.seat.schedule(&wanted);
            }
            self.publish();
        }
        self.subscribers.clear();
        self.shut_down();
    }

    /// Stops the engine, waiting for one still starting.
    fn shut_down(&mut self) {
        let slot = std::mem::replace(&mut self.seat.slot, EngineSlot::Down(String::new()));
        let starting = matches!(slot, EngineSlot::Starting);
        if let EngineSlot::Ready(engine) = slot {
            engine.quit();
        }
        if !starting {
            return;
        }
        // An engine still starting arrives as `Started` and is stopped.
        let deadline = Instant::now() + self.config.engine.timeout + Duration::from_secs(1);
        while let Ok(input) = self
            .inputs
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            match input {
                Input::Started(serial, Ok(engine)) if serial == self.seat.serial => {
                    engine.quit();
                    return;
                }
                Input::Started(serial, Err(_)) if serial == self.seat.serial => return,
                _ => {}
            }
        }
    }

    /// The next time something is due without an input: a hang or ping of the engine,
    /// a paced move, the thinking held back, the end of the grace.
    fn next_wake(&self) -> Option<Instant> {
        let times = [
            self.seat.next_deadline(),
            self.held.as_ref().map(|h| h.due),
            self.dirty_thinking
                .then_some(self.last_broadcast + THINKING_EVERY),
            self.unwatched_since.map(|t| t + self.config.grace),
        ];
        times.into_iter().flatten().min()
    }

    /// What is due at `now`.
    fn on_time(&mut self, now: Instant) {
        self.dirty |= self.seat.check_time(now);
        if self.held.as_ref().is_some_and(|h| now >= h.due) {
            self.play_held();
        }
        if self
            .unwatched_since
            .is_some_and(|t| now >= t + self.config.grace)
        {
            log::info!(
                "session closed: no page listened for {:?}",
                self.config.grace
            );
            self.closed = true;
        }
    }

    /// Starts the engine on another thread; it arrives as `Input::Started`.
    fn start_engine(&mut self) {
        self.seat.starting();
        self.dirty = true;
        let command = self.config.engine.clone();
        let back = self.to_self.clone();
        let serial = self.seat.serial;
        let started = thread::Builder::new()
            .name("engine-start".to_string())
            .spawn(move || {
                let _ = back.send(Input::Started(serial, command.start(&EngineLog::default())));
            });
        if let Err(e) = started {
            self.seat
                .down(format!("cannot start a thread for the engine: {e}"));
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
            Input::Subscribe { id, events, reply } => {
                self.subscribers.retain(|s| !s.events.is_closed());
                if self.subscribers.len() >= MAX_SUBSCRIBERS {
                    let _ = reply.send(Err(SessionError::TooManyStreams(MAX_SUBSCRIBERS)));
                    return;
                }
                // The whole state at once, so that a reloaded page has the game back.
                let _ = events.try_send(self.state_json());
                self.subscribers.push(Subscriber { id, events });
                self.unwatched_since = None;
                let _ = reply.send(Ok(()));
            }
            Input::Unsubscribe(id) => {
                self.subscribers.retain(|s| s.id != id);
                self.watch_ended();
            }
            Input::Started(serial, started) if serial == self.seat.serial => {
                match started {
                    Ok(mut engine) => {
                        self.seat.name = engine.name().to_string();
                        self.seat.levels = Some(engine.level_range());
                        engine.forward_to(self.to_self.clone(), move |event| {
                            Input::Engine(serial, event)
                        });
                        self.seat.slot = EngineSlot::Ready(Box::new(engine));
                    }
                    Err(e) => {
                        self.seat.slot = EngineSlot::Down(format!(
                            "the engine {e}; restart the engine to try again"
                        ))
                    }
                }
                self.dirty = true;
            }
            // An engine of an earlier start: dropping it stops it.
            Input::Started(..) => {}
            Input::Engine(serial, event) if serial == self.seat.serial => {
                match self.seat.on_event(event, self.generation) {
                    Happened::Nothing => {}
                    Happened::Changed => self.dirty = true,
                    Happened::Thinking => self.dirty_thinking = true,
                    Happened::Move(name) => self.engine_moved(name),
                    Happened::Hint(best) => {
                        self.hint = best.clone();
                        self.notice = Some(match best {
                            Some(name) => format!("Hint: {name}."),
                            None => "The engine has no hint.".to_string(),
                        });
                        self.dirty = true;
                    }
                }
            }
            Input::Engine(..) => {}
            Input::Close => self.closed = true,
        }
    }

    /// No page may be listening any more: the grace starts.
    fn watch_ended(&mut self) {
        self.subscribers.retain(|s| !s.events.is_closed());
        if self.subscribers.is_empty() && self.unwatched_since.is_none() {
            self.unwatched_since = Some(Instant::now());
        }
    }

    /// The engine chose `name`: it is checked by the rules, then shown at once or, to
    /// keep the pace, when the least time since the last move has passed.
    fn engine_moved(&mut self, name: String) {
        self.dirty = true;
        let position = self.game.position();
        if let Err(e) = position.parse_move(&name) {
            self.seat.down(format!(
                "the engine played the illegal move {name}: {e}; restart the engine to go on"
            ));
            return;
        }
        let due = self.last_move.map(|t| t + self.config.pace);
        match due {
            Some(due) if due > Instant::now() => {
                self.held = Some(Held {
                    generation: self.generation,
                    name,
                    due,
                });
            }
            _ => self.play_engine_move(&name),
        }
    }

    /// Shows the move held back for the pace, if it is still of this game.
    fn play_held(&mut self) {
        if let Some(held) = self.held.take() {
            if held.generation == self.generation {
                self.play_engine_move(&held.name);
            }
        }
    }

    /// Plays the engine's (checked) move.
    fn play_engine_move(&mut self, name: &str) {
        let position = self.game.position();
        let played = position
            .parse_move(name)
            .map_err(|e| e.to_string())
            .and_then(|sq| self.game.play(sq).map_err(|e| e.to_string()));
        match played {
            Ok(()) => {
                let side = position.side_to_move().number();
                self.moved();
                self.notice = Some(format!("The engine (player {side}) played {name}."));
            }
            Err(e) => self.seat.down(format!(
                "the engine played the illegal move {name}: {e}; restart the engine to go on"
            )),
        }
    }

    /// A move was played.
    fn moved(&mut self) {
        self.last_move = Some(Instant::now());
        self.changed();
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
                self.moved();
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
                self.seat.want_hint(args);
                self.hint = None;
            }
            Command::Stop => {
                if self.held.is_some() {
                    self.play_held();
                } else {
                    self.dirty |= self.seat.stop_search(self.analysis);
                }
            }
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
                    self.seat.analysis_off();
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
                    std::mem::replace(&mut self.seat.slot, EngineSlot::Starting)
                {
                    engine.quit();
                }
                self.held = None;
                self.start_engine();
                self.notice = Some("Restarting the engine; the game is kept.".to_string());
            }
        }
        Ok(())
    }

    /// Who plays the side to move.
    fn mover(&self) -> Controller {
        self.players[self.game.position().side_to_move().index()]
    }

    /// A new game in place of the current one.
    fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.last_move = None;
        self.changed();
    }

    /// The game or who plays changed: searches of before are stale.
    fn changed(&mut self) {
        self.generation += 1;
        self.seat.forget();
        self.hint = None;
        self.held = None;
        self.dirty = true;
    }

    /// The names of the players in the game record.
    fn pgn_names(&self) -> [String; 2] {
        let name = |c: Controller| match c {
            Controller::Human => "Human".to_string(),
            Controller::Engine => format!("{} (Level {})", self.seat.name, self.level),
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
        let thinking = self.seat.busy() || self.held.is_some();
        let (status, message) = match &self.seat.slot {
            EngineSlot::Starting => ("starting", None),
            EngineSlot::Ready(_) if thinking => ("thinking", None),
            EngineSlot::Ready(_) => ("ready", None),
            EngineSlot::Down(why) => ("down", Some(why.clone())),
        };
        view.engine = EngineView {
            name: self.seat.name.clone(),
            status,
            message,
        };
        view.thinking = self.seat.thinking.as_ref().map(thinking_view);
        let position = self.game.position();
        view.verdict = self
            .seat
            .proof
            .as_ref()
            .map(|p| p.words(&position, self.mover()));
        view.hint = self.hint.clone();
        view.notice = self.notice.clone();
        let mut state = match serde_json::to_value(&view) {
            Ok(state) => state,
            Err(e) => {
                return format!("{{\"kind\":\"error\",\"error\":\"cannot write the state: {e}\"}}");
            }
        };
        // The engine's Level range, `null` without one; left out until it is known.
        if let (Some(levels), Some(engine)) = (self.seat.levels, state.get_mut("engine")) {
            engine["levels"] = levels.map_or(serde_json::Value::Null, |(min, max)| {
                serde_json::json!([min, max])
            });
        }
        state.to_string()
    }

    /// Sends the state to the pages when it changed; thinking at most ten times a second.
    fn publish(&mut self) {
        let thinking_due = self.dirty_thinking && self.last_broadcast.elapsed() >= THINKING_EVERY;
        if !self.dirty && !thinking_due {
            return;
        }
        self.dirty = false;
        self.dirty_thinking = false;
        self.last_broadcast = Instant::now();
        let json = self.state_json();
        // A page too slow to take its states is dropped: its stream ends, and it
        // reconnects to the whole state.
        self.subscribers
            .retain(|s| s.events.try_send(json.clone()).is_ok());
        self.watch_ended();
    }
}
