//! The `slimetrail-arena` command line: cutechess-style tournament arguments, `merge`,
//! and the hidden `mock-engine` used by the tests.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgAction, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::arena::{
    self, ArenaError, EVENT, Format, OpeningSpec, RunOptions, Settings, Shard, SprtSettings,
    Standings, Summary, merge, table,
};
use crate::board::{Size, SquareName};

use super::flags;
use crate::client::mock::{FloodAt, MockBehaviour, run_mock};
use crate::client::parse_engines;
use crate::client::signals;
use crate::record::Comments;

/// Rounds of the default match (two games each).
const DEFAULT_MATCH_ROUNDS: usize = 20;
/// Games at once in the default match.
const DEFAULT_MATCH_CONCURRENCY: usize = 2;
/// Rounds when `--sprt` is given without `--rounds`: the SPRT normally stops long before.
const SPRT_MAX_ROUNDS: usize = 50_000;
/// Plies of random openings when `--openings` is not given.
const DEFAULT_OPENING_PLIES: usize = 2;

/// `slimetrail-arena`: runs engines against each other in tournaments.
#[derive(Parser, Debug)]
#[command(
    name = "slimetrail-arena",
    version,
    about = "Tournaments between Slime Trail engines. Without --engine it plays the default match: \
             the slimetrail engine next to this program at full strength against itself at level 5.",
    args_conflicts_with_subcommands = true
)]
pub struct ArenaCli {
    /// A command instead of a tournament.
    #[command(subcommand)]
    pub command: Option<ArenaCommand>,
    /// The tournament.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The arena's subcommands.
#[derive(Subcommand, Debug)]
pub enum ArenaCommand {
    /// Print Elo, LOS, normalized Elo, pentanomial figures and the SPRT LLR for given counts.
    Stats(super::arena_stats::StatsArgs),
    /// Combine result files (JSON summaries or state files) of shards of one tournament.
    Merge(MergeArgs),
    /// A misbehaving test engine (for the arena's own tests).
    #[command(hide = true)]
    MockEngine(MockArgs),
}

/// The tournament arguments.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// An engine: name=A cmd=PATH|random [arg=X]... [dir=D] [option.NAME=V]...
    /// [movetime=MS|depth=N|nodes=N|tc=S+INC] [timemargin=MS] [timeout=MS]. Repeat for each engine.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    pub engine: Vec<String>,
    /// The words of each `--engine`, grouped (filled in from the matches).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Words shared by every engine, overridden by the engine's own.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,
    /// round-robin (everyone against everyone) or gauntlet (the first engine against the others).
    #[arg(long, value_name = "FORMAT", default_value = "round-robin")]
    pub format: Format,
    /// Rounds: one game pair (colours swapped, same opening) per pairing each [default: 1, 50000 with --sprt].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,
    /// Games per pairing in each of --rounds, as cutechess-cli's -games counts them: the
    /// arena plays rounds × games / 2 colour-swapped pairs per pairing (the total must be even).
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Games played at once [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: Option<u64>,
    /// random:K (K random plies, never ending the game or stepping next to a goal) or
    /// file=PATH [order=sequential|random] (a position string or move list per line) [default: random:2].
    #[arg(long, value_name = "SPEC", num_args = 1..=2)]
    pub openings: Vec<String>,
    /// Seed of random openings, shuffled opening files and random players.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Board size for move-list and random openings.
    #[arg(long, value_name = "WxH", default_value = "7x7")]
    pub size: Size,
    /// Start square for move-list and random openings.
    #[arg(long, value_name = "SQ")]
    pub start: Option<SquareName>,
    /// Game records in PGN; `--pgn FILE min` writes them without the engines' comments.
    #[arg(long, value_name = "FILE [min]", num_args = 1..=2)]
    pub pgn: Option<Vec<String>>,
    /// The event name in the records and the JSON summary.
    #[arg(long, value_name = "NAME", default_value = EVENT)]
    pub event: String,
    /// JSON summary for scripts.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Log of the engines' stderr and of engine starts and stops.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Log of the protocol traffic: every line to and from every engine, with a timestamp
    /// and the engine's name (like cutechess-cli -debug or fastchess -log).
    #[arg(long, value_name = "FILE")]
    pub protocol_log: Option<PathBuf>,
    /// A line on stderr for every finished game: number, players, result, termination, plies.
    #[arg(long)]
    pub show_games: bool,
    /// Sequential probability ratio test: elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic];
    /// the match stops when a bound is crossed. Needs exactly two engines, the candidate first.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,
    /// Continue the interrupted tournament saved in the state file (same arguments otherwise).
    #[arg(long)]
    pub resume: bool,
    /// Start over even if the state file holds finished games of an earlier run.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Play only the K-th of N deterministic shares of the schedule (pairs stay whole).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// State file, written as games finish [default: slimetrail-arena-state.jsonl, or
    /// slimetrail-arena-state-K-of-N.jsonl with --shard].
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// JSON summaries or state files of shards of one tournament.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the combined JSON summary here.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
}

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

/// Runs the arena binary.
pub fn arena_main() -> ExitCode {
    super::init_logging();
    let given: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // cutechess-cli and fastchess spellings; arguments that are not UTF-8 are left as given.
    let args: Vec<std::ffi::OsString> = match given
        .iter()
        .map(|a| a.clone().into_string())
        .collect::<Result<Vec<String>, _>>()
    {
        Ok(text) => {
            let (args, notes) = super::arena_compat::translate(text);
            for note in notes {
                eprintln!("{note}");
            }
            args.into_iter().map(Into::into).collect()
        }
        Err(_) => given,
    };
    let matches = ArenaCli::command().get_matches_from(args);
    let mut cli = match ArenaCli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // Each `--engine` is its own group of words.
    cli.run.engines = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default();
    let result = match cli.command {
        Some(ArenaCommand::MockEngine(args)) => return mock(&args),
        Some(ArenaCommand::Stats(args)) => {
            super::arena_stats::run(&args).map(|report| print!("{report}"))
        }
        Some(ArenaCommand::Merge(args)) => run_merge(&args).map_err(|e| e.to_string()),
        None => match run_tournament(&cli.run) {
            Err(e @ ArenaError::Interrupted { .. }) => {
                if let ArenaError::Interrupted { table, .. } = &e {
                    print!("{table}");
                }
                eprintln!("slimetrail-arena: {e}");
                return ExitCode::from(signals::INTERRUPTED_EXIT_CODE as u8);
            }
            other => other.map_err(|e| e.to_string()),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The mock engine.
fn mock(args: &MockArgs) -> ExitCode {
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
        flood_at_quit: args.flood_at_quit,
    };
    ExitCode::from(run_mock(&behaviour) as u8)
}

/// `merge`: prints the combined table and writes the combined summary.
fn run_merge(args: &MergeArgs) -> Result<(), ArenaError> {
    let (settings, games) = merge(&args.files)?;
    let scheduled = settings.schedule().len();
    let summary = Summary::new(EVENT, &settings, scheduled, &games)?;
    let mut standings = Standings::new(settings.engines.iter().map(|e| e.name.clone()).collect())
        .with_sprt(settings.sprt()?);
    for g in &games {
        standings.add(g);
    }
    print!(
        "{}",
        table(&standings, scheduled, settings.sprt()?.as_ref())
    );
    if let Some(path) = &args.json {
        summary.save(path)?;
    }
    Ok(())
}

/// The engine words and shared words of the default match: the engine next to this program,
/// at full strength against level 5.
fn default_match(each: &[String]) -> Result<(Vec<Vec<String>>, Vec<String>), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate this program ({e})"))?;
    let engine = exe.with_file_name(format!("slimetrail{}", std::env::consts::EXE_SUFFIX));
    if !engine.exists() {
        return Err(format!(
            "the default match needs the engine {}: build it with `cargo build --release`, or give --engine arguments",
            engine.display()
        ));
    }
    let cmd = format!("cmd={}", engine.display());
    let engines = vec![
        vec![
            "name=slimetrail".to_string(),
            cmd.clone(),
            "option.Level=10".to_string(),
        ],
        vec![
            "name=slimetrail-level5".to_string(),
            cmd,
            "option.Level=5".to_string(),
        ],
    ];
    let limit_keys = ["tc=", "movetime=", "depth=", "nodes="];
    let mut shared = Vec::new();
    if !each
        .iter()
        .any(|w| limit_keys.iter().any(|k| w.starts_with(k)))
    {
        shared.push("movetime=20".to_string());
    }
    shared.extend(each.iter().cloned());
    Ok((engines, shared))
}

/// The PGN file and whether its records carry comments, from `--pgn FILE [min]`.
fn pgn_args(words: Option<&[String]>) -> Result<(Option<PathBuf>, Comments), ArenaError> {
    match words {
        None => Ok((None, Comments::Full)),
        Some([file]) => Ok((Some(PathBuf::from(file)), Comments::Full)),
        Some([file, min]) if min == "min" => Ok((Some(PathBuf::from(file)), Comments::Minimal)),
        Some(other) => Err(ArenaError::Described(format!(
            "--pgn {}: expected a file name, optionally followed by `min` for records without comments",
            other.join(" ")
        ))),
    }
}

/// A tournament from the command line.
fn run_tournament(args: &RunArgs) -> Result<(), ArenaError> {
    let is_default = args.engines.is_empty();
    let (engine_words, each) = if is_default {
        default_match(&args.each)?
    } else {
        (args.engines.clone(), args.each.clone())
    };
    let engines = parse_engines(&engine_words, &each)
        .map_err(|e| ArenaError::Described(flags::engine_words(&e, flags::nth_engine)))?;
    if engines.len() < 2 {
        return Err(ArenaError::Described(format!(
            "--engine: only {} engine given; expected at least two --engine arguments (or none for the default match)",
            engines.len()
        )));
    }
    let openings = if args.openings.is_empty() {
        OpeningSpec::Random {
            plies: DEFAULT_OPENING_PLIES,
        }
    } else {
        OpeningSpec::parse(&args.openings)?
    };
    let sprt = args.sprt.as_deref().map(SprtSettings::parse).transpose()?;
    let given_rounds = match args.games {
        Some(games) => Some(
            super::arena_compat::rounds_of_games(args.rounds, games)
                .map_err(ArenaError::Described)?,
        ),
        None => args.rounds,
    };
    let rounds = match (given_rounds, &sprt, is_default) {
        (Some(n), _, _) => n as usize,
        (None, Some(_), _) => SPRT_MAX_ROUNDS,
        (None, None, true) => DEFAULT_MATCH_ROUNDS,
        (None, None, false) => 1,
    };
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let settings = Settings {
        engines,
        format: args.format,
        rounds,
        openings,
        seed: args.seed,
        size: args.size,
        start: args.start,
        shard,
        sprt,
    };
    settings.book()?;
    let state = args.state.clone().unwrap_or_else(|| {
        PathBuf::from(if shard == Shard::WHOLE {
            "slimetrail-arena-state.jsonl".to_string()
        } else {
            format!(
                "slimetrail-arena-state-{}-of-{}.jsonl",
                shard.index, shard.count
            )
        })
    });
    let concurrency = match args.concurrency {
        Some(n) => n as usize,
        None if is_default => DEFAULT_MATCH_CONCURRENCY,
        None => 1,
    };
    let (pgn, pgn_comments) = pgn_args(args.pgn.as_deref())?;
    let options = RunOptions {
        concurrency,
        pgn,
        pgn_comments,
        event: args.event.clone(),
        json: args.json.clone(),
        log: args.log.clone(),
        protocol_log: args.protocol_log.clone(),
        show_games: args.show_games,
        state,
        resume: args.resume,
        force: args.force,
        progress: !args.quiet,
    };
    signals::install();
    let finished = arena::run(&settings, &options)?;
    print!("{}", finished.table);
    Ok(())
}
