//! The Slimetrail tournament arena binary.

fn main() -> std::process::ExitCode {
    slimetrail::cli::arena_main()
}
