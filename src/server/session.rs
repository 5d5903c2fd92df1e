//! The session on the main thread: the game, the options and the idle engine, and
//! how each command changes them.
//!
//! Every command either succeeds completely or answers one error line and leaves the
//! session exactly as it was (a `position` with moves is built aside and swapped in).

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::error::{LineError, MoveRefused};
use super::jobs::{Job, JobDone, JobResult, Task, report};
use super::reader::Credit;
use super::{Event, Output, options, wire};
use crate::board::{Diagram, Outcome, Position, Side, Size, Square, SquareName};
use crate::protocol::{
    GameSetup, GoArgs, Id, Message, PositionBase, PositionSetup, Query, Response,
};
use crate::search::{Engine, EngineOptions};

/// Whether the loop goes on after an event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` or the end of input.
    Quit,
}

/// How long `quit` waits for a job that ignores `stop` before exiting anyway.
const JOB_STOP_GRACE: Duration = Duration::from_secs(2);

/// The engine's state between commands.
pub(super) struct Session {
    output: Output,
    events: Sender<Event>,
    /// The current game's size and start, which `position startpos` refers to.
    game: GameSetup,
    position: Position,
    /// The board whose table `isready` readies: the last position's, or the one a
    /// `newgame` names. A bare `uginewgame` keeps it, for runners send the board with
    /// each position string after it.
    board_in_play: Size,
    /// The squares the last move went from and to, for the diagram.
    last_move: Option<(Square, Square)>,
    options: EngineOptions,
    /// The engine while no job holds it.
    engine: Option<Engine>,
    job: Option<Job>,
    /// Lines waiting for the running job to end, in the order they came.
    waiting: VecDeque<Result<Message, LineError>>,
    /// The reader's count of lines not yet handled.
    credit: Credit,
    /// Whether the input has ended: exit once the work is done.
    input_ended: bool,
}

impl Session {
    /// A session on the default 7×7 start with default options.
    pub fn new(output: Output, events: Sender<Event>, credit: Credit) -> Session {
        let options = EngineOptions::default();
        Session {
            output,
            events,
            game: GameSetup::default(),
            position: Position::start(GameSetup::default().board_size()),
            board_in_play: GameSetup::default().board_size(),
            last_move: None,
            options,
            engine: Some(Engine::new(options)),
            job: None,
            waiting: VecDeque::new(),
            credit,
            input_ended: false,
        }
    }

