//! The scored search: iterative deepening negamax with principal variation search.
//!
//! Leaves beyond the horizon get the heuristic evaluation; everything the rules or
//! the matching theorem decide gets a proven score. Proven scores are mate scores:
//! `MATE - n` wins in `n` plies from the root. Results that are proven without an
//! exact length (matching verdicts) count their bound as the length. The search
//! counts every value it uses that is not the exact game value (heuristic leaves,
//! bounds standing as values), so the root knows whether its mate distance is
//! exact. In exact mode bounds only ever cut, and a search deeper than the game
//! is long gives exact mate distances.

use crate::board::{Bitboard, Geometry, MAX_SQUARES, Position, Square, Word};

use super::eval::evaluate;
use super::matching::Matcher;
use super::node::{Node, Opening};
use super::prover::Budget;
use super::reduced::{MATE, MATE_BOUND, Pieces, Proof};
use super::tt::{Entry, PROVEN, Table, TtBound};

/// Deepest ply the search can reach (no game is longer than the board).
pub const MAX_PLY: usize = 128;

const INFINITY: i32 = MATE as i32 + 1;

/// A mate score from the root: win in `plies` plies.
#[inline(always)]
fn mate_in(plies: u32) -> i32 {
    MATE as i32 - plies as i32
}

/// The mate score of `proof` at a node `ply` plies from the root.
#[inline(always)]
fn proof_score(proof: Proof, ply: u32) -> i32 {
    match proof {
        Proof::Win(n) => mate_in(ply + u32::from(n)),
        Proof::Loss(n) => -mate_in(ply + u32::from(n)),
    }
}

/// Whether a score is a proven result.
#[inline(always)]
pub fn is_proven(score: i32) -> bool {
    score.abs() > MATE_BOUND as i32
}

