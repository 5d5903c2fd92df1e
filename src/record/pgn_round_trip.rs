//! Tests: every record the arena writes ([`write_game`]) reads back ([`read_pgn`]) to the
//! same start and the same moves, on every board size, from the start, from another start
//! square, from a position string, with openings, comments and faults.

use std::time::Duration;

use super::{
    Comments, GameRecord, GameReport, MoveRecord, Termination, Venue, read_pgn, write_game,
};
use crate::board::{Position, Size, Square};
use crate::client::{SearchLimits, parse_clock};
use crate::rng::Rng;

/// Up to `plies` random legal moves from `start`.
fn random_moves(start: &Position, plies: usize, rng: &mut Rng) -> Vec<Square> {
    random_line(start, plies, rng, true)
}

/// Up to `plies` random legal moves from `start` that do not enter a goal: the start of a
/// position string, which cannot have the snail on a goal.
fn random_opening(start: &Position, plies: usize, rng: &mut Rng) -> Vec<Square> {
    random_line(start, plies, rng, false)
}

fn random_line(start: &Position, plies: usize, rng: &mut Rng, goals: bool) -> Vec<Square> {
    let size = start.size();
    let mut position = *start;
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal: Vec<Square> = position
            .moves()
            .iter()
            .filter(|&sq| goals || size.goal_owner(sq).is_none())
            .collect();
        let Some(&square) = rng.choose(&legal) else {
            break;
        };
        position.play(square);
        moves.push(square);
    }
    moves
}

/// An arena record of `moves` from `start`, the first `opening_plies` of them the opening.
fn record(
    start: Position,
    moves: &[Square],
    opening_plies: usize,
    termination: Termination,
) -> GameRecord {
    let limits = SearchLimits {
        clock: parse_clock("10+0.1"),
        ..SearchLimits::default()
    };
    let names: Vec<String> = moves.iter().map(|&m| start.name(m)).collect();
    GameRecord {
        report: GameReport {
            number: 3,
            round: 1,
            pair: 1,
            players: ["alpha".to_string(), "beta {b} \"q\"".to_string()],
            winner: 2,
            termination,
            detail: "alpha played z9 {at once}: not a square; 1-0 [x]".to_string(),
            plies: moves.len(),
            opening: if opening_plies == 0 {
                "-".to_string()
            } else {
                names[..opening_plies].join(" ")
            },
            start: start.to_string(),
            moves: names,
        },
        start,
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, &square)| MoveRecord {
                square,
                elapsed: (i >= opening_plies).then(|| Duration::from_millis(7)),
                comment: (i >= opening_plies && i % 2 == 0).then(|| format!("-0.{i}/3")),
            })
            .collect(),
        opening_plies,
        limits: [limits.clone(), limits],
    }
}

fn venue() -> Venue {
    Venue {
        event: "Round trip".to_string(),
        site: "box".to_string(),
        date: "2026.12.03".to_string(),
    }
}

/// Writes the record both ways and reads each back.
fn assert_round_trip(record: &GameRecord) {
    for comments in [Comments::Full, Comments::Minimal] {
        let text = write_game(record, &venue(), comments);
        let game = read_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(game.start, record.start, "{text}");
        let moves: Vec<Square> = record.moves.iter().map(|m| m.square).collect();
        assert_eq!(game.moves, moves, "{text}");
    }
}

/// Every board from 3×3 to 11×11, square or not.
fn every_size() -> impl Iterator<Item = Size> {
    (3..=11).flat_map(|w| (3..=11).map(move |h| Size::new(w, h).unwrap()))
}

#[test]
fn games_from_the_start_read_back_on_every_board() {
    let mut rng = Rng::new(26);
    for size in every_size() {
        let start = Position::start(size);
        let moves = random_moves(&start, 200, &mut rng);
        assert_round_trip(&record(start, &moves, 0, Termination::GoalReached));
        assert_round_trip(&record(start, &[], 0, Termination::Startup));
    }
}

#[test]
fn games_from_another_start_square_read_back_on_every_board() {
    let mut rng = Rng::new(27);
    for size in every_size() {
        let squares: Vec<Square> = (0..size.squares() as u8)
            .map(Square::from_index)
            .filter(|&sq| size.goal_owner(sq).is_none())
            .collect();
        for _ in 0..3 {
            let &square = rng.choose(&squares).unwrap();
            let start = Position::start_at(size, square).unwrap();
            let moves = random_moves(&start, 200, &mut rng);
            assert_round_trip(&record(start, &moves, 0, Termination::NoLegalMove));
        }
    }
}

#[test]
fn games_from_a_position_string_read_back_on_every_board() {
    let mut rng = Rng::new(28);
    for size in every_size() {
        for plies in [1, 2, 5] {
            let origin = Position::start(size);
            let mut start = origin;
            for square in random_opening(&origin, plies, &mut rng) {
                start.play(square);
            }
            // Through the position string, as an opening file gives it.
            let start: Position = start.to_string().parse().unwrap();
            let moves = random_moves(&start, 200, &mut rng);
            assert_round_trip(&record(start, &moves, 0, Termination::GoalReached));
        }
    }
}

#[test]
fn arena_records_with_openings_and_faults_read_back() {
    let mut rng = Rng::new(29);
    let faults = [
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Hang,
        Termination::Garbage,
        Termination::ProtocolViolation,
    ];
    for (i, size) in every_size().enumerate() {
        // An opening file line `POSITION moves M1 M2`: the record starts at the position,
        // and the opening moves are its first moves.
        let origin = Position::start(size);
        let mut start = origin;
        for square in random_opening(&origin, 1 + i % 3, &mut rng) {
            start.play(square);
        }
        let moves = random_moves(&start, 200, &mut rng);
        let opening = moves.len().min(2);
        let fault = faults[i % faults.len()];
        assert_round_trip(&record(start, &moves, opening, fault));
        // Random openings: K plies from the start.
        let moves = random_moves(&origin, 200, &mut rng);
        assert_round_trip(&record(origin, &moves, moves.len().min(4), fault));
    }
}
