//! `slimetrail play`: a person plays the engine in the terminal.

use std::fmt;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;

use super::{PositionArgError, PositionArgs};
use crate::board::{Diagram, Outcome, Position, Side, Square};
use crate::search::{Engine, EngineOptions, LEVEL, Limits};

/// Arguments of `slimetrail play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Engine strength, from 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = LEVEL.default as u32,
          value_parser = clap::value_parser!(u32).range(LEVEL.min..=LEVEL.max))]
    pub level: u32,
    /// Play second (player 2, top-right goal); the engine moves first.
    #[arg(long)]
    pub second: bool,
    /// Engine thinking time per move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub movetime: u64,
    /// Where the game starts.
    #[command(flatten)]
    pub from: PositionArgs,
}

const HELP: &str = "\
Commands:
  <square>  move the snail there, for example d5 (a neighbouring square that is not slimed)
  undo      take back your last move and the engine's reply
  help      show this help
  quit      leave the game
Symbols: @ the snail, x slime, * the square the last move left, 1 and 2 the goal corners.";

/// What is on the board: the position and the last move, to draw and to undo to.
#[derive(Clone, Copy)]
struct State {
    position: Position,
    last_move: Option<(Square, Square)>,
}

/// Why a game in the terminal cannot start or go on.
#[derive(Debug)]
pub enum PlayError {
    /// The position arguments are wrong.
    Position(PositionArgError),
    /// The terminal cannot be read or written.
    Terminal(std::io::Error),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Position(e) => e.fmt(f),
            PlayError::Terminal(e) => write!(f, "terminal: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Plays one game on stdin/stdout.
pub fn run(args: &PlayArgs) -> Result<(), PlayError> {
    let position = args.from.position().map_err(PlayError::Position)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    play(args, position, &mut stdin.lock(), &mut stdout.lock()).map_err(PlayError::Terminal)
}

fn play(
    args: &PlayArgs,
    position: Position,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let human = if args.second { Side::Two } else { Side::One };
    let size = position.size();
    let mut engine = Engine::new(EngineOptions {
        level: args.level,
        ..EngineOptions::default()
    });
    engine.new_game();
    writeln!(
        out,
        "You are {human} (goal {}); Slimetrail is {} (goal {}), level {}.",
        size.name(size.goal(human)),
        !human,
        size.name(size.goal(!human)),
        args.level
    )?;
    writeln!(out, "Type a square to move, 'help' for commands.")?;
    let mut state = State {
        position,
        last_move: None,
    };
    // States before each of the human's moves, for undo.
    let mut history: Vec<State> = Vec::new();
    let mut announced = false;
    draw(out, &state)?;
    loop {
        let over = state.position.outcome().is_over();
        if !over && state.position.side_to_move() != human {
            state = engine_move(&mut engine, state, args.movetime, out)?;
            draw(out, &state)?;
            continue;
        }
        if over {
            if !announced {
                announce(out, &state.position, human)?;
                announced = true;
            }
            write!(
                out,
                "Type 'undo' to take your move back or 'quit' to leave: "
            )?;
        } else {
            write!(out, "Your move ({human}): ")?;
        }
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "End of input: goodbye.")?;
            return Ok(());
        }
        match line.trim() {
            "" => {}
            "quit" | "exit" => {
                writeln!(out, "Goodbye.")?;
                return Ok(());
            }
            "help" => writeln!(out, "{HELP}")?,
            "undo" => match history.pop() {
                Some(before) => {
                    state = before;
                    announced = false;
                    writeln!(out, "Took back your last move.")?;
                    draw(out, &state)?;
                }
                None => writeln!(out, "Nothing to undo: you have not moved yet.")?,
            },
            _ if over => writeln!(out, "The game is over: expected 'undo' or 'quit'.")?,
            // People type C3 as often as c3.
            text => match state.position.parse_move(&text.to_ascii_lowercase()) {
                Ok(to) => {
                    history.push(state);
                    let from = state.position.play(to);
                    state.last_move = Some((from, to));
                    writeln!(out, "You play {}.", size.name(to))?;
                    draw(out, &state)?;
                }
                Err(e) => writeln!(
                    out,
                    "'{text}' is not a legal move: {e}. Expected one of: {}. Try again ('help' for commands).",
                    legal_list(&state.position)
                )?,
            },
        }
    }
}

/// Lets the engine think and plays its move.
fn engine_move(
    engine: &mut Engine,
    mut state: State,
    movetime: u64,
    out: &mut impl Write,
) -> std::io::Result<State> {
    writeln!(out, "Slimetrail is thinking...")?;
    out.flush()?;
    let limits = Limits::movetime(Duration::from_millis(movetime));
    let result = engine.search(
        &state.position,
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let legal = state.position.moves();
    let to = match result.best_move.filter(|&m| legal.contains(m)) {
        Some(to) => to,
        None => match legal.first() {
            Some(to) => {
                log::warn!("the engine gave no legal move; playing the first legal one");
                to
            }
            None => return Ok(state),
        },
    };
    let from = state.position.play(to);
    state.last_move = Some((from, to));
    writeln!(out, "Slimetrail plays {}.", state.position.name(to))?;
    Ok(state)
}

fn draw(out: &mut impl Write, state: &State) -> std::io::Result<()> {
    // The result is announced once, with who won in the player's words.
    let mut diagram = Diagram::new(&state.position).without_result();
    if let Some((from, to)) = state.last_move {
        diagram = diagram.with_last_move(from, to);
    }
    writeln!(out)?;
    writeln!(out, "{diagram}")?;
    writeln!(out)
}

fn announce(out: &mut impl Write, position: &Position, human: Side) -> std::io::Result<()> {
    if let Outcome::Decided { winner, reason } = position.outcome() {
        let verdict = if winner == human {
            "You win!"
        } else {
            "Slimetrail wins."
        };
        writeln!(out, "Game over: {winner} wins ({reason}). {verdict}")?;
    }
    Ok(())
}

fn legal_list(position: &Position) -> String {
    let size = position.size();
    let mut squares: Vec<Square> = position.moves().iter().collect();
    squares.sort_by_key(|&square| (size.file(square), size.rank(square)));
    let names: Vec<String> = squares
        .iter()
        .map(|&square| size.name(square).to_string())
        .collect();
    names.join(" ")
}
