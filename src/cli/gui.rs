//! `slimetrail gui`: the browser GUI's command line.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use clap::Args;

use crate::client::{EngineSetup, Launch, SpecError, parse_engines};
use crate::gui::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_HEADERS, DEFAULT_PACE, GuiConfig, GuiError, HttpLimits,
};

use super::flags;

/// Arguments of `slimetrail gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8707)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines
    /// start engines on this one: give it only on a network you trust.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// Open the page in the browser.
    #[arg(long)]
    pub open: bool,
    /// The engine, in the arena's syntax: cmd=PATH [arg=X ...] [dir=D] [option.NAME=V ...]
    /// [timeout=MS]; default: this slimetrail binary.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub engine: Vec<String>,
    /// The most games open at once, each with its own engine process.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub max_sessions: u64,
    /// Seconds a game outlives its closed tab (page reloads keep it).
    #[arg(long, value_name = "S", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub grace: u64,
    /// The least time from one move to an engine's move shown after it, so that a person
    /// can follow the engine's moves; 0 shows each move at once.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_PACE.as_millis() as u64, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub pace: u64,
    /// The most connections served at once (tabs, their event streams, requests); more
    /// wait in the listening socket's backlog. Lowered to fit the descriptor limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CONNECTIONS as u64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub max_connections: u64,
    /// Seconds for a request's head to arrive (also the idle time of a kept-alive
    /// connection).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_HEADER_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=600))]
    pub header_timeout: u64,
    /// Seconds for a request's whole body to arrive.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_BODY_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=600))]
    pub body_timeout: u64,
    /// The largest request head (request line and headers), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_HEADER_BYTES as u64, value_parser = clap::value_parser!(u64).range(1024..=1_048_576))]
    pub max_header_bytes: u64,
    /// The most header lines in one request.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_HEADERS as u64, value_parser = clap::value_parser!(u64).range(8..=1000))]
    pub max_headers: u64,
}

/// Why `slimetrail gui` did not start.
#[derive(Debug)]
pub enum GuiCliError {
    /// This program cannot be found, to run it as the engine.
    NoProgram(std::io::Error),
    /// The words of `--engine`.
    Engine(SpecError),
    /// `--engine cmd=random`.
    Random,
    /// The server.
    Gui(GuiError),
}

impl fmt::Display for GuiCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiCliError::NoProgram(e) => {
                write!(f, "cannot find this program to run it as the engine: {e}")
            }
            GuiCliError::Engine(e) => {
                f.write_str(&flags::engine_words(e, |_| "--engine".to_string()))
            }
            GuiCliError::Random => f.write_str(
                "--engine cmd=random: the built-in random player has no process: expected cmd=PATH \
                 of an engine program",
            ),
            GuiCliError::Gui(GuiError::Listen { host, port, error }) => write!(
                f,
                "cannot listen on {host}:{port}: {error}; expected a free port (--port 0 picks one)"
            ),
            GuiCliError::Gui(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GuiCliError {}

/// Starts the server.
pub fn run(args: &GuiArgs) -> Result<(), GuiCliError> {
    let engine = if args.engine.is_empty() {
        let program = std::env::current_exe().map_err(GuiCliError::NoProgram)?;
        EngineSetup {
            launch: Launch {
                name: "Slimetrail".to_string(),
                cmd: program,
                args: Vec::new(),
                dir: None,
            },
            options: Vec::new(),
            timeout: Duration::from_secs(10),
        }
    } else {
        engine_command(&args.engine)?
    };
    crate::gui::run(GuiConfig {
        host: args.host,
        port: args.port,
        engine,
        max_sessions: args.max_sessions as usize,
        max_sessions_named: "--max-sessions",
        grace: Duration::from_secs(args.grace),
        pace: Duration::from_millis(args.pace),
        limits: HttpLimits {
            max_connections: args.max_connections as usize,
            header_timeout: Duration::from_secs(args.header_timeout),
            body_timeout: Duration::from_secs(args.body_timeout),
            max_header_bytes: args.max_header_bytes as usize,
            max_headers: args.max_headers as usize,
        },
        open: args.open,
    })
    .map_err(GuiCliError::Gui)
}

/// The engine of `--engine`, read by the engine-words parser.
fn engine_command(words: &[String]) -> Result<EngineSetup, GuiCliError> {
    let mut specs = parse_engines(&[words.to_vec()], &[]).map_err(GuiCliError::Engine)?;
    specs.remove(0).setup().ok_or(GuiCliError::Random)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engines_are_read_with_the_arena_syntax() {
        let engine = engine_command(&words(
            "cmd=/bin/sh arg=-c arg=x option.Hash=16 timeout=500",
        ))
        .unwrap();
        assert_eq!(engine.launch.name, "sh");
        assert_eq!(engine.launch.args, ["-c", "x"]);
        assert_eq!(engine.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(engine.timeout, Duration::from_millis(500));
        let e = engine_command(&words("cmd=random"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected cmd=PATH"), "{e}");
        let e = engine_command(&words("cmd=/no/such/engine"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--engine cmd=/no/such/engine") && e.contains("no such file"),
            "{e}"
        );
    }
}
