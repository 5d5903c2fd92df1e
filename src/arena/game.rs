//! One game between two players: the arena keeps the position and the clocks, checks every
//! move, decides the end, and records why it ended. Engines are never trusted for either.

use std::time::Duration;

use super::openings::Opening;
use super::player::{Player, Turn};
use crate::board::{Outcome, Side, Square, WinReason};
use crate::client::{Fault, FaultKind, SearchLimits};
use crate::record::{GameRecord, GameReport, MoveRecord, Termination};

/// What identifies a game in the schedule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameSlot {
    /// Global game number.
    pub number: usize,
    /// Round, from 1.
    pub round: usize,
    /// Global pair number.
    pub pair: usize,
}

/// Plays one game from `opening` between `players[0]` (player 1) and `players[1]` (player 2),
/// each under its own limits. A player that misbehaves loses; its fault is reported through
/// [`Player::finish`] so that its process is replaced before its next game.
pub fn play_game(
    slot: GameSlot,
    players: [&mut dyn Player; 2],
    limits: [&SearchLimits; 2],
    opening: &Opening,
) -> GameRecord {
    let [p1, p2] = players;
    let mut players: [&mut dyn Player; 2] = [p1, p2];
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut moves: Vec<MoveRecord> = opening
        .moves
        .iter()
        .map(|&square| MoveRecord {
            square,
            elapsed: None,
            comment: None,
        })
        .collect();
    let mut squares: Vec<Square> = opening.moves.clone();
    let mut position = opening.position();
    let mut clocks: [Option<Duration>; 2] = [0, 1].map(|i| limits[i].clock.map(|c| c.base));
    let mut faulty = [false, false];
    // Moves each player has chosen itself, for clocks with moves per period.
    let mut own_moves = [0u32; 2];

    let mut ending = None;
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(fault) = player.prepare(slot.number, &opening.start) {
            faulty[i] = true;
            ending = Some(fault_ending(Side::BOTH[i], &names[i], fault, limits[i]));
            break;
        }
    }
    while ending.is_none() {
        if let Outcome::Decided { winner, reason } = position.outcome() {
            let termination = match reason {
                WinReason::GoalReached => Termination::GoalReached,
                WinReason::NoLegalMove => Termination::NoLegalMove,
            };
            let detail = match reason {
                WinReason::GoalReached => format!(
                    "{} reached {}",
                    names[winner.index()],
                    position.name(position.snail())
                ),
                WinReason::NoLegalMove => format!("{} had no legal move", names[(!winner).index()]),
            };
            ending = Some((winner, termination, detail));
            break;
        }
        let side = position.side_to_move();
        let i = side.index();
        let turn = Turn {
            start: &opening.start,
            moves: &squares,
            position: &position,
            clocks,
            increments: [0, 1].map(|i| limits[i].clock.map_or(Duration::ZERO, |c| c.increment)),
            moves_to_go: limits[i].clock.and_then(|c| c.moves_to_go(own_moves[i])),
            limits: limits[i],
        };
        let reply = match players[i].think(&turn) {
            Ok(reply) => reply,
            Err(fault) => {
                faulty[i] = true;
                ending = Some(fault_ending(side, &names[i], fault, limits[i]));
                break;
            }
        };
        if let Some(lost) = overran(limits[i], clocks[i], reply.elapsed) {
            faulty[i] = true;
            ending = Some((
                !side,
                Termination::TimeForfeit,
                format!("{} {lost}", names[i]),
            ));
            break;
        }
        own_moves[i] += 1;
        if let (Some(left), Some(clock)) = (clocks[i].as_mut(), limits[i].clock) {
            *left = left.saturating_sub(reply.elapsed) + clock.increment;
            if clock.period_ends(own_moves[i]) {
                *left += clock.base;
            }
        }
        let square = match reply.square.map(|name| position.size().resolve(name)) {
            None => Err(format!(
                "{} answered `bestmove (none)` with {} legal moves left",
                names[i],
                position.moves().len()
            )),
            Some(Err(e)) => Err(format!("{} played {}: {e}", names[i], reply.text)),
            Some(Ok(square)) => position
                .check_move(square)
                .map(|()| square)
                .map_err(|e| format!("{} played {}: {e}", names[i], reply.text)),
        };
        match square {
            Ok(square) => {
                position.play(square);
                squares.push(square);
                moves.push(MoveRecord {
                    square,
                    elapsed: Some(reply.elapsed),
                    comment: reply.comment,
                });
            }
            Err(detail) => {
                faulty[i] = true;
                ending = Some((!side, Termination::IllegalMove, detail));
            }
        }
    }
    for (i, player) in players.iter_mut().enumerate() {
        player.finish(faulty[i]);
    }
    let (winner, termination, detail) =
        ending.unwrap_or((Side::One, Termination::NoLegalMove, String::new()));
    GameRecord {
        report: GameReport {
            number: slot.number,
            round: slot.round,
            pair: slot.pair,
            players: names,
            winner: winner.number(),
            termination,
            detail,
            plies: moves.len(),
            opening: opening.describe(),
            start: opening.start.to_string(),
            moves: moves.iter().map(|m| opening.start.name(m.square)).collect(),
        },
        start: opening.start,
        opening_plies: opening.moves.len(),
        moves,
        limits: [limits[0].clone(), limits[1].clone()],
    }
}

