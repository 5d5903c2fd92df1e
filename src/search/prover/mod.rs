//! The proof search: boolean alpha-beta that decides win or loss exactly.
//!
//! It plays the game in its reduced form. Stepping into the opponent's goal, or onto
//! a square next to it, loses at once (the opponent steps in), so each player plays
//! with those squares forbidden; a player left with no other move loses. A player
//! whose turn starts next to their own goal wins by stepping in.
//!
//! At each node, in order of cost:
//! 0. in regions of [`POCKET_REGION`] squares or more, the pockets a door cuts off
//!    are folded to their value ([`super::pockets`]);
//! 1. own goal next to the snail: win; no safe move: loss;
//! 2. the transposition table, keyed on the reachable region;
//! 3. exact matching tests on the region (sealed regions, and one-sided tests
//!    when only one player's goal zone is reachable);
//! 4. immediate wins: a move after which the opponent has no safe reply; then, for
//!    every step at once by bit masks ([`Threats`]), steps that lose within two
//!    plies are dropped and a step that wins within three plies decides the node;
//! 5. enhanced transposition cutoff: every child is looked up before any is searched;
//! 6. the children: first the step that last won at a node with the same snail,
//!    side and region within two steps ([`Killers`]), then fewest safe replies for
//!    the opponent first, a child counting one more where the opponent's killer at
//!    its own pattern is one of those replies.
//!
//! Results carry an upper bound on the number of plies to the end of the game
//! under best play, propagated from the leaves.

use std::time::Instant;

use crate::board::{Bitboard, Geometry, Position, Side, Square, Word};

use super::busy::{BUSY_REGION, Busy};
use super::killers::Killers;
use super::matching::Matcher;
use super::node::{Node, Opening};
use super::pockets::POCKET_REGION;
use super::reduced::{Pieces, Proof, Threats, loses_in_two, wins_in_three};
use super::tt::{Key, Table};

mod budget;
mod folding;
mod sealed;

pub use budget::{Budget, ProverStats};

/// One child in move ordering.
#[derive(Clone, Copy)]
struct Child<W: Word> {
    square: Square,
    /// Ordering key: fewer safe replies for the opponent first; `u32::MAX` = skip.
    order: u32,
    region: Bitboard<W>,
    connected: bool,
}

/// A child's order key when it is known to lose for us, or is a mirror image.
const SKIP: u32 = u32::MAX;

/// The order key of the killer step (other children's keys are at least 16: every
/// child left to search leaves the opponent a safe reply).
const KILLER: u32 = 1;

/// What a child's order key gains when the opponent's killer at the child's own
/// pattern is one of the opponent's safe replies there: one safe reply (README,
/// ablation table, "known refutations").
const KNOWN_REFUTATION: u32 = 16;

/// Regions of at least this many squares look up [`KNOWN_REFUTATION`]s.
const KNOWN_REFUTATION_REGION: u32 = 20;

/// In a long proof on a board of more than 49 squares, each move of the game's
/// first this many plies is searched with empty killers: the patterns around the
/// centre look alike after different openings but are won by different steps.
/// The whole 8×8 proof from e5 needs 14 % fewer nodes, the first moves d5 and e4
/// 8 % fewer; 7×7 d4 would need 14 % more, so smaller boards keep them (README,
/// ablation table).
const FRESH_KILLER_PLIES: u32 = 3;

/// Boards of more than this many squares use [`FRESH_KILLER_PLIES`].
const FRESH_KILLER_MIN_SQUARES: usize = 49;

/// The boolean proof search over positions stored in words `W`.
pub struct Prover<'a, W: Word> {
    geometry: &'static Geometry<W>,
    table: &'a Table,
    matcher: Matcher<W>,
    budget: Budget<'a>,
    /// Counters.
    pub stats: ProverStats,
    /// Deepest ply reached.
    pub seldepth: u32,
    aborted: bool,
    /// Whether the processor has popcount and BMI instructions.
    fast_cpu: bool,
    /// Called about once a second with the counters so far.
    progress: Option<&'a mut dyn FnMut(&ProverStats)>,
    last_progress: Instant,
    /// The positions threads sharing the table are searching, if there are several.
    busy: Option<&'a Busy>,
    /// The step that last won at nodes like each node (see [`Killers`]).
    killers: Killers,
    /// A table from an earlier proof of the same position, whose winning moves are
    /// tried first at nodes of regions of at least the given size (a measuring aid).
    hints: Option<(&'a Table, u32)>,
    /// Regions of at least this many squares have their pockets folded.
    pocket_region: u32,
    /// Moves to game plies up to this one (counted from the start square) are
    /// searched with empty killers (see [`FRESH_KILLER_PLIES`]); 0 for none.
    fresh_killer_plies: u32,
}

