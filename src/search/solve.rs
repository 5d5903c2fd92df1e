//! `solve`: proving a position, and following a proof to the end of the game.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Bitboard, Position, Square, Word};

use super::alphabeta::{MAX_PLY, Searcher, is_proven};
use super::deadlines::Deadlines;
use super::engine::Engine;
use super::limits::Limits;
use super::matching::Matcher;
use super::parallel;
use super::prover::{Budget, Prover, ProverStats};
use super::reduced::{MATE, Proof, forced_loss, reachable_region};
use super::report::{Bound, Score, SearchInfo, SearchOutcome, SolveOutcome, Verdict};
use super::tt::Key;

/// Node budget of one step of a principal variation: the table usually answers at once.
const LINE_STEP_NODES: u64 = 200_000;
/// Node budget of a whole principal variation.
const LINE_NODES: u64 = 2_000_000;

/// The node count to start [`Engine::proof_line`] from so that it searches at most
/// `allowance` nodes: the count it ends with, less this, is what it searched.
pub(super) fn line_start(allowance: u64) -> u64 {
    LINE_NODES.saturating_sub(allowance)
}
/// Most nodes the search for the exact length of the game may take. It may also
/// take no more than a quarter of the proof's nodes plus [`DISTANCE_NODES_EXTRA`],
/// and half its time: where the length costs much more than the proof, a bound is
/// reported instead.
const DISTANCE_NODES: u64 = 5_000_000;
/// Nodes the search for the exact length may take beyond its share of the proof's.
const DISTANCE_NODES_EXTRA: u64 = 50_000;
/// Nodes the proof of one move may take when an unfinished proof is summed up: the
/// table usually holds the answer, or it is near.
const MOVE_PROOF_NODES: u64 = 20_000;

/// What is known about the moves of a position whose proof did not finish:
/// [`Engine::partial_proof`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartialProof {
    /// Moves proven to lose, each with the plies within which the opponent then wins
    /// (counted from the position, the move included), shortest first.
    pub losing: Vec<(Square, u32)>,
    /// Moves proven to win, each with the plies within which they win, shortest first.
    pub winning: Vec<(Square, u32)>,
    /// Moves whose value is not known, in square order.
    pub undecided: Vec<Square>,
    /// The most promising move: a winning move if there is one, otherwise the scored
    /// search's choice among the moves not proven to lose, otherwise the move that
    /// loses slowest; `None` only when there is no move.
    pub best_move: Option<Square>,
    /// The scored search behind the choice, when one was run (no move was proven to win).
    pub guess: Option<SearchOutcome>,
    /// Nodes of the move proofs and of the scored search.
    pub nodes: u64,
}

