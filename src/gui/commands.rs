//! What the page may ask of its session: lines of the protocol itself (`newgame`,
//! `position`, `move`, `go`, `stop`, `setoption`), read by the protocol's own parser,
//! and three words of the GUI's own (`undo`, `redo`, `restart`). Anything else is
//! answered with an error that says what was expected.

use crate::board::SquareName;
use crate::protocol::{GameSetup, GoArgs, MAX_LINE_BYTES, Message, PositionSetup};

use super::error::CommandError;
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
