//! Engine specifications from the command line: `name=A cmd=PATH arg=X option.Hash=64 tc=10+0.1 …`.
//!
//! Every engine is a list of `key=value` words. `--each` gives words shared by all
//! engines; an engine's own words override them.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::conversation::EngineSetup;
use super::process::Launch;

/// The keys an engine specification accepts, for error messages.
pub const ENGINE_KEYS: &str =
    "name, cmd, arg, dir, option.NAME, movetime, st, depth, nodes, tc, timemargin, timeout, proto";

/// Default grace period added to clocks and move times before a time loss, in milliseconds.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 50;

/// Default wait for answers that no clock bounds (`ugiok`, `readyok`, `bestmove` under
/// depth or node limits), in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// The command that selects the built-in random player.
pub const RANDOM_COMMAND: &str = "random";

/// A clock with a base time, an increment per move and optionally a number of moves per
/// period after which the base time is added again (`tc=10+0.1`, `tc=40/60`, `tc=40/60+0.5`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Clock {
    /// Moves per period: after this many of its own moves a player gets `base` again.
    pub moves: Option<u32>,
    /// Time on the clock at the start of the game (and of every period).
    #[serde(rename = "base_ms", with = "super::millis")]
    pub base: Duration,
    /// Time added after each move.
    #[serde(rename = "increment_ms", with = "super::millis")]
    pub increment: Duration,
}

impl Clock {
    /// Moves left in the current period after `played` own moves, for `go movestogo`.
    pub fn moves_to_go(&self, played: u32) -> Option<u32> {
        self.moves.map(|m| m - played % m)
    }

    /// Whether the base time is added again after a player's `played`-th own move.
    pub fn period_ends(&self, played: u32) -> bool {
        self.moves.is_some_and(|m| played > 0 && played % m == 0)
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", seconds(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", seconds(self.increment))?;
        }
        Ok(())
    }
}

/// A duration written in seconds without needless digits: `10`, `0.1`, `2.5`.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// How long an engine may think, and how long the arena waits for it.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct SearchLimits {
    /// A game clock with increment.
    pub clock: Option<Clock>,
    /// A fixed time per move.
    #[serde(rename = "movetime_ms", with = "super::millis::option")]
    pub movetime: Option<Duration>,
    /// A depth limit in plies.
    pub depth: Option<u32>,
    /// A node limit.
    pub nodes: Option<u64>,
    /// Grace period before an overrun clock or move time counts as a time loss.
    #[serde(rename = "time_margin_ms", with = "super::millis")]
    pub time_margin: Duration,
    /// Wait for answers no clock bounds: start-up, pings, depth- or node-limited moves.
    #[serde(rename = "timeout_ms", with = "super::millis")]
    pub timeout: Duration,
}

impl SearchLimits {
    /// All limits in the words of `--engine`: `tc=10+0.1`, `movetime=100 depth=3`, or `-`.
    pub fn describe(&self) -> String {
        match (self.clock, self.describe_non_clock().as_str()) {
            (None, other) => other.to_string(),
            (Some(clock), "-") => format!("tc={clock}"),
            (Some(clock), other) => format!("tc={clock} {other}"),
        }
    }

    /// The limits other than the clock, which PGN's `TimeControl` cannot express:
    /// `movetime=100`, `depth=3 nodes=1000`, or `-`.
    pub fn describe_non_clock(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ms) = self.movetime {
            parts.push(format!("movetime={}", ms.as_millis()));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(" ")
        }
    }

    /// Whether a time limit (clock or move time) bounds every move.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}

/// What runs an engine: an external program, or the built-in random player; saved with
/// `"kind": "process"` or `"kind": "random"`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Launcher {
    /// A program speaking the protocol on stdin/stdout.
    Process {
        /// The program.
        cmd: PathBuf,
        /// Its arguments.
        args: Vec<String>,
        /// Its working directory.
        dir: Option<PathBuf>,
    },
    /// The built-in player choosing uniformly among the legal moves; no process.
    Random,
}

/// One engine of the tournament.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EngineSpec {
    /// The name shown in tables and game records; unique in a tournament.
    pub name: String,
    /// How to run it.
    pub command: Launcher,
    /// `setoption` values sent after the start-up handshake, in order.
    pub options: Vec<(String, String)>,
    /// Its search limits.
    pub limits: SearchLimits,
}

