//! `slimetrail gui`: the browser GUI's command line.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use clap::Args;

use crate::client::{EngineSetup, Launch, Launcher, parse_engines};
use crate::gui::GuiConfig;

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

/// Starts the server.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let engine = if args.engine.is_empty() {
        let program = std::env::current_exe()
            .map_err(|e| format!("cannot find this program to run it as the engine: {e}"))?;
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
        grace: Duration::from_secs(args.grace),
        open: args.open,
    })
}

/// The engine of `--engine`, read by the arena's engine-spec parser.
fn engine_command(words: &[String]) -> Result<EngineSetup, String> {
    let mut specs = parse_engines(&[words.to_vec()], &[])
        .map_err(|e| flags::engine_words(&e, |_| "--engine".to_string()))?;
    let spec = specs.remove(0);
    let Launcher::Process { cmd, args, dir } = spec.command else {
        return Err(
            "--engine cmd=random: the built-in random player has no process: expected cmd=PATH \
             of an engine program"
                .to_string(),
        );
    };
    Ok(EngineSetup {
        launch: Launch {
            name: spec.name,
            cmd,
            args,
            dir,
        },
        options: spec.options,
        timeout: spec.limits.timeout,
    })
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
        let e = engine_command(&words("cmd=random")).unwrap_err();
        assert!(e.contains("expected cmd=PATH"), "{e}");
        let e = engine_command(&words("cmd=/no/such/engine")).unwrap_err();
        assert!(
            e.contains("--engine cmd=/no/such/engine") && e.contains("no such file"),
            "{e}"
        );
    }
}
