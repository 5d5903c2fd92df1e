//! How long an engine may think and how long its client waits: the clock (`tc=`), the
//! fixed limits (`movetime=`, `depth=`, `nodes=`) and the waits (`timemargin=`,
//! `timeout=`), in the words of `--engine`.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Default grace period added to clocks and move times before a time loss, in milliseconds.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 50;

/// Default wait for answers that no clock bounds (`ugiok`, `readyok`, `bestmove` under
/// depth or node limits), in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// A clock with a base time, an increment per move and optionally a number of moves per
/// period after which the base time is added again (`tc=10+0.1`, `tc=40/60`, `tc=40/60+0.5`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Clock {
    /// Moves per period: after this many of its own moves a player gets `base` again.
    pub moves: Option<u32>,
    /// Time on the clock at the start of the game (and of every period).
    #[serde(rename = "base_ms", with = "super::millis")]
    pub base: Duration,
    /// Time added after each move.
    #[serde(rename = "increment_ms", with = "super::millis")]
    pub increment: Duration,
}

impl Clock {
    /// Moves left in the current period after `played` own moves, for `go movestogo`.
    pub fn moves_to_go(&self, played: u32) -> Option<u32> {
        self.moves.map(|m| m - played % m)
    }

    /// Whether the base time is added again after a player's `played`-th own move.
    pub fn period_ends(&self, played: u32) -> bool {
        self.moves.is_some_and(|m| played > 0 && played % m == 0)
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", seconds(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", seconds(self.increment))?;
        }
        Ok(())
    }
}

/// A duration written in seconds without needless digits: `10`, `0.1`, `2.5`.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// How long an engine may think, and how long the arena waits for it.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct SearchLimits {
    /// A game clock with increment.
    pub clock: Option<Clock>,
    /// A fixed time per move.
    #[serde(rename = "movetime_ms", with = "super::millis::option")]
    pub movetime: Option<Duration>,
    /// A depth limit in plies.
    pub depth: Option<u32>,
    /// A node limit.
    pub nodes: Option<u64>,
    /// Grace period before an overrun clock or move time counts as a time loss.
    #[serde(rename = "time_margin_ms", with = "super::millis")]
    pub time_margin: Duration,
    /// Wait for answers no clock bounds: start-up, pings, depth- or node-limited moves.
    #[serde(rename = "timeout_ms", with = "super::millis")]
    pub timeout: Duration,
}

impl SearchLimits {
    /// All limits in the words of `--engine`: `tc=10+0.1`, `movetime=100 depth=3`, or `-`.
    pub fn describe(&self) -> String {
        match (self.clock, self.describe_non_clock().as_str()) {
            (None, other) => other.to_string(),
            (Some(clock), "-") => format!("tc={clock}"),
            (Some(clock), other) => format!("tc={clock} {other}"),
        }
    }

    /// The limits other than the clock, which PGN's `TimeControl` cannot express:
    /// `movetime=100`, `depth=3 nodes=1000`, or `-`.
    pub fn describe_non_clock(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ms) = self.movetime {
            parts.push(format!("movetime={}", ms.as_millis()));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(" ")
        }
    }

    /// Whether a time limit (clock or move time) bounds every move.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}

/// A positive whole number.
pub(super) fn parse_positive<T: std::str::FromStr + PartialOrd + Default>(text: &str) -> Option<T> {
    text.parse::<T>().ok().filter(|n| *n > T::default())
}

/// A non-negative number of seconds with at most millisecond precision.
pub(super) fn parse_seconds(text: &str) -> Option<Duration> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value < 1e9)
        .then(|| Duration::from_millis((value * 1000.0).round() as u64))
}

/// Reads `S`, `S+INC`, `M/S` or `M/S+INC`: seconds, increment in seconds, moves per period;
/// the base time and the moves per period must be positive.
pub fn parse_clock(text: &str) -> Option<Clock> {
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => (Some(parse_positive::<u32>(moves)?), rest),
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((base, inc)) => (parse_seconds(base)?, parse_seconds(inc)?),
        None => (parse_seconds(rest)?, Duration::ZERO),
    };
    (!base.is_zero()).then_some(Clock {
        moves,
        base,
        increment,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse_with_and_without_increment() {
        let c = parse_clock("10+0.1").unwrap();
        assert_eq!(c.base, Duration::from_secs(10));
        assert_eq!(c.increment, Duration::from_millis(100));
        assert_eq!(c.to_string(), "10+0.1");
        assert_eq!(parse_clock("2.5").unwrap().to_string(), "2.5");
        let c = parse_clock("40/60+0.5").unwrap();
        assert_eq!(c.moves, Some(40));
        assert_eq!(c.base, Duration::from_secs(60));
        assert_eq!(c.to_string(), "40/60+0.5");
        assert_eq!(parse_clock("40/60").unwrap().to_string(), "40/60");
        assert_eq!(c.moves_to_go(0), Some(40));
        assert_eq!(c.moves_to_go(39), Some(1));
        assert_eq!(c.moves_to_go(40), Some(40));
        assert!(c.period_ends(40) && !c.period_ends(39) && !c.period_ends(0));
        for bad in [
            "", "+1", "abc", "10+", "0+1", "-1+0", "1e3", "10+x", "NaN", "0/60", "40/", "/60",
            "x/60", "40/0",
        ] {
            assert!(parse_clock(bad).is_none(), "{bad} should be rejected");
        }
    }
}