impl EngineSpec {
    /// How to start the engine's program, `None` for the built-in random player.
    pub fn setup(&self) -> Option<EngineSetup> {
        let Launcher::Process { cmd, args, dir } = &self.command else {
            return None;
        };
        Some(EngineSetup {
            launch: Launch {
                name: self.name.clone(),
                cmd: cmd.clone(),
                args: args.clone(),
                dir: dir.clone(),
            },
            options: self.options.clone(),
            timeout: self.limits.timeout,
        })
    }
}

/// The `key=value` words of one engine before defaults are applied.
#[derive(Clone, Debug, Default)]
struct Words {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    dir: Option<String>,
    options: Vec<(String, String)>,
    clock: Option<Clock>,
    movetime: Option<Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time_margin: Option<Duration>,
    timeout: Option<Duration>,
}

impl Words {
    /// Reads the words of `--engine` (or of `--each` when `shared`).
    fn parse(words: &[String], flag: &str, shared: bool) -> Result<Words, String> {
        let mut out = Words::default();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!(
                    "{flag} {word}: expected KEY=VALUE with a key among {ENGINE_KEYS}"
                ));
            };
            let bad = |what: &str| format!("{flag} {key}={value}: expected {what}");
            match key {
                "name" if shared => {
                    return Err(format!(
                        "--each name={value}: every engine needs its own name; expected name= inside --engine"
                    ));
                }
                "name" if value.trim().is_empty() => return Err(bad("a non-empty name")),
                "name" => out.name = Some(value.to_string()),
                "cmd" if value.is_empty() => {
                    return Err(bad("a program path, or `random` for the built-in player"));
                }
                "cmd" => out.cmd = Some(value.to_string()),
                "arg" => out.args.push(value.to_string()),
                "dir" if value.is_empty() => return Err(bad("a directory")),
                "dir" => out.dir = Some(value.to_string()),
                "movetime" => {
                    out.movetime = Some(parse_millis(value).ok_or_else(|| {
                        bad("a positive number of milliseconds, such as movetime=100")
                    })?)
                }
                "depth" => {
                    out.depth = Some(
                        parse_positive(value)
                            .ok_or_else(|| bad("a positive depth in plies, such as depth=4"))?,
                    )
                }
                "nodes" => {
                    out.nodes = Some(
                        parse_positive(value)
                            .ok_or_else(|| bad("a positive node count, such as nodes=10000"))?,
                    )
                }
                "tc" => {
                    out.clock = Some(parse_clock(value).ok_or_else(|| {
                        bad(
                            "seconds with an optional increment in seconds, such as tc=10+0.1, \
                             optionally after moves per period, such as tc=40/60 or tc=40/60+0.5",
                        )
                    })?)
                }
                "st" => {
                    // cutechess-cli's fixed time per move, in seconds.
                    out.movetime = Some(
                        parse_seconds(value)
                            .filter(|d| !d.is_zero())
                            .ok_or_else(|| bad("a positive number of seconds, such as st=0.1"))?,
                    )
                }
                "proto" if ["ugi", "uci"].contains(&value) => {
                    // cutechess-cli and fastchess name the protocol; the arena speaks one.
                }
                "proto" => {
                    return Err(bad(
                        "proto=uci or proto=ugi (the arena speaks the slimetrail protocol, which is UCI-like)",
                    ));
                }
                "timemargin" => {
                    out.time_margin = Some(
                        parse_millis_or_zero(value)
                            .ok_or_else(|| bad("milliseconds, such as timemargin=50"))?,
                    )
                }
                "timeout" => {
                    out.timeout = Some(parse_millis(value).ok_or_else(|| {
                        bad("a positive number of milliseconds, such as timeout=5000")
                    })?)
                }
                _ => {
                    if let Some(option) = key.strip_prefix("option.") {
                        if option.is_empty() {
                            return Err(bad(
                                "an option name after `option.`, such as option.Hash=64",
                            ));
                        }
                        out.options.retain(|(name, _)| name != option);
                        out.options.push((option.to_string(), value.to_string()));
                    } else {
                        return Err(format!(
                            "{flag} {word}: unknown key `{key}`; expected one of {ENGINE_KEYS}"
                        ));
                    }
                }
            }
        }
        if out.clock.is_some() && out.movetime.is_some() {
            return Err(format!(
                "{flag}: both tc= and movetime= are set; expected at most one of them"
            ));
        }
        Ok(out)
    }

    /// These words with `shared` filling in what they leave unset.
    fn over(self, shared: &Words) -> Words {
        let mut options = shared.options.clone();
        for (name, value) in self.options {
            options.retain(|(n, _)| *n != name);
            options.push((name, value));
        }
        let mut args = shared.args.clone();
        args.extend(self.args);
        // A per-engine time limit replaces the shared one of the other kind.
        let own_time = self.clock.is_some() || self.movetime.is_some();
        Words {
            name: self.name,
            cmd: self.cmd.or_else(|| shared.cmd.clone()),
            args,
            dir: self.dir.or_else(|| shared.dir.clone()),
            options,
            clock: if own_time { self.clock } else { shared.clock },
            movetime: if own_time {
                self.movetime
            } else {
                shared.movetime
            },
            depth: self.depth.or(shared.depth),
            nodes: self.nodes.or(shared.nodes),
            time_margin: self.time_margin.or(shared.time_margin),
            timeout: self.timeout.or(shared.timeout),
        }
    }
}

