//! Checks of the engine's answers against the oracle's truth.
//!
//! Every check returns the problems it found, each with a kind (so that a test can
//! tell known bugs from new ones) and a sentence; the caller adds the position
//! string, so that a failure can be replayed with `slimetrail solve --position`.

use std::fmt;
use std::sync::atomic::AtomicBool;

use slimetrail::board::Square;
use slimetrail::search::{Bound, Engine, Limits, Score};

use super::{Oracle, State, Value};

/// What the oracle knows about a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Truth {
    /// The exact value: winner and distance under best play.
    Exact(Value),
    /// Only whether the side to move wins (the region is too large for distances).
    Verdict(bool),
}

impl Truth {
    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        match self {
            Truth::Exact(v) => v.is_win(),
            Truth::Verdict(win) => win,
        }
    }

    /// The exact distance, when known.
    pub fn distance(self) -> Option<u32> {
        match self {
            Truth::Exact(v) => Some(v.distance()),
            Truth::Verdict(_) => None,
        }
    }
}

/// Which entry point, under which kind of limit, gave an answer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Context {
    /// `solve` without limits.
    Solve,
    /// `search` with a depth limit (the scored search alone).
    Depth,
    /// `search` with a node or time limit (proof search and scored search).
    Nodes,
}

impl Context {
    /// The context of a search under `limits`.
    pub fn of(limits: &Limits) -> Context {
        if limits.depth.is_some() {
            Context::Depth
        } else {
            Context::Nodes
        }
    }
}

/// What was wrong with an answer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// No verdict, or the wrong one.
    Verdict,
    /// No best move, or an illegal one.
    BestMoveIllegal,
    /// A losing best move although a win exists and was required or claimed.
    BestMoveLoses,
    /// A losing best move while a win is claimed with an empty principal variation.
    ClaimedWinWithoutMove,
    /// A length that differs from the distance.
    Length,
    /// A missing mate score, or one whose sign or distance contradicts the truth.
    Score,
    /// A principal variation with an illegal move.
    LineIllegal,
    /// A principal variation in which the winner throws the win away.
    LineThrowsWin,
    /// A principal variation with a move that is not best play, though called exact.
    LineNotOptimal,
    /// A principal variation of a proven result that stops before the end.
    LineIncomplete,
    /// As [`Kind::LineIncomplete`], but only the winner's step into its goal is missing.
    LineOneShort,
    /// A principal variation that ends with the wrong winner.
    LineWrongWinner,
    /// Parts of one answer that disagree with each other.
    Inconsistent,
}

/// One thing wrong with an answer.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Where it was found.
    pub context: Context,
    /// What kind of problem it is.
    pub kind: Kind,
    /// What was wrong, in words.
    pub text: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{:?} {:?}] {}", self.context, self.kind, self.text)
    }
}

/// Collects problems of one context.
struct Problems {
    context: Context,
    list: Vec<Problem>,
}

impl Problems {
    fn new(context: Context) -> Problems {
        Problems {
            context,
            list: Vec::new(),
        }
    }

    fn add(&mut self, found: Option<(Kind, String)>) {
        if let Some((kind, text)) = found {
            self.list.push(Problem {
                context: self.context,
                kind,
                text,
            });
        }
    }
}

/// Whether a move wins for the side to move, by the oracle.
fn move_wins(oracle: &mut Oracle, state: &State, to: usize, truth: Truth) -> bool {
    match truth {
        Truth::Exact(_) => oracle.move_value(state, to).is_win(),
        Truth::Verdict(_) => oracle.move_wins(state, to),
    }
}

/// The oracle's cell of an engine move, if it is a legal move in `state`.
fn legal_cell(oracle: &Oracle, state: &State, square: Square) -> Option<usize> {
    let index = square.index() as usize;
    (index < oracle.grid.cells() && state.moves(&oracle.grid) & (1u64 << index) != 0)
        .then_some(index)
}

fn cells(set: u64) -> Vec<usize> {
    (0..64).filter(|&c| set & (1u64 << c) != 0).collect()
}

/// Checks a best move: legal, and winning when the side to move wins and a win
/// is required (`must_win`) or claimed (`claimed_win`).
fn check_best_move(
    oracle: &mut Oracle,
    state: &State,
    best: Option<Square>,
    truth: Truth,
    must_win: bool,
    claimed_win: bool,
) -> Option<(Kind, String)> {
    let grid = oracle.grid.clone();
    let Some(best) = best else {
        return Some((Kind::BestMoveIllegal, "no best move".into()));
    };
    let Some(cell) = legal_cell(oracle, state, best) else {
        let text = format!("best move index {} is illegal", best.index());
        return Some((Kind::BestMoveIllegal, text));
    };
    if truth.is_win() && (must_win || claimed_win) && !move_wins(oracle, state, cell, truth) {
        let winning: Vec<String> = cells(state.moves(&grid))
            .into_iter()
            .filter(|&to| move_wins(oracle, state, to, truth))
            .map(|to| grid.name(to))
            .collect();
        let text = format!(
            "best move {} loses; winning moves: {}",
            grid.name(cell),
            winning.join(" ")
        );
        return Some((Kind::BestMoveLoses, text));
    }
    None
}

