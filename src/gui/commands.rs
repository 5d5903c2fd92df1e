//! What the page may ask of its session: lines of the protocol itself (`newgame`,
//! `position`, `move`, `go`, `stop`, `setoption`), read by the protocol's own parser,
//! and three words of the GUI's own (`undo`, `redo`, `restart`). Anything else is
//! answered with an error that says what was expected.

use std::fmt;

use crate::board::{SquareName, StartError};
use crate::protocol::{GameSetup, GoArgs, MAX_LINE_BYTES, Message, ParseError, PositionSetup};

use super::game::Controller;

/// The most command lines in one request.
pub const MAX_LINES: usize = 16;

/// Engine strengths the page offers.
pub const LEVELS: std::ops::RangeInclusive<u32> = 1..=10;
/// Thinking times per move the page may set, in milliseconds.
pub const MOVE_TIMES: std::ops::RangeInclusive<u64> = 50..=60_000;

/// The options a session has, as `setoption` names.
pub const OPTION_NAMES: &str = "Player1, Player2, Level, MoveTime, Analysis";

/// One request of the page.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// A new game with the current settings.
    NewGame(GameSetup),
    /// A game from a position string or the start, with moves: an import.
    Position(PositionSetup),
    /// The human's move.
    Move(SquareName),
    /// A hint: the engine's best move under these limits.
    Hint(GoArgs),
    /// Stop the search: the engine to move plays now, a hint or analysis ends.
    Stop,
    /// Who plays a side (index 0 or 1).
    Player(usize, Controller),
    /// The engine's strength.
    Level(u32),
    /// The engine's time per move, in milliseconds.
    MoveTime(u64),
    /// Live analysis on or off.
    Analysis(bool),
    /// Take back moves until a human is to move.
    Undo,
    /// Replay moves taken back until a human is to move.
    Redo,
    /// A fresh engine process.
    Restart,
}

/// A command line the page may not send.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CommandError {
    /// No command at all.
    Empty,
    /// More lines than one request may carry.
    TooManyLines(usize),
    /// A line longer than the protocol allows.
    LineTooLong(usize),
    /// A line that is no protocol message.
    Parse(ParseError),
    /// `newgame` with a start that does not fit the board.
    NewGame(StartError),
    /// A message the page may not ask: its keyword.
    NotAskable(&'static str),
    /// A hint without a limit.
    UnlimitedHint,
    /// A hint's move time out of range.
    HintMoveTime,
    /// `setoption` without a value.
    NoValue(String),
    /// Who plays a side: neither `human` nor `engine`.
    Player {
        /// The option as given.
        name: String,
        /// The value.
        value: String,
    },
    /// A level out of range.
    Level(String),
    /// A move time out of range.
    MoveTime(String),
    /// Analysis neither `true` nor `false`.
    Analysis(String),
    /// An option the session does not have.
    UnknownOption(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => {
                f.write_str("empty request: expected a command such as `move c3`")
            }
            CommandError::TooManyLines(n) => write!(
                f,
                "{n} command lines: expected at most {MAX_LINES} in one request"
            ),
            CommandError::LineTooLong(n) => write!(
                f,
                "a line of {n} bytes: expected at most {}",
                crate::protocol::MAX_LINE_BYTES
            ),
            CommandError::Parse(e) => write!(f, "{e}"),
            CommandError::NewGame(e) => write!(f, "newgame: {e}"),
            CommandError::NotAskable(keyword) => write!(
                f,
                "'{keyword}' is not something the page can ask: expected one of newgame, \
                 position, move, go, stop, setoption, undo, redo or restart"
            ),
            CommandError::UnlimitedHint => f.write_str(
                "go: a hint needs a limit: expected movetime MS, depth N or nodes N (live \
                 analysis is `setoption name Analysis value true`)",
            ),
            CommandError::HintMoveTime => write!(
                f,
                "go: movetime out of range: expected {} to {} ms",
                MOVE_TIMES.start(),
                MOVE_TIMES.end()
            ),
            CommandError::NoValue(name) => write!(
                f,
                "setoption {name}: the value is missing: expected `setoption name {name} value ...`"
            ),
            CommandError::Player { name, value } => {
                write!(f, "setoption {name}: '{value}': expected human or engine")
            }
            CommandError::Level(value) => write!(
                f,
                "setoption Level: '{value}': expected a whole number from {} to {}",
                LEVELS.start(),
                LEVELS.end()
            ),
            CommandError::MoveTime(value) => write!(
                f,
                "setoption MoveTime: '{value}': expected milliseconds from {} to {}",
                MOVE_TIMES.start(),
                MOVE_TIMES.end()
            ),
            CommandError::Analysis(value) => {
                write!(f, "setoption Analysis: '{value}': expected true or false")
            }
            CommandError::UnknownOption(name) => write!(
                f,
                "setoption: unknown option '{name}': expected one of {OPTION_NAMES}"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// Reads the lines of one request; blank lines are skipped. The error names the line.
pub fn parse_commands(body: &str) -> Result<Vec<Command>, CommandError> {
    let lines: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return Err(CommandError::Empty);
    }
    if lines.len() > MAX_LINES {
        return Err(CommandError::TooManyLines(lines.len()));
    }
    lines
        .iter()
        .map(|line| parse_command(line))
        .collect::<Result<Vec<_>, _>>()
}

/// Reads one command line.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(CommandError::LineTooLong(line.len()));
    }
    match line.trim() {
        "undo" => return Ok(Command::Undo),
        "redo" => return Ok(Command::Redo),
        "restart" => return Ok(Command::Restart),
        _ => {}
    }
    let message: Message = line.parse().map_err(CommandError::Parse)?;
    match message {
        Message::NewGame(setup) | Message::UgiNewGame(setup) => {
            setup.position().map_err(CommandError::NewGame)?;
            Ok(Command::NewGame(setup))
        }
        Message::Position(setup) => Ok(Command::Position(setup)),
        Message::Move(square) => Ok(Command::Move(square)),
        Message::Go(args) => hint(args),
        Message::Stop => Ok(Command::Stop),
        Message::SetOption { name, value } => option(&name, value.as_deref()),
        other => Err(CommandError::NotAskable(other.keyword())),
    }
}