/// Builds the engine specifications from the words of every `--engine` and of `--each`.
pub fn parse_engines(engines: &[Vec<String>], each: &[String]) -> Result<Vec<EngineSpec>, String> {
    let shared = Words::parse(each, "--each", true)?;
    let mut specs: Vec<EngineSpec> = Vec::new();
    for (i, words) in engines.iter().enumerate() {
        let flag = format!("--engine #{}", i + 1);
        let own = Words::parse(words, &flag, false)?;
        let words = own.over(&shared);
        let Some(cmd) = words.cmd else {
            return Err(format!(
                "{flag}: missing cmd=; expected cmd=PATH of an engine program, or cmd=random"
            ));
        };
        let command = if cmd == RANDOM_COMMAND {
            Launcher::Random
        } else {
            let path = PathBuf::from(&cmd);
            if cmd.contains('/') && words.dir.is_none() && !path.exists() {
                return Err(format!(
                    "{flag} cmd={cmd}: no such file; expected the path of an engine program"
                ));
            }
            Launcher::Process {
                cmd: path,
                args: words.args,
                dir: words.dir.map(PathBuf::from),
            }
        };
        let name = words.name.unwrap_or_else(|| default_name(&command));
        if specs.iter().any(|s| s.name == name) {
            return Err(format!(
                "{flag}: the name `{name}` is already taken; expected a unique name= for every engine"
            ));
        }
        specs.push(EngineSpec {
            name,
            command,
            options: words.options,
            limits: SearchLimits {
                clock: words.clock,
                movetime: words.movetime,
                depth: words.depth,
                nodes: words.nodes,
                time_margin: words
                    .time_margin
                    .unwrap_or(Duration::from_millis(DEFAULT_TIME_MARGIN_MS)),
                timeout: words
                    .timeout
                    .unwrap_or(Duration::from_millis(DEFAULT_TIMEOUT_MS)),
            },
        });
    }
    Ok(specs)
}

/// A name from the program's file name, or `random`.
fn default_name(command: &Launcher) -> String {
    match command {
        Launcher::Random => RANDOM_COMMAND.to_string(),
        Launcher::Process { cmd, .. } => cmd
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| cmd.display().to_string()),
    }
}

/// A positive whole number.
fn parse_positive<T: std::str::FromStr + PartialOrd + Default>(text: &str) -> Option<T> {
    text.parse::<T>().ok().filter(|n| *n > T::default())
}

/// A positive number of milliseconds.
fn parse_millis(text: &str) -> Option<Duration> {
    parse_positive::<u64>(text).map(Duration::from_millis)
}

/// A number of milliseconds, zero allowed.
fn parse_millis_or_zero(text: &str) -> Option<Duration> {
    text.parse::<u64>().ok().map(Duration::from_millis)
}

/// A non-negative number of seconds with at most millisecond precision.
fn parse_seconds(text: &str) -> Option<Duration> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value < 1e9)
        .then(|| Duration::from_millis((value * 1000.0).round() as u64))
}