impl Engine {
    pub(super) fn solve_in<W: Word>(
        &mut self,
        pos: &Position<W>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
        follow: bool,
    ) -> SolveOutcome {
        let deadlines = Deadlines::new(self, pos, limits);
        self.prepare_table(pos.size());
        self.table.new_search();
        let started = deadlines.started;
        let table = &self.table;
        let mut progress = |stats: &ProverStats| {
            report(&SearchInfo {
                nodes: stats.nodes,
                time: started.elapsed(),
                hashfull: table.hashfull::<W>(),
                ..SearchInfo::default()
            });
        };
        let budget = Budget::new(stop, deadlines.hard, deadlines.nodes);
        let proof = parallel::prove_within(
            table,
            pos,
            self.search_threads(),
            budget,
            self.options.fold_pockets,
            Some(&mut progress),
        );
        let (result, nodes, seldepth) = (proof.result, proof.nodes, proof.seldepth);
        log::info!("proof search counters of the main thread: {:?}", proof.main);
        let proof_time = started.elapsed();
        let mut info = SearchInfo {
            seldepth,
            nodes,
            time: started.elapsed(),
            hashfull: self.table.hashfull::<W>(),
            ..SearchInfo::default()
        };
        let Some((proof, best)) = result else {
            return SolveOutcome {
                verdict: None,
                best_move: None,
                length: None,
                info,
                proof_nodes: nodes,
                proof_time,
            };
        };
        if !follow {
            // The proof's own bound on the game's length.
            let (verdict, score, bound) = match proof {
                Proof::Win(n) => (Verdict::Win, Score::Mate(i32::from(n)), Bound::Lower),
                Proof::Loss(n) => (Verdict::Loss, Score::Mate(-i32::from(n)), Bound::Upper),
            };
            let mut info = info;
            info.score = Some(score);
            info.bound = bound;
            return SolveOutcome {
                verdict: Some(verdict),
                best_move: best,
                length: None,
                info,
                proof_nodes: nodes,
                proof_time,
            };
        }
        let mut line_nodes = 0;
        let mut pv = self.proof_line(pos, best, stop, deadlines.hard, &mut line_nodes);
        let (verdict, mut score, mut bound) = match proof {
            Proof::Win(n) => (Verdict::Win, Score::Mate(i32::from(n)), Bound::Lower),
            Proof::Loss(n) => (Verdict::Loss, Score::Mate(-i32::from(n)), Bound::Upper),
        };
        // Exact length, if an exact-mode search to the end of the game fits the budget.
        let mut length = None;
        let left = deadlines
            .nodes
            .saturating_sub(nodes + line_nodes)
            .min(DISTANCE_NODES)
            .min(nodes / 4 + DISTANCE_NODES_EXTRA);
        // It may also take no longer than half the proof did.
        let cutoff = Instant::now() + proof_time / 2 + Duration::from_millis(20);
        let deadline = deadlines.hard.map_or(cutoff, |hard| hard.min(cutoff));
        let budget = Budget::new(stop, Some(deadline), left);
        if let Some((plies, line, used)) = self.exact_distance(pos, budget) {
            length = Some(plies);
            score = Score::Mate(if verdict == Verdict::Win {
                plies as i32
            } else {
                -(plies as i32)
            });
            bound = Bound::Exact;
            line_nodes += used;
            pv = line;
        }
        info.depth = pv.len() as u32;
        info.score = Some(score);
        info.bound = bound;
        info.nodes += line_nodes;
        info.time = started.elapsed();
        info.pv = pv.clone();
        report(&info);
        SolveOutcome {
            verdict: Some(verdict),
            best_move: pv.first().copied().or(best),
            length,
            info,
            proof_nodes: nodes,
            proof_time,
        }
    }

    /// Size in MiB of the table as the last `solve` (or search) used it: the `Hash`
    /// setting, or less on small boards.
    pub fn table_megabytes(&self) -> usize {
        self.table.megabytes()
    }

    /// After a proof of `position` that did not finish, what the table and short
    /// proofs of each move tell, and a best guess from a scored search within
    /// `guess` (with `stop`, which the proofs of the moves ignore: they are short).
    pub fn partial_proof(
        &mut self,
        position: &Position,
        guess: &Limits,
        stop: &AtomicBool,
    ) -> PartialProof {
        let mut partial = match position.convert::<u64>() {
            Some(narrow) => self.move_proofs(&narrow),
            None => self.move_proofs(position),
        };
        if let Some(&(best, _)) = partial.winning.first() {
            partial.best_move = Some(best);
            return partial;
        }
        if !partial.undecided.is_empty() {
            let outcome = self.search(position, guess, stop, &mut |_| {});
            partial.nodes += outcome.info.nodes;
            let proven_losing = |square| partial.losing.iter().any(|&(s, _)| s == square);
            partial.best_move = outcome
                .best_move
                .filter(|&square| !proven_losing(square))
                .or(partial.undecided.first().copied());
            partial.guess = Some(outcome);
        } else {
            partial.best_move = partial.losing.last().map(|&(square, _)| square);
        }
        partial
    }

    /// The value of every move of `pos` that the table holds or a short proof finds.
    fn move_proofs<W: Word>(&self, pos: &Position<W>) -> PartialProof {
        let geo = pos.geometry();
        let side = pos.side_to_move();
        let no_stop = AtomicBool::new(false);
        let region = reachable_region(geo, pos.open(), pos.snail());
        let symmetric = geo.is_square()
            && geo.mirror_square(pos.snail()) == pos.snail()
            && geo.mirror(region) == region;
        let mut values: Vec<(Square, Option<Proof>)> = Vec::new();
        let mut nodes = 0;
        for to in pos.moves() {
            let child = pos.after(to);
            // A move into a goal corner ends the game: the corner's owner wins.
            let value = if let Some(winner) = child.outcome().winner() {
                Some(if winner == side {
                    Proof::Loss(0)
                } else {
                    Proof::Win(0)
                })
            } else {
                let budget = Budget::new(&no_stop, None, MOVE_PROOF_NODES);
                let mut prover = Prover::new(geo, &self.table, budget);
                let proof = prover.prove(&child).map(|(proof, _)| proof);
                nodes += prover.stats.nodes;
                proof
            };
            values.push((to, value));
        }
        // The proof search leaves out moves that mirror others: they share a value.
        if symmetric {
            for i in 0..values.len() {
                if values[i].1.is_none() {
                    let mirror = geo.mirror_square(values[i].0);
                    values[i].1 = values.iter().find(|v| v.0 == mirror).and_then(|v| v.1);
                }
            }
        }
        let mut partial = PartialProof {
            nodes,
            ..PartialProof::default()
        };
        for (to, value) in values {
            // The proof is the opponent's, after the move.
            match value {
                Some(Proof::Win(n)) => partial.losing.push((to, u32::from(n) + 1)),
                Some(Proof::Loss(n)) => partial.winning.push((to, u32::from(n) + 1)),
                None => partial.undecided.push(to),
            }
        }
        partial.losing.sort_by_key(|&(_, plies)| plies);
        partial.winning.sort_by_key(|&(_, plies)| plies);
        partial
    }

