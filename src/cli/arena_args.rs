//! The arguments of `slimetrail-arena`: cutechess-style tournament flags, `stats`,
//! `merge`, and the hidden `mock-engine`.

use std::path::PathBuf;

use clap::{ArgAction, Args, Parser, Subcommand};

use crate::arena::{EVENT, Format, Shard};
use crate::board::{Size, SquareName};

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
    MockEngine(super::arena_mock::MockArgs),
}

/// The tournament arguments.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// An engine: name=A cmd=PATH|random [arg=X]... [dir=D] [option.NAME=V]... and a limit,
    /// movetime=MS, st=SECONDS (cutechess's move time), depth=N, nodes=N, tc=S+INC
    /// (seconds) or tc=MOVES/S[+INC] (S seconds for every MOVES moves); [timemargin=MS]
    /// (grace before a time loss, default 50) [timeout=MS] (wait for replies without a
    /// clock, default 10000); proto=uci|ugi is accepted and changes nothing. Repeat for
    /// each engine.
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
    /// Rounds: one game pair (colours swapped, same opening) per pairing each [default: 20
    /// in the default match (no --engine), 50000 with --sprt, else 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,
    /// Games per pairing in each of --rounds, as cutechess-cli's -games counts them: the
    /// arena plays rounds × games / 2 colour-swapped pairs per pairing (the total must be even).
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Games played at once [default: 2 in the default match (no --engine), else 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: Option<u64>,
    /// random:K (K random plies, never ending the game or stepping next to a goal) or
    /// file=PATH [format=pgn] [order=sequential|random] [plies=N] [start=N], as in
    /// cutechess-cli: a position string or move list per line, or with format=pgn PGN
    /// records whose moves are squares (the arena's own); plies=N cuts each opening to N
    /// plies, start=N begins with the N-th [default: random:2].
    #[arg(long, value_name = "SPEC", num_args = 1..)]
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
    /// Start over even if the state file holds an unfinished tournament (a finished one
    /// is kept as NAME.finished-N.EXT and the new run starts without it).
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
