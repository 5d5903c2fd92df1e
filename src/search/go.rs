//! `go`: the proof search and the scored search, taking turns.
//!
//! Each round first gives the proof search a node budget four times the last one;
//! it keeps its proven subtrees in the table, so every round builds on the last.
//! If the root is not proven, the scored search deepens for a third of that budget,
//! never playing a root move the proof search has shown to lose. A proven root ends
//! the search at once; time, node and depth limits and `stop` end it in between.
//! Under a depth limit, each round is one scored iteration, and the proof slice
//! before it gets as many nodes as the last iteration used: the proof search's share
//! grows with the depth, so `go depth 20` still proves while `go depth 1` costs one
//! iteration.
//! A timed search of a position in the built-in book plays the book move at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::board::{Bitboard, Position, Square, Word};

use super::alphabeta::{Iteration, Searcher, is_proven};
use super::book::Book;
use super::deadlines::Deadlines;
use super::engine::{Engine, LEVEL};
use super::killers::Killers;
use super::limits::{Limits, TimeControl};
use super::prover::{Budget, Prover};
use super::reduced::{MATE, Proof, reachable_region};
use super::report::{Bound, Score, SearchInfo, SearchOutcome};
use super::solve::line_start;

/// First proof-search budget, in nodes.
const FIRST_PROOF_SLICE: u64 = 100_000;

/// What every part of one search works with: the position, the user's stop flag
/// and the deadlines.
pub(super) struct SearchRun<'a, W: Word> {
    pub pos: &'a Position<W>,
    pub stop: &'a AtomicBool,
    pub deadlines: &'a Deadlines,
}

/// A reported score for a root score of the scored search.
pub(super) fn root_score(score: i32, exact: bool) -> (Score, Bound) {
    if is_proven(score) {
        let plies = MATE as i32 - score.abs();
        if score > 0 {
            (
                Score::Mate(plies),
                if exact { Bound::Exact } else { Bound::Lower },
            )
        } else {
            (
                Score::Mate(-plies),
                if exact { Bound::Exact } else { Bound::Upper },
            )
        }
    } else {
        (Score::Cp(score), Bound::Exact)
    }
}