impl<'a, W: Word> Prover<'a, W> {
    /// A prover for positions of `geometry`, using `table` and stopping per `budget`.
    pub fn new(geometry: &'static Geometry<W>, table: &'a Table, budget: Budget<'a>) -> Self {
        Prover {
            geometry,
            table,
            matcher: Matcher::new(geometry),
            budget,
            stats: ProverStats::default(),
            seldepth: 0,
            aborted: false,
            fast_cpu: has_fast_bit_instructions(),
            progress: None,
            last_progress: Instant::now(),
            busy: None,
            killers: Killers::small(),
            hints: None,
            pocket_region: u32::MAX,
            fresh_killer_plies: 0,
        }
    }

    /// A prover that tries first, at each node whose region has at least
    /// `min_region` squares, the winning move `hints` holds for it: with the table
    /// of an earlier proof of the same position, a bound on what a perfect move order
    /// at the winning side's nodes would save (`solve --hindsight`).
    pub fn with_hints(mut self, hints: &'a Table, min_region: u32) -> Self {
        self.hints = Some((hints, min_region));
        self
    }

    /// A prover for a long proof (`solve`): its killers have as many slots as the
    /// board's proofs need, not the few of a short proof's, and on boards larger
    /// than 7×7 each move of the game's first plies starts them afresh.
    pub fn for_long_proof(mut self) -> Self {
        let squares = self.geometry.size().squares();
        self.killers = Killers::for_board(squares as u32);
        if squares > FRESH_KILLER_MIN_SQUARES {
            self.fresh_killer_plies = FRESH_KILLER_PLIES;
        }
        self
    }

    /// A prover that starts from `killers`, learned by earlier proofs (the slices
    /// of `go` before it); [`Prover::into_killers`] hands them back.
    pub(super) fn with_killers(mut self, killers: Killers) -> Self {
        self.killers = killers;
        self
    }

    /// The killers this prover has learned, for the next proof to start from.
    pub(super) fn into_killers(self) -> Killers {
        self.killers
    }

    /// A prover that folds the pockets of regions of at least `min_region` squares
    /// (`u32::MAX`, a new prover's: none; [`POCKET_REGION`] for long proofs).
    pub fn with_pocket_region(mut self, min_region: u32) -> Self {
        self.pocket_region = min_region;
        self
    }

    /// A prover that folds pockets where they pay, in regions of [`POCKET_REGION`]
    /// squares or more, or (`fold` false) none.
    pub fn folding_pockets(self, fold: bool) -> Self {
        self.with_pocket_region(if fold { POCKET_REGION } else { u32::MAX })
    }

    /// A prover that shares `busy` with the other threads on its table.
    pub fn with_busy(mut self, busy: &'a Busy) -> Self {
        self.busy = Some(busy);
        self
    }

