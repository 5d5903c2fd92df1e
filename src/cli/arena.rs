//! The `slimetrail-arena` command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `slimetrail-arena`: runs engines against each other in tournaments.
#[derive(Parser, Debug)]
#[command(
    name = "slimetrail-arena",
    version,
    about = "Tournaments between Slime Trail engines"
)]
pub struct ArenaCli {
    /// A command other than running a tournament.
    #[command(subcommand)]
    pub command: Option<ArenaCommand>,
}

/// The arena binary's subcommands.
#[derive(Subcommand, Debug)]
pub enum ArenaCommand {
    /// Print Elo, LOS, normalized Elo, pentanomial figures and the SPRT LLR for given counts.
    Stats(super::arena_stats::StatsArgs),
}

/// Runs the arena binary.
pub fn arena_main() -> ExitCode {
    super::init_logging();
    let cli = ArenaCli::parse();
    if let Some(ArenaCommand::Stats(args)) = &cli.command {
        return match super::arena_stats::run(args) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        };
    }
    println!("slimetrail-arena: tournaments are not implemented yet; see --help");
    ExitCode::SUCCESS
}
