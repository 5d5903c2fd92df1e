//! The known game values of 7×7, proven move by move with the proof search of `solve`
//! (the README lists them): from the centre d4 player 1 wins and every first move
//! wins; from e5 player 1 wins, and of the first moves exactly f4, d6 and f6 lose.

use std::sync::atomic::AtomicBool;

use slimetrail::board::{Position, Size};
use slimetrail::search::{Engine, EngineOptions, Limits, Verdict};

fn verdict(engine: &mut Engine, position: &Position) -> Verdict {
    let stop = AtomicBool::new(false);
    let outcome = engine.prove(position, &Limits::default(), &stop, &mut |_| {});
    outcome
        .verdict
        .unwrap_or_else(|| panic!("no verdict for {position}"))
}

/// The first moves from `start` that lose for player 1, after checking the root's value.
fn losing_first_moves(start: &str) -> Vec<String> {
    let size = Size::new(7, 7).expect("7x7 is a valid size");
    let root = Position::start_named(size, start).expect("a valid start square");
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    assert_eq!(
        verdict(&mut engine, &root),
        Verdict::Win,
        "7x7 from {start}"
    );
    let mut losing = Vec::new();
    for first in root.moves() {
        // After the first move player 2 is to move: a win for player 2 means the
        // first move loses.
        if verdict(&mut engine, &root.after(first)) == Verdict::Win {
            losing.push(root.name(first));
        }
    }
    losing.sort();
    losing
}

#[test]
fn centre_start_every_first_move_wins() {
    assert_eq!(losing_first_moves("d4"), Vec::<String>::new());
}

#[test]
fn e5_start_exactly_f4_d6_and_f6_lose() {
    assert_eq!(losing_first_moves("e5"), vec!["d6", "f4", "f6"]);
}