    /// The exact length of the game under best play, with a principal variation,
    /// from an exact-mode search deeper than the game can last; `None` if it does
    /// not finish within `nodes`. Also returns the nodes it used.
    fn exact_distance<W: Word>(
        &self,
        pos: &Position<W>,
        budget: Budget,
    ) -> Option<(u32, Vec<Square>, u64)> {
        let geo = pos.geometry();
        let depth = reachable_region(geo, pos.open(), pos.snail()).len() as i32 + 3;
        let mut searcher = Searcher::new(geo, &self.table, budget);
        searcher.set_exact_mode(true);
        let it = searcher.iterate(pos, depth, geo.all());
        let used = searcher.nodes;
        let it = it?;
        (it.exact && is_proven(it.score))
            .then(|| ((MATE as i32 - it.score.abs()) as u32, it.pv, used))
    }

    /// A line from `pos` that follows a proof to the end of the game: the winner
    /// plays proven winning moves (starting with `first` if given), the loser the
    /// move whose proof allows the longest game. Stops early if a step cannot be
    /// proven within its budget.
    pub(super) fn proof_line<W: Word>(
        &self,
        pos: &Position<W>,
        first: Option<Square>,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        nodes: &mut u64,
    ) -> Vec<Square> {
        let geo = pos.geometry();
        let mut line = Vec::new();
        let mut p = *pos;
        let mut hint = first;
        // Who wins, once a step is proven: the players alternate from there.
        let mut winner = None;
        // Past the line's node budget, steps the table answers still extend it.
        while line.len() < MAX_PLY && !p.outcome().is_over() {
            let side = p.side_to_move();
            let moves = p.moves();
            let safe = moves - geo.deadly(side);
            let next = if safe.is_empty() || moves.contains(geo.size().goal(side)) {
                let goal = geo.size().goal(side);
                if moves.contains(goal) {
                    Some(goal)
                } else {
                    forced_loss(geo, moves, !side).1
                }
            } else {
                let proven = self.prove_step(&p, stop, deadline, nodes);
                match proven {
                    Some((Proof::Win(_), _)) => winner = Some(side),
                    Some((Proof::Loss(_), _)) => winner = Some(!side),
                    None => {}
                }
                match (proven, winner) {
                    (Some((Proof::Win(_), best)), _) => hint.filter(|h| safe.contains(*h)).or(best),
                    // Every move of a lost position loses: past the budget, any will do.
                    (_, Some(w)) if w != side => self
                        .longest_resistance(&p, safe, stop, deadline, nodes)
                        .or_else(|| safe.first()),
                    // Past the budget, the winner's step may still come from the
                    // matching, where the mover's forbidden squares are out of reach.
                    (_, Some(_)) => matching_step(&p, reachable_region(geo, p.open(), p.snail())),
                    (_, None) => None,
                }
            };
            hint = None;
            let Some(mv) = next else { break };
            line.push(mv);
            p.play(mv);
        }
        line
    }

    /// The loser's move whose proof allows the longest game. Children already
    /// proven in the table are compared first (the search leaves out children that
    /// are mirror images of others, and does not need to prove them again); only if
    /// none is there are the children proven one by one.
    fn longest_resistance<W: Word>(
        &self,
        p: &Position<W>,
        safe: Bitboard<W>,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        nodes: &mut u64,
    ) -> Option<Square> {
        let mut longest: Option<(u16, Square)> = None;
        for c in safe {
            if let Some((Proof::Win(n), _)) = self.stored_proof(&p.after(c)) {
                if longest.is_none_or(|(m, _)| n > m) {
                    longest = Some((n, c));
                }
            }
        }
        if longest.is_none() {
            for c in safe {
                if let Some((Proof::Win(n), _)) =
                    self.prove_step(&p.after(c), stop, deadline, nodes)
                {
                    if longest.is_none_or(|(m, _)| n > m) {
                        longest = Some((n, c));
                    }
                }
            }
        }
        longest.map(|(_, c)| c)
    }