    /// Reports the counters about once a second through `progress` during long proofs.
    pub fn with_progress(mut self, progress: &'a mut dyn FnMut(&ProverStats)) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Proves `position`: `Some((proof, move))`, the move winning for a win and the
    /// most resisting one found for a loss; `None` if the budget ran out first.
    pub fn prove(&mut self, position: &Position<W>) -> Option<(Proof, Option<Square>)> {
        self.aborted = false;
        if position.outcome().is_over() {
            return None;
        }
        let root = Node::root(self.geometry, position);
        let (proof, best) = self.node(root, false, 0)?;
        let best = best.or_else(|| self.sealed_best(position, root.region, proof));
        // A win is reported only with a move that wins.
        if proof.is_win() && best.is_none() {
            return None;
        }
        Some((proof, best))
    }

    /// Whether the position is its own mirror image in the a1 diagonal.
    #[inline]
    fn is_symmetric(&self, snail: Square, region: Bitboard<W>) -> bool {
        let geo = self.geometry;
        geo.is_square() && geo.mirror_square(snail) == snail && geo.mirror(region) == region
    }

    /// One node of the proof search, compiled for the best instruction set the
    /// processor has: the search counts squares constantly, and a popcount
    /// instruction makes it much faster than the portable fallback. `probed` says
    /// the caller has just looked the node up in the table.
    #[inline]
    fn node(&mut self, node: Node<W>, probed: bool, ply: u32) -> Option<(Proof, Option<Square>)> {
        #[cfg(target_arch = "x86_64")]
        if self.fast_cpu {
            // SAFETY: `fast_cpu` is set only when the processor reports these features.
            return unsafe { self.node_with_bit_instructions(node, probed, ply) };
        }
        self.node_body(node, probed, ply)
    }

    /// [`Prover::node_body`] compiled with popcount, BMI1, BMI2 and LZCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn node_with_bit_instructions(
        &mut self,
        node: Node<W>,
        probed: bool,
        ply: u32,
    ) -> Option<(Proof, Option<Square>)> {
        self.node_body(node, probed, ply)
    }

