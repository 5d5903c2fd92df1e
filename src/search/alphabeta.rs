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

use crate::board::{Bitboard, Geometry, Position, Side, Square, Word};

use super::eval::evaluate;
use super::matching::Matcher;
use super::prover::Budget;
use super::reduced::{
    MATE, MATE_BOUND, Pieces, Proof, forced_loss, matching_verdict, reachable_region,
};
use super::tt::{Entry, Key, PROVEN, Table, TtBound};

/// Deepest ply the search can reach (no game is longer than the board).
pub const MAX_PLY: usize = 128;

const INFINITY: i32 = MATE as i32 + 1;

/// A mate score from the root: win in `plies` plies.
#[inline(always)]
fn mate_in(plies: u32) -> i32 {
    MATE as i32 - plies as i32
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
    history: [[u32; 128]; 2],
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
            history: [[0; 128]; 2],
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
    pub fn iterate(
        &mut self,
        position: &Position<W>,
        depth: i32,
        allowed: Bitboard<W>,
    ) -> Option<Iteration> {
        self.aborted = false;
        self.inexact = 0;
        let open = position.open();
        let snail = position.snail();
        let region = reachable_region(self.geometry, open, snail);
        let connected = self.geometry.ring_connected(region, snail);
        let score = self.negamax(
            Node {
                open,
                snail,
                side: position.side_to_move(),
                region,
                connected,
            },
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
        match proof {
            Proof::Win(n) => mate_in(ply + u32::from(n)),
            Proof::Loss(n) => -mate_in(ply + u32::from(n)),
        }
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
        let size = geo.size();
        let p = ply as usize;
        self.pv_len[p] = p;
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.budget.exhausted(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let Node {
            open,
            snail,
            side,
            region,
            ..
        } = node;
        let moves = geo.neighbours(snail) & open & allowed;
        if moves.contains(size.goal(side)) {
            self.pv[p][p] = size.goal(side);
            self.pv_len[p] = p + 1;
            return mate_in(ply + 1);
        }
        let safe = moves - geo.deadly(side);
        if safe.is_empty() {
            // The forced step, and the winner's step into its goal after it.
            let (plies, best) = forced_loss(geo, moves, !side);
            let plies = u32::from(plies);
            if let Some(mv) = best {
                self.pv[p][p] = mv;
                self.pv_len[p] = p + 1;
                if plies == 2 && p + 2 <= MAX_PLY {
                    self.pv[p][p + 1] = size.goal(!side);
                    self.pv_len[p] = p + 2;
                }
            }
            return -mate_in(ply + plies);
        }
        if ply as usize >= MAX_PLY - 1 {
            return self.evaluate(&node);
        }
        // Mate distance pruning.
        alpha = alpha.max(-mate_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Immediate wins: the fastest of them is the fastest win there is.
        let opponent_deadly = geo.deadly(!side);
        let mut fastest: Option<(u32, Square)> = None;
        for c in safe {
            if (geo.neighbours(c) & (open - opponent_deadly)).is_empty() {
                let (plies, _) = forced_loss(geo, geo.neighbours(c) & open, side);
                let plies = u32::from(plies);
                if fastest.is_none_or(|(n, _)| 1 + plies < n) {
                    fastest = Some((1 + plies, c));
                }
            }
        }
        if let Some((n, c)) = fastest {
            // The line to the end: our move, the opponent's forced step (next to our
            // goal, or into it), and our step into the goal.
            let mut line = [c, c, c];
            let mut len = 1;
            let (_, forced) = forced_loss(geo, geo.neighbours(c) & open, side);
            if let Some(f) = forced {
                line[len] = f;
                len += 1;
                if f != size.goal(side) {
                    line[len] = size.goal(side);
                    len += 1;
                }
            }
            if p + len <= MAX_PLY {
                self.pv[p][p..p + len].copy_from_slice(&line[..len]);
                self.pv_len[p] = p + len;
            }
            return mate_in(ply + n);
        }

        let key = Key {
            region,
            snail,
            side,
        };
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
            matching_verdict(geo, &mut self.matcher, side, snail, region)
        };
        if let Some(proof) = verdict {
            self.table.store(key, proof.entry(None, 0));
            if !self.exact_mode {
                return self.bounded(proof, ply);
            }
            // Exact mode: the verdict bounds the value; it decides only if it cuts.
            match proof {
                Proof::Win(n) if mate_in(ply + u32::from(n)) >= beta => {
                    return mate_in(ply + u32::from(n));
                }
                Proof::Loss(n) if -mate_in(ply + u32::from(n)) <= alpha => {
                    return -mate_in(ply + u32::from(n));
                }
                _ => {}
            }
        }
        if depth <= 0 {
            self.inexact += 1;
            return self.evaluate(&node);
        }

        // Order: table move, killers, then fewest safe replies, then history.
        let mut children: [(Square, i64); 8] = [(snail, 0); 8];
        let mut count = 0;
        for c in safe {
            let replies = (geo.neighbours(c) & (open - opponent_deadly)).len() as i64;
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
        let pieces = Pieces::of(geo, region, node.connected);
        for (i, &(c, _)) in children.iter().enumerate() {
            let (child_region, connected) = pieces.after_step(geo, c);
            let child = Node {
                open: open - Bitboard::from_square(c),
                snail: c,
                side: !side,
                region: child_region,
                connected,
            };
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
        let entry = if self.exact_mode && is_proven(best) {
            // Nothing approximate was used as a value: the bound is the true one.
            Entry {
                best: best_move,
                score: to_table(best, ply),
                bound,
                draft: PROVEN,
                work: 0,
            }
        } else if best > MATE_BOUND as i32 && bound != TtBound::Upper {
            // A win: proven whatever the depth, but other moves might win faster.
            // (A winning score that failed low is only an upper bound: mate
            // distance pruning hands those back. It is no proof.)
            Entry {
                best: best_move,
                score: to_table(best, ply),
                bound: TtBound::Lower,
                draft: PROVEN,
                work: 0,
            }
        } else if best < -(MATE_BOUND as i32) && bound != TtBound::Lower {
            // Every move loses: proven, lasting at most this long.
            Entry {
                best: best_move,
                score: to_table(best, ply),
                bound: TtBound::Upper,
                draft: PROVEN,
                work: 0,
            }
        } else {
            Entry {
                best: best_move,
                score: to_table(best, ply),
                bound,
                draft: depth.clamp(0, 254) as u8,
                work: 0,
            }
        };
        if ply > 0 || allowed == geo.all() {
            self.table.store(key, entry);
        }
        best
    }
}

/// The state the search passes down.
#[derive(Clone, Copy)]
struct Node<W: Word> {
    open: Bitboard<W>,
    snail: Square,
    side: Side,
    region: Bitboard<W>,
    connected: bool,
}
