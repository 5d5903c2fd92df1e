//! The report of `slimetrail-arena stats`: games, score, Elo, LOS and normalized Elo,
//! the same over game pairs, and the SPRT's LLRs, bounds and decision, one labelled line
//! each; and the pair counts `LL,LD,DDWL,WD,WW` read from text.

use std::fmt::{self, Write as _};

use super::{EloEstimate, Interval, NormalizedElo, PENTA_NAMES, Sprt, Tally, two_decimals};

/// Width of the label column of the report.
const LABEL_WIDTH: usize = 20;

/// Pair counts that are not five counts `LL,LD,DDWL,WD,WW`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PentaError {
    /// Not five fields.
    Fields(String),
    /// A field that is not a count.
    NotACount {
        /// The field.
        field: String,
        /// The whole text.
        text: String,
    },
}

impl fmt::Display for PentaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PentaError::Fields(text) => write!(
                f,
                "expected five comma-separated counts LL,LD,DDWL,WD,WW, found '{text}'"
            ),
            PentaError::NotACount { field, text } => write!(
                f,
                "'{field}' is not a count: expected five comma-separated non-negative \
                 integers LL,LD,DDWL,WD,WW, found '{text}'"
            ),
        }
    }
}

impl std::error::Error for PentaError {}

/// Reads `LL,LD,DDWL,WD,WW`.
pub fn parse_penta(text: &str) -> Result<[u64; 5], PentaError> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let [ll, ld, middle, wd, ww] = fields[..] else {
        return Err(PentaError::Fields(text.to_string()));
    };
    let mut counts = [0u64; 5];
    for (count, field) in counts.iter_mut().zip([ll, ld, middle, wd, ww]) {
        *count = field.parse().map_err(|_| PentaError::NotACount {
            field: field.to_string(),
            text: text.to_string(),
        })?;
    }
    Ok(counts)
}

/// Pairs that hold a draw, counted for a game without draws.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DrawnPairsError {
    /// Loss+draw pairs.
    pub ld: u64,
    /// Win+draw pairs.
    pub wd: u64,
}

impl fmt::Display for DrawnPairsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} LD and {} WD pairs hold a draw, but the game has no draws: expected 0 in \
             both, or counts of a game with draws",
            self.ld, self.wd
        )
    }
}

impl std::error::Error for DrawnPairsError {}

/// The games of pair counts given alone, and whether they are known. In a game without
/// draws (`draws_possible` false) a DD+WL pair is a win and a loss, so pairs fix their
/// games, and LD or WD pairs are an error. With draws, pairs fix their games unless some
/// are in the middle category, which may hold two draws or a win and a loss.
pub fn games_of_pairs(
    penta: [u64; 5],
    draws_possible: bool,
) -> Result<(Tally, bool), DrawnPairsError> {
    let [ll, ld, middle, wd, ww] = penta;
    let tally = if draws_possible {
        Tally::from_wdl(2 * ww + wd, ld + wd, 2 * ll + ld)
    } else if ld > 0 || wd > 0 {
        return Err(DrawnPairsError { ld, wd });
    } else {
        Tally::from_wdl(2 * ww + middle, 0, 2 * ll + middle)
    };
    let mut tally = tally;
    tally.penta = penta;
    Ok((tally, !draws_possible || middle == 0))
}

/// `3 wins, 1 draw, 1 loss`, singular where the count is 1.
pub fn wdl_text(tally: &Tally) -> String {
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

/// The report: games, score, Elo, LOS and normalized Elo (when the games are known); the
/// same over pairs when `with_pairs`; LLRs, bounds and the decision when an SPRT is given.
/// When the games are not known, the per-game lines say `n/a` and how to get them:
/// `per_game_hint`, such as `give the game counts`.
pub fn report(
    tally: &Tally,
    games_known: bool,
    with_pairs: bool,
    sprt: Option<&Sprt>,
    per_game_hint: &str,
) -> String {
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
        let unsplit = format!(
            "n/a (the DD+WL pairs may be two draws or a win and a loss each; {per_game_hint} for \
             per-game figures)"
        );
        line(
            "games",
            format!(
                "{} in {} pairs; wins and losses cannot be split from pair counts",
                2 * tally.pairs(),
                tally.pairs()
            ),
        );
        for label in ["elo", "los", "normalized elo"] {
            line(label, unsplit.clone());
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
            let mut notes = Vec::new();
            if e.elo == f64::INFINITY {
                notes.push("every point scored: the 95 % interval has no upper end");
            } else if e.elo == f64::NEG_INFINITY {
                notes.push("no point scored: the 95 % interval has no lower end");
            }
            if !e.is_telling() {
                notes.push("too few results to tell which side is stronger");
            }
            notes.extend(match e.interval {
                Interval::Normal => None,
                Interval::Wilson => Some(
                    "Wilson score interval: the normal one, cutechess's, reaches past a \
                     score of 0 or 1",
                ),
                Interval::Floor => Some(
                    "Wilson interval with a variance floor: every result was the same, \
                     where the normal interval has no width",
                ),
            });
            let note = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
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
    fn pair_counts_are_read_and_bad_ones_say_why() {
        assert_eq!(parse_penta("1, 2,3,4,5"), Ok([1, 2, 3, 4, 5]));
        assert!(matches!(parse_penta("1,2"), Err(PentaError::Fields(_))));
        assert!(matches!(
            parse_penta("1,2,-3,4,5"),
            Err(PentaError::NotACount { field, .. }) if field == "-3"
        ));
        assert!(parse_penta("1,2,3,4,5,6").is_err());
        assert!(parse_penta("").is_err());
    }

    #[test]
    fn pairs_alone_fix_their_games_unless_some_are_split() {
        let (tally, known) = games_of_pairs([1, 0, 0, 0, 2], true).unwrap();
        assert!(known);
        assert_eq!(wdl_text(&tally), "4 wins, 0 draws, 2 losses");
        let (_, known) = games_of_pairs([0, 0, 1, 0, 0], true).unwrap();
        assert!(!known);
        // Without draws a DD+WL pair is a win and a loss, and a drawn pair is an error.
        let (split, known) = games_of_pairs([0, 0, 1, 0, 0], false).unwrap();
        assert!(known);
        assert_eq!(wdl_text(&split), "1 win, 0 draws, 1 loss");
        assert_eq!(
            games_of_pairs([0, 2, 1, 0, 0], false),
            Err(DrawnPairsError { ld: 2, wd: 0 })
        );
        let text = report(&tally, true, true, None, "give the game counts");
        assert!(text.starts_with("games               6: 4 wins"), "{text}");
        assert!(text.contains("pairs               3: LL 1,"), "{text}");
    }
}
