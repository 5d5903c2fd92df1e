//! `solve` and `search` against an independent exact oracle (tests/oracle), on
//! seeded random positions from every phase of the game: start positions, random
//! walks from the start, and random slime patterns, on several board sizes.
//!
//! On small boards the oracle knows the exact value and distance of every position.
//! On 7×7 it knows distances for regions of up to [`EXACT_REGION_7X7`] squares and
//! only the verdict for larger ones, up to [`VERDICT_REGION_7X7`]. Run with
//! `--nocapture` to see the positions checked per size, origin and phase.

use crate::oracle;

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use slimetrail::board::Size;
use slimetrail::rng::Rng;
use slimetrail::search::{Engine, EngineOptions, Limits, Verdict};

use oracle::check::{Context, Kind, Problem, Truth, check_search, check_solve};
use oracle::positions::{Origin, Phase, default_start, phase, region_size, slime, walk};
use oracle::{Grid, Oracle, State};

/// Transposition table of the engines under test: small, so replacement happens.
const HASH_MB: usize = 2;
/// Node budget of searches that must find a winning move.
const GENEROUS_NODES: u64 = 3_000_000;
/// Largest 7×7 region for which the oracle computes exact distances.
const EXACT_REGION_7X7: u32 = 22;
/// Largest 7×7 region for which the oracle computes verdicts.
const VERDICT_REGION_7X7: u32 = 34;

/// Problems the search is known to have: tolerated here (counted and printed) and
/// demonstrated by the ignored tests named beside them, in tests/search_regressions.rs.
/// Remove an entry once the bug is fixed.
const KNOWN_BUGS: &[(Context, Kind, &str)] = &[];

/// Counts of checked positions in one group.
#[derive(Default)]
struct Row {
    positions: usize,
    exact: usize,
    wins: usize,
}

/// One board's run: the oracle, the engines and the tally.
struct Run {
    label: String,
    oracle: Oracle,
    engine: Engine,
    /// An engine that never starts a new game: its table carries over between positions.
    shared: Engine,
    rng: Rng,
    seen: HashSet<State>,
    rows: BTreeMap<(Origin, Phase), Row>,
    failures: Vec<String>,
    /// Problems matching [`KNOWN_BUGS`], by entry, with one example each.
    known: BTreeMap<(Context, Kind), (usize, String)>,
}

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: HASH_MB,
        ..EngineOptions::default()
    })
}

impl Run {
    fn new(width: usize, height: usize, seed: u64) -> Run {
        Run {
            label: format!("{width}x{height}"),
            oracle: Oracle::new(Grid::new(width, height)),
            engine: engine(),
            shared: engine(),
            rng: Rng::new(seed),
            seen: HashSet::new(),
            rows: BTreeMap::new(),
            failures: Vec::new(),
            known: BTreeMap::new(),
        }
    }

    fn grid(&self) -> Grid {
        self.oracle.grid.clone()
    }

    /// Checks `solve` and `search` under several limits on one position.
    fn check(&mut self, state: State, origin: Origin, exact: bool) {
        if !self.seen.insert(state) {
            return;
        }
        let truth = if exact {
            Truth::Exact(self.oracle.value(&state))
        } else {
            Truth::Verdict(self.oracle.wins(&state))
        };
        let grid = self.grid();
        let region = region_size(&grid, &state);
        let shallow = 1 + self.rng.below(4) as u32;
        let small_nodes = 50 + self.rng.below(2000);
        let mut problems = Vec::new();
        let (engine, oracle) = (&mut self.engine, &mut self.oracle);
        engine.new_game();
        problems.extend(check_solve(
            engine,
            oracle,
            &state,
            truth,
            &Limits::default(),
        ));
        engine.new_game();
        let limits = Limits::nodes(small_nodes);
        problems.extend(check_solve(engine, oracle, &state, truth, &limits));
        let mut searches = vec![
            (Limits::nodes(GENEROUS_NODES), true),
            (Limits::depth(shallow), false),
            (Limits::nodes(small_nodes), false),
        ];
        if exact {
            // Deeper than the game can last: the scored search alone is exhaustive.
            searches.push((Limits::depth(region + 3), true));
        }
        for (limits, must_win) in searches {
            engine.new_game();
            problems.extend(check_search(
                engine, oracle, &state, truth, &limits, must_win,
            ));
        }
        let limits = Limits::nodes(GENEROUS_NODES);
        for mut p in check_search(&mut self.shared, oracle, &state, truth, &limits, true) {
            p.text = format!("table kept from earlier positions: {}", p.text);
            problems.push(p);
        }
        let fen = state.to_fen(&grid);
        for p in problems {
            self.record(&fen, p);
        }
        let row = self.rows.entry((origin, phase(&grid, &state))).or_default();
        row.positions += 1;
        row.exact += usize::from(exact);
        row.wins += usize::from(truth.is_win());
    }

