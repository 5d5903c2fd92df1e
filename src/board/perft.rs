//! Perft: counting move sequences, the standard check of move generation.
//!
//! `perft(n)` is the number of move sequences of exactly `n` plies from a position.
//! A move into a goal corner ends the game, so it is a leaf at its own depth and
//! has no continuation; a game that ends earlier contributes nothing to deeper counts.

use super::bitboard::Word;
use super::coords::Square;
use super::position::Position;

/// Counts the move sequences of exactly `depth` plies, on the fastest word for the board.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match position.convert::<u64>() {
        Some(narrow) => perft_in(&narrow, depth),
        None => perft_in(position, depth),
    }
}

/// Per-move counts: for each legal move, the sequences of `depth` plies starting with it.
pub fn divide(position: &Position, depth: u32) -> Vec<(Square, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .moves()
        .iter()
        .map(|to| (to, perft(&position.after(to), depth - 1)))
        .collect()
}

/// [`perft`] for a position stored in any word.
pub fn perft_in<W: Word>(position: &Position<W>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(position.moves().len()),
        _ => {
            let mut pos = *position;
            if pos.goal_reached().is_some() {
                return 0;
            }
            walk(&mut pos, depth)
        }
    }
}

/// Depth >= 2, game not over at the root.
fn walk<W: Word>(pos: &mut Position<W>, depth: u32) -> u64 {
    let geometry = pos.geometry();
    let goals = geometry.goals();
    let moves = geometry.neighbours(pos.snail()) & pos.open();
    // Moves into a goal end the game before `depth` plies: they count nothing here.
    let continuing = moves - goals;
    if depth == 2 {
        // Bulk count two plies at once: after stepping to `c`, the replies are the
        // open neighbours of `c` (c itself is no neighbour of c, so no update needed).
        return continuing
            .iter()
            .map(|c| u64::from((geometry.neighbours(c) & pos.open()).len()))
            .sum();
    }
    if depth == 3 {
        // Three plies at once: after c then d, the replies are the open neighbours
        // of d except c, which is always one of them.
        let open = pos.open();
        let mut total = 0;
        for c in continuing {
            for d in (geometry.neighbours(c) & open) - goals {
                total += u64::from((geometry.neighbours(d) & open).len() - 1);
            }
        }
        return total;
    }
    let mut total = 0;
    for to in continuing {
        let from = pos.play(to);
        total += walk(pos, depth - 1);
        pos.undo(from);
    }
    total
}
