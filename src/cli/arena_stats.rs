//! `slimetrail-arena stats`: match statistics for counts given on the command line.

use std::fmt;

use clap::Args;

use crate::arena::SprtSettings;
use crate::stats::{
    DrawnPairsError, PentaError, Sprt, SprtError, SprtModel, Tally, games_of_pairs, parse_penta,
    report, wdl_text,
};

/// Arguments of `slimetrail-arena stats`.
#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// Games won by the player whose Elo is reported (with --losses; optional with --penta).
    #[arg(
        long,
        value_name = "W",
        value_parser = parse_count,
        allow_negative_numbers = true,
        requires = "losses"
    )]
    pub wins: Option<u64>,
    /// Games lost by that player (with --wins).
    #[arg(
        long,
        value_name = "L",
        value_parser = parse_count,
        allow_negative_numbers = true,
        requires = "wins"
    )]
    pub losses: Option<u64>,
    /// Games drawn (never happens in Slime Trail; kept to check chess reference figures).
    #[arg(
        long,
        value_name = "D",
        default_value_t = 0,
        value_parser = parse_count,
        allow_negative_numbers = true,
    )]
    pub draws: u64,
    /// Game-pair counts from that player's side: both lost, loss+draw, two draws or
    /// win+loss, win+draw, both won.
    /// Slime Trail has no draws, so a DD+WL pair is a win and a loss and pairs alone fix
    /// the games; see --draws-possible.
    #[arg(long, value_name = "LL,LD,DDWL,WD,WW")]
    pub penta: Option<String>,
    /// For counts of a game with draws: --penta's DD+WL pairs may then be two draws, and
    /// pairs alone give no per-game figures.
    #[arg(long)]
    pub draws_possible: bool,
    /// SPRT: Elo difference under H0 (turns the test on; needs --elo1).
    #[arg(
        long,
        value_name = "E0",
        value_parser = parse_number,
        requires = "elo1",
        allow_negative_numbers = true,
    )]
    pub elo0: Option<f64>,
    /// SPRT: Elo difference under H1 (needs --elo0).
    #[arg(
        long,
        value_name = "E1",
        value_parser = parse_number,
        requires = "elo0",
        allow_negative_numbers = true,
    )]
    pub elo1: Option<f64>,
    /// SPRT: type I error rate [default: 0.05].
    #[arg(
        long,
        value_name = "A",
        value_parser = parse_number,
        requires = "elo0",
        allow_negative_numbers = true,
    )]
    pub alpha: Option<f64>,
    /// SPRT: type II error rate [default: 0.05].
    #[arg(
        long,
        value_name = "B",
        value_parser = parse_number,
        requires = "elo0",
        allow_negative_numbers = true,
    )]
    pub beta: Option<f64>,
    /// SPRT: Elo model of the bounds, normalized or logistic [default: normalized].
    #[arg(long, value_name = "MODEL", requires = "elo0")]
    pub model: Option<String>,
}

/// Why the `stats` arguments give no report.
#[derive(Clone, PartialEq, Debug)]
pub enum StatsError {
    /// `--penta` is not five counts.
    Penta(PentaError),
    /// The SPRT flags do not make a test.
    Sprt(SprtError),
    /// Neither game counts nor pair counts.
    NoCounts,
    /// `--penta` counts pairs with a draw, in a game without draws.
    DrawnPairs(DrawnPairsError),
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::Penta(e) => write!(f, "--penta: {e}"),
            StatsError::Sprt(e) => {
                let flags: Vec<String> =
                    e.parameters().iter().map(|p| format!("--{p}")).collect();
                write!(f, "{}: {e}", flags.join("/"))
            }
            StatsError::DrawnPairs(e) => write!(
                f,
                "--penta: {e} (Slime Trail has none; give --draws-possible for another game)"
            ),
            StatsError::NoCounts => f.write_str(
                "expected game counts --wins W --losses L [--draws D], or pair counts --penta LL,LD,DDWL,WD,WW, or both",
            ),
        }
    }
}

impl std::error::Error for StatsError {}

/// Checks the arguments and returns the report to print, or an error naming the argument.
/// Warnings go to stderr as plain sentences.
pub fn run(args: &StatsArgs) -> Result<String, StatsError> {
    let penta = args
        .penta
        .as_deref()
        .map(parse_penta)
        .transpose()
        .map_err(StatsError::Penta)?;
    let sprt = sprt_from_args(args).map_err(StatsError::Sprt)?;
    let (tally, games_known) = match (args.wins.zip(args.losses), penta) {
        (Some((wins, losses)), penta) => {
            let mut tally = Tally::from_wdl(wins, args.draws, losses);
            if let Some(penta) = penta {
                tally.penta = penta;
                if !tally.penta_matches_wdl() {
                    eprintln!(
                        "warning: --penta {} cannot describe the same games as {}; reporting both as given",
                        args.penta.as_deref().unwrap_or_default(),
                        wdl_text(&tally)
                    );
                }
            }
            (tally, true)
        }
        (None, Some(penta)) => {
            games_of_pairs(penta, args.draws_possible).map_err(StatsError::DrawnPairs)?
        }
        (None, None) => return Err(StatsError::NoCounts),
    };
    Ok(report(
        &tally,
        games_known,
        penta.is_some(),
        sprt.as_ref(),
        "give --wins and --losses",
    ))
}

/// A number on the command line that is not one of the kind expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NumberError {
    /// What was given.
    pub text: String,
    /// What was expected, such as `a non-negative whole number`.
    pub expected: &'static str,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found '{}'", self.expected, self.text)
    }
}

impl std::error::Error for NumberError {}

/// Parses a count of games.
fn parse_count(text: &str) -> Result<u64, NumberError> {
    text.trim().parse().map_err(|_| NumberError {
        text: text.to_string(),
        expected: "a non-negative whole number",
    })
}

/// Parses a finite real number (Elo difference or error rate).
fn parse_number(text: &str) -> Result<f64, NumberError> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => Err(NumberError {
            text: text.to_string(),
            expected: "a finite number such as 2.5",
        }),
    }
}

/// The SPRT described by the arguments, if `--elo0`/`--elo1` were given; checked by the
/// same [`SprtSettings::new`] as the arena's `--sprt`.
fn sprt_from_args(args: &StatsArgs) -> Result<Option<Sprt>, SprtError> {
    let (Some(elo0), Some(elo1)) = (args.elo0, args.elo1) else {
        return Ok(None);
    };
    let model = args
        .model
        .as_deref()
        .map(str::parse::<SprtModel>)
        .transpose();
    model
        .and_then(|model| SprtSettings::new(elo0, elo1, args.alpha, args.beta, model))
        .and_then(|settings| settings.build())
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts, or the error as the command line prints it.
    fn penta(text: &str) -> Result<[u64; 5], StatsError> {
        parse_penta(text).map_err(StatsError::Penta)
    }

    #[test]
    fn penta_parsing_names_the_argument_and_the_expected_form() {
        assert_eq!(penta("1, 2,3,4,5"), Ok([1, 2, 3, 4, 5]));
        assert_eq!(
            penta("1,2").map_err(|e| e.to_string()),
            Err(
                "--penta: expected five comma-separated counts LL,LD,DDWL,WD,WW, found '1,2'"
                    .to_string()
            )
        );
        let error = penta("1,2,-3,4,5").unwrap_err().to_string();
        assert!(error.starts_with("--penta: '-3' is not a count"), "{error}");
        assert!(penta("1,2,3,4,5,6").is_err());
        assert!(penta("").is_err());
    }
}