    /// Files a problem as a failure, or under its known bug.
    fn record(&mut self, fen: &str, problem: Problem) {
        let line = format!("{} {fen}: {problem}", self.label);
        let known = KNOWN_BUGS
            .iter()
            .any(|&(c, k, _)| (c, k) == (problem.context, problem.kind));
        if known {
            let entry = self
                .known
                .entry((problem.context, problem.kind))
                .or_insert((0, line));
            entry.0 += 1;
        } else {
            self.failures.push(line);
        }
    }

    /// Random walks of random length from `start`; keeps the walks whose region has
    /// at most `max_region` squares, `count` of them, within a bounded number of tries.
    fn walks(&mut self, start: usize, plies: (usize, usize), count: usize, max_region: u32) {
        let grid = self.grid();
        let exact_limit = self.exact_limit();
        let mut kept = 0;
        for _ in 0..count * 200 {
            if kept == count {
                break;
            }
            let length = plies.0 + self.rng.below((plies.1 - plies.0 + 1) as u64) as usize;
            let careful = self.rng.below(4) != 0;
            let Some(state) = walk(&grid, start, length, careful, &mut self.rng) else {
                continue;
            };
            let region = region_size(&grid, &state);
            if region <= max_region {
                kept += 1;
                self.check(state, Origin::Walk, region <= exact_limit);
            }
        }
    }

    /// Random slime patterns with densities in `density`; keeps `count` whose region
    /// has between `region.0` and `region.1` squares.
    fn slimes(&mut self, density: (f64, f64), count: usize, region: (u32, u32)) {
        let grid = self.grid();
        let exact_limit = self.exact_limit();
        let mut kept = 0;
        for _ in 0..count * 200 {
            if kept == count {
                break;
            }
            let d = density.0 + (density.1 - density.0) * self.rng.unit();
            let Some(state) = slime(&grid, d, &mut self.rng) else {
                continue;
            };
            let size = region_size(&grid, &state);
            if (region.0..=region.1).contains(&size) {
                kept += 1;
                self.check(state, Origin::Slime, size <= exact_limit);
                // Distinct slime patterns share few states: bound the memo.
                self.oracle.clear();
            }
        }
    }

    fn exact_limit(&self) -> u32 {
        if self.oracle.grid.cells() >= 49 {
            EXACT_REGION_7X7
        } else {
            u32::MAX
        }
    }

