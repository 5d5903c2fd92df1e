//! Match statistics, pure math used by the arena and by `slimetrail-arena stats`: Elo with
//! its 95% margin and LOS, normalized Elo, pentanomial counts of game pairs and the
//! generalized SPRT, following the conventions of cutechess, fastchess and fishtest so
//! that figures can be checked against theirs.
//!
//! The tournament runner keeps a [`Tally`] per pairing, adds each finished game pair
//! with [`Tally::add_pair`], and asks it for [`Tally::elo`] and
//! [`Tally::normalized_elo_pentanomial`], and an [`Sprt`] for [`Sprt::llr`] and
//! [`Sprt::decision`]. Pentanomial statistics are used whenever pairs were counted,
//! trinomial ones otherwise.
//!
//! - `math`: erf, the normal distribution, Elo/score conversions.
//! - `counts`: outcome counts over evenly spaced scores (games or pairs).
//! - `elo`: logistic Elo, margin, LOS. `normalized`: normalized Elo.
//! - `pentanomial`: game results and pair categories. `tally`: the running counts.
//! - `mle`: maximum-likelihood estimates behind the LLR. `sprt`: the test itself.
//! - `report`: the report of `slimetrail-arena stats`, and pair counts read from text.

mod counts;
mod elo;
mod math;
mod mle;
mod normalized;
mod pentanomial;
mod report;
mod sprt;
mod tally;

pub use elo::{EloEstimate, Interval, two_decimals};
pub use normalized::NormalizedElo;
pub use pentanomial::{GameResult, PENTA_NAMES};
pub use report::{DrawnPairsError, PentaError, games_of_pairs, parse_penta, report, wdl_text};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtModel};
pub use tally::Tally;
