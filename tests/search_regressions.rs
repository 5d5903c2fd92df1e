//! Search bugs found by the oracle sweep (tests/search_oracle.rs), one small test
//! each, checked against the independent oracle (tests/oracle).
//!
//! The tests of bugs still open are `#[ignore]`d so that the suite stays green while
//! the search is being reworked; `cargo test --test tests search_regressions --
//! --ignored` shows them failing. Once a bug is fixed, drop its `#[ignore]` and its
//! entry in `KNOWN_BUGS` of tests/search_oracle.rs.

use crate::oracle;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use slimetrail::board::Position;
use slimetrail::rng::Rng;
use slimetrail::search::{Engine, EngineOptions, Limits, Score, TimeControl, Verdict};

use oracle::positions::slime;
use oracle::{Grid, Oracle, State, state_from_fen};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 2,
        ..EngineOptions::default()
    })
}

fn position(grid: &Grid, state: &State) -> Position {
    state.to_position(grid)
}

/// Plays `pv` from `state` and returns the winner at its end, if the game ended.
fn winner_after(grid: &Grid, state: &State, pv: &[slimetrail::board::Square]) -> Option<usize> {
    let mut s = *state;
    for &mv in pv {
        let cell = mv.index() as usize;
        assert!(
            s.moves(grid) & (1u64 << cell) != 0,
            "illegal pv move {}",
            grid.name(cell)
        );
        s = s.after(cell);
    }
    s.winner(grid)
}

