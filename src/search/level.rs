//! Weaker play for people: a shallow search and seeded random choices.
//!
//! Level `L` below the maximum searches `L` plies deep and plays a random move among
//! those scoring within a margin of the best, the margin shrinking as the level
//! rises; with a small chance, also shrinking, it plays any safe move at all.
//! The maximum level is full strength and never comes here.

use std::sync::atomic::AtomicBool;

use crate::board::{Position, Square, Word};

use super::alphabeta::{Searcher, is_proven};
use super::deadlines::Deadlines;
use super::engine::{Engine, LEVEL};
use super::go::root_score;
use super::limits::Limits;
use super::report::{SearchInfo, SearchOutcome};

/// Centipoints a move may trail the best and still be chosen, per level below the maximum.
const MARGIN_PER_LEVEL: i32 = 45;
/// Chance, in percent per level below the maximum, of playing any safe move.
const BLUNDER_PERCENT_PER_LEVEL: u64 = 5;

impl Engine {
    pub(super) fn search_at_level<W: Word>(
        &mut self,
        pos: &Position<W>,
        limits: &Limits,
        stop: &AtomicBool,
        deadlines: &Deadlines,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let level = self.options.level.clamp(LEVEL.min as u32, LEVEL.max as u32);
        let below_max = LEVEL.max as u32 - level;
        let depth = limits.depth.map_or(level, |d| d.min(level)) as i32;
        let geo = pos.geometry();
        let moves = pos.moves();
        let safe = moves - geo.deadly(pos.side_to_move());
        let candidates = if safe.is_empty() { moves } else { safe };

        // Score every candidate with a search of the remaining depth.
        let mut scored: Vec<(Square, i32)> = Vec::new();
        let mut nodes = 0;
        let mut searcher = Searcher::new(geo, &self.table, deadlines.budget(stop, deadlines.nodes));
        for c in candidates {
            let child = pos.after(c);
            nodes = searcher.nodes;
            let score = if child.outcome().is_over() {
                match child.outcome().winner() {
                    Some(w) if w == pos.side_to_move() => super::reduced::MATE as i32 - 1,
                    _ => -(super::reduced::MATE as i32 - 1),
                }
            } else {
                let iteration = searcher.iterate(&child, depth - 1, geo.all());
                nodes = searcher.nodes;
                match iteration {
                    Some(it) => -it.score,
                    None => break,
                }
            };
            scored.push((c, score));
        }
        if scored.is_empty() {
            scored.push((candidates.first().unwrap_or(pos.snail()), 0));
        }
        let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
        let margin = MARGIN_PER_LEVEL * below_max as i32;
        let near: Vec<(Square, i32)> = scored
            .iter()
            .copied()
            .filter(|&(_, s)| {
                s >= best - margin || (is_proven(best) && !is_proven(s) && margin > 0)
            })
            .collect();
        let blunder = self.rng.below(100) < BLUNDER_PERCENT_PER_LEVEL * u64::from(below_max);
        let pool = if blunder { &scored } else { &near };
        let &(choice, score) = self.rng.choose(pool).unwrap_or(&scored[0]);
        let (score, bound) = root_score(score, false);
        let info = SearchInfo {
            depth: depth as u32,
            seldepth: searcher.seldepth,
            score: Some(score),
            bound,
            nodes,
            time: deadlines.started.elapsed(),
            hashfull: self.table.hashfull::<W>(),
            pv: vec![choice],
        };
        report(&info);
        SearchOutcome {
            best_move: Some(choice),
            info,
        }
    }
}
