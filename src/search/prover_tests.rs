//! Tests of the proof search's entry points.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::board::Size;
use crate::rng::Rng;

/// Random positions of small boards: proving move by move gives the same
/// verdict as proving the root, and its winning move wins.
#[test]
fn proving_move_by_move_agrees_with_proving_the_root() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for name in ["5x5", "6x6", "5x6"] {
        let size: Size = name.parse().expect("a board size");
        for _ in 0..60 {
            let mut position = Position::<u64>::start(size);
            for _ in 0..rng.below(8) {
                let moves: Vec<Square> = position.moves().iter().collect();
                let Some(&mv) = rng.choose(&moves) else { break };
                position.play(mv);
                if position.outcome().is_over() {
                    break;
                }
            }
            if position.outcome().is_over() {
                continue;
            }
            let geo = position.geometry();
            let whole = Table::new(1);
            let budget = Budget::new(&stop, None, u64::MAX);
            let expected = Prover::new(geo, &whole, budget).prove(&position);
            let by_moves_table = Table::new(1);
            let first = position.moves().iter().last();
            let got = Prover::new(geo, &by_moves_table, budget).prove_by_moves(&position, first);
            let (Some((expected, _)), Some((got, best))) = (expected, got) else {
                panic!("{position}: an unlimited proof gave up");
            };
            assert_eq!(expected.is_win(), got.is_win(), "{position}");
            if got.is_win() {
                let best = best.expect("a win names its move");
                let after = position.after(best);
                let table = Table::new(1);
                let reply = Prover::new(geo, &table, budget).prove(&after);
                let wins = after.outcome().winner() == Some(position.side_to_move())
                    || reply.is_some_and(|(p, _)| !p.is_win());
                assert!(wins, "{position}: {best:?} does not win");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} positions");
}