/// Why a move that took `elapsed` loses on time, if it does.
fn overran(limits: &SearchLimits, left: Option<Duration>, elapsed: Duration) -> Option<String> {
    let margin = limits.time_margin;
    if let Some(left) = left {
        if elapsed > left + margin {
            return Some(format!(
                "lost on time: {} ms used with {} ms left (+{} ms margin)",
                elapsed.as_millis(),
                left.as_millis(),
                margin.as_millis()
            ));
        }
    } else if let Some(movetime) = limits.movetime {
        if elapsed > movetime + margin {
            return Some(format!(
                "lost on time: {} ms used for movetime {} ms (+{} ms margin)",
                elapsed.as_millis(),
                movetime.as_millis(),
                margin.as_millis()
            ));
        }
    }
    None
}

/// The winner, termination and detail when `side` (named `name`) commits `fault`.
fn fault_ending(
    side: Side,
    name: &str,
    fault: Fault,
    limits: &SearchLimits,
) -> (Side, Termination, String) {
    let termination = match fault.kind {
        FaultKind::Startup | FaultKind::Options => Termination::Startup,
        FaultKind::Crash => Termination::Crash,
        FaultKind::Garbage => Termination::Garbage,
        FaultKind::Hang => Termination::Hang,
        FaultKind::Protocol => Termination::ProtocolViolation,
        FaultKind::NoMove if limits.is_timed() => Termination::TimeForfeit,
        FaultKind::NoMove => Termination::Hang,
    };
    (!side, termination, format!("{name} {}", fault.detail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::{RandomPlayer, Reply};
    use crate::board::{Position, Size, SquareName};

    /// A scripted player for game-logic tests: plays the given answers in turn.
    struct Scripted {
        name: String,
        answers: Vec<Result<Reply, Fault>>,
        finished_faulty: Option<bool>,
        moves_to_go: Vec<Option<u32>>,
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            &self.name
        }
        fn prepare(&mut self, _game: usize, _start: &Position) -> Result<(), Fault> {
            Ok(())
        }
        fn think(&mut self, turn: &Turn) -> Result<Reply, Fault> {
            self.moves_to_go.push(turn.moves_to_go);
            self.answers.remove(0)
        }
        fn finish(&mut self, faulty: bool) {
            self.finished_faulty = Some(faulty);
        }
    }

    fn reply(square: &str, ms: u64) -> Result<Reply, Fault> {
        Ok(Reply {
            square: Some(square.parse::<SquareName>().unwrap()),
            text: square.to_string(),
            elapsed: Duration::from_millis(ms),
            comment: None,
        })
    }

    fn scripted(name: &str, answers: Vec<Result<Reply, Fault>>) -> Scripted {
        Scripted {
            name: name.to_string(),
            answers,
            finished_faulty: None,
            moves_to_go: Vec::new(),
        }
    }

    fn slot() -> GameSlot {
        GameSlot {
            number: 4,
            round: 2,
            pair: 2,
        }
    }

    fn opening() -> Opening {
        Opening {
            start: Position::start(Size::DEFAULT),
            moves: Vec::new(),
        }
    }

    #[test]
    fn a_goal_ends_the_game_for_the_corner_owner() {
        // d4 c3 (p1), b2 (p2), a1 (p1 enters its own goal).
        let mut a = scripted("a", vec![reply("c3", 1), reply("a1", 1)]);
        let mut b = scripted("b", vec![reply("b2", 1)]);
        let limits = SearchLimits::default();
        let record = play_game(slot(), [&mut a, &mut b], [&limits, &limits], &opening());
        assert_eq!(record.report.winner, 1);
        assert_eq!(record.report.termination, Termination::GoalReached);
        assert_eq!(record.report.detail, "a reached a1");
        assert_eq!(record.report.plies, 3);
        assert_eq!(
            (a.finished_faulty, b.finished_faulty),
            (Some(false), Some(false))
        );
    }

    #[test]
    fn an_illegal_move_loses_and_says_why() {
        let mut a = scripted("a", vec![reply("c3", 1)]);
        let mut b = scripted("b", vec![reply("d4", 1)]);
        let limits = SearchLimits::default();
        let record = play_game(slot(), [&mut a, &mut b], [&limits, &limits], &opening());
        assert_eq!(record.report.winner, 1);
        assert_eq!(record.report.termination, Termination::IllegalMove);
        assert_eq!(record.report.detail, "b played d4: d4 is slimed");
        let mut a = scripted("a", vec![reply("h9", 1)]);
        let record = play_game(slot(), [&mut a, &mut b], [&limits, &limits], &opening());
        assert_eq!(record.report.winner, 2);
        assert!(
            record.report.detail.contains("off the 7x7 board"),
            "{}",
            record.report.detail
        );
    }

    #[test]
    fn the_clock_is_kept_by_the_arena() {
        let limits = SearchLimits {
            clock: crate::client::parse_clock("0.1+0.01"),
            time_margin: Duration::from_millis(5),
            ..SearchLimits::default()
        };
        // 60 + 60 ms exceed 100 ms + one 10 ms increment + 5 ms margin.
        let mut a = scripted("a", vec![reply("c3", 60), reply("b3", 60)]);
        let mut b = scripted("b", vec![reply("c2", 1)]);
        let record = play_game(slot(), [&mut a, &mut b], [&limits, &limits], &opening());
        assert_eq!(record.report.termination, Termination::TimeForfeit);
        assert_eq!(record.report.winner, 2);
        assert!(
            record
                .report
                .detail
                .starts_with("a lost on time: 60 ms used with 50 ms left"),
            "{}",
            record.report.detail
        );
        assert_eq!(a.finished_faulty, Some(true));
        assert_eq!(record.limits[0].clock.unwrap().to_string(), "0.1+0.01");
    }

    #[test]
    fn clocks_with_moves_per_period_get_their_base_time_again() {
        // 1 move per 50 ms period: 45 ms moves never run out, though two of them exceed
        // 50 ms, and each `go` is told one move is left in the period.
        let limits = SearchLimits {
            clock: crate::client::parse_clock("1/0.05"),
            time_margin: Duration::from_millis(5),
            ..SearchLimits::default()
        };
        let mut a = scripted("a", vec![reply("c3", 45), reply("b3", 45), reply("a1", 45)]);
        let mut b = scripted("b", vec![reply("c2", 45), reply("b2", 45)]);
        let record = play_game(slot(), [&mut a, &mut b], [&limits, &limits], &opening());
        assert_eq!(
            record.report.termination,
            Termination::GoalReached,
            "{:?}",
            record.report
        );
        assert_eq!(record.report.winner, 1);
        assert_eq!(a.moves_to_go, [Some(1); 3]);
        // 40 moves per period: the count goes down with the player's own moves.
        let limits = SearchLimits {
            clock: crate::client::parse_clock("40/10"),
            ..SearchLimits::default()
        };
        let mut a = scripted("a", vec![reply("c3", 1), reply("b3", 1), reply("a1", 1)]);
        let mut b = scripted("b", vec![reply("c2", 1), reply("b2", 1)]);
        play_game(slot(), [&mut a, &mut b], [&limits, &limits], &opening());
        assert_eq!(a.moves_to_go, [Some(40), Some(39), Some(38)]);
    }

    #[test]
    fn faults_lose_with_their_reason() {
        let limits = SearchLimits::default();
        let timed = SearchLimits {
            movetime: Some(Duration::from_millis(10)),
            ..SearchLimits::default()
        };
        let fault = |kind, detail: &str| {
            Err(Fault {
                kind,
                detail: detail.to_string(),
            })
        };
        for (kind, limits, expected) in [
            (FaultKind::Crash, &limits, Termination::Crash),
            (FaultKind::Garbage, &limits, Termination::Garbage),
            (FaultKind::NoMove, &limits, Termination::Hang),
            (FaultKind::NoMove, &timed, Termination::TimeForfeit),
        ] {
            let mut a = scripted("a", vec![reply("c3", 1)]);
            let mut b = scripted("b", vec![fault(kind, "went wrong")]);
            let record = play_game(slot(), [&mut a, &mut b], [limits, limits], &opening());
            assert_eq!(record.report.termination, expected);
            assert_eq!(record.report.winner, 1);
            assert_eq!(record.report.detail, "b went wrong");
            assert_eq!(
                (a.finished_faulty, b.finished_faulty),
                (Some(false), Some(true))
            );
        }
    }

    #[test]
    fn random_players_finish_every_game_by_the_rules() {
        let limits = SearchLimits::default();
        for number in 0..50 {
            let mut a = RandomPlayer::new("a", 7);
            let mut b = RandomPlayer::new("b", 7);
            let slot = GameSlot {
                number,
                round: 1,
                pair: number / 2,
            };
            let record = play_game(slot, [&mut a, &mut b], [&limits, &limits], &opening());
            assert!(record.report.termination.is_normal());
            let mut pos = record.start;
            for m in &record.moves {
                pos.try_play(m.square).unwrap();
            }
            assert_eq!(
                pos.outcome().winner().map(|w| w.number()),
                Some(record.report.winner)
            );
        }
    }
}