    /// Reacts to one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(Ok(Message::Quit)) if self.job.is_some() => {
                self.credit.give_back();
                return Flow::Quit;
            }
            Event::Line(Ok(Message::Stop)) if self.stop_acts_at_once() => {
                // Acts at once, ahead of waiting commands that need the engine idle.
                self.credit.give_back();
                self.stop();
            }
            Event::Line(stop @ Ok(Message::Stop)) if self.job.is_some() => {
                // Meant for a waiting search: the first that only `stop` ends and
                // has no `stop` of its own yet, else the last.
                let waiting = &self.waiting;
                let slot = (0..waiting.len()).find(|&i| {
                    only_stop_ends(&waiting[i])
                        && !matches!(waiting.get(i + 1), Some(Ok(Message::Stop)))
                });
                match slot {
                    Some(i) => self.waiting.insert(i + 1, stop),
                    None => self.waiting.push_back(stop),
                }
            }
            Event::Line(line) => self.waiting.push_back(line),
            Event::Eof => self.input_ended = true,
            Event::Done(done) => self.finished(done),
        }
        self.carry_out_waiting()
    }

    /// Whether a `stop` that arrives now is meant for the running job: it is, unless
    /// that job has been stopped already and a waiting command starts another one
    /// (`go infinite`, `stop`, `go infinite`, `stop` in one write).
    fn stop_acts_at_once(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|job| !job.stop_requested() || !self.job_waits())
    }

    /// Whether a waiting command starts a job.
    fn job_waits(&self) -> bool {
        self.waiting.iter().any(|line| {
            matches!(
                line,
                Ok(Message::Go(_) | Message::Solve(_) | Message::Perft(_) | Message::Bench)
            )
        })
    }

    /// Carries out the waiting lines in order, as far as the running job allows:
    /// during a job only `stop`, `isready` and `quit` go ahead. Once the input has
    /// ended, a job only `stop` could end is stopped, and the session ends when no
    /// work is left.
    fn carry_out_waiting(&mut self) -> Flow {
        while let Some(front) = self.waiting.front() {
            let at_once = matches!(front, Ok(Message::Stop | Message::IsReady | Message::Quit));
            if self.job.is_some() && !at_once {
                break;
            }
            let Some(line) = self.waiting.pop_front() else {
                break;
            };
            self.credit.give_back();
            let flow = match line {
                Err(problem) => {
                    self.output.error(&problem.to_string());
                    Flow::Continue
                }
                Ok(message) if self.job.is_some() => self.during_job(message),
                Ok(message) => self.command(message),
            };
            if flow == Flow::Quit {
                return Flow::Quit;
            }
        }
        if self.input_ended {
            if self.job.as_ref().is_some_and(|job| job.hold) {
                self.stop();
            }
            if self.job.is_none() && self.waiting.is_empty() {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// Stops any job, reports its result and waits for it (briefly) before exiting.
    pub fn finish(&mut self, inbox: &Receiver<Event>) {
        self.stop();
        let deadline = Instant::now() + JOB_STOP_GRACE;
        while self.job.is_some() {
            match inbox.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Event::Done(done)) => self.finished(done),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    log::error!("the job did not stop within {JOB_STOP_GRACE:?}; exiting anyway");
                    return;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// While a job runs only `isready`, `stop` and `quit` are carried out.
    fn during_job(&mut self, message: Message) -> Flow {
        match message {
            // The job holds the engine: the table is readied at the next `isready`.
            Message::IsReady => self.output.send(&Message::ReadyOk),
            Message::Stop => self.stop(),
            Message::Quit => return Flow::Quit,
            other => {
                log::error!("'{}' was carried out during a job", other.keyword());
            }
        }
        Flow::Continue
    }

    /// Asks the job to end; a result kept for `stop` is reported now.
    fn stop(&mut self) {
        let Some(job) = &mut self.job else {
            return;
        };
        job.request_stop();
        if let Some(outcome) = job.held.take() {
            if let Some(job) = self.job.take() {
                report(&self.output, job.task, &job.position, outcome);
            }
        }
    }

    /// A job ended: take the engine back and report, or keep the result for `stop`.
    fn finished(&mut self, done: JobDone) {
        match done.engine {
            Some(engine) => self.engine = Some(engine),
            None if self.engine.is_none() => self.engine = Some(Engine::new(self.options)),
            None => {}
        }
        let Some(job) = &mut self.job else {
            log::error!("a job finished that was not running");
            return;
        };
        job.join();
        let failed = matches!(done.outcome, JobResult::Failed(_));
        if job.hold && !job.stop_requested() && !failed {
            job.held = Some(done.outcome);
            return;
        }
        if let Some(job) = self.job.take() {
            report(&self.output, job.task, &job.position, done.outcome);
        }
    }

    fn command(&mut self, message: Message) -> Flow {
        match message {
            Message::Ugi => self.ugi(),
            Message::IsReady => {
                // A `position` may have changed the board since `newgame`, and a bare
                // `uginewgame` since keeps it (see `board_in_play`).
                self.prepare_table(self.board_in_play);
                self.output.send(&Message::ReadyOk);
            }
            Message::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Message::NewGame(setup) | Message::UgiNewGame(setup) => self.new_game(setup),
            Message::Position(setup) => self.set_position(&setup),
            Message::Move(name) => self.play(name),
            Message::Go(args) => {
                let hold = args.infinite || args == GoArgs::default();
                self.start(Task::Search, &args, hold);
            }
            Message::Solve(args) => self.start(Task::Solve, &args, args.infinite),
            Message::Perft(depth) => self.start(Task::Perft(depth), &GoArgs::default(), false),
            Message::Stop => log::debug!("stop without a running search: nothing to do"),
            Message::Quit => return Flow::Quit,
            Message::Query(query) => self.query(query),
            Message::Display => self.display(),
            Message::Legal => self.legal(),
            Message::Eval => self.eval(),
            Message::Bench => self.start(Task::Bench, &GoArgs::default(), false),
            reply @ (Message::Id(_)
            | Message::UgiOk
            | Message::ReadyOk
            | Message::DeclareOption(_)
            | Message::Info(_)
            | Message::BestMove(_)
            | Message::Response(_)) => self.output.error(&format!(
                "'{}' is a reply that engines send: expected a command such as ugi, isready, position or go",
                reply.keyword()
            )),
        }
        Flow::Continue
    }

    fn ugi(&self) {
        let version = env!("CARGO_PKG_VERSION");
        self.output
            .send(&Message::Id(Id::Name(format!("Slimetrail {version}"))));
        self.output
            .send(&Message::Id(Id::Author("the Slimetrail authors".into())));
        for declaration in options::declarations() {
            self.output.send(&declaration);
        }
        self.output.send(&Message::UgiOk);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match options::apply(&self.options, name, value) {
            Ok(changed) => {
                let engine = self.engine.get_or_insert_with(|| Engine::new(self.options));
                match engine.set_options(changed) {
                    Ok(()) => self.options = changed,
                    Err(e) => self.output.error(&format!(
                        "setoption: {name} {} cannot be had ({e}): expected a smaller value; the previous setting is kept",
                        value.unwrap_or_default()
                    )),
                }
            }
            Err(problem) => self.output.error(&problem.to_string()),
        }
    }

    fn new_game(&mut self, setup: GameSetup) {
        match setup.position() {
            Ok(position) => {
                // A bare `uginewgame` names no board, and runners send the board
                // with each position string: the table stays the one of the board
                // in play, rather than one of 7×7 that the next position throws away.
                let board = setup.size.unwrap_or(self.board_in_play);
                self.board_in_play = board;
                self.game = setup;
                self.position = position;
                self.last_move = None;
                if let Some(engine) = &mut self.engine {
                    engine.new_game();
                }
                self.prepare_table(board);
            }
            Err(e) => self.output.error(&format!("newgame: {e}")),
        }
    }

    /// Readies the engine's table for a game on `board` while no clock runs (a GUI
    /// waits for `readyok` after `newgame` and `isready`), so that the first search
    /// does not fault the table's memory in page by page; costs nothing when the
    /// table is ready already. Not at `position`: a `go` may follow it at once, on
    /// the clock.
    fn prepare_table(&mut self, board: Size) {
        let options = self.options;
        let engine = self.engine.get_or_insert_with(|| Engine::new(options));
        engine.prepare(board);
    }

    fn set_position(&mut self, setup: &PositionSetup) {
        let mut position = match &setup.base {
            PositionBase::Fen(position) => *position,
            PositionBase::StartPos => match self.game.position() {
                Ok(position) => position,
                Err(e) => return self.output.error(&format!("position: {e}")),
            },
        };
        let mut last_move = None;
        for (number, &name) in setup.moves.iter().enumerate() {
            match legal_move(&position, name) {
                Ok(to) => last_move = Some((position.play(to), to)),
                Err(problem) => {
                    return self.output.error(&format!(
                        "position: move {} ({name}) cannot be played: {problem}; the position is unchanged",
                        number + 1
                    ));
                }
            }
        }
        self.board_in_play = position.size();
        self.position = position;
        self.last_move = last_move;
    }

    fn play(&mut self, name: SquareName) {
        match legal_move(&self.position, name) {
            Ok(to) => self.last_move = Some((self.position.play(to), to)),
            Err(problem) => self.output.error(&format!("move {name}: {problem}")),
        }
    }

    fn start(&mut self, task: Task, args: &GoArgs, hold: bool) {
        if matches!(task, Task::Search | Task::Solve) {
            if let Outcome::Decided { winner, reason } = self.position.outcome() {
                self.output.error(&format!(
                    "{}: the game is over ({winner} won, {reason}): expected a position with a legal move",
                    if task == Task::Solve { "solve" } else { "go" }
                ));
                self.output.send(&Message::BestMove(None));
                return;
            }
        }
        let engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.options));
        let (job, kept) = Job::start(
            task,
            self.position,
            wire::limits(args),
            hold,
            engine,
            &self.output,
            self.events.clone(),
        );
        self.engine = kept;
        if job.never_started() {
            self.engine.get_or_insert_with(|| Engine::new(self.options));
            let reason = "no thread could be started".to_string();
            report(
                &self.output,
                task,
                &self.position,
                JobResult::Failed(reason),
            );
            return;
        }
        self.job = Some(job);
    }

    fn query(&self, query: Query) {
        let outcome = self.position.outcome();
        let answer = match query {
            Query::P1Turn if self.position.side_to_move() == Side::One => Response::True,
            Query::P1Turn => Response::False,
            Query::GameOver if outcome.is_over() => Response::True,
            Query::GameOver => Response::False,
            Query::Result => match outcome.winner() {
                Some(Side::One) => Response::P1Win,
                Some(Side::Two) => Response::P2Win,
                None => Response::None,
            },
        };
        self.output.send(&Message::Response(answer));
    }

    fn display(&self) {
        let mut diagram = Diagram::new(&self.position);
        if let Some((from, to)) = self.last_move {
            diagram = diagram.with_last_move(from, to);
        }
        for line in diagram.to_string().lines() {
            self.output.text(line);
        }
    }

    fn legal(&self) {
        let names = legal_names(&self.position);
        if names.is_empty() {
            self.output.text("legal none");
        } else {
            self.output.text(format!("legal {}", names.join(" ")));
        }
    }

    fn eval(&mut self) {
        if let Outcome::Decided { winner, reason } = self.position.outcome() {
            return self
                .output
                .text(format!("eval the game is over: {winner} won ({reason})"));
        }
        let options = self.options;
        let engine = self.engine.get_or_insert_with(|| Engine::new(options));
        let evaluation = engine.evaluate(&self.position);
        self.output.text(format!("eval total {}", evaluation.score));
        for (term, value) in evaluation.terms {
            self.output.text(format!("eval {term} {value}"));
        }
    }
}

/// Whether a line starts a job that only `stop` ends (`go infinite`, a bare `go`,
/// `solve infinite`).
fn only_stop_ends(line: &Result<Message, LineError>) -> bool {
    match line {
        Ok(Message::Go(args)) => args.infinite || *args == GoArgs::default(),
        Ok(Message::Solve(args)) => args.infinite,
        _ => false,
    }
}

/// The legal moves as names, by file then rank.
fn legal_names(position: &Position) -> Vec<String> {
    let size = position.size();
    let mut squares: Vec<Square> = position.moves().iter().collect();
    squares.sort_by_key(|&square| (size.file(square), size.rank(square)));
    squares
        .into_iter()
        .map(|square| size.name(square).to_string())
        .collect()
}

/// The square a move names, if it is legal here; otherwise why not and what would be.
fn legal_move(position: &Position, name: SquareName) -> Result<Square, MoveRefused> {
    let to = position
        .size()
        .resolve(name)
        .map_err(|error| refused(position, |legal| MoveRefused::OffBoard { error, legal }))?;
    position
        .check_move(to)
        .map_err(|error| refused(position, |legal| MoveRefused::Illegal { error, legal }))?;
    Ok(to)
}

/// Why a move was refused: the game is over, or `why` with the legal moves.
fn refused(position: &Position, why: impl FnOnce(Vec<String>) -> MoveRefused) -> MoveRefused {
    match position.outcome() {
        Outcome::Decided { winner, reason } => MoveRefused::GameOver { winner, reason },
        Outcome::Ongoing => why(legal_names(position)),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::*;

    fn session() -> Session {
        Session::new(Output::new(std::io::sink()), channel().0, Credit::default())
    }

    fn nine() -> Size {
        "9x9".parse().expect("9x9 is a board size")
    }

    fn position_fen(text: &str) -> Message {
        Message::Position(PositionSetup {
            base: PositionBase::Fen(text.parse().expect("a valid position string")),
            moves: Vec::new(),
        })
    }

    fn prepared_for(session: &Session, size: Size) -> bool {
        session
            .engine
            .as_ref()
            .is_some_and(|e| e.is_prepared_for(size))
    }

    #[test]
    fn a_bare_uginewgame_keeps_the_table_of_the_board_in_play() {
        // Runners such as the arena send a bare `uginewgame`, then each position as a
        // string: a 9×9 game must not get a 7×7 table that the next search throws
        // away for a fresh one, faulted in page by page on the clock.
        let mut session = session();
        session.command(Message::UgiNewGame(GameSetup {
            size: Some(nine()),
            start: None,
        }));
        assert!(prepared_for(&session, nine()));
        session.command(position_fen("9/9/9/9/3xs4/9/9/9/9 2"));
        session.command(Message::UgiNewGame(GameSetup::default()));
        assert!(prepared_for(&session, nine()), "the 9x9 table was dropped");
        // `position startpos` still means the 7×7 start after a bare `uginewgame`.
        assert_eq!(session.position, Position::start(Size::default()));
    }

    #[test]
    fn isready_after_a_bare_uginewgame_keeps_the_table_of_the_board_in_play() {
        // The arena (like most runners) sends `uginewgame`, then `isready`, then the
        // position string. The bare `uginewgame` leaves the 7×7 start as the position,
        // but the board in play is still 9×9: `isready` must not swap the table
        // readied for it for a 7×7 one, which the next 9×9 search would replace with
        // a fresh table, faulted in page by page on the clock.
        let mut session = session();
        session.command(position_fen("9/9/9/9/3xs4/9/9/9/9 2"));
        session.command(Message::IsReady);
        assert!(prepared_for(&session, nine()));
        session.command(Message::UgiNewGame(GameSetup::default()));
        session.command(Message::IsReady);
        assert!(
            prepared_for(&session, nine()),
            "isready after a bare uginewgame dropped the 9x9 table"
        );
        // A `uginewgame` that names its board gets that board's table.
        session.command(Message::UgiNewGame(GameSetup {
            size: Some(Size::default()),
            start: None,
        }));
        session.command(Message::IsReady);
        assert!(prepared_for(&session, Size::default()));
    }

    #[test]
    fn isready_readies_the_table_for_the_board_of_the_position_set() {
        let mut session = session();
        session.command(Message::UgiNewGame(GameSetup::default()));
        assert!(prepared_for(&session, Size::default()));
        session.command(position_fen("9/9/9/9/3xs4/9/9/9/9 2"));
        assert!(!prepared_for(&session, nine()));
        session.command(Message::IsReady);
        assert!(
            prepared_for(&session, nine()),
            "isready left the 9x9 table unready"
        );
    }
}