    /// A node of the search proper, its pockets folded.
    #[inline(always)]
    fn node_search(
        &mut self,
        node: Node<W>,
        probed: bool,
        ply: u32,
    ) -> Option<(Proof, Option<Square>)> {
        // The node limit is exact: a node beyond it is never searched or counted.
        if self.stats.nodes >= self.budget.nodes {
            self.aborted = true;
        }
        if self.aborted {
            return None;
        }
        self.stats.nodes += 1;
        if self.stats.nodes & 1023 == 0 {
            if self.budget.exhausted(self.stats.nodes) {
                self.aborted = true;
            }
            if self.stats.nodes & 0xFFFF == 0 && self.last_progress.elapsed().as_secs() >= 1 {
                if let Some(progress) = self.progress.as_mut() {
                    progress(&self.stats);
                }
                self.last_progress = Instant::now();
            }
        }
        if self.aborted {
            return None;
        }
        self.seldepth = self.seldepth.max(ply);
        let geo = self.geometry;
        let key = node.key();
        let safe = match node.open(geo, geo.all()) {
            Opening::Open(safe) => safe,
            Opening::Ends(ending) if ending.immediate_win => {
                self.stats.immediate_wins += 1;
                return Some(self.won_by(key, ending.proof, ending.best()));
            }
            Opening::Ends(ending) => return Some((ending.proof, ending.best())),
        };
        let Node {
            open,
            snail,
            side,
            region,
            connected,
            ..
        } = node;
        // Children, with steps that lose or win within three plies spotted on the way.
        let opponent_deadly = geo.deadly(!side);
        let mut children = [Child {
            square: snail,
            order: 0,
            region: Bitboard::EMPTY,
            connected: false,
        }; 8];
        let mut count = 0;
        let mut known_longest = 0u16;
        // The masks spot both kinds of step for all steps at once; the functions
        // run only for the steps they decide, for the game's length.
        let threats = Threats::of(geo, open, side);
        // Each child's region comes first, with a prefetch of its table line, so
        // that the rest of this loop hides the memory's latency from the cutoff
        // check below.
        let pieces = Pieces::of(geo, region, connected);
        self.stats.floods += pieces.len() as u64 - 1;
        for c in safe {
            let (child_region, child_connected) = pieces.after_step(geo, c);
            self.table.prefetch(Key {
                region: child_region,
                snail: c,
                side: !side,
            });
            let replies = geo.neighbours(c) & (open - opponent_deadly);
            // A step after which some reply leaves us no safe move loses at once:
            // it needs no node of its own.
            if threats.step_loses_in_two(replies) {
                if let Some(plies) = loses_in_two(geo, open, side, c, replies) {
                    self.stats.losing_steps += 1;
                    known_longest = known_longest.max(plies);
                    continue;
                }
            }
            if threats.step_wins_in_three(geo, c, replies) {
                if let Some(plies) = wins_in_three(geo, open, side, c, replies) {
                    self.stats.wins_in_three += 1;
                    return Some(self.won_by(key, Proof::Win(plies), Some(c)));
                }
            }
            children[count] = Child {
                square: c,
                order: replies.len() * 16 + (geo.neighbours(c) & open).len(),
                region: child_region,
                connected: child_connected,
            };
            count += 1;
        }
        // The parent's cutoff check has looked this position up already, unless a
        // sibling searched since then may have stored it.
        if !probed {
            if let Some(entry) = self.table.probe(key) {
                if let Some(proof) = Proof::from_entry(&entry) {
                    self.stats.table_hits += 1;
                    return Some((proof, entry.best));
                }
            }
        }
        let nodes_before = self.stats.nodes;
        if let Some(proof) = node.verdict(geo, &mut self.matcher, self.table, 1) {
            self.stats.matching_verdicts += 1;
            // At the root, the matching's step where it wins: the region may be a
            // folded one, whose step the caller could not find from the position.
            let best = (ply == 0 && proof.is_win())
                .then(|| self.matcher.winning_step(snail, region))
                .flatten()
                .filter(|&step| safe.contains(step));
            return Some((proof, best));
        }

        let children = &mut children[..count];
        if self.is_symmetric(snail, region) {
            for child in children.iter_mut() {
                if geo.mirror_square(child.square) < child.square {
                    child.order = SKIP;
                    self.stats.mirror_skips += 1;
                }
            }
        }

        // Enhanced transposition cutoff: look every child up before searching any.
        let mut longest = known_longest;
        for child in children.iter_mut().filter(|c| c.order != SKIP) {
            let child_key = Key {
                region: child.region,
                snail: child.square,
                side: !side,
            };
            match self
                .table
                .probe(child_key)
                .and_then(|e| Proof::from_entry(&e))
            {
                Some(Proof::Loss(n)) => {
                    self.stats.etc_cutoffs += 1;
                    let proof = Proof::Win(n + 1);
                    self.store(key, proof, Some(child.square), nodes_before);
                    return Some((proof, Some(child.square)));
                }
                Some(Proof::Win(n)) => {
                    longest = longest.max(n + 1);
                    child.order = SKIP;
                    self.note_refuted(ply, child.square);
                }
                None => {}
            }
        }

        if region.len() >= KNOWN_REFUTATION_REGION {
            self.order_known_refutations_last(children, side, open - opponent_deadly);
        }
        // The step that won last at a node like this one goes first, whatever the
        // known refutations said of it.
        let slot = self.killers.slot(geo, snail, side, region);
        if let Some(step) = self.killers.get(slot) {
            order_first(children, step, KILLER);
        }
        if let Some((hints, min_region)) = self.hints {
            if region.len() >= min_region {
                hint_first(hints, key, children);
            }
        }
        // Skipped children sort last, so those left to search come first.
        children.sort_unstable_by_key(|c| c.order);
        let live = children.iter().take_while(|c| c.order != SKIP).count();
        let children = &children[..live];
        // With other threads on the table, children they are searching wait until
        // the rest are done (but the first is searched at once, as by them): a
        // second pass over the children searches only those deferred in the first.
        // Only where the side expected to lose moves (see [`Busy`]); elsewhere a
        // thread follows the others into the child they search, and its children
        // are not marked, for no other node asks about them.
        let splitting = self
            .busy
            .filter(|busy| region.len() >= BUSY_REGION && busy.splits_at(side));
        // The cutoff check above has just probed every child. On one thread nothing
        // can have stored a child since: a sibling's subtree never holds a sibling's
        // position (a new probe found 6 in 46 M nodes). Threads sharing the table
        // may have, so there each child but the first looks again.
        let shared = self.busy.is_some();
        let mut deferred = 0u32;
        let mut failed = 0u32;
        let (nodes_at_children, wasted_at_children) = (self.stats.nodes, self.stats.wasted_nodes);
        // The game ply of the children: the squares taken, less the snail's.
        let child_ply = geo.size().squares() as u32 - open.len();
        let fresh_killers = child_ply <= self.fresh_killer_plies;
        for (i, child) in children.iter().chain(children).enumerate() {
            let c = child.square;
            let child_node = Node {
                open: open - Bitboard::from_square(c),
                snail: c,
                side: !side,
                region: child.region,
                connected: child.connected,
                slimed: Some(snail),
            };
            let second_pass = i >= live;
            let bit = 1u32 << (i % live);
            if second_pass && deferred == 0 {
                break;
            }
            if second_pass && deferred & bit == 0 {
                continue;
            }
            let (nodes_at_child, wasted_at_child) = (self.stats.nodes, self.stats.wasted_nodes);
            if fresh_killers {
                self.killers.clear();
            }
            let result = match splitting {
                Some(busy) => {
                    let child_key = child_node.key();
                    if !second_pass && i > 0 && busy.is_busy(child_key) {
                        deferred |= bit;
                        continue;
                    }
                    busy.enter(child_key);
                    let result = self.node(child_node, i == 0 || !shared, ply + 1);
                    busy.leave(child_key);
                    result
                }
                _ => self.node(child_node, i == 0 || !shared, ply + 1),
            };
            let (proof, _) = result?;
            match proof {
                Proof::Loss(n) => {
                    self.stats.searched_wins += 1;
                    if failed > 0 {
                        // The failed siblings' nodes, less those already counted
                        // as wasted below them.
                        self.stats.late_wins += 1;
                        self.stats.wasted_nodes += (nodes_at_child - nodes_at_children)
                            - (wasted_at_child - wasted_at_children);
                    }
                    let proof = Proof::Win(n + 1);
                    self.store(key, proof, Some(c), nodes_before);
                    self.killers.set(slot, c);
                    return Some((proof, Some(c)));
                }
                Proof::Win(n) => {
                    failed += 1;
                    self.note_refuted(ply, c);
                    longest = longest.max(n + 1);
                }
            }
        }
        self.stats.searched_losses += 1;
        let proof = Proof::Loss(longest);
        self.store(key, proof, None, nodes_before);
        Some((proof, None))
    }