/// Score stored in the table: mate distances counted from the node, not the root.
#[inline(always)]
fn to_table(score: i32, ply: u32) -> i16 {
    let s = if score > MATE_BOUND as i32 {
        score + ply as i32
    } else if score < -(MATE_BOUND as i32) {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// Score read from the table, with mate distances counted from the root again.
#[inline(always)]
fn from_table(score: i16, ply: u32) -> i32 {
    let s = i32::from(score);
    if s > MATE_BOUND as i32 {
        s - ply as i32
    } else if s < -(MATE_BOUND as i32) {
        s + ply as i32
    } else {
        s
    }
}

/// The scored search over positions stored in words `W`.
pub struct Searcher<'a, W: Word> {
    geometry: &'static Geometry<W>,
    table: &'a Table,
    matcher: Matcher<W>,
    budget: Budget<'a>,
    /// Nodes visited.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: u32,
    aborted: bool,
    /// Values used that are not the exact game value (heuristic leaves, bounds
    /// taken as values) since the counter was last reset.
    inexact: u64,
    /// Search for exact mate distances: bounds only ever cut, never stand as values.
    exact_mode: bool,
    pv: Vec<[Square; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    killers: [[Option<Square>; 2]; MAX_PLY],
    history: [[u32; MAX_SQUARES]; 2],
}

/// The result of one root iteration.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Best score from the root's point of view.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<Square>,
    /// Whether a proven score's distance is exact.
    pub exact: bool,
}

impl<'a, W: Word> Searcher<'a, W> {
    /// A searcher for positions of `geometry`, using `table` and stopping per `budget`.
    pub fn new(geometry: &'static Geometry<W>, table: &'a Table, budget: Budget<'a>) -> Self {
        Searcher {
            geometry,
            table,
            matcher: Matcher::new(geometry),
            budget,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            inexact: 0,
            exact_mode: false,
            pv: vec![[Square::from_index(0); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            killers: [[None; 2]; MAX_PLY],
            history: [[0; MAX_SQUARES]; 2],
        }
    }

    /// Switches exact mode on or off: with it, and a depth beyond the end of the
    /// game, the root's mate distance is exact.
    pub fn set_exact_mode(&mut self, exact: bool) {
        self.exact_mode = exact;
    }

    /// Replaces the budget for the next iterations; killers and history are kept.
    pub fn set_budget(&mut self, budget: Budget<'a>) {
        self.budget = budget;
    }

    /// Searches the root to `depth` plies, considering only the moves in `allowed`.
    /// If every one of them loses, searches every move again: a move set aside as
    /// lost may resist longer, and a mate score bounds the length of the longest
    /// resistance, so the score and the move must count it.
    pub fn iterate(
        &mut self,
        position: &Position<W>,
        depth: i32,
        allowed: Bitboard<W>,
    ) -> Option<Iteration> {
        let iteration = self.iterate_over(position, depth, allowed)?;
        let all = self.geometry.all();
        if iteration.score < -(MATE_BOUND as i32) && allowed != all {
            return self.iterate_over(position, depth, all);
        }
        Some(iteration)
    }

    /// One iteration of [`Searcher::iterate`] over the root moves in `allowed`.
    fn iterate_over(
        &mut self,
        position: &Position<W>,
        depth: i32,
        allowed: Bitboard<W>,
    ) -> Option<Iteration> {
        self.aborted = false;
        self.inexact = 0;
        let score = self.negamax(
            Node::root(self.geometry, position),
            depth,
            0,
            -INFINITY,
            INFINITY,
            allowed,
        );
        if self.aborted {
            return None;
        }
        Some(Iteration {
            score,
            pv: self.pv[0][..self.pv_len[0]].to_vec(),
            exact: self.inexact == 0,
        })
    }

    /// The static evaluation of a node.
    fn evaluate(&mut self, node: &Node<W>) -> i32 {
        evaluate(
            self.geometry,
            &mut self.matcher,
            node.open,
            node.snail,
            node.side,
            node.region,
        )
        .total
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Square) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// A proven score with a length bound only, counted as inexact.
    fn bounded(&mut self, proof: Proof, ply: u32) -> i32 {
        self.inexact += 1;
        proof_score(proof, ply)
    }

    fn negamax(
        &mut self,
        node: Node<W>,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        allowed: Bitboard<W>,
    ) -> i32 {
        let geo = self.geometry;
        let p = ply as usize;
        self.pv_len[p] = p;
        // The node limit is exact: a node beyond it is never searched or counted.
        if self.aborted || self.nodes >= self.budget.nodes {
            self.aborted = true;
            return 0;
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.budget.exhausted(self.nodes) {
            self.aborted = true;
        }
        self.seldepth = self.seldepth.max(ply);
        // Mate distance pruning.
        alpha = alpha.max(-mate_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let safe = match node.open(geo, allowed) {
            Opening::Open(safe) => safe,
            Opening::Ends(ending) => {
                let line = ending.line();
                let len = line.len().min(MAX_PLY - p);
                self.pv[p][p..p + len].copy_from_slice(&line[..len]);
                self.pv_len[p] = p + len;
                return proof_score(ending.proof, ply);
            }
        };
        if ply as usize >= MAX_PLY - 1 {
            return self.evaluate(&node);
        }

        let key = node.key();
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(key) {
            tt_move = entry.best.filter(|&m| safe.contains(m));
            let score = from_table(entry.score, ply);
            let usable = entry.draft == PROVEN || (ply > 0 && i32::from(entry.draft) >= depth);
            // Exact mode keeps principal-variation nodes searched, so that their
            // lines reach the end of the game.
            let pv_node = beta > alpha + 1;
            if usable && ply > 0 && !(self.exact_mode && pv_node) {
                let cut = match entry.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => score >= beta,
                    TtBound::Upper => score <= alpha,
                };
                if cut {
                    // A bound outside the window is a sound cutoff; a heuristic value
                    // used as the value is not exact.
                    if entry.draft != PROVEN {
                        self.inexact += 1;
                    }
                    return score;
                }
            }
        }

        // At the root a verdict names no move: search the children, which the
        // verdicts then settle one by one.
        let verdict = if ply == 0 {
            None
        } else {
            node.verdict(geo, &mut self.matcher, self.table, 0)
        };
        if let Some(proof) = verdict {
            if !self.exact_mode {
                return self.bounded(proof, ply);
            }
            // Exact mode: the verdict bounds the value; it decides only if it cuts.
            let score = proof_score(proof, ply);
            if (proof.is_win() && score >= beta) || (!proof.is_win() && score <= alpha) {
                return score;
            }
        }
        if depth <= 0 {
            self.inexact += 1;
            return self.evaluate(&node);
        }

        // Order: table move, killers, then fewest safe replies, then history.
        let side = node.side;
        let opponent_moves = node.open - geo.deadly(!side);
        let mut children: [(Square, i64); 8] = [(node.snail, 0); 8];
        let mut count = 0;
        for c in safe {
            let replies = (geo.neighbours(c) & opponent_moves).len() as i64;
            let mut order =
                -replies * 1_000_000 + i64::from(self.history[side.index()][c.index() as usize]);
            if Some(c) == tt_move {
                order = i64::MAX;
            } else if self.killers[p].contains(&Some(c)) {
                order += 500_000;
            }
            children[count] = (c, order);
            count += 1;
        }
        let children = &mut children[..count];
        children.sort_unstable_by_key(|&(_, order)| std::cmp::Reverse(order));

        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let pieces = Pieces::of(geo, node.region, node.connected);
        for (i, &(c, _)) in children.iter().enumerate() {
            let child = node.child(geo, &pieces, c);
            let all = geo.all();
            let mut score;
            if i == 0 {
                score = -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, all);
            } else {
                score = -self.negamax(child, depth - 1, ply + 1, -alpha - 1, -alpha, all);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, all);
                }
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(c);
                if score > alpha {
                    alpha = score;
                    self.update_pv(p, c);
                    if alpha >= beta {
                        if Some(c) != tt_move {
                            let k = &mut self.killers[p];
                            if k[0] != Some(c) {
                                k[1] = k[0];
                                k[0] = Some(c);
                            }
                        }
                        let h = &mut self.history[side.index()][c.index() as usize];
                        *h = h.saturating_add((depth * depth) as u32);
                        break;
                    }
                }
            }
        }

        let bound = if best >= beta {
            TtBound::Lower
        } else if best > alpha_start {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let (bound, draft) = if self.exact_mode && is_proven(best) {
            // Nothing approximate was used as a value: the bound is the true one.
            (bound, PROVEN)
        } else if best > MATE_BOUND as i32 && bound != TtBound::Upper {
            // A win: proven whatever the depth, but other moves might win faster.
            // (A winning score that failed low is only an upper bound: mate
            // distance pruning hands those back. It is no proof.)
            (TtBound::Lower, PROVEN)
        } else if best < -(MATE_BOUND as i32) && bound != TtBound::Lower {
            // Every move loses: proven, lasting at most this long.
            (TtBound::Upper, PROVEN)
        } else {
            (bound, depth.clamp(0, 254) as u8)
        };
        let entry = Entry {
            best: best_move,
            score: to_table(best, ply),
            bound,
            draft,
            work: 0,
        };
        if ply > 0 || allowed == geo.all() {
            self.table.store(key, entry);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// A lost 5x5 position: the longest resistance, b2, lasts 10 plies; d2 loses
    /// in 6 (d3 e3 e4 d5 e5).
    const LOST: &str = "xxx2/xxxx1/xxx2/x1s2/1x3 1";

    #[test]
    fn a_loss_counts_the_root_moves_set_aside_as_lost() {
        let position: Position<u64> = Position::parse(LOST).expect("the position parses");
        let geo = position.geometry();
        let d2 = geo.size().parse_square("d2").expect("d2 is on 5x5");
        let table = Table::new(1);
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(geo, &table, Budget::new(&stop, None, u64::MAX));
        // The proof slices of `go` had set every other move aside as lost.
        let it = searcher
            .iterate(&position, 3, Bitboard::from_square(d2))
            .expect("an unlimited search completes");
        // Whatever the score, a mate score must not claim a loss shorter than 10.
        let plies = MATE as i32 + it.score;
        assert!(
            !is_proven(it.score) || it.score > 0 || plies >= 10,
            "a loss within {plies} plies (pv {:?}), but b2 resists for 10",
            it.pv
        );
    }
}
