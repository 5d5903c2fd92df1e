//! `slimetrail-arena stats`: match statistics for counts given on the command line.

use std::fmt::Write as _;

use clap::Args;

use crate::arena::SprtSettings;
use crate::stats::{EloEstimate, NormalizedElo, PENTA_NAMES, Sprt, SprtModel, Tally, two_decimals};

/// Width of the label column of the report.
const LABEL_WIDTH: usize = 20;

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
    #[arg(long, value_name = "LL,LD,DDWL,WD,WW")]
    pub penta: Option<String>,
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

/// Checks the arguments and returns the report to print, or an error naming the argument.
/// Warnings go to stderr as plain sentences.
pub fn run(args: &StatsArgs) -> Result<String, String> {
    let penta = args.penta.as_deref().map(parse_penta).transpose()?;
    let sprt = sprt_from_args(args)?;
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
        (None, Some(penta)) => games_of_pairs(penta),
        (None, None) => {
            return Err(
                "expected game counts --wins W --losses L [--draws D], or pair counts --penta LL,LD,DDWL,WD,WW, or both"
                    .to_string(),
            );
        }
    };
    Ok(report(&tally, games_known, penta.is_some(), sprt.as_ref()))
}

/// The games of pair counts given alone, and whether they are known: pairs fix their games
/// unless some are in the middle category, which may hold two draws or a win and a loss.
fn games_of_pairs(penta: [u64; 5]) -> (Tally, bool) {
    let [ll, ld, middle, wd, ww] = penta;
    let mut tally = Tally::from_wdl(2 * ww + wd, ld + wd, 2 * ll + ld);
    tally.penta = penta;
    (tally, middle == 0)
}

/// `3 wins, 1 draw, 1 loss`, singular where the count is 1.
fn wdl_text(tally: &Tally) -> String {
    format!(
        "{}, {}, {}",
        counted(tally.wins, "win", "wins"),
        counted(tally.draws, "draw", "draws"),
        counted(tally.losses, "loss", "losses")
    )
}

/// `1 win`, `2 wins`.
fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Parses a count of games.
fn parse_count(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected a non-negative whole number, found '{text}'"))
}

/// Parses a finite real number (Elo difference or error rate).
fn parse_number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => Err(format!(
            "expected a finite number such as 2.5, found '{text}'"
        )),
    }
}

/// Parses `LL,LD,DDWL,WD,WW`.
fn parse_penta(text: &str) -> Result<[u64; 5], String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let [ll, ld, middle, wd, ww] = fields[..] else {
        return Err(format!(
            "--penta: expected five comma-separated counts LL,LD,DDWL,WD,WW, found '{text}'"
        ));
    };
    let mut counts = [0u64; 5];
    for (count, field) in counts.iter_mut().zip([ll, ld, middle, wd, ww]) {
        *count = field.parse().map_err(|_| {
            format!(
                "--penta: '{field}' is not a count: expected five comma-separated non-negative \
                 integers LL,LD,DDWL,WD,WW, found '{text}'"
            )
        })?;
    }
    Ok(counts)
}

/// The SPRT described by the arguments, if `--elo0`/`--elo1` were given; checked by the
/// same [`SprtSettings::new`] as the arena's `--sprt`.
fn sprt_from_args(args: &StatsArgs) -> Result<Option<Sprt>, String> {
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
        .map_err(|e| {
            let flags: Vec<String> = e.parameters().iter().map(|p| format!("--{p}")).collect();
            format!("{}: {e}", flags.join("/"))
        })
}

