//! The Slimetrail engine binary.

fn main() -> std::process::ExitCode {
    slimetrail::cli::engine_main()
}
