//! Conversions between the wire types of `protocol` and the engine's search types.
//!
//! The protocol module knows nothing of the search; this adapter is where the two meet.

use std::time::Duration;

use crate::protocol::GoArgs;
use crate::search::{Limits, TimeControl};

/// The search limits that `go` or `solve` arguments ask for. `movetime` wins over the
/// clocks; negative clock values count as zero; `movestogo 0` means no count.
pub(super) fn limits(args: &GoArgs) -> Limits {
    let millis = |ms: i64| Duration::from_millis(ms.max(0).unsigned_abs());
    let time = match (args.movetime, args.p1time, args.p2time) {
        (Some(ms), _, _) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, Some(p1), Some(p2)) => TimeControl::Clock {
            remaining: [millis(p1), millis(p2)],
            increment: [
                millis(args.p1inc.unwrap_or(0)),
                millis(args.p2inc.unwrap_or(0)),
            ],
            moves_to_go: args.movestogo.filter(|&n| n > 0),
        },
        _ => TimeControl::Unlimited,
    };
    Limits {
        time,
        depth: args.depth,
        nodes: args.nodes,
        infinite: args.infinite,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Message;

    fn go_limits(line: &str) -> Limits {
        match line.parse::<Message>() {
            Ok(Message::Go(args)) => limits(&args),
            other => panic!("{line:?} is not a go: {other:?}"),
        }
    }

    #[test]
    fn clocks_with_negative_times_mean_zero() {
        assert_eq!(
            go_limits("go p1time -500 p2time 2000 p2inc 30 movestogo 0").time,
            TimeControl::Clock {
                remaining: [Duration::ZERO, Duration::from_millis(2000)],
                increment: [Duration::ZERO, Duration::from_millis(30)],
                moves_to_go: None,
            }
        );
    }

    #[test]
    fn movetime_wins_over_the_clocks() {
        let limits = go_limits("go p1time 5 p2time 5 movetime 40 depth 2");
        assert_eq!(
            limits.time,
            TimeControl::MoveTime(Duration::from_millis(40))
        );
        assert_eq!(limits.depth, Some(2));
        assert!(!limits.infinite);
        assert!(go_limits("go infinite").infinite);
    }
}
