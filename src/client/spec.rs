//! Engine specifications from the command line: `name=A cmd=PATH arg=X option.Hash=64 tc=10+0.1 …`.
//!
//! Every engine is a list of `key=value` words; words shared by all engines may be given
//! too, and an engine's own words override them. Errors say whose words were wrong
//! ([`WordsOf`]) and what was wrong ([`SpecProblem`]).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::conversation::EngineSetup;
use super::limits::{
    Clock, DEFAULT_TIME_MARGIN_MS, DEFAULT_TIMEOUT_MS, SearchLimits, parse_clock, parse_positive,
    parse_seconds,
};
use super::process::Launch;

/// The keys an engine specification accepts, for error messages.
pub const ENGINE_KEYS: &str =
    "name, cmd, arg, dir, option.NAME, movetime, st, depth, nodes, tc, timemargin, timeout, proto";

/// The command that selects the built-in random player.
pub const RANDOM_COMMAND: &str = "random";

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

/// Whose words an error is in: the words shared by every engine, or one engine's own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WordsOf {
    /// The words every engine shares.
    Shared,
    /// The words of the engine with this number, from 1.
    Engine(usize),
}

impl fmt::Display for WordsOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WordsOf::Shared => f.write_str("the shared engine words"),
            WordsOf::Engine(n) => write!(f, "engine #{n}"),
        }
    }
}

/// What is wrong with the words of an engine. Its `Display` is written to follow the
/// name of the words (such as `engine #2`), and starts with a space or a colon.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SpecProblem {
    /// A word without `=`.
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A value a key does not take.
    BadValue {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// `name=` among the shared words.
    SharedName {
        /// The name given.
        value: String,
    },
    /// A key that is not one of [`ENGINE_KEYS`].
    UnknownKey {
        /// The word.
        word: String,
        /// Its key.
        key: String,
    },
    /// Both `tc=` and `movetime=`.
    TwoTimeLimits,
    /// No `cmd=`.
    MissingCmd,
    /// A `cmd=` path to no file.
    NoSuchProgram {
        /// The path.
        cmd: String,
    },
    /// A name another engine has.
    NameTaken {
        /// The name.
        name: String,
    },
}

impl fmt::Display for SpecProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecProblem::NotKeyValue { word } => write!(
                f,
                " {word}: expected KEY=VALUE with a key among {ENGINE_KEYS}"
            ),
            SpecProblem::BadValue {
                key,
                value,
                expected,
            } => write!(f, " {key}={value}: expected {expected}"),
            SpecProblem::SharedName { value } => write!(
                f,
                " name={value}: every engine needs its own name; expected name= among the words of one engine"
            ),
            SpecProblem::UnknownKey { word, key } => write!(
                f,
                " {word}: unknown key `{key}`; expected one of {ENGINE_KEYS}"
            ),
            SpecProblem::TwoTimeLimits => {
                f.write_str(": both tc= and movetime= are set; expected at most one of them")
            }
            SpecProblem::MissingCmd => {
                f.write_str(": missing cmd=; expected cmd=PATH of an engine program, or cmd=random")
            }
            SpecProblem::NoSuchProgram { cmd } => write!(
                f,
                " cmd={cmd}: no such file; expected the path of an engine program"
            ),
            SpecProblem::NameTaken { name } => write!(
                f,
                ": the name `{name}` is already taken; expected a unique name= for every engine"
            ),
        }
    }
}

/// Engine words that do not describe an engine: whose words, and what is wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SpecError {
    /// Whose words.
    pub words: WordsOf,
    /// What is wrong with them.
    pub problem: SpecProblem,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.words, self.problem)
    }
}

impl std::error::Error for SpecError {}

impl Words {
    /// Reads the words of one engine (or the shared words when `of` is `Shared`).
    fn parse(words: &[String], of: WordsOf) -> Result<Words, SpecError> {
        let fail = |problem| SpecError { words: of, problem };
        let mut out = Words::default();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(fail(SpecProblem::NotKeyValue { word: word.clone() }));
            };
            let bad = |expected: &'static str| {
                fail(SpecProblem::BadValue {
                    key: key.to_string(),
                    value: value.to_string(),
                    expected,
                })
            };
            match key {
                "name" if of == WordsOf::Shared => {
                    return Err(fail(SpecProblem::SharedName {
                        value: value.to_string(),
                    }));
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
                    // cutechess-cli and fastchess name the protocol; the client speaks one.
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
                        return Err(fail(SpecProblem::UnknownKey {
                            word: word.clone(),
                            key: key.to_string(),
                        }));
                    }
                }
            }
        }
        if out.clock.is_some() && out.movetime.is_some() {
            return Err(fail(SpecProblem::TwoTimeLimits));
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

/// Builds the engine specifications from the words of every engine and the words they
/// share (the engine's own words override the shared ones).
pub fn parse_engines(
    engines: &[Vec<String>],
    each: &[String],
) -> Result<Vec<EngineSpec>, SpecError> {
    let shared = Words::parse(each, WordsOf::Shared)?;
    let mut specs: Vec<EngineSpec> = Vec::new();
    for (i, words) in engines.iter().enumerate() {
        let of = WordsOf::Engine(i + 1);
        let fail = |problem| SpecError { words: of, problem };
        let own = Words::parse(words, of)?;
        let words = own.over(&shared);
        let Some(cmd) = words.cmd else {
            return Err(fail(SpecProblem::MissingCmd));
        };
        let command = if cmd == RANDOM_COMMAND {
            Launcher::Random
        } else {
            let path = PathBuf::from(&cmd);
            if cmd.contains('/') && words.dir.is_none() && !path.exists() {
                return Err(fail(SpecProblem::NoSuchProgram { cmd }));
            }
            Launcher::Process {
                cmd: path,
                args: words.args,
                dir: words.dir.map(PathBuf::from),
            }
        };
        let name = words.name.unwrap_or_else(|| default_name(&command));
        if specs.iter().any(|s| s.name == name) {
            return Err(fail(SpecProblem::NameTaken { name }));
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

/// A positive number of milliseconds.
fn parse_millis(text: &str) -> Option<Duration> {
    parse_positive::<u64>(text).map(Duration::from_millis)
}

/// A number of milliseconds, zero allowed.
fn parse_millis_or_zero(text: &str) -> Option<Duration> {
    text.parse::<u64>().ok().map(Duration::from_millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
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
            parse_engines(&engines, &words(each))
                .unwrap_err()
                .to_string()
        };
        let e = err(&["name=a cmd=random speed=3"], "");
        assert!(
            e.contains("unknown key `speed`") && e.contains("expected one of"),
            "{e}"
        );
        let e = err(&["name=a"], "");
        assert!(e.contains("missing cmd=") && e.contains("#1"), "{e}");
        assert_eq!(
            e,
            "engine #1: missing cmd=; expected cmd=PATH of an engine program, or cmd=random"
        );
        let e = err(&["cmd=random tc=fast"], "");
        assert!(
            e.contains("tc=fast") && e.contains("such as tc=10+0.1"),
            "{e}"
        );
        let e = err(&["cmd=random", "cmd=random"], "");
        assert!(e.contains("already taken"), "{e}");
        let shared = parse_engines(&[words("cmd=random")], &words("name=x")).unwrap_err();
        assert_eq!(shared.words, WordsOf::Shared);
        assert_eq!(
            shared.problem,
            SpecProblem::SharedName {
                value: "x".to_string()
            }
        );
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