    /// Prints the tally and fails with every problem found.
    fn finish(self) {
        for ((origin, phase), row) in &self.rows {
            println!(
                "{:>4} {:<6} {:<8} positions {:>4}  exact {:>4}  side to move wins {:>4}",
                self.label,
                format!("{origin:?}"),
                format!("{phase:?}"),
                row.positions,
                row.exact,
                row.wins
            );
        }
        for ((context, kind), (count, example)) in &self.known {
            let test = KNOWN_BUGS
                .iter()
                .find(|&&(c, k, _)| (c, k) == (*context, *kind))
                .map_or("", |e| e.2);
            println!(
                "{:>4} known bug ({test}), tolerated {count} times, e.g. {example}",
                self.label
            );
        }
        let total: usize = self.rows.values().map(|r| r.positions).sum();
        println!("{:>4} total positions {total}", self.label);
        assert!(total > 0, "{}: no position was checked", self.label);
        assert!(
            self.failures.is_empty(),
            "{}: {} problems:\n{}",
            self.label,
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// A small board checked fully: its start positions, walks of every length, and slime.
fn small_board(width: usize, height: usize, seed: u64, every_start: bool) {
    let mut run = Run::new(width, height, seed);
    let grid = run.grid();
    let cells = grid.cells();
    let starts: Vec<usize> = if every_start {
        (0..cells)
            .filter(|&c| grid.goal_owner(c).is_none())
            .collect()
    } else {
        vec![default_start(&grid)]
    };
    for &start in &starts {
        run.check(State::start(&grid, start), Origin::Start, true);
    }
    run.walks(default_start(&grid), (1, cells), 70, u32::MAX);
    run.oracle.clear();
    run.slimes((0.05, 0.75), 50, (0, u32::MAX));
    run.finish();
}

#[test]
fn board_4x4_every_start_walks_and_slime() {
    small_board(4, 4, 0x44, true);
}

#[test]
fn board_3x7_walks_and_slime() {
    small_board(3, 7, 0x37, false);
}

#[test]
fn board_7x3_walks_and_slime() {
    small_board(7, 3, 0x73, false);
}

#[test]
fn board_4x6_walks_and_slime() {
    small_board(4, 6, 0x46, false);
}

#[test]
fn board_6x4_walks_and_slime() {
    small_board(6, 4, 0x64, false);
}

#[test]
fn board_5x5_walks_and_slime() {
    small_board(5, 5, 0x55, false);
}

/// 7×7: late walks from d4 and e5 and dense slime with exact distances; middle-game
/// walks and lighter slime with verdicts only.
#[test]
fn board_7x7_exact_endings_and_middle_game_verdicts() {
    let mut run = Run::new(7, 7, 0x77);
    let grid = run.grid();
    let e5 = grid.cell(4, 4);
    for start in [default_start(&grid), e5] {
        run.walks(start, (18, 46), 45, EXACT_REGION_7X7);
        run.oracle.clear();
        run.walks(start, (8, 30), 30, VERDICT_REGION_7X7);
        run.oracle.clear();
    }
    run.slimes((0.45, 0.8), 45, (1, EXACT_REGION_7X7));
    run.slimes((0.2, 0.5), 30, (EXACT_REGION_7X7 + 1, VERDICT_REGION_7X7));
    run.finish();
}

/// `movetime` ends the search early once the position is proven, so these checks
/// take milliseconds; only correctness is checked, never time.
#[test]
fn movetime_search_finds_the_win_in_small_positions() {
    let mut run = Run::new(5, 5, 0x5);
    let grid = run.grid();
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for _ in 0..2000 {
        if checked == 40 {
            break;
        }
        let length = 4 + run.rng.below(16) as usize;
        let Some(state) = walk(&grid, default_start(&grid), length, true, &mut run.rng) else {
            continue;
        };
        if region_size(&grid, &state) > 14 || !run.oracle.wins(&state) {
            continue;
        }
        checked += 1;
        run.engine.new_game();
        let position = state.to_position(&grid);
        let limits = Limits::movetime(Duration::from_millis(1000));
        let out = run.engine.search(&position, &limits, &stop, &mut |_| {});
        let wins = out.best_move.is_some_and(|m| {
            state.moves(&grid) & (1u64 << m.index()) != 0
                && run.oracle.move_wins(&state, m.index() as usize)
        });
        if !wins {
            run.failures.push(format!(
                "{}: movetime search played {:?}, not a winning move",
                state.to_fen(&grid),
                out.best_move.map(|m| grid.name(m.index() as usize))
            ));
        }
    }
    assert_eq!(checked, 40, "not enough winning positions were generated");
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
}

/// With two threads, `solve` runs two provers and `go` runs a prover beside the
/// scored search; both must still be exactly right.
#[test]
fn two_threads_solve_and_search_agree_with_the_oracle() {
    let mut run = Run::new(5, 5, 0x2222);
    run.engine = Engine::new(EngineOptions {
        hash_mb: HASH_MB,
        threads: 2,
        ..EngineOptions::default()
    });
    let grid = run.grid();
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for _ in 0..2000 {
        if checked == 60 {
            break;
        }
        let length = 2 + run.rng.below(16) as usize;
        let Some(state) = walk(&grid, default_start(&grid), length, true, &mut run.rng) else {
            continue;
        };
        if region_size(&grid, &state) > 16 {
            continue;
        }
        checked += 1;
        let position = state.to_position(&grid);
        let wins = run.oracle.wins(&state);
        run.engine.new_game();
        let solved = run
            .engine
            .solve(&position, &Limits::default(), &stop, &mut |_| {});
        let verdict_right = solved.verdict.is_some_and(|v| (v == Verdict::Win) == wins);
        if !verdict_right {
            run.failures.push(format!(
                "{}: two-thread solve said {:?}, the oracle says {}",
                state.to_fen(&grid),
                solved.verdict,
                if wins { "win" } else { "loss" }
            ));
        }
        run.engine.new_game();
        let searched = run.engine.search(
            &position,
            &Limits::nodes(GENEROUS_NODES),
            &stop,
            &mut |_| {},
        );
        let legal = searched
            .best_move
            .is_some_and(|m| state.moves(&grid) & (1u64 << m.index()) != 0);
        let winning = searched
            .best_move
            .is_some_and(|m| run.oracle.move_wins(&state, m.index() as usize));
        if !legal || (wins && !winning) {
            run.failures.push(format!(
                "{}: two-thread search played {:?} (winning moves exist: {wins})",
                state.to_fen(&grid),
                searched.best_move.map(|m| grid.name(m.index() as usize))
            ));
        }
    }
    assert_eq!(checked, 60, "not enough positions were generated");
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
}

/// The oracle's grid agrees with the engine's board on names, moves and outcomes.
#[test]
fn oracle_rules_agree_with_the_board() {
    let mut rng = Rng::new(9);
    for (w, h) in [(3, 7), (7, 3), (4, 4), (5, 5), (7, 7)] {
        let grid = Grid::new(w, h);
        let size = Size::new(w, h).expect("a valid size");
        for _ in 0..200 {
            let plies = rng.below(grid.cells() as u64) as usize;
            let Some(state) = walk(&grid, default_start(&grid), plies, false, &mut rng) else {
                continue;
            };
            let position = state.to_position(&grid);
            let moves: u64 = position.moves().iter().map(|m| 1u64 << m.index()).sum();
            assert_eq!(moves, state.moves(&grid), "moves of {position}");
            for m in position.moves() {
                assert_eq!(grid.name(m.index() as usize), size.name(m).to_string());
                let after = state.after(m.index() as usize);
                let winner = position.after(m).outcome().winner().map(|p| p.index());
                assert_eq!(
                    after.winner(&grid),
                    winner,
                    "outcome after {m:?} in {position}"
                );
            }
        }
    }
}

/// The oracle itself, on positions analysed by hand.
#[test]
fn oracle_matches_hand_analysis() {
    use oracle::{Value, state_from_fen};
    // 3×3 from b2: player 1 steps into a1 at once.
    let grid = Grid::new(3, 3);
    let mut o = Oracle::new(grid.clone());
    assert_eq!(o.value(&State::start(&grid, 4)), Value::Win(1));
    // 4×4, player 1 on d2 with only d3 open: d3 is next to d4, player 2 steps in.
    let grid = Grid::new(4, 4);
    let mut o = Oracle::new(grid.clone());
    assert_eq!(
        o.value(&state_from_fen(&grid, "4/2x1/1xxs/1xxx 1")),
        Value::Loss(2)
    );
    // 6×4, player 1 on b3. b2 loses at once (c1 leaves player 1 stuck); b4 loses
    // (a3 forces b2, then c1); a3 and c3 win in 5 (a3 b4 c3 b2 a1, c3 b4 a3 b2 a1).
    let grid = Grid::new(6, 4);
    let mut o = Oracle::new(grid.clone());
    let state = state_from_fen(&grid, "x1xx2/1s1x1x/x1xxxx/1x1xx1 1");
    assert_eq!(o.value(&state), Value::Win(5));
    let values: Vec<(String, Value)> = o
        .move_values(&state)
        .into_iter()
        .map(|(to, v)| (grid.name(to), v))
        .collect();
    let value_of = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    assert_eq!(value_of("b2"), Some(Value::Loss(2)));
    assert!(value_of("b4").is_some_and(|v| !v.is_win()));
    assert_eq!(value_of("a3"), Some(Value::Win(5)));
    assert_eq!(value_of("c3"), Some(Value::Win(5)));
    assert_eq!(values.len(), 4, "moves from b3: a3 b2 b4 c3");
    // A player with no move loses: 3×3, the snail on a3 boxed in by slime.
    let grid = Grid::new(3, 3);
    let state = state_from_fen(&grid, "sx1/xx1/3 2");
    assert_eq!(state.winner(&grid), Some(0));
}

/// The oracle's memo key (the reachable region, not every open square) changes no
/// value or verdict: on small boards, every start and random slime patterns agree
/// with a negamax that has no memo at all.
#[test]
fn oracle_region_key_changes_no_value() {
    use oracle::Value;
    fn plain_value(grid: &Grid, state: &State) -> Value {
        let mut best: Option<Value> = None;
        let mut moves = state.moves(grid);
        while moves != 0 {
            let to = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let child = state.after(to);
            let value = match child.winner(grid) {
                Some(winner) if winner == state.side => Value::Win(1),
                Some(_) => Value::Loss(1),
                None => plain_value(grid, &child).parent(),
            };
            if best.is_none_or(|b| value.better_than(b)) {
                best = Some(value);
            }
        }
        best.expect("an ongoing state has a move")
    }
    let mut rng = Rng::new(0x5eed);
    let mut checked = 0;
    for (width, height) in [(3, 4), (4, 3), (3, 5), (4, 4)] {
        let grid = Grid::new(width, height);
        let mut o = Oracle::new(grid.clone());
        // Every start on the 12-cell boards, whose full trees are small.
        let mut states: Vec<State> = Vec::new();
        if width * height <= 12 {
            states.extend(
                (0..grid.cells())
                    .filter(|&c| grid.goal_owner(c).is_none())
                    .map(|c| State::start(&grid, c)),
            );
        }
        while states.len() < 40 {
            if let Some(state) = slime(&grid, 0.1 + 0.5 * rng.unit(), &mut rng) {
                states.push(state);
            }
        }
        for state in states {
            let plain = plain_value(&grid, &state);
            let fen = state.to_fen(&grid);
            assert_eq!(o.value(&state), plain, "{width}x{height} {fen}");
            assert_eq!(o.wins(&state), plain.is_win(), "{width}x{height} {fen}");
            checked += 1;
        }
    }
    assert!(checked >= 160, "only {checked} states checked");
}