impl Engine {
    pub(super) fn search_in<W: Word>(
        &mut self,
        pos: &Position<W>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let deadlines = Deadlines::new(self, pos, limits);
        let run = SearchRun {
            pos,
            stop,
            deadlines: &deadlines,
        };
        self.prepare_table(pos.size());
        self.table.new_search();
        let geo = pos.geometry();
        let moves = pos.moves();
        let safe = moves - geo.deadly(pos.side_to_move());
        let Some(fallback) = safe.first().or(moves.first()) else {
            return SearchOutcome {
                best_move: None,
                info: SearchInfo {
                    time: deadlines.started.elapsed(),
                    ..SearchInfo::default()
                },
            };
        };
        if self.options.level < LEVEL.max as u32 {
            return self.search_at_level(pos, limits, stop, &deadlines, report);
        }
        if let Some(outcome) = self.book_move(pos, limits, &deadlines, report) {
            return outcome;
        }
        if self.search_threads() > 1 && limits.depth.is_none() && limits.nodes.is_none() {
            return self.search_on_threads(&run, fallback, report);
        }
        let mut outcome = SearchOutcome {
            best_move: Some(fallback),
            info: SearchInfo::default(),
        };
        let max_depth = limits.depth.map_or(i32::MAX, |d| d as i32);
        // No game lasts longer than the reachable squares: a search that deep is exhaustive.
        let exhaustive = reachable_region(geo, pos.open(), pos.snail()).len() as i32 + 3;
        // Under a depth limit the proof search gets, before each iteration, as many
        // nodes as the scored search used for the last one: its share grows with the
        // depth, and a shallow search stays as cheap as its iterations.
        let depth_limited = limits.depth.is_some();
        let mut searcher = Searcher::new(geo, &self.table, deadlines.budget(stop, 0));
        let first = first_iteration(&mut searcher, pos, deadlines.nodes);
        let mut nodes = searcher.nodes;
        outcome.info.seldepth = searcher.seldepth;
        let Some(first) = first else {
            // The node limit came first: the move is the first safe one, unsearched.
            return self.finish(outcome, nodes, &deadlines);
        };
        nodes += self.record_iteration(&run, &mut outcome, &first, 1, nodes);
        report(&outcome.info);
        let mut depth = 2;
        if (is_proven(first.score) && first.exact) || depth > exhaustive || depth > max_depth {
            return self.finish(outcome, nodes, &deadlines);
        }
        let mut slice = if depth_limited {
            nodes
        } else {
            FIRST_PROOF_SLICE
        };
        // Under a time limit, the scored search gets a third of the time the proof
        // search just had, since its nodes cost more.
        let mut scored_until = None;
        loop {
            let slice_start = Instant::now();
            let mut budget =
                deadlines.budget(stop, slice.min(deadlines.nodes.saturating_sub(nodes)));
            // A share of the time left, so that the scored search has its turn.
            budget.deadline = deadlines
                .hard
                .map(|hard| slice_start + hard.saturating_duration_since(slice_start) / 2);
            // The killers of the slices before, and of the game's earlier moves: a
            // slice resumes where the last left off, in its move order as in its table.
            let killers = self.go_killers.take().unwrap_or_else(Killers::for_game);
            let mut prover = Prover::new(geo, &self.table, budget).with_killers(killers);
            let result = prover.prove(pos);
            nodes += prover.stats.nodes;
            outcome.info.seldepth = outcome.info.seldepth.max(prover.seldepth);
            self.go_killers = Some(prover.into_killers());
            if let Some(proven) = result {
                return self.finish_proven(&run, proven, nodes, outcome.info.seldepth, report);
            }
            let allowed = not_proven_losing(self, pos, safe);
            if let (Some(hard), false) = (deadlines.hard, depth_limited) {
                scored_until = Some(hard.min(Instant::now() + slice_start.elapsed() / 3));
            }
            // Under a depth limit, one iteration a round, as deep as its nodes go.
            let round_budget = if depth_limited { u64::MAX } else { slice / 3 };
            let round_start = nodes;
            loop {
                if depth > max_depth || stop.load(Ordering::Relaxed) || deadlines.past_hard() {
                    break;
                }
                let left = deadlines
                    .nodes
                    .saturating_sub(nodes)
                    .min(round_budget.saturating_sub(nodes - round_start));
                let mut budget = deadlines.budget(stop, left);
                budget.deadline = scored_until.or(budget.deadline);
                searcher.set_budget(budget);
                let before = searcher.nodes;
                let iteration = searcher.iterate(pos, depth, allowed);
                nodes += searcher.nodes - before;
                outcome.info.seldepth = outcome.info.seldepth.max(searcher.seldepth);
                let Some(it) = iteration else { break };
                nodes += self.record_iteration(&run, &mut outcome, &it, depth as u32, nodes);
                report(&outcome.info);
                depth += 1;
                if (is_proven(it.score) && it.exact) || depth > exhaustive || deadlines.past_soft()
                {
                    return self.finish(outcome, nodes, &deadlines);
                }
                if depth_limited {
                    break;
                }
            }
            slice = if depth_limited {
                (nodes - round_start).max(1)
            } else {
                slice.saturating_mul(4)
            };
            let out_of_nodes = nodes >= deadlines.nodes;
            if depth > max_depth
                || out_of_nodes
                || stop.load(Ordering::Relaxed)
                || deadlines.past_soft()
                || deadlines.past_hard()
            {
                return self.finish(outcome, nodes, &deadlines);
            }
        }
    }

