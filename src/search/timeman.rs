//! Time management: how long one search may think.

use std::time::Duration;

use crate::board::Side;

use super::limits::TimeControl;

/// The time a search may use, from its start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimePlan {
    /// Do not start new work after this much time.
    pub soft: Option<Duration>,
    /// Stop at once after this much time.
    pub hard: Option<Duration>,
}

/// Stopping at least a millisecond before the move time is up leaves room to send
/// the move, even with no move overhead.
const MOVETIME_MARGIN: Duration = Duration::from_millis(1);

/// The clock is spread over the moves left divided by this: a game is usually
/// proven, and its later moves played at once, within a third of them.
const DECIDED_WITHIN: u32 = 3;

/// Plans the time for a search by `side`.
///
/// `my_moves_left` is an upper bound on the moves `side` still has to play: no game
/// outlasts the squares the snail can reach, so late in the game each move gets a
/// larger share of the clock. `overhead` is kept in reserve per move for
/// communication delays.
pub fn plan(time: &TimeControl, side: Side, my_moves_left: u32, overhead: Duration) -> TimePlan {
    match *time {
        TimeControl::Unlimited => TimePlan {
            soft: None,
            hard: None,
        },
        TimeControl::MoveTime(t) => {
            // The overhead is kept in reserve as under a clock, but an overhead
            // beyond half the move time still leaves half of it to think.
            let hard = t.saturating_sub(overhead.max(MOVETIME_MARGIN)).max(t / 2);
            TimePlan {
                soft: Some(hard),
                hard: Some(hard),
            }
        }
        TimeControl::Clock { moves_to_go, .. } => {
            let (remaining, increment) = time
                .clock_of(side)
                .unwrap_or((Duration::ZERO, Duration::ZERO));
            let usable = remaining.saturating_sub(overhead);
            // Most games are decided, and their moves proven at once, long before
            // the squares run out: plan for a share of the moves left, but for at
            // least a few, and never beyond a moves-to-go period.
            let mut horizon = (my_moves_left / DECIDED_WITHIN).clamp(3, 40);
            if let Some(n) = moves_to_go {
                horizon = horizon.min(n.max(1));
            }
            let share = usable / horizon + increment * 3 / 4;
            let soft = share.min(usable / 2);
            let hard = (share * 3).min(usable * 3 / 5).max(soft);
            TimePlan {
                soft: Some(soft),
                hard: Some(hard),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> TimeControl {
        TimeControl::Clock {
            remaining: [Duration::from_millis(ms); 2],
            increment: [Duration::from_millis(inc); 2],
            moves_to_go: None,
        }
    }

    #[test]
    fn movetime_is_used_up_to_a_millisecond() {
        let plan = plan(
            &TimeControl::MoveTime(Duration::from_millis(100)),
            Side::One,
            20,
            Duration::ZERO,
        );
        assert_eq!(plan.hard, Some(Duration::from_millis(99)));
        assert_eq!(plan.soft, plan.hard);
    }

    #[test]
    fn movetime_keeps_the_move_overhead_in_reserve() {
        let movetime = |ms, overhead| {
            plan(
                &TimeControl::MoveTime(Duration::from_millis(ms)),
                Side::One,
                20,
                Duration::from_millis(overhead),
            )
        };
        let p = movetime(100, 10);
        assert_eq!(p.hard, Some(Duration::from_millis(90)));
        assert_eq!(p.soft, p.hard);
        assert_eq!(movetime(30, 10).hard, Some(Duration::from_millis(20)));
        // An overhead beyond half the move time leaves half of it.
        assert_eq!(movetime(100, 80).hard, Some(Duration::from_millis(50)));
        assert_eq!(movetime(10, 5000).hard, Some(Duration::from_millis(5)));
    }

    #[test]
    fn clocks_never_plan_beyond_the_remaining_time() {
        for ms in [1, 10, 100, 1000, 60_000] {
            for left in [1, 5, 20, 60] {
                let p = plan(&clock(ms, 0), Side::Two, left, Duration::from_millis(10));
                let hard = p.hard.unwrap();
                assert!(
                    hard <= Duration::from_millis(ms),
                    "{ms} ms, {left} moves: {p:?}"
                );
                assert!(p.soft.unwrap() <= hard);
            }
        }
    }

    #[test]
    fn late_in_the_game_a_move_gets_a_larger_share() {
        let early = plan(&clock(10_000, 0), Side::One, 24, Duration::ZERO);
        let late = plan(&clock(10_000, 0), Side::One, 4, Duration::ZERO);
        assert!(late.soft > early.soft);
    }

    #[test]
    fn the_clock_is_spread_over_a_third_of_the_moves_left() {
        // 39 moves left (a 9x9 start): planned as 13, so 2,000 ms give 153 ms.
        let start = plan(&clock(2000, 0), Side::One, 39, Duration::ZERO);
        assert_eq!(start.soft, Some(Duration::from_millis(2000) / 13));
        // Never fewer than three moves, however few are left.
        let end = plan(&clock(2000, 0), Side::One, 4, Duration::ZERO);
        assert_eq!(end.soft, Some(Duration::from_millis(2000) / 3));
    }

    #[test]
    fn increments_are_spent() {
        let without = plan(&clock(1000, 0), Side::One, 20, Duration::ZERO);
        let with = plan(&clock(1000, 100), Side::One, 20, Duration::ZERO);
        assert!(with.soft > without.soft);
    }
}