    /// Counts one safe reply more for each child whose own pattern has a killer for
    /// the opponent (who moves there) among `opponent_safe`, the opponent's safe
    /// squares: the opponent has won at a node like it before, so it probably
    /// loses for us. Only in regions of [`KNOWN_REFUTATION_REGION`] squares or
    /// more: below, a wrong order costs less than the lookups.
    #[inline]
    fn order_known_refutations_last(
        &self,
        children: &mut [Child<W>],
        side: Side,
        opponent_safe: Bitboard<W>,
    ) {
        let geo = self.geometry;
        for child in children.iter_mut().filter(|c| c.order != SKIP) {
            let slot = self.killers.slot(geo, child.square, !side, child.region);
            if let Some(reply) = self.killers.get(slot) {
                if (geo.neighbours(child.square) & opponent_safe).contains(reply) {
                    child.order += KNOWN_REFUTATION;
                }
            }
        }
    }

    /// Notes that `step` at `ply` has been refuted: at the root, that tells the
    /// threads sharing the table which root moves fail (see [`Busy`]).
    #[inline]
    fn note_refuted(&self, ply: u32, step: Square) {
        if ply == 0 {
            if let Some(busy) = self.busy {
                busy.root_move_refuted(step);
            }
        }
    }

    /// Stores and returns a win by `step` found without searching a child.
    #[inline]
    fn won_by(&self, key: Key<W>, proof: Proof, step: Option<Square>) -> (Proof, Option<Square>) {
        self.store(key, proof, step, self.stats.nodes);
        (proof, step)
    }

    #[inline]
    fn store(&self, key: Key<W>, proof: Proof, best: Option<Square>, nodes_before: u64) {
        let work = 64 - (self.stats.nodes - nodes_before + 1).leading_zeros();
        self.table.store(key, proof.entry(best, work as u8));
    }
}

/// Moves the winning move `hints` holds for `key` to the front of `children`.
fn hint_first<W: Word>(hints: &Table, key: Key<W>, children: &mut [Child<W>]) {
    let Some(entry) = hints.probe(key) else {
        return;
    };
    let (Some(Proof::Win(_)), Some(best)) = (Proof::from_entry(&entry), entry.best) else {
        return;
    };
    order_first(children, best, 0);
}

/// Gives the child that steps to `step`, unless it is skipped, the order key `order`.
fn order_first<W: Word>(children: &mut [Child<W>], step: Square, order: u32) {
    if let Some(child) = children
        .iter_mut()
        .find(|c| c.square == step && c.order != SKIP)
    {
        child.order = order;
    }
}

/// Whether the processor has the bit-manipulation instructions the fast path uses.
fn has_fast_bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
mod tests;