    /// The built-in book's winning move, for a timed search with the book on: a
    /// position there takes longer to prove than such a search can be sure to have.
    /// Searches limited by depth or nodes, and `go infinite`, always search.
    fn book_move<W: Word>(
        &self,
        pos: &Position<W>,
        limits: &Limits,
        deadlines: &Deadlines,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchOutcome> {
        let timed = matches!(
            limits.time,
            TimeControl::MoveTime(_) | TimeControl::Clock { .. }
        );
        if !self.options.own_book
            || !timed
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.infinite
        {
            return None;
        }
        let hit = Book::builtin(pos.size())?.probe(pos)?;
        let info = SearchInfo {
            depth: 1,
            seldepth: 1,
            score: Some(Score::Mate(i32::from(hit.plies))),
            bound: Bound::Lower,
            nodes: 0,
            time: deadlines.started.elapsed(),
            hashfull: 0,
            pv: vec![hit.square],
        };
        report(&info);
        Some(SearchOutcome {
            best_move: Some(hit.square),
            info,
        })
    }

    /// Takes the move, score and line of a completed iteration into `outcome`,
    /// `nodes` having been searched so far. Returns the nodes spent completing a
    /// proven line, within the node limit.
    pub(super) fn record_iteration<W: Word>(
        &self,
        run: &SearchRun<W>,
        outcome: &mut SearchOutcome,
        it: &Iteration,
        depth: u32,
        nodes: u64,
    ) -> u64 {
        let (score, bound) = root_score(it.score, it.exact);
        if let Some(&first) = it.pv.first() {
            outcome.best_move = Some(first);
        }
        outcome.info.depth = depth;
        outcome.info.score = Some(score);
        outcome.info.bound = bound;
        outcome.info.pv = it.pv.clone();
        let mut line_nodes = 0;
        if is_proven(it.score) {
            line_nodes = self.complete_line(run, &mut outcome.info.pv, nodes);
        }
        outcome.info.nodes = nodes + line_nodes;
        outcome.info.time = run.deadlines.started.elapsed();
        line_nodes
    }

    /// Extends the principal variation of a proven score, which may stop at a
    /// table entry or a matching verdict, by following the proof to the end, with
    /// the nodes left after `nodes`; returns the nodes it searched.
    fn complete_line<W: Word>(&self, run: &SearchRun<W>, pv: &mut Vec<Square>, nodes: u64) -> u64 {
        let mut end = *run.pos;
        for &mv in pv.iter() {
            if end.check_move(mv).is_err() {
                return 0;
            }
            end.play(mv);
        }
        if end.outcome().is_over() {
            return 0;
        }
        let start = line_start(run.deadlines.nodes.saturating_sub(nodes));
        let mut line_nodes = start;
        let hard = run.deadlines.hard;
        pv.extend(self.proof_line(&end, None, run.stop, hard, &mut line_nodes));
        line_nodes - start
    }

    pub(super) fn finish(
        &self,
        mut outcome: SearchOutcome,
        nodes: u64,
        deadlines: &Deadlines,
    ) -> SearchOutcome {
        outcome.info.nodes = nodes;
        outcome.info.time = deadlines.started.elapsed();
        outcome
    }

    /// Ends a search whose root the proof search has decided: the principal
    /// variation follows the proof to the end of the game.
    pub(super) fn finish_proven<W: Word>(
        &mut self,
        run: &SearchRun<W>,
        (proof, best): (Proof, Option<Square>),
        nodes: u64,
        seldepth: u32,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let SearchRun {
            pos,
            stop,
            deadlines,
        } = *run;
        let start = line_start(deadlines.nodes.saturating_sub(nodes));
        let mut line_nodes = start;
        let mut pv = self.proof_line(pos, best, stop, deadlines.hard, &mut line_nodes);
        let line_nodes = line_nodes - start;
        if pv.is_empty() {
            // The node limit left nothing to follow the proof with: its first move.
            pv.extend(best);
        }
        let (score, bound) = match proof {
            Proof::Win(n) => (Score::Mate(i32::from(n)), Bound::Lower),
            Proof::Loss(n) => (Score::Mate(-i32::from(n)), Bound::Upper),
        };
        let info = SearchInfo {
            depth: pv.len() as u32,
            seldepth: seldepth.max(pv.len() as u32),
            score: Some(score),
            bound,
            nodes: nodes + line_nodes,
            time: deadlines.started.elapsed(),
            hashfull: self.table.hashfull::<W>(),
            pv: pv.clone(),
        };
        report(&info);
        SearchOutcome {
            best_move: pv.first().copied().or(best).or_else(|| pos.moves().first()),
            info,
        }
    }
}

/// The scored search to depth 1, whatever the time limits: every search completes
/// at least this one iteration, so that the move played has always been searched.
/// It costs a node per root move and its replies' static evaluations.
/// Only a node limit below its cost (`nodes`) cuts it short, giving `None`.
pub(super) fn first_iteration<W: Word>(
    searcher: &mut Searcher<'_, W>,
    pos: &Position<W>,
    nodes: u64,
) -> Option<Iteration> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    searcher.set_budget(Budget::new(&NEVER, None, nodes));
    searcher.iterate(pos, 1, pos.geometry().all())
}

/// The safe root moves not yet proven to lose; all safe moves if every one loses.
pub(super) fn not_proven_losing<W: Word>(
    engine: &Engine,
    pos: &Position<W>,
    safe: Bitboard<W>,
) -> Bitboard<W> {
    let geo = pos.geometry();
    let mut allowed = geo.all();
    for c in safe {
        let lost = engine
            .stored_proof(&pos.after(c))
            .is_some_and(|(proof, _)| proof.is_win());
        if lost {
            allowed.remove(c);
        }
    }
    if (safe & allowed).is_empty() {
        geo.all()
    } else {
        allowed
    }
}
