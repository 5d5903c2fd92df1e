//! Command lines of the two binaries: argument definitions and the commands they run.

mod arena;
mod arena_args;
mod arena_compat;
mod arena_errors;
mod arena_mock;
mod arena_stats;
mod bench;
mod book;
mod book_error;
mod flags;
mod gui;
mod interrupt;
mod perft;
mod play;
mod solve;
mod split;

pub use arena::arena_main;

use std::fmt;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde::Serialize;

use crate::board::{Position, PositionError, Size, StartError};

/// `slimetrail`: with no subcommand, speaks the engine protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(
    name = "slimetrail",
    version,
    about = "Slime Trail engine: speaks the Slimetrail/UGI protocol on stdin and stdout when run without a subcommand"
)]
pub struct EngineCli {
    /// What to do instead of speaking the protocol.
    #[command(subcommand)]
    pub command: Option<EngineSubcommand>,
}

/// The engine binary's subcommands.
#[derive(Subcommand, Debug)]
pub enum EngineSubcommand {
    /// Count move sequences of exactly DEPTH plies, per first move and in total.
    Perft(perft::PerftArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Prove who wins a position, with a winning move and the length of the game.
    Solve(solve::SolveArgs),
    /// Search a fixed set of positions to a fixed depth: node count and speed.
    Bench(bench::BenchArgs),
    /// Write an opening book of positions too hard to prove in a move's time, or
    /// prove every move of one.
    Book(book::BookArgs),
    /// Play and analyse in the browser: a local web server driving an engine process.
    Gui(gui::GuiArgs),
}

/// Where a command starts: a board size and start square, or a position string.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Board size as WIDTHxHEIGHT, each from 3 to 11.
    #[arg(long, value_name = "WxH", default_value = "7x7")]
    pub size: Size,
    /// Start square of the snail (default: file W/2, rank H/2 counted from zero).
    #[arg(long, value_name = "SQ")]
    pub start: Option<String>,
    /// A position string such as "7/7/7/3s3/7/7/7 1" (implies the size).
    #[arg(long, value_name = "POSITION", conflicts_with_all = ["size", "start"])]
    pub position: Option<String>,
}

/// Why [`PositionArgs`] describe no position: the flag and what is wrong with it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionArgError {
    /// `--position` is not a position string.
    Position(PositionError),
    /// `--start` is not a start square.
    Start(StartError),
}

impl fmt::Display for PositionArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionArgError::Position(e) => write!(f, "--position: {e}"),
            PositionArgError::Start(e) => write!(f, "--start: {e}"),
        }
    }
}

impl std::error::Error for PositionArgError {}

impl PositionArgs {
    /// The position these arguments describe, or an error that says what is wrong.
    pub fn position(&self) -> Result<Position, PositionArgError> {
        if let Some(text) = &self.position {
            return text.parse().map_err(PositionArgError::Position);
        }
        match &self.start {
            Some(start) => Position::start_named(self.size, start).map_err(PositionArgError::Start),
            None => Ok(Position::start(self.size)),
        }
    }
}

/// Runs the engine binary.
pub fn engine_main() -> ExitCode {
    init_logging();
    let cli = EngineCli::parse();
    if matches!(
        cli.command,
        Some(EngineSubcommand::Perft(_) | EngineSubcommand::Solve(_) | EngineSubcommand::Bench(_))
    ) {
        quiet_broken_pipe();
    }
    match cli.command {
        Some(EngineSubcommand::Perft(args)) => finish(perft::run(&args)),
        Some(EngineSubcommand::Play(args)) => finish(play::run(&args)),
        Some(EngineSubcommand::Solve(args)) => finish_with(solve::run(&args)),
        Some(EngineSubcommand::Bench(args)) => finish(bench::run(&args)),
        Some(EngineSubcommand::Gui(args)) => finish(gui::run(&args)),
        Some(EngineSubcommand::Book(args)) => finish(book::run(&args)),
        None => {
            crate::server::serve(std::io::stdin(), std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}

/// The exit status of a command that succeeded or failed: its error on stderr.
fn finish<E: fmt::Display>(result: Result<(), E>) -> ExitCode {
    finish_with(result.map(|()| ExitCode::SUCCESS))
}

/// The exit status of a command that chose it, or failed: its error on stderr.
fn finish_with<E: fmt::Display>(result: Result<ExitCode, E>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Lets a report command end quietly when its reader goes away (`... | head`), as
/// command-line tools do, instead of panicking on the failed write. Not for the
/// protocol loop or the arena, which handle closed pipes themselves.
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE at start-up, before any
    // other thread exists, is the documented way to get this behaviour.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A report that cannot be written as JSON.
#[derive(Debug)]
pub struct JsonError(serde_json::Error);

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the report as JSON: {}", self.0)
    }
}

impl std::error::Error for JsonError {}

/// Prints `value` as one line of JSON: the `--json` output of the report commands.
fn print_json<T: Serialize>(value: &T) -> Result<(), JsonError> {
    let text = serde_json::to_string(value).map_err(JsonError)?;
    println!("{text}");
    Ok(())
}

/// A duration in milliseconds, to the microsecond, as the JSON reports give times.
fn milliseconds(time: Duration) -> f64 {
    time.as_micros() as f64 / 1000.0
}

/// Nodes (or leaves) per second, as a whole number.
fn per_second(count: u64, time: Duration) -> u64 {
    (count as f64 / time.as_secs_f64().max(1e-9)) as u64
}

/// Diagnostics go to stderr, filtered by RUST_LOG (default: warnings).
pub fn init_logging() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
}