/// Checks a reported score against the truth: a mate score has the oracle's sign,
/// and its distance agrees with its bound. Exact: equal to the oracle's distance.
/// Lower for a win ("the win may be faster") and Upper for a loss ("the true value,
/// a loss lasting d plies, is at most a loss lasting n plies", so d ≤ n): both
/// promise only that the game ends within n plies, so n ≥ the oracle's distance.
pub fn check_score(score: Option<Score>, bound: Bound, truth: Truth) -> Option<(Kind, String)> {
    let Some(Score::Mate(n)) = score else {
        return None;
    };
    if n == 0 || (n > 0) != truth.is_win() {
        let text = format!(
            "score mate {n}, but the side to move {}",
            if truth.is_win() { "wins" } else { "loses" }
        );
        return Some((Kind::Score, text));
    }
    let d = truth.distance()?;
    let plies = n.unsigned_abs();
    let ok = match (bound, n > 0) {
        (Bound::Exact, _) => plies == d,
        (Bound::Lower, true) | (Bound::Upper, false) => plies >= d,
        // A win as an upper bound, or a loss as a lower bound, is not a bound the
        // engine documents for mates.
        (Bound::Upper, true) | (Bound::Lower, false) => false,
    };
    let text = format!("score mate {n} ({bound:?}) but the oracle's distance is {d}");
    (!ok).then_some((Kind::Score, text))
}

/// What a principal variation must satisfy beyond legality.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineRules {
    /// Every move of the winner keeps the win (the line claims a proven result).
    pub proven: bool,
    /// The line ends the game, with the right winner.
    pub complete: bool,
    /// Every move keeps the exact value (exact truth only): best play for both
    /// sides, so the line is as long as the distance.
    pub optimal: bool,
}

/// Checks a principal variation: legal all along, and the [`LineRules`].
pub fn check_line(
    oracle: &mut Oracle,
    state: &State,
    pv: &[Square],
    truth: Truth,
    rules: LineRules,
) -> Option<(Kind, String)> {
    let grid = oracle.grid.clone();
    let winner = if truth.is_win() {
        state.side
    } else {
        1 - state.side
    };
    let mut s = *state;
    let mut names = Vec::new();
    let mut expected = match truth {
        Truth::Exact(v) => Some(v),
        Truth::Verdict(_) => None,
    };
    for &mv in pv {
        if s.winner(&grid).is_some() {
            let text = format!(
                "pv goes on after the end: {} then index {}",
                names.join(" "),
                mv.index()
            );
            return Some((Kind::LineIllegal, text));
        }
        let Some(cell) = legal_cell(oracle, &s, mv) else {
            let text = format!(
                "pv move index {} is illegal after {}",
                mv.index(),
                names.join(" ")
            );
            return Some((Kind::LineIllegal, text));
        };
        names.push(grid.name(cell));
        if rules.proven && s.side == winner && !move_wins(oracle, &s, cell, truth) {
            let text = format!(
                "pv move {} of the winner loses: {}",
                names.len(),
                names.join(" ")
            );
            return Some((Kind::LineThrowsWin, text));
        }
        if let (true, Some(v)) = (rules.optimal, expected) {
            let got = oracle.move_value(&s, cell);
            if got != v {
                let text = format!(
                    "pv move {} is not best play (value {got:?}, best {v:?}): {}",
                    names.len(),
                    names.join(" ")
                );
                return Some((Kind::LineNotOptimal, text));
            }
        }
        s = s.after(cell);
        expected = match (expected, s.winner(&grid)) {
            (Some(_), None) => Some(oracle.value(&s)),
            _ => None,
        };
    }
    if !rules.complete {
        return None;
    }
    match s.winner(&grid) {
        Some(w) if w == winner => None,
        Some(_) => Some((
            Kind::LineWrongWinner,
            format!("pv ends with the wrong winner: {}", names.join(" ")),
        )),
        None => {
            let goal = grid.goal(s.side);
            let kind = if s.side == winner && s.moves(&grid) & (1u64 << goal) != 0 {
                Kind::LineOneShort
            } else {
                Kind::LineIncomplete
            };
            let text = format!(
                "pv of a proven result stops before the end: {}",
                names.join(" ")
            );
            Some((kind, text))
        }
    }
}