/// `go depth N` in a sealed region: the scored search decides the root by a
/// matching verdict, reports `score mate 7` with an empty pv, and plays its
/// fallback move b2, which loses (player 2 answers c1 and player 1 is stuck).
#[test]
fn depth_search_of_a_sealed_win_plays_a_winning_move() {
    for (width, height, fen) in [
        (6, 4, "x1xx2/1s1x1x/x1xxxx/1x1xx1 1"),
        (7, 7, "xxxxxx1/4xx1/xxs1x1x/2xxx2/xxx3x/xxx4/1xxx1x1 2"),
        (3, 7, "1x1/xx1/3/sx1/x1x/xx1/1xx 2"),
    ] {
        let grid = Grid::new(width, height);
        let mut oracle = Oracle::new(grid.clone());
        let state = state_from_fen(&grid, fen);
        assert!(oracle.wins(&state), "{fen} is a win for the side to move");
        for depth in [1, 3, 10] {
            let mut engine = engine();
            let out = engine.search(
                &position(&grid, &state),
                &Limits::depth(depth),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            let best = out.best_move.expect("a move").index() as usize;
            assert!(
                oracle.move_wins(&state, best),
                "{fen} depth {depth}: {:?} with pv {:?}, but {} loses",
                out.info.score,
                out.info.pv,
                grid.name(best)
            );
        }
    }
}

/// `go depth N` reports a proven win whose principal variation stops at a table
/// hit or a matching verdict instead of ending in the win.
#[test]
fn depth_search_pv_of_a_proven_win_ends_in_the_win() {
    for (width, height, fen, depth) in [
        (6, 4, "x2x2/4xx/x2s2/1xx3 2", 19),
        (4, 4, "4/4/4/3s 1", 18),
        (5, 5, "5/5/2s2/5/5 1", 27),
    ] {
        let grid = Grid::new(width, height);
        let state = state_from_fen(&grid, fen);
        let out = engine().search(
            &position(&grid, &state),
            &Limits::depth(depth),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(
            matches!(out.info.score, Some(Score::Mate(n)) if n > 0),
            "{fen} depth {depth}: expected a proven win, got {:?}",
            out.info.score
        );
        let names: Vec<String> = out
            .info
            .pv
            .iter()
            .map(|&m| grid.name(m.index() as usize))
            .collect();
        assert_eq!(
            winner_after(&grid, &state, &out.info.pv),
            Some(state.side),
            "{fen} depth {depth}: {:?} with pv {}",
            out.info.score,
            names.join(" ")
        );
    }
}

/// `solve` of a loss in 2 (every move steps next to the opponent's goal): the
/// principal variation holds the loser's move but not the winner's step into the goal.
#[test]
fn solve_pv_of_a_forced_loss_ends_the_game() {
    for (width, height, fen) in [
        (4, 4, "4/2x1/1xxs/1xxx 1"),
        (6, 4, "xx1x2/x1xx1x/xxx1xs/1xxxxx 1"),
        (3, 7, "s2/x2/xx1/1x1/3/3/3 1"),
    ] {
        let grid = Grid::new(width, height);
        let mut oracle = Oracle::new(grid.clone());
        let state = state_from_fen(&grid, fen);
        assert!(
            !oracle.value(&state).is_win(),
            "{fen} is a loss for the side to move"
        );
        let out = engine().solve(
            &position(&grid, &state),
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let names: Vec<String> = out
            .info
            .pv
            .iter()
            .map(|&m| grid.name(m.index() as usize))
            .collect();
        assert_eq!(
            winner_after(&grid, &state, &out.info.pv),
            Some(1 - state.side),
            "{fen}: length {:?}, pv {}",
            out.length,
            names.join(" ")
        );
    }
}

/// The table is keyed on (region, snail, side) without the board size, so an
/// engine that moves to another board of the same width without `new_game` (over
/// the protocol: `position fen` of another size without `uginewgame`) reads entries
/// of the old board. 7×3 and 7×7 share square indices on ranks 1–3, but g3 is
/// player 2's goal on 7×3 and an ordinary square on 7×7.
#[test]
fn table_entries_of_another_board_size_are_not_used() {
    let small = Grid::new(7, 3);
    let big = Grid::new(7, 7);
    let mut small_oracle = Oracle::new(small.clone());
    let mut big_oracle = Oracle::new(big.clone());
    let mut rng = Rng::new(3);
    let stop = AtomicBool::new(false);
    let mut tested = 0;
    let mut wrong = Vec::new();
    while tested < 40 {
        let Some(s) = slime(&small, 0.1 + 0.5 * rng.unit(), &mut rng) else {
            continue;
        };
        // The twin on 7×7: the same open squares on ranks 1-3 except g3, which is
        // slimed, and nothing open above but player 2's goal g7.
        let twin = State {
            open: (s.open & ((1u64 << 21) - 1) & !(1u64 << 20)) | (1u64 << 48),
            ..s
        };
        if twin.winner(&big).is_some() || small_oracle.wins(&s) == big_oracle.wins(&twin) {
            continue;
        }
        tested += 1;
        let mut engine = engine();
        engine.solve(
            &position(&small, &s),
            &Limits::default(),
            &stop,
            &mut |_| {},
        );
        let out = engine.solve(
            &position(&big, &twin),
            &Limits::default(),
            &stop,
            &mut |_| {},
        );
        let truth = if big_oracle.wins(&twin) {
            Verdict::Win
        } else {
            Verdict::Loss
        };
        if out.verdict != Some(truth) {
            wrong.push(format!(
                "{} after {}: {:?}, truth {truth:?}",
                twin.to_fen(&big),
                s.to_fen(&small),
                out.verdict
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {tested} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A node whose every move failed low under a winning-mate alpha (mate distance
/// pruning hands back upper bounds) was stored as a proven win. The proof search
/// then read it as a proof: with `Threads 2`, where both share the table from the
/// start, `go movetime 100` played the losing a5 here, found by
/// `scripts/bench-missrate.sh 1500 100 1 engine 7x7 2`. Every search must play a
/// winning move. Each is given 5 s, far more than the proof needs (a proven search
/// ends at once): with 100 ms a search that a loaded machine held up past its
/// deadline played the move of its scored search, and the test failed for the load,
/// not for the bug.
#[test]
fn scored_upper_bounds_are_not_taken_for_proofs() {
    let grid = Grid::new(7, 7);
    let mut oracle = Oracle::new(grid.clone());
    let fen = "7/7/2xxx2/1sxx3/1xxxx2/2xx3/7 2";
    let state = state_from_fen(&grid, fen);
    assert!(oracle.wins(&state), "{fen} is a win for the side to move");
    let pos = position(&grid, &state);
    let stop = AtomicBool::new(false);
    // The table is shared from the first node: the race is timing-dependent, so
    // the search is repeated; before the fix about one in a hundred went wrong.
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 2,
        threads: 2,
        ..EngineOptions::default()
    });
    let limits = Limits {
        time: TimeControl::MoveTime(Duration::from_millis(5000)),
        ..Limits::default()
    };
    for round in 0..1000 {
        engine.new_game();
        let outcome = engine.search(&pos, &limits, &stop, &mut |_| {});
        let best = outcome.best_move.expect("a move").index() as usize;
        assert!(
            oracle.move_wins(&state, best),
            "{fen}, round {round}: go movetime 100 with two threads plays {}, which loses",
            grid.name(best)
        );
    }
}
