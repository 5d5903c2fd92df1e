//! `slimetrail-arena mock-engine` (hidden): the misbehaving test engine of
//! [`crate::client::mock`], configured from its flags.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::client::mock::{FloodAt, MockBehaviour, run_mock};

/// Arguments of the hidden `mock-engine`.
#[derive(Args, Debug)]
pub struct MockArgs {
    /// Exit with code 3 at this move of every game (counted from 1).
    #[arg(long, value_name = "N")]
    pub crash_at: Option<u32>,
    /// Stop answering at this move of a game.
    #[arg(long, value_name = "N")]
    pub hang_at: Option<u32>,
    /// Print garbage instead of this move.
    #[arg(long, value_name = "N")]
    pub garbage_at: Option<u32>,
    /// Play an illegal move at this move.
    #[arg(long, value_name = "N")]
    pub illegal_at: Option<u32>,
    /// Wait this many milliseconds before answering `ugi`.
    #[arg(long, value_name = "MS")]
    pub slow_start: Option<u64>,
    /// Exit at once.
    #[arg(long)]
    pub exit_at_once: bool,
    /// Never answer `isready`.
    #[arg(long)]
    pub no_readyok: bool,
    /// Append the process id to this file.
    #[arg(long, value_name = "FILE")]
    pub pid_file: Option<PathBuf>,
    /// Think this many milliseconds before every move.
    #[arg(long, value_name = "MS")]
    pub move_delay: Option<u64>,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Flood `info` lines instead of answering: `ugi`, `isready`, or a move number.
    #[arg(long, value_name = "ugi|isready|N")]
    pub flood: Option<String>,
    /// Answer every `go` with two `bestmove` lines.
    #[arg(long)]
    pub double_bestmove: bool,
    /// Follow every `readyok` with an unrequested `bestmove`.
    #[arg(long)]
    pub early_bestmove: bool,
    /// Print blank lines, unknown `info` fields and `bestmove X ponder Y`.
    #[arg(long)]
    pub extras: bool,
    /// Print a line longer than the arena accepts at this move.
    #[arg(long, value_name = "N")]
    pub long_line_at: Option<u32>,
    /// Leave behind a child ignoring SIGTERM that appends its pid to this file.
    #[arg(long, value_name = "FILE")]
    pub grandchild: Option<PathBuf>,
    /// Be such a child: ignore SIGTERM and sleep.
    #[arg(long)]
    pub linger: bool,
    /// Flood `info` lines instead of exiting at `quit`.
    #[arg(long)]
    pub flood_at_quit: bool,
}

/// Runs the mock engine; its exit code.
pub fn run(args: &MockArgs) -> ExitCode {
    let flood = match args.flood.as_deref() {
        None => None,
        Some("ugi") => Some(FloodAt::Handshake),
        Some("isready") => Some(FloodAt::Ready),
        Some(n) => match n.parse() {
            Ok(n) => Some(FloodAt::Move(n)),
            Err(_) => {
                eprintln!("mock-engine: --flood {n}: expected `ugi`, `isready` or a move number");
                return ExitCode::FAILURE;
            }
        },
    };
    let behaviour = MockBehaviour {
        crash_at: args.crash_at,
        hang_at: args.hang_at,
        garbage_at: args.garbage_at,
        illegal_at: args.illegal_at,
        slow_start: args.slow_start.map(Duration::from_millis),
        exit_at_once: args.exit_at_once,
        no_readyok: args.no_readyok,
        pid_file: args.pid_file.clone(),
        move_delay: args.move_delay.map(Duration::from_millis),
        seed: args.seed,
        flood,
        double_bestmove: args.double_bestmove,
        early_bestmove: args.early_bestmove,
        extras: args.extras,
        long_line_at: args.long_line_at,
        grandchild: args.grandchild.clone(),
        linger: args.linger,
        linger_args: vec!["mock-engine".to_string(), "--linger".to_string()],
        flood_at_quit: args.flood_at_quit,
    };
    ExitCode::from(run_mock(&behaviour) as u8)
}