/// The report: games, score, Elo, LOS and normalized Elo (when the games are known); the
/// same over pairs when `with_pairs`; LLRs, bounds and the decision when an SPRT is given.
pub fn report(tally: &Tally, games_known: bool, with_pairs: bool, sprt: Option<&Sprt>) -> String {
    let mut out = String::new();
    let mut line = |label: &str, value: String| {
        let _ = writeln!(out, "{label:<LABEL_WIDTH$}{value}");
    };
    if games_known {
        line("games", format!("{}: {}", tally.games(), wdl_text(tally)));
        line("score", percent(tally.score()));
        elo_lines(&mut line, "", tally.elo_trinomial(), "games");
        line(
            "normalized elo",
            normalized(tally.normalized_elo_trinomial(), tally.games()),
        );
    } else {
        const UNSPLIT: &str = "n/a (the DD+WL pairs may be two draws or a win and a loss each; \
                               give --wins and --losses for per-game figures)";
        line(
            "games",
            format!(
                "{} in {} pairs; wins and losses cannot be split from pair counts",
                2 * tally.pairs(),
                tally.pairs()
            ),
        );
        for label in ["elo", "los", "normalized elo"] {
            line(label, UNSPLIT.to_string());
        }
    }
    if with_pairs {
        let pairs = tally.pentanomial();
        let counts: Vec<String> = PENTA_NAMES
            .iter()
            .zip(tally.penta)
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        line("pairs", format!("{}: {}", tally.pairs(), counts.join(", ")));
        line("pair score", percent(pairs.moments().map(|m| m.mean)));
        elo_lines(&mut line, "pair ", tally.elo_pentanomial(), "pairs");
        line(
            "pair normalized elo",
            normalized(tally.normalized_elo_pentanomial(), tally.pairs()),
        );
    }
    if let Some(sprt) = sprt {
        line("sprt", sprt.to_string());
        if games_known {
            line("llr", two_decimals(sprt.llr_trinomial(tally)));
        }
        if with_pairs {
            line("pair llr", two_decimals(sprt.llr_pentanomial(tally)));
        }
        let (lower, upper) = sprt.bounds();
        line(
            "llr bounds",
            format!("[{}, {}]", two_decimals(lower), two_decimals(upper)),
        );
        let basis = if with_pairs && tally.pairs() > 0 {
            "pairs"
        } else {
            "games"
        };
        line(
            "decision",
            format!("{} (from {basis})", sprt.decision(tally)),
        );
    }
    out
}

/// Elo and LOS lines, or `n/a` without samples.
fn elo_lines(
    line: &mut impl FnMut(&str, String),
    prefix: &str,
    estimate: Option<EloEstimate>,
    samples: &str,
) {
    match estimate {
        Some(e) => {
            let note = if e.elo == f64::INFINITY {
                " (every point scored: the 95 % interval has no upper end)".to_string()
            } else if e.elo == f64::NEG_INFINITY {
                " (no point scored: the 95 % interval has no lower end)".to_string()
            } else {
                String::new()
            };
            line(&format!("{prefix}elo"), format!("{e}{note}"));
            line(&format!("{prefix}los"), format!("{:.2} %", e.los_percent()));
        }
        None => {
            line(&format!("{prefix}elo"), format!("n/a (no {samples})"));
            line(&format!("{prefix}los"), format!("n/a (no {samples})"));
        }
    }
}

/// Normalized Elo, or why it is not defined.
fn normalized(estimate: Option<NormalizedElo>, samples: u64) -> String {
    match estimate {
        Some(n) => n.to_string(),
        None if samples == 0 => "n/a (no results)".to_string(),
        None => "n/a (all results equal)".to_string(),
    }
}

/// A fraction as a percentage, or `n/a`.
fn percent(fraction: Option<f64>) -> String {
    match fraction {
        Some(f) => format!("{:.2} %", f * 100.0),
        None => "n/a".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penta_parsing_names_the_argument_and_the_expected_form() {
        assert_eq!(parse_penta("1, 2,3,4,5"), Ok([1, 2, 3, 4, 5]));
        assert_eq!(
            parse_penta("1,2"),
            Err(
                "--penta: expected five comma-separated counts LL,LD,DDWL,WD,WW, found '1,2'"
                    .to_string()
            )
        );
        let error = parse_penta("1,2,-3,4,5").unwrap_err();
        assert!(error.starts_with("--penta: '-3' is not a count"), "{error}");
        assert!(parse_penta("1,2,3,4,5,6").is_err());
        assert!(parse_penta("").is_err());
    }
}
