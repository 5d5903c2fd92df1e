//! The schedule: which engines meet in which game, in a fixed order.
//!
//! A round is one game pair for every pairing; the two games of a pair start from the
//! same opening with colours swapped. Game and pair numbers are global and never
//! depend on concurrency, shards or resumption, so a schedule can be split and resumed.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::shard::Shard;

/// How engines are paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// A word that is not a tournament format.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a tournament format: expected round-robin or gauntlet",
            self.0
        )
    }
}

impl std::error::Error for FormatError {}

impl FromStr for Format {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Format, FormatError> {
        match text {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(FormatError(text.to_string())),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ScheduledGame {
    /// Global game number, from 0.
    pub number: usize,
    /// Round, from 1.
    pub round: usize,
    /// Global pair number, from 0: picks the opening.
    pub pair: usize,
    /// Engine indices of player 1 and player 2.
    pub engines: [usize; 2],
}

/// The pairings of `engines` engines under `format`, as (first, second) engine indices.
pub fn pairings(engines: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// Every game of the tournament that belongs to `shard`, in playing order.
pub fn schedule(engines: usize, format: Format, rounds: usize, shard: Shard) -> Vec<ScheduledGame> {
    let pairings = pairings(engines, format);
    let mut games = Vec::new();
    for round in 0..rounds {
        for (k, &(a, b)) in pairings.iter().enumerate() {
            let pair = round * pairings.len() + k;
            if !shard.owns(pair) {
                continue;
            }
            for (i, engines) in [[a, b], [b, a]].into_iter().enumerate() {
                games.push(ScheduledGame {
                    number: 2 * pair + i,
                    round: round + 1,
                    pair,
                    engines,
                });
            }
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_everyone_with_colours_swapped() {
        let games = schedule(3, Format::RoundRobin, 2, Shard::WHOLE);
        assert_eq!(games.len(), 2 * 3 * 2);
        assert_eq!(games[0].engines, [0, 1]);
        assert_eq!(games[1].engines, [1, 0]);
        assert_eq!(games[0].pair, games[1].pair);
        assert_eq!(games[6].round, 2);
        let numbers: Vec<usize> = games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn gauntlet_pairs_the_first_engine_with_the_others() {
        let games = schedule(4, Format::Gauntlet, 1, Shard::WHOLE);
        let pairs: Vec<[usize; 2]> = games.iter().map(|g| g.engines).collect();
        assert_eq!(pairs, [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]]);
    }

    #[test]
    fn shards_split_the_schedule_without_overlap_or_gaps() {
        let whole = schedule(4, Format::RoundRobin, 5, Shard::WHOLE);
        let mut union = Vec::new();
        for k in 1..=3 {
            let part = schedule(4, Format::RoundRobin, 5, Shard { index: k, count: 3 });
            assert!(part.len() >= whole.len() / 3 - 2);
            for pair in part.chunks(2) {
                assert_eq!(pair[0].pair, pair[1].pair, "a shard must keep pairs whole");
            }
            union.extend(part);
        }
        union.sort_by_key(|g| g.number);
        assert_eq!(union, whole);
    }

    #[test]
    fn bad_shards_and_formats_say_what_was_expected() {
        assert_eq!(
            "2/8".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 8 }
        );
        for bad in ["0/3", "4/3", "1/0", "x", "1-3", "/3"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains("expected K/N"), "{bad}: {e}");
        }
        assert!(
            "4/3"
                .parse::<Shard>()
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
        assert!(
            "swiss"
                .parse::<Format>()
                .unwrap_err()
                .to_string()
                .contains("round-robin or gauntlet")
        );
    }
}
