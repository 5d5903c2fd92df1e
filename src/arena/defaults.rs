//! What a tournament is when its arguments leave something out: the default match, the
//! rounds, the state file's name, and cutechess-cli's games per round turned into the
//! arena's colour-swapped pairs.

use std::fmt;
use std::path::{Path, PathBuf};

use super::schedule::Shard;

/// Rounds of the default match (two games each).
pub const DEFAULT_MATCH_ROUNDS: usize = 20;
/// Games at once in the default match.
pub const DEFAULT_MATCH_CONCURRENCY: usize = 2;
/// Rounds of an SPRT when none are given: the SPRT normally stops long before.
pub const SPRT_MAX_ROUNDS: usize = 50_000;
/// Plies of random openings when no openings are given.
pub const DEFAULT_OPENING_PLIES: usize = 2;
/// The move time of the default match, unless the shared words set a limit.
const DEFAULT_MATCH_MOVETIME: &str = "movetime=20";

/// The engine words and the shared words of the default match: `engine` at full
/// strength against itself at level 5, each under `each`, which gets a move time of
/// 20 ms unless it sets a limit of its own.
pub fn default_match(engine: &Path, each: &[String]) -> (Vec<Vec<String>>, Vec<String>) {
    let cmd = format!("cmd={}", engine.display());
    let engines = vec![
        vec![
            "name=slimetrail".to_string(),
            cmd.clone(),
            "option.Level=10".to_string(),
        ],
        vec![
            "name=slimetrail-level5".to_string(),
            cmd,
            "option.Level=5".to_string(),
        ],
    ];
    let limit_keys = ["tc=", "movetime=", "depth=", "nodes="];
    let mut shared = Vec::new();
    if !each
        .iter()
        .any(|w| limit_keys.iter().any(|k| w.starts_with(k)))
    {
        shared.push(DEFAULT_MATCH_MOVETIME.to_string());
    }
    shared.extend(each.iter().cloned());
    (engines, shared)
}

/// The rounds to play: those given, else [`SPRT_MAX_ROUNDS`] under an SPRT, else
/// [`DEFAULT_MATCH_ROUNDS`] for the default match, else one.
pub fn rounds(given: Option<u64>, sprt: bool, default_match: bool) -> usize {
    match (given, sprt, default_match) {
        (Some(n), _, _) => n as usize,
        (None, true, _) => SPRT_MAX_ROUNDS,
        (None, false, true) => DEFAULT_MATCH_ROUNDS,
        (None, false, false) => 1,
    }
}

/// The state file of a run that names none: `slimetrail-arena-state.jsonl`, or
/// `slimetrail-arena-state-K-of-N.jsonl` for a shard, so that shards run side by side.
pub fn default_state_path(shard: Shard) -> PathBuf {
    PathBuf::from(if shard == Shard::WHOLE {
        "slimetrail-arena-state.jsonl".to_string()
    } else {
        format!(
            "slimetrail-arena-state-{}-of-{}.jsonl",
            shard.index, shard.count
        )
    })
}

/// An odd number of games per pairing, which colour-swapped pairs cannot make.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OddGames {
    /// The games per round given.
    pub games: u64,
    /// The games per pairing they make.
    pub total: u64,
}

impl fmt::Display for OddGames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games per pairing cannot be played as colour-swapped pairs; expected an even number of rounds × games",
            self.total
        )
    }
}

impl std::error::Error for OddGames {}

/// Arena rounds for cutechess's `rounds` and `games`: rounds × games games per
/// pairing, played as colour-swapped pairs; an odd total cannot be played that way.
pub fn rounds_of_games(rounds: Option<u64>, games: u64) -> Result<u64, OddGames> {
    let total = rounds.unwrap_or(1) * games;
    if total % 2 == 1 {
        return Err(OddGames { games, total });
    }
    Ok(total / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_match_plays_full_strength_against_level_5_at_20_ms() {
        let (engines, shared) = default_match(Path::new("/bin/slimetrail"), &[]);
        assert_eq!(
            engines[1],
            [
                "name=slimetrail-level5",
                "cmd=/bin/slimetrail",
                "option.Level=5"
            ]
        );
        assert_eq!(shared, ["movetime=20"]);
        let each = ["tc=1+0.01".to_string(), "timemargin=5".to_string()];
        let (_, shared) = default_match(Path::new("/bin/slimetrail"), &each);
        assert_eq!(shared, each);
    }

    #[test]
    fn rounds_and_state_files_follow_what_is_given() {
        assert_eq!(rounds(Some(3), true, true), 3);
        assert_eq!(rounds(None, true, false), SPRT_MAX_ROUNDS);
        assert_eq!(rounds(None, false, true), DEFAULT_MATCH_ROUNDS);
        assert_eq!(rounds(None, false, false), 1);
        assert_eq!(
            default_state_path(Shard { index: 2, count: 8 }),
            PathBuf::from("slimetrail-arena-state-2-of-8.jsonl")
        );
        assert_eq!(
            default_state_path(Shard::WHOLE),
            PathBuf::from("slimetrail-arena-state.jsonl")
        );
    }

    #[test]
    fn games_per_round_make_whole_pairs() {
        assert_eq!(rounds_of_games(Some(10), 2), Ok(10));
        assert_eq!(rounds_of_games(Some(4), 1), Ok(2));
        assert_eq!(rounds_of_games(None, 4), Ok(2));
        let e = rounds_of_games(Some(3), 1).unwrap_err().to_string();
        assert!(
            e.contains("colour-swapped pairs") && e.contains("3 games"),
            "{e}"
        );
    }
}
