//! `go` with more than one thread: the proof search and the scored search run at
//! the same time on one shared table.
//!
//! The proof threads work on the root until it is proven or time runs out; the
//! scored search deepens beside them and, between iterations, leaves out root moves
//! the proof threads have shown to lose. Whichever finishes the job halts the other.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Square, Word};

use super::alphabeta::{Searcher, is_proven};
use super::engine::Engine;
use super::go::{SearchRun, first_iteration, not_proven_losing};
use super::parallel;
use super::reduced::reachable_region;
use super::report::{SearchInfo, SearchOutcome};

impl Engine {
    pub(super) fn search_on_threads<W: Word>(
        &mut self,
        run: &SearchRun<W>,
        fallback: Square,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let SearchRun {
            pos,
            stop,
            deadlines,
        } = *run;
        let geo = pos.geometry();
        let safe = pos.moves() - geo.deadly(pos.side_to_move());
        let exhaustive = reachable_region(geo, pos.open(), pos.snail()).len() as i32 + 3;
        let prover_threads = self.search_threads() - 1;
        let halt = AtomicBool::new(false);
        let mut outcome = SearchOutcome {
            best_move: Some(fallback),
            info: SearchInfo::default(),
        };
        // Node limits are shared: three quarters to the proof threads.
        let prover_nodes = deadlines.nodes - deadlines.nodes / 4;
        let scored_nodes = deadlines.nodes / 4;
        let (proof, scored_nodes_used) = std::thread::scope(|scope| {
            let table = &self.table;
            let halt = &halt;
            let prover = scope.spawn(move || {
                let budget = deadlines.budget(stop, prover_nodes).with_halt(halt);
                let proof = parallel::prove_within(table, pos, prover_threads, budget, false, None);
                if proof.result.is_some() {
                    halt.store(true, Ordering::Relaxed);
                }
                proof
            });
            let mut searcher = Searcher::new(geo, table, deadlines.budget(stop, 0));
            // Node-limited searches run on one thread: no limit here.
            let Some(first) = first_iteration(&mut searcher, pos, u64::MAX) else {
                unreachable!("a depth-1 search without a node limit completes")
            };
            let mut used = searcher.nodes;
            used += self.record_iteration(run, &mut outcome, &first, 1, used);
            outcome.info.seldepth = searcher.seldepth;
            report(&outcome.info);
            let mut depth = if is_proven(first.score) && first.exact {
                i32::MAX
            } else {
                2
            };
            while depth <= exhaustive && !halt.load(Ordering::Relaxed) {
                let allowed = not_proven_losing(self, pos, safe);
                let budget = deadlines
                    .budget(stop, scored_nodes.saturating_sub(used))
                    .with_halt(halt);
                searcher.set_budget(budget);
                let before = searcher.nodes;
                let iteration = searcher.iterate(pos, depth, allowed);
                used += searcher.nodes - before;
                let Some(it) = iteration else { break };
                used += self.record_iteration(run, &mut outcome, &it, depth as u32, used);
                outcome.info.seldepth = outcome.info.seldepth.max(searcher.seldepth);
                report(&outcome.info);
                depth += 1;
                if (is_proven(it.score) && it.exact) || deadlines.past_soft() {
                    break;
                }
            }
            // The scored search is done: the proof threads stop too, unless they
            // finished first.
            halt.store(true, Ordering::Relaxed);
            let proof = prover.join();
            (proof, used)
        });
        let proof = match proof {
            Ok(proof) => proof,
            Err(_) => {
                log::error!("the proof thread of a search panicked");
                return self.finish(outcome, scored_nodes_used, deadlines);
            }
        };
        let nodes = scored_nodes_used + proof.nodes;
        outcome.info.seldepth = outcome.info.seldepth.max(proof.seldepth);
        match proof.result {
            Some(proven) => self.finish_proven(run, proven, nodes, outcome.info.seldepth, report),
            None => self.finish(outcome, nodes, deadlines),
        }
    }
}