    /// A winning step of a win the table holds without one (the matching tests
    /// name none): a child the table holds as lost, or the matching's winning step.
    fn stored_winning_step<W: Word>(
        &self,
        pos: &Position<W>,
        region: Bitboard<W>,
    ) -> Option<Square> {
        let safe = pos.moves() - pos.geometry().deadly(pos.side_to_move());
        let lost_child = safe
            .into_iter()
            .find(|&c| matches!(self.stored_proof(&pos.after(c)), Some((Proof::Loss(_), _))));
        lost_child.or_else(|| matching_step(pos, region))
    }

    /// The proof the table holds for `pos`, with its move, if it holds one.
    pub(super) fn stored_proof<W: Word>(
        &self,
        pos: &Position<W>,
    ) -> Option<(Proof, Option<Square>)> {
        let key = Key {
            region: reachable_region(pos.geometry(), pos.open(), pos.snail()),
            snail: pos.snail(),
            side: pos.side_to_move(),
        };
        let entry = self.table.probe(key)?;
        Proof::from_entry(&entry).map(|proof| (proof, entry.best))
    }

    fn prove_step<W: Word>(
        &self,
        pos: &Position<W>,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        nodes: &mut u64,
    ) -> Option<(Proof, Option<Square>)> {
        // The proof just found is usually in the table: a line may follow it even
        // when the node limit leaves nothing to search with.
        match self.stored_proof(pos) {
            Some((proof @ Proof::Win(_), best)) => {
                let region = reachable_region(pos.geometry(), pos.open(), pos.snail());
                let best = best.or_else(|| self.stored_winning_step(pos, region));
                if best.is_some() {
                    return Some((proof, best));
                }
            }
            Some((proof @ Proof::Loss(_), _)) => return Some((proof, None)),
            None => {}
        }
        let budget = Budget::new(
            stop,
            deadline,
            LINE_STEP_NODES.min(LINE_NODES.saturating_sub(*nodes)),
        );
        let mut prover = Prover::new(pos.geometry(), &self.table, budget);
        let result = prover.prove(pos);
        *nodes += prover.stats.nodes;
        result
    }
}

/// The step that wins by the matching when the mover's forbidden squares (the
/// opponent's goal and the squares next to it) are out of `region`: the mover
/// follows a maximum matching and never needs them, and an opponent who steps into
/// the mover's goal zone loses. `None` if the test does not apply or finds none.
fn matching_step<W: Word>(pos: &Position<W>, region: Bitboard<W>) -> Option<Square> {
    let geo = pos.geometry();
    let forbidden = geo.deadly(pos.side_to_move());
    if region.intersects(forbidden) {
        return None;
    }
    Matcher::new(geo)
        .winning_step(pos.snail(), region)
        .filter(|&step| (pos.moves() - forbidden).contains(step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::EngineOptions;

    #[test]
    fn a_proof_in_the_table_gives_a_whole_line_with_no_nodes_left() {
        // `go nodes N` that the proof uses up leaves the line nothing to search with:
        // the line must still reach the end of the game, from the table.
        let wide: Position =
            Position::parse("7/7/6s/3x2x/1xxx1x1/1xxxxxx/1xxxxx1 2").expect("a valid position");
        let pos: Position<u64> = wide.convert().expect("a 7x7 position fits in 64 bits");
        let mut engine = Engine::new(EngineOptions::default());
        let stop = AtomicBool::new(false);
        let proven = engine.prove(&wide, &Limits::default(), &stop, &mut |_| {});
        assert!(proven.verdict.is_some(), "the position is proven");
        let mut nodes = LINE_NODES;
        let line = engine.proof_line(&pos, None, &stop, None, &mut nodes);
        let mut end = pos;
        for &mv in &line {
            end.play(mv);
        }
        assert!(
            end.outcome().is_over(),
            "the line stops before the end of the game: {} plies",
            line.len()
        );
        assert_eq!(nodes, LINE_NODES, "the line searched nodes it did not have");
    }
}
