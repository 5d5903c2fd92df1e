//! Tests of the prover.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::board::Position;

#[test]
fn a_win_proven_within_a_small_budget_comes_with_a_winning_move() {
    // A zone pocket near a1 folds, and the folded root is won by the matching
    // test; a budget too small to prove a child once made the prover name the
    // first legal move, e1, which loses to f1 (search_oracle found it).
    let pos: Position<u64> =
        Position::parse("x3x2/4xxx/x1x1x2/1x4x/1xx2xx/x1x1sxx/2xx2x 1").unwrap();
    let stop = AtomicBool::new(false);
    let prove = |pos: &Position<u64>, nodes: u64| {
        let table = Table::new(1);
        Prover::new(pos.geometry(), &table, Budget::new(&stop, None, nodes))
            .folding_pockets(true)
            .prove(pos)
    };
    let mut wins = 0;
    for nodes in 1..200 {
        if let Some((Proof::Win(_), best)) = prove(&pos, nodes) {
            let best = best.expect("a win names its move");
            let (reply, _) = prove(&pos.after(best), u64::MAX).unwrap();
            assert!(!reply.is_win(), "budget {nodes}: {} loses", pos.name(best));
            wins += 1;
        }
    }
    assert!(wins > 100, "only {wins} budgets proved the win");
}

#[test]
fn wasted_nodes_count_each_node_once_and_late_wins_are_some_wins() {
    // 7x7 from e5: player 1 wins, and some first tries fail on the way.
    let pos: Position<u64> = Position::parse("7/7/4s2/7/7/7/7 1").unwrap();
    let table = Table::new(4);
    let stop = AtomicBool::new(false);
    let mut prover = Prover::new(pos.geometry(), &table, Budget::new(&stop, None, u64::MAX));
    let (proof, _) = prover.prove(&pos).unwrap();
    assert!(proof.is_win());
    let s = prover.stats;
    assert!(s.late_wins > 0 && s.late_wins <= s.searched_wins, "{s:?}");
    // Failed children nested inside failed children are not counted twice.
    assert!(
        s.wasted_nodes > 0 && s.wasted_nodes < s.nodes,
        "wasted nodes exceed the nodes searched: {s:?}"
    );
}

#[test]
fn a_child_with_a_known_refutation_counts_one_reply_more() {
    // 7x7, the snail on d4, player 1 to move: three of its children, c4, e4 and e5.
    let pos: Position<u64> = Position::parse("7/7/7/3s3/7/7/7 1").unwrap();
    let geo = pos.geometry();
    let table = Table::new(1);
    let stop = AtomicBool::new(false);
    let mut prover = Prover::new(geo, &table, Budget::new(&stop, None, u64::MAX));
    let square = |name: &str| pos.size().parse_square(name).unwrap();
    let region = geo.all() - Bitboard::from_square(pos.snail());
    let child = |name: &str| Child {
        square: square(name),
        order: 40,
        region: region - Bitboard::from_square(square(name)),
        connected: true,
    };
    let mut children = [child("c4"), child("e4"), child("e5")];
    // Player 2 has won at e4's pattern by stepping to e3, one of its safe replies,
    // and at e5's by stepping to d4, the square player 1 has just slimed.
    let slot = |name: &str| {
        let c = child(name);
        prover.killers.slot(geo, c.square, Side::Two, c.region)
    };
    let (e4, e5) = (slot("e4"), slot("e5"));
    prover.killers.set(e4, square("e3"));
    prover.killers.set(e5, square("d4"));
    let opponent_safe = pos.open() - geo.deadly(Side::Two) - Bitboard::from_square(pos.snail());
    prover.order_known_refutations_last(&mut children, Side::One, opponent_safe);
    let orders: Vec<u32> = children.iter().map(|c| c.order).collect();
    assert_eq!(orders, [40, 40 + KNOWN_REFUTATION, 40]);
}

#[test]
fn a_lost_symmetric_root_costs_its_search_alone() {
    // b2 slimed, snail c3: the position is its own mirror image, so the search
    // leaves out one child of each mirror pair. The root is lost, and naming a
    // move for the loss once proved every child again, the mirror images
    // included: half the nodes of the whole 8x8 proof from e5 went there.
    let pos: Position<u64> = Position::parse("6/6/6/2s3/1x4/6 1").unwrap();
    let stop = AtomicBool::new(false);
    let table = Table::new(4);
    let mut prover = Prover::new(pos.geometry(), &table, Budget::new(&stop, None, u64::MAX));
    let (proof, best) = prover.prove(&pos).unwrap();
    assert!(!proof.is_win(), "{proof:?}");
    let best = best.expect("a loss names a move");
    assert!(
        pos.moves().contains(best),
        "{} is not legal",
        pos.name(best)
    );

    let fresh = Table::new(4);
    let mut root_only = Prover::new(pos.geometry(), &fresh, Budget::new(&stop, None, u64::MAX));
    let root = Node::root(pos.geometry(), &pos);
    let (root_proof, _) = root_only.node(root, false, 0).unwrap();
    assert_eq!(root_proof, proof);
    assert!(
        root_only.stats.mirror_skips > 0,
        "no mirror image was left out"
    );
    assert_eq!(prover.stats.nodes, root_only.stats.nodes);
}

#[test]
fn a_long_proof_on_a_large_board_starts_the_first_plies_with_fresh_killers() {
    // A step recorded for a pattern no search meets (the snail walled in), then
    // a proof of 5,000 nodes: the killers are emptied before each move to game
    // plies 1-3 of boards larger than 7x7, and only in long proofs.
    let survives = |position: &str, long: bool| {
        let pos: Position<u64> = Position::parse(position).unwrap();
        let geo = pos.geometry();
        let table = Table::new(16);
        let stop = AtomicBool::new(false);
        let mut prover = Prover::new(geo, &table, Budget::new(&stop, None, 5_000));
        if long {
            prover = prover.for_long_proof();
        }
        let walled_in = pos.size().parse_square("d5").unwrap();
        let slot = prover
            .killers
            .slot(geo, walled_in, Side::One, Bitboard::EMPTY);
        prover.killers.set(slot, walled_in);
        assert_eq!(prover.prove(&pos), None, "{position} proven in 5,000 nodes");
        prover.killers.get(slot) == Some(walled_in)
    };
    assert!(!survives("8/8/8/4s3/8/8/8/8 1", true), "8x8, game ply 0");
    assert!(survives("8/8/8/3xx3/4xs2/8/8/8 2", true), "8x8, game ply 3");
    assert!(survives("8/8/8/4s3/8/8/8/8 1", false), "8x8, a short proof");
    assert!(survives("7/7/7/3s3/7/7/7 1", true), "7x7");
}