/// Solves within `limits` and checks verdict, best move, length, score, bound and
/// line. Without limits a verdict is required, and a line to the end of the game;
/// with limits, giving up (no verdict) is allowed, but whatever is claimed must be right.
pub fn check_solve(
    engine: &mut Engine,
    oracle: &mut Oracle,
    state: &State,
    truth: Truth,
    limits: &Limits,
) -> Vec<Problem> {
    let position = state.to_position(&oracle.grid);
    let stop = AtomicBool::new(false);
    let out = engine.solve(&position, limits, &stop, &mut |_| {});
    let unlimited = limits.is_unbounded();
    let mut problems = Problems::new(Context::Solve);
    let expected = if truth.is_win() { "Win" } else { "Loss" };
    match out.verdict {
        None if unlimited => problems.add(Some((Kind::Verdict, "no verdict".into()))),
        None => return Vec::new(),
        Some(v) if format!("{v:?}") != expected => {
            let text = format!("verdict {v:?}, the oracle says {expected}");
            problems.add(Some((Kind::Verdict, text)));
        }
        Some(_) => {}
    }
    problems.add(check_best_move(
        oracle,
        state,
        out.best_move,
        truth,
        true,
        false,
    ));
    if let (Some(length), Some(d)) = (out.length, truth.distance()) {
        if length != d {
            let text = format!("length {length}, the oracle's distance is {d}");
            problems.add(Some((Kind::Length, text)));
        }
    }
    match (out.info.score, out.length) {
        (Some(Score::Mate(n)), Some(length))
            if n.unsigned_abs() != length || out.info.bound != Bound::Exact =>
        {
            let text = format!("length {length} but score mate {n} ({:?})", out.info.bound);
            problems.add(Some((Kind::Inconsistent, text)));
        }
        (Some(Score::Mate(_)), _) => {}
        (other, _) => {
            let text = format!("{other:?} instead of a mate score");
            problems.add(Some((Kind::Score, text)));
        }
    }
    problems.add(check_score(out.info.score, out.info.bound, truth));
    if out
        .info
        .pv
        .first()
        .is_some_and(|&m| Some(m) != out.best_move)
    {
        let text = "the pv does not start with the best move".to_string();
        problems.add(Some((Kind::Inconsistent, text)));
    }
    let rules = LineRules {
        proven: true,
        complete: unlimited,
        optimal: out.info.bound == Bound::Exact,
    };
    problems.add(check_line(oracle, state, &out.info.pv, truth, rules));
    if !unlimited {
        for p in &mut problems.list {
            p.text = format!("{}: {}", describe(limits), p.text);
        }
    }
    problems.list
}

/// Searches within `limits` and checks the best move, the score and the line.
/// With `must_win`, a winning move is required whenever one exists; otherwise only
/// when the engine claims a win. A claimed result must come with a line of proven
/// play, and a claimed win with a line that ends in the win.
pub fn check_search(
    engine: &mut Engine,
    oracle: &mut Oracle,
    state: &State,
    truth: Truth,
    limits: &Limits,
    must_win: bool,
) -> Vec<Problem> {
    let position = state.to_position(&oracle.grid);
    let stop = AtomicBool::new(false);
    let out = engine.search(&position, limits, &stop, &mut |_| {});
    let info = &out.info;
    let claimed_win = matches!(info.score, Some(Score::Mate(n)) if n > 0);
    let mut problems = Problems::new(Context::of(limits));
    let mut best = check_best_move(oracle, state, out.best_move, truth, must_win, claimed_win);
    if let Some((kind @ Kind::BestMoveLoses, text)) = &mut best {
        if claimed_win && info.pv.is_empty() {
            *kind = Kind::ClaimedWinWithoutMove;
            *text = format!(
                "{text}; the engine claims {:?} with an empty pv",
                info.score
            );
        }
    }
    problems.add(best);
    problems.add(check_score(info.score, info.bound, truth));
    let proven = matches!(info.score, Some(Score::Mate(_)));
    let rules = LineRules {
        proven,
        complete: claimed_win,
        optimal: proven && info.bound == Bound::Exact,
    };
    problems.add(check_line(oracle, state, &info.pv, truth, rules));
    for p in &mut problems.list {
        p.text = format!("{}: {}", describe(limits), p.text);
    }
    problems.list
}

/// A short description of search limits, such as `depth 4` or `nodes 3000`.
pub fn describe(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes {n}"));
    }
    if limits.time != Default::default() {
        parts.push(format!("{:?}", limits.time));
    }
    if parts.is_empty() {
        parts.push("no limit".into());
    }
    parts.join(", ")
}
