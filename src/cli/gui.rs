//! `slimetrail gui`: the browser GUI's command line.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use clap::Args;

use crate::client::{EngineSetup, Launch, SpecError, parse_engines};
use crate::gui::{GuiConfig, GuiError};

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
