//! The `slimetrail-arena` command line: cutechess-style tournament arguments, `merge`,
//! and the hidden `mock-engine` used by the tests. It reads the arguments, asks the
//! arena ([`crate::arena`]) and prints; errors get their flags in `arena_errors`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::arena::{
    self, ArenaError, EVENT, OpeningSpec, OutputFile, RunOptions, Settings, Shard, SprtSettings,
    Standings, Summary, merge, table,
};
use crate::client::{parse_engines, signals};
use crate::record::Comments;

use super::arena_args::{ArenaCli, ArenaCommand, MergeArgs, RunArgs};
use super::arena_errors::ArenaCliError;

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
        Some(ArenaCommand::MockEngine(args)) => return super::arena_mock::run(&args),
        Some(ArenaCommand::Stats(args)) => super::arena_stats::run(&args)
            .map(|report| print!("{report}"))
            .map_err(ArenaCliError::Stats),
        Some(ArenaCommand::Merge(args)) => run_merge(&args),
        None => match run_tournament(&cli.run) {
            Err(ArenaCliError::Arena(e @ ArenaError::Interrupted { .. })) => {
                if let ArenaError::Interrupted {
                    finished: Some(finished),
                    ..
                } = &e
                {
                    print!("{}", finished.table());
                }
                eprintln!("slimetrail-arena: {}", super::arena_errors::arena_error(&e));
                return ExitCode::from(signals::INTERRUPTED_EXIT_CODE);
            }
            other => other,
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

/// `merge`: prints the combined table and writes the combined summary.
fn run_merge(args: &MergeArgs) -> Result<(), ArenaCliError> {
    let (settings, games) = merge(&args.files).map_err(ArenaError::from)?;
    let scheduled = settings.schedule().len();
    let summary = Summary::new(EVENT, &settings, scheduled, &games).map_err(ArenaError::from)?;
    let sprt = settings.sprt().map_err(ArenaError::from)?;
    let mut standings =
        Standings::new(settings.engines.iter().map(|e| e.name.clone()).collect()).with_sprt(sprt);
    for g in &games {
        standings.add(g);
    }
    print!("{}", table(&standings, scheduled, sprt.as_ref()));
    if let Some(path) = &args.json {
        summary.save(path).map_err(|error| ArenaError::File {
            file: OutputFile::Json,
            error,
        })?;
    }
    Ok(())
}

/// The engine words and shared words of the default match: the engine next to this program.
fn default_match(each: &[String]) -> Result<(Vec<Vec<String>>, Vec<String>), ArenaCliError> {
    let exe = std::env::current_exe().map_err(ArenaCliError::NoProgram)?;
    let engine = exe.with_file_name(format!("slimetrail{}", std::env::consts::EXE_SUFFIX));
    if !engine.exists() {
        return Err(ArenaCliError::NoEngine(engine));
    }
    Ok(arena::default_match(&engine, each))
}

/// The PGN file and whether its records carry comments, from `--pgn FILE [min]`.
fn pgn_args(words: Option<&[String]>) -> Result<(Option<PathBuf>, Comments), ArenaCliError> {
    match words {
        None => Ok((None, Comments::Full)),
        Some([file]) => Ok((Some(PathBuf::from(file)), Comments::Full)),
        Some([file, min]) if min == "min" => Ok((Some(PathBuf::from(file)), Comments::Minimal)),
        Some(other) => Err(ArenaCliError::PgnWords(other.to_vec())),
    }
}

/// A tournament from the command line.
fn run_tournament(args: &RunArgs) -> Result<(), ArenaCliError> {
    let is_default = args.engines.is_empty();
    let (engine_words, each) = if is_default {
        default_match(&args.each)?
    } else {
        (args.engines.clone(), args.each.clone())
    };
    let engines = parse_engines(&engine_words, &each).map_err(ArenaCliError::Engines)?;
    if engines.len() < 2 {
        return Err(ArenaCliError::TooFewEngines(engines.len()));
    }
    let openings = if args.openings.is_empty() {
        OpeningSpec::Random {
            plies: arena::DEFAULT_OPENING_PLIES,
        }
    } else {
        OpeningSpec::parse(&args.openings).map_err(ArenaError::from)?
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(SprtSettings::parse)
        .transpose()
        .map_err(ArenaError::from)?;
    let given_rounds = match args.games {
        Some(games) => {
            Some(arena::rounds_of_games(args.rounds, games).map_err(ArenaCliError::Games)?)
        }
        None => args.rounds,
    };
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let settings = Settings {
        engines,
        format: args.format,
        rounds: arena::rounds(given_rounds, sprt.is_some(), is_default),
        openings,
        seed: args.seed,
        size: args.size,
        start: args.start,
        shard,
        sprt,
    };
    settings.book().map_err(ArenaError::from)?;
    let concurrency = match args.concurrency {
        Some(n) => n as usize,
        None if is_default => arena::DEFAULT_MATCH_CONCURRENCY,
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
        state: args
            .state
            .clone()
            .unwrap_or_else(|| arena::default_state_path(shard)),
        resume: args.resume,
        force: args.force,
        progress: !args.quiet,
    };
    signals::install(signals::InterruptNotices {
        again: "slimetrail-arena: interrupted again; exiting now (continue with --resume)"
            .to_string(),
        too_slow: "slimetrail-arena: interrupted; saving took too long, exiting now (finished \
                   games are in the state file; continue with --resume)"
            .to_string(),
    });
    let finished = arena::run(&settings, &options)?;
    print!("{}", finished.table());
    Ok(())
}
