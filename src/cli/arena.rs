//! The `slimetrail-arena` command line.

use std::process::ExitCode;

use clap::Parser;

/// `slimetrail-arena`: runs engines against each other in tournaments.
#[derive(Parser, Debug)]
#[command(
    name = "slimetrail-arena",
    version,
    about = "Tournaments between Slime Trail engines"
)]
pub struct ArenaCli {}

/// Runs the arena binary.
pub fn arena_main() -> ExitCode {
    super::init_logging();
    let _cli = ArenaCli::parse();
    println!("slimetrail-arena: tournaments are not implemented yet; see --help");
    ExitCode::SUCCESS
}