/// A hint's limits: a time or depth limit, never an endless search.
fn hint(args: GoArgs) -> Result<Command, CommandError> {
    let timed = args.movetime.is_some() || args.depth.is_some() || args.nodes.is_some();
    if args.infinite || !timed {
        return Err(CommandError::UnlimitedHint);
    }
    if args.movetime.is_some_and(|ms| !MOVE_TIMES.contains(&ms)) {
        return Err(CommandError::HintMoveTime);
    }
    Ok(Command::Hint(args))
}

/// A session option.
fn option(name: &str, value: Option<&str>) -> Result<Command, CommandError> {
    let key: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let Some(value) = value else {
        return Err(CommandError::NoValue(name.to_string()));
    };
    let value = value.trim();
    match key.as_str() {
        "player1" | "player2" => {
            let side = usize::from(key == "player2");
            let controller = match value {
                "human" => Controller::Human,
                "engine" => Controller::Engine,
                _ => {
                    return Err(CommandError::Player {
                        name: name.to_string(),
                        value: value.to_string(),
                    });
                }
            };
            Ok(Command::Player(side, controller))
        }
        "level" => value
            .parse()
            .ok()
            .filter(|l| LEVELS.contains(l))
            .map(Command::Level)
            .ok_or_else(|| CommandError::Level(value.to_string())),
        "movetime" => value
            .parse()
            .ok()
            .filter(|ms| MOVE_TIMES.contains(ms))
            .map(Command::MoveTime)
            .ok_or_else(|| CommandError::MoveTime(value.to_string())),
        "analysis" => match value {
            "true" => Ok(Command::Analysis(true)),
            "false" => Ok(Command::Analysis(false)),
            _ => Err(CommandError::Analysis(value.to_string())),
        },
        _ => Err(CommandError::UnknownOption(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_lines_and_gui_words_are_read() {
        assert_eq!(
            parse_command("move c3"),
            Ok(Command::Move("c3".parse().unwrap()))
        );
        assert_eq!(parse_command(" undo "), Ok(Command::Undo));
        assert_eq!(
            parse_command("setoption name Player 2 value engine"),
            Ok(Command::Player(1, Controller::Engine))
        );
        assert_eq!(
            parse_command("setoption name Level value 3"),
            Ok(Command::Level(3))
        );
        assert!(matches!(
            parse_command("go movetime 500"),
            Ok(Command::Hint(_))
        ));
        let cmds = parse_commands("setoption name Level value 2\n\nnewgame size 5x5\n").unwrap();
        assert_eq!(cmds.len(), 2);
    }

    #[test]
    fn bad_lines_get_errors_that_say_what_was_expected() {
        for (line, wanted) in [
            ("goo", "unknown command 'goo'"),
            ("move z", "move"),
            ("go depth x", "expected a number after 'depth'"),
            ("go infinite", "a hint needs a limit"),
            ("go movetime 999999", "out of range"),
            ("ugi", "not something the page can ask"),
            ("bestmove c3", "not something the page can ask"),
            ("setoption name Level value 11", "from 1 to 10"),
            ("setoption name Hash value 16", "unknown option 'Hash'"),
            ("setoption name Player1 value robot", "human or engine"),
            ("newgame start g7", "goal corner"),
        ] {
            let e = parse_command(line).unwrap_err().to_string();
            assert!(e.contains(wanted), "{line}: {e}");
        }
        assert!(parse_commands("").is_err());
        assert!(parse_commands(&"stop\n".repeat(MAX_LINES + 1)).is_err());
        assert!(parse_command(&"x".repeat(MAX_LINE_BYTES + 1)).is_err());
    }
}