/// Reads `S`, `S+INC`, `M/S` or `M/S+INC`: seconds, increment in seconds, moves per period;
/// the base time and the moves per period must be positive.
pub fn parse_clock(text: &str) -> Option<Clock> {
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => (Some(parse_positive::<u32>(moves)?), rest),
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((base, inc)) => (parse_seconds(base)?, parse_seconds(inc)?),
        None => (parse_seconds(rest)?, Duration::ZERO),
    };
    (!base.is_zero()).then_some(Clock {
        moves,
        base,
        increment,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn clocks_parse_with_and_without_increment() {
        let c = parse_clock("10+0.1").unwrap();
        assert_eq!(c.base, Duration::from_secs(10));
        assert_eq!(c.increment, Duration::from_millis(100));
        assert_eq!(c.to_string(), "10+0.1");
        assert_eq!(parse_clock("2.5").unwrap().to_string(), "2.5");
        let c = parse_clock("40/60+0.5").unwrap();
        assert_eq!(c.moves, Some(40));
        assert_eq!(c.base, Duration::from_secs(60));
        assert_eq!(c.to_string(), "40/60+0.5");
        assert_eq!(parse_clock("40/60").unwrap().to_string(), "40/60");
        assert_eq!(c.moves_to_go(0), Some(40));
        assert_eq!(c.moves_to_go(39), Some(1));
        assert_eq!(c.moves_to_go(40), Some(40));
        assert!(c.period_ends(40) && !c.period_ends(39) && !c.period_ends(0));
        for bad in [
            "", "+1", "abc", "10+", "0+1", "-1+0", "1e3", "10+x", "NaN", "0/60", "40/", "/60",
            "x/60", "40/0",
        ] {
            assert!(parse_clock(bad).is_none(), "{bad} should be rejected");
        }
    }

    #[test]
    fn each_fills_in_and_engines_override() {
        let specs = parse_engines(
            &[
                words("name=a cmd=random depth=3 option.Hash=8"),
                words("name=b cmd=random movetime=20"),
            ],
            &words("tc=1+0.01 option.Hash=16 option.Level=3 timemargin=0"),
        )
        .unwrap();
        assert_eq!(specs[0].limits.depth, Some(3));
        assert_eq!(specs[0].limits.clock.unwrap().to_string(), "1+0.01");
        assert_eq!(specs[0].limits.time_margin, Duration::ZERO);
        assert_eq!(
            specs[0].options,
            vec![
                ("Level".to_string(), "3".to_string()),
                ("Hash".to_string(), "8".to_string())
            ]
        );
        // b's own movetime replaces the shared clock.
        assert_eq!(specs[1].limits.clock, None);
        assert_eq!(specs[1].limits.movetime, Some(Duration::from_millis(20)));
        assert_eq!(specs[1].limits.describe(), "movetime=20");
        assert_eq!(specs[0].limits.describe(), "tc=1+0.01 depth=3");
        assert_eq!(specs[0].limits.describe_non_clock(), "depth=3");
        assert_eq!(specs[0].command, Launcher::Random);
    }

    #[test]
    fn bad_words_name_the_argument_and_what_was_expected() {
        let err = |engines: &[&str], each: &str| {
            let engines: Vec<Vec<String>> = engines.iter().map(|e| words(e)).collect();
            parse_engines(&engines, &words(each)).unwrap_err()
        };
        let e = err(&["name=a cmd=random speed=3"], "");
        assert!(
            e.contains("unknown key `speed`") && e.contains("expected one of"),
            "{e}"
        );
        let e = err(&["name=a"], "");
        assert!(e.contains("missing cmd=") && e.contains("#1"), "{e}");
        let e = err(&["cmd=random tc=fast"], "");
        assert!(
            e.contains("tc=fast") && e.contains("such as tc=10+0.1"),
            "{e}"
        );
        let e = err(&["cmd=random", "cmd=random"], "");
        assert!(e.contains("already taken"), "{e}");
        let e = err(&["cmd=random"], "name=x");
        assert!(e.contains("--each name=x"), "{e}");
        let e = err(&["cmd=random depth=0"], "");
        assert!(e.contains("depth=0") && e.contains("positive"), "{e}");
        let e = err(&["cmd=/no/such/engine"], "");
        assert!(e.contains("no such file"), "{e}");
        let e = err(&["cmd=random tc=1 movetime=5"], "");
        assert!(e.contains("at most one"), "{e}");
        let e = err(&["cmd=random hash"], "");
        assert!(e.contains("expected KEY=VALUE"), "{e}");
    }

    #[test]
    fn names_default_to_the_program_name() {
        let specs = parse_engines(&[words("cmd=/bin/sh arg=-c arg=x dir=/tmp")], &[]).unwrap();
        assert_eq!(specs[0].name, "sh");
        match &specs[0].command {
            Launcher::Process { args, dir, .. } => {
                assert_eq!(args, &["-c", "x"]);
                assert_eq!(dir.as_deref(), Some(std::path::Path::new("/tmp")));
            }
            other => panic!("expected a process, got {other:?}"),
        }
    }
}
