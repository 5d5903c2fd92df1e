//! The book proven one position at a time: every position of the walk is tried from
//! an empty table within the hard-node limit, and a won one that needs more goes
//! into the book with the winning move and game length of an unlimited proof.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::leaves_first as book_tree;
use crate::board::Position;
use crate::search::{BookLine, Engine, EngineOptions, Limits, Score, Verdict};

/// The book of `starts` within `plies` plies: won positions whose proof from an
/// empty table needs more than `hard_nodes` nodes, in the order met. `progress`
/// gets a line per ply.
pub fn generate(
    starts: &[Position],
    plies: u32,
    hard_nodes: u64,
    progress: &mut dyn FnMut(String),
) -> Vec<BookLine> {
    let stop = AtomicBool::new(false);
    let mut trial = Engine::new(EngineOptions::default());
    let mut truth = Engine::new(EngineOptions::default());
    let mut book = Vec::new();
    for (ply, frontier) in book_tree::walk(starts, plies).iter().enumerate() {
        let ply_started = Instant::now();
        let mut hard_wins = 0;
        // Positions proven within 1,000 nodes, 10,000, the limit, and not within it.
        let mut counts = [0usize; 4];
        for position in frontier {
            trial.new_game();
            let out = trial.prove(position, &Limits::nodes(hard_nodes), &stop, &mut |_| {});
            let bucket = match (out.verdict, out.proof_nodes) {
                (None, _) => 3,
                (Some(_), n) if n < 1_000 => 0,
                (Some(_), n) if n < 10_000 => 1,
                (Some(_), _) => 2,
            };
            counts[bucket] += 1;
            if out.verdict.is_none() {
                // The full solve, for the winning move and the game's length: exact
                // where its search to the end fits, otherwise the proof's bound.
                // From an empty table, so that each entry is what `solve` says of
                // the position alone.
                truth.new_game();
                let full = truth.solve(position, &Limits::default(), &stop, &mut |_| {});
                let bound = match full.info.score {
                    Some(Score::Mate(n)) if n > 0 => Some(n as u32),
                    _ => None,
                };
                let won = full.verdict == Some(Verdict::Win);
                if let (true, Some(square), Some(plies)) =
                    (won, full.best_move, full.length.or(bound))
                {
                    hard_wins += 1;
                    book.push(BookLine {
                        position: *position,
                        square,
                        plies: plies as u16,
                    });
                }
            }
        }
        let counts_hard = counts[3];
        let mut counts: Vec<String> = ["<1k", "<10k", "<limit", "hard"]
            .iter()
            .zip(counts)
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        counts.push(format!("won and hard {hard_wins} of {}", counts_hard));
        progress(format!(
            "ply {ply}: {} positions ({}), {:.1} s",
            frontier.len(),
            counts.join(", "),
            ply_started.elapsed().as_secs_f64()
        ));
    }
    book
}
