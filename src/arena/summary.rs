//! Standings: per engine and per pairing, games, wins, losses, score, Elo ± 95 %, LOS and
//! pentanomial pair counts; printed as a table and saved as a JSON summary.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::files::{FileAction, FileError, write_atomically};
use super::json_game::GameEntry;
use super::settings::Settings;
use crate::record::{GameReport, Termination};
use crate::stats::{
    GameResult, Interval, PENTA_NAMES, Sprt, SprtDecision, SprtError, Tally, two_decimals,
};

/// A finished (or stopped) tournament: its standings, for the table.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The standings of the games finished.
    pub standings: Standings,
    /// Games in the schedule.
    pub scheduled: usize,
    /// The SPRT, if the match ran one.
    pub sprt: Option<Sprt>,
}

impl Finished {
    /// The standings table.
    pub fn table(&self) -> String {
        table(&self.standings, self.scheduled, self.sprt.as_ref())
    }
}

/// Running results of a tournament, updated game by game.
#[derive(Clone, Debug)]
pub struct Standings {
    engines: Vec<String>,
    /// Complete pairs per pairing (first index < second), from the first engine's side.
    pairs: BTreeMap<(usize, usize), Tally>,
    /// Games whose pair partner has not finished, by pair number.
    pending: HashMap<usize, GameReport>,
    terminations: BTreeMap<Termination, usize>,
    games: usize,
    /// The SPRT of the first engine against the second, if one is run.
    sprt: Option<Sprt>,
    /// The complete pairs at which the SPRT first crossed a bound, in the order games finished.
    sprt_decided_at: Option<Tally>,
}

impl Standings {
    /// No games yet among `engines`.
    pub fn new(engines: Vec<String>) -> Standings {
        Standings {
            engines,
            pairs: BTreeMap::new(),
            pending: HashMap::new(),
            terminations: BTreeMap::new(),
            games: 0,
            sprt: None,
            sprt_decided_at: None,
        }
    }

    /// The same, keeping `sprt` (if any) over the complete pairs of the first engine against
    /// the second, and noting the pairs at which it first decides.
    pub fn with_sprt(self, sprt: Option<Sprt>) -> Standings {
        Standings { sprt, ..self }
    }

    /// The engine names.
    pub fn engines(&self) -> &[String] {
        &self.engines
    }

    /// Games counted.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Counts a finished game; games of unknown engines are ignored with a warning.
    pub fn add(&mut self, report: &GameReport) {
        if self.indices(report).is_none() {
            log::warn!(
                "game {} has an unknown engine; not counted",
                report.number + 1
            );
            return;
        }
        self.games += 1;
        *self.terminations.entry(report.termination).or_default() += 1;
        match self.pending.remove(&report.pair) {
            None => {
                self.pending.insert(report.pair, report.clone());
            }
            Some(partner)
                if self.indices(&partner) == self.indices(report).map(|[a, b]| [b, a]) =>
            {
                let (key, first, second) = self.oriented(&partner, report);
                let pairs = self.pairs.entry(key).or_default();
                pairs.add_pair(first, second);
                if let (Some(sprt), None, (0, 1)) = (&self.sprt, &self.sprt_decided_at, key) {
                    if sprt.decide(sprt.llr_pentanomial(pairs)).is_final() {
                        self.sprt_decided_at = Some(*pairs);
                    }
                }
            }
            Some(partner) => {
                log::warn!(
                    "games {} and {} share a pair number but not their players",
                    partner.number + 1,
                    report.number + 1
                );
                self.pending.insert(report.pair, report.clone());
            }
        }
    }

    /// Engine indices of player 1 and player 2.
    fn indices(&self, report: &GameReport) -> Option<[usize; 2]> {
        let find = |name: &str| self.engines.iter().position(|e| e == name);
        Some([find(&report.players[0])?, find(&report.players[1])?])
    }

    /// The pairing key and both results from the side of its first engine.
    fn oriented(&self, a: &GameReport, b: &GameReport) -> ((usize, usize), GameResult, GameResult) {
        let [p1, p2] = self.indices(a).unwrap_or([0, 1]);
        let key = (p1.min(p2), p1.max(p2));
        let result = |r: &GameReport| {
            if r.winner_name() == self.engines[key.0] {
                GameResult::Win
            } else {
                GameResult::Loss
            }
        };
        (key, result(a), result(b))
    }

    /// Results per pairing (first engine index < second), from the first engine's side,
    /// including unpaired single games.
    pub fn pairings(&self) -> BTreeMap<(usize, usize), Tally> {
        let mut out = self.pairs.clone();
        for report in self.pending.values() {
            let (key, result, _) = self.oriented(report, report);
            out.entry(key).or_default().add_game(result);
        }
        out
    }

    /// Results of engine `index` against everyone.
    pub fn engine(&self, index: usize) -> Tally {
        let mut total = Tally::new();
        for ((a, b), tally) in self.pairings() {
            if a == index {
                total += &tally;
            } else if b == index {
                total += &tally.reversed();
            }
        }
        total
    }

    /// The first engine's results against the second.
    pub fn first_pairing(&self) -> Tally {
        self.pairings().get(&(0, 1)).copied().unwrap_or_default()
    }

    /// The first engine's complete game pairs against the second: what the SPRT tests, so
    /// that its decisions come only at pair boundaries.
    pub fn first_pairing_pairs(&self) -> Tally {
        self.pairs.get(&(0, 1)).copied().unwrap_or_default()
    }

    /// The pairs the SPRT's figures are over: those at which it decided, once it has (pairs
    /// begun before the decision are still played and counted in the standings), else all.
    pub fn sprt_pairs(&self) -> Tally {
        self.sprt_decided_at
            .unwrap_or_else(|| self.first_pairing_pairs())
    }

    /// Whether the SPRT has crossed a bound.
    pub fn sprt_decided(&self) -> bool {
        self.sprt_decided_at.is_some()
    }

    /// Game counts per termination.
    pub fn terminations(&self) -> &BTreeMap<Termination, usize> {
        &self.terminations
    }
}

/// One row of a table: games, wins, losses, score %, Elo ± 95 %, LOS.
fn figures(tally: &Tally) -> String {
    let score = tally
        .score()
        .map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0));
    let (elo, los) = match tally.elo() {
        Some(e) => (
            e.describe_marked("±", true)
                .unwrap_or_else(|| "-".to_string()),
            format!("{:.1}%", e.los_percent()),
        ),
        None => ("-".to_string(), "-".to_string()),
    };
    format!(
        "{:>6} {:>5} {:>5} {:>7} {:>18} {:>7}",
        tally.games(),
        tally.wins,
        tally.losses,
        score,
        elo,
        los
    )
}

/// The SPRT state of the complete pairs in `pairs`: their counts, LLR, bounds and decision,
/// every figure reproducible with `stats --penta …` from the printed counts; `None` before
/// the first pair is complete (a per-game LLR would mean something else).
pub fn sprt_line(sprt: &Sprt, pairs: &Tally) -> Option<String> {
    if pairs.pairs() == 0 {
        return None;
    }
    let llr = sprt.llr_pentanomial(pairs);
    let (lower, upper) = sprt.bounds();
    let decision = match sprt.decide(llr) {
        SprtDecision::Continue => "continue".to_string(),
        d => d.to_string(),
    };
    let penta: Vec<String> = pairs.penta.iter().map(u64::to_string).collect();
    Some(format!(
        "LLR {} ({}, {}) over {} pairs {} [{sprt}]: {decision}",
        two_decimals(llr),
        two_decimals(lower),
        two_decimals(upper),
        pairs.pairs(),
        penta.join(",")
    ))
}

/// The table's first line: `SPRT: H1 accepted after 42 games (LLR 2.95 ≥ 2.94)` once the
/// SPRT has decided, else `Standings after 12 of 40 games`.
fn headline(standings: &Standings, scheduled: usize, sprt: Option<&Sprt>) -> String {
    let Some(sprt) = sprt.filter(|_| standings.sprt_decided()) else {
        return format!("Standings after {} of {scheduled} games", standings.games());
    };
    let pairs = standings.sprt_pairs();
    let llr = sprt.llr_pentanomial(&pairs);
    let (lower, upper) = sprt.bounds();
    let decision = sprt.decide(llr);
    let (relation, bound) = if decision == SprtDecision::AcceptH0 {
        ("≤", lower)
    } else {
        ("≥", upper)
    };
    let decided_games = 2 * pairs.pairs() as usize;
    let mut line = format!(
        "SPRT: {decision} after {decided_games} games (LLR {} {relation} {})",
        two_decimals(llr),
        two_decimals(bound)
    );
    if standings.games() > decided_games {
        let _ = write!(
            line,
            "; {} games played, with the pairs begun before it decided",
            standings.games()
        );
    }
    line
}

/// The final table, as printed on stdout.
pub fn table(standings: &Standings, scheduled: usize, sprt: Option<&Sprt>) -> String {
    let names = standings.engines();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut out = String::new();
    let _ = writeln!(out, "{}", headline(standings, scheduled, sprt));
    let header = format!(
        "{:>6} {:>5} {:>5} {:>7} {:>18} {:>7}",
        "Games", "W", "L", "Score", "Elo ± 95%", "LOS"
    );
    let _ = writeln!(out, "{:>3}  {:<width$} {header}", "#", "Engine");
    let mut order: Vec<(usize, Tally)> =
        (0..names.len()).map(|i| (i, standings.engine(i))).collect();
    order.sort_by(|a, b| {
        let score = |t: &Tally| t.score().unwrap_or(0.0);
        score(&b.1).total_cmp(&score(&a.1)).then(a.0.cmp(&b.0))
    });
    for (rank, (i, tally)) in order.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>3}  {:<width$} {}",
            rank + 1,
            names[*i],
            figures(tally)
        );
    }
    let pairings = standings.pairings();
    if !pairings.is_empty() {
        let pair_width = pairings
            .keys()
            .map(|&(a, b)| names[a].len() + names[b].len() + 4)
            .max()
            .unwrap_or(10);
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:<pair_width$} {header}  pairs {}",
            "Pairing",
            PENTA_NAMES.join("/")
        );
        for (&(a, b), tally) in &pairings {
            let penta: Vec<String> = tally.penta.iter().map(u64::to_string).collect();
            let _ = writeln!(
                out,
                "{:<pair_width$} {}  {}",
                format!("{} vs {}", names[a], names[b]),
                figures(tally),
                penta.join("/")
            );
        }
    }
    let mut marks: Vec<Interval> = order
        .iter()
        .map(|(_, tally)| *tally)
        .chain(pairings.values().copied())
        .filter_map(|tally| tally.elo())
        .filter(|e| e.is_telling())
        .map(|e| e.interval)
        .collect();
    marks.sort_by_key(|i| i.mark());
    marks.dedup();
    for legend in marks.iter().filter_map(|i| i.legend()) {
        let _ = writeln!(out, "{legend}");
    }
    let ends: Vec<String> = standings
        .terminations()
        .iter()
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    if !ends.is_empty() {
        let _ = writeln!(out, "\nTerminations: {}", ends.join(", "));
    }
    if let Some(sprt) = sprt {
        let line = sprt_line(sprt, &standings.sprt_pairs())
            .unwrap_or_else(|| "no game pair complete yet".to_string());
        let _ = writeln!(out, "SPRT {} vs {}: {line}", names[0], names[1]);
    }
    out
}

/// One engine or pairing in the JSON summary.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Row {
    /// The engine, or `A vs B`.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won (by the first engine, for a pairing).
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Fraction of points scored, 0..=1.
    pub score: Option<f64>,
    /// Elo difference; `null` when infinite (a perfect or a zero score).
    pub elo: Option<f64>,
    /// Half-width of the 95 % interval; `null` when one end is unbounded.
    pub elo_margin95: Option<f64>,
    /// Lower end of the 95 % interval; `null` when unbounded.
    pub elo_lower95: Option<f64>,
    /// Upper end of the 95 % interval; `null` when unbounded.
    pub elo_upper95: Option<f64>,
    /// Likelihood of superiority, 0..=1.
    pub los: Option<f64>,
    /// Pair counts `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
}

impl Row {
    fn new(name: String, tally: &Tally) -> Row {
        let elo = tally.elo();
        // Adding zero turns -0.0 into 0.0.
        let finite = |x: f64| x.is_finite().then_some(x + 0.0);
        Row {
            name,
            games: tally.games(),
            wins: tally.wins,
            losses: tally.losses,
            score: tally.score(),
            elo: elo.and_then(|e| finite(e.elo)),
            elo_margin95: elo.and_then(|e| finite(e.margin95)),
            elo_lower95: elo.and_then(|e| finite(e.lower95)),
            elo_upper95: elo.and_then(|e| finite(e.upper95)),
            los: elo.map(|e| e.los),
            pentanomial: tally.penta,
        }
    }
}

/// The SPRT in the JSON summary.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct SprtSummary {
    /// The test, as `elo0=… elo1=… alpha=… beta=… model=…`.
    pub test: String,
    /// The complete pairs of the first engine against the second that the LLR is over,
    /// `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Lower and upper bound.
    pub bounds: [f64; 2],
    /// `continue`, `H0 accepted` or `H1 accepted`.
    pub decision: String,
}

/// The version of the JSON summary's schema (`scripts/arena-json.md`).
pub const SUMMARY_VERSION: u32 = 2;

/// The JSON summary for scripts; also what `merge` reads. Its schema is documented in
/// `scripts/arena-json.md`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// The schema version, [`SUMMARY_VERSION`].
    pub version: u32,
    /// The event name.
    pub event: String,
    /// What defines the schedule.
    pub settings: Settings,
    /// Games in the schedule (of this shard).
    pub games_scheduled: usize,
    /// Games played.
    pub games_played: usize,
    /// Per engine, in the order given.
    pub engines: Vec<Row>,
    /// Per pairing.
    pub pairings: Vec<Row>,
    /// Games per termination.
    pub terminations: BTreeMap<Termination, usize>,
    /// The SPRT, when one was run.
    pub sprt: Option<SprtSummary>,
    /// Every game, by number.
    pub games: Vec<GameEntry>,
}

impl Summary {
    /// The summary of `reports` (in the order they finished) under `settings`, for the
    /// event named `event`.
    pub fn new(
        event: &str,
        settings: &Settings,
        scheduled: usize,
        reports: &[GameReport],
    ) -> Result<Summary, SprtError> {
        let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
        let mut standings = Standings::new(names.clone()).with_sprt(settings.sprt()?);
        for g in reports {
            standings.add(g);
        }
        let mut games = reports.to_vec();
        games.sort_by_key(|g| g.number);
        let sprt = settings.sprt()?.map(|sprt| {
            let tally = standings.sprt_pairs();
            let llr = sprt.llr_pentanomial(&tally);
            let (lower, upper) = sprt.bounds();
            SprtSummary {
                test: sprt.to_string(),
                pentanomial: tally.penta,
                llr,
                bounds: [lower, upper],
                decision: sprt.decide(llr).to_string(),
            }
        });
        Ok(Summary {
            version: SUMMARY_VERSION,
            event: event.to_string(),
            settings: settings.clone(),
            games_scheduled: scheduled,
            games_played: games.len(),
            engines: (0..names.len())
                .map(|i| Row::new(names[i].clone(), &standings.engine(i)))
                .collect(),
            pairings: standings
                .pairings()
                .iter()
                .map(|(&(a, b), t)| Row::new(format!("{} vs {}", names[a], names[b]), t))
                .collect(),
            terminations: standings.terminations().clone(),
            sprt,
            games: games.iter().map(GameEntry::new).collect(),
        })
    }

    /// The games as the arena keeps them (numbered from 0); `None` if one is numbered 0.
    pub fn reports(&self) -> Option<Vec<GameReport>> {
        self.games.iter().map(GameEntry::report).collect()
    }

    /// Writes the summary as pretty JSON.
    pub fn save(&self, path: &std::path::Path) -> Result<(), FileError> {
        let text = serde_json::to_string_pretty(self).map_err(|e| {
            FileError::io(
                path,
                FileAction::Write,
                std::io::Error::other(format!("cannot encode the JSON summary: {e}")),
            )
        })?;
        // Through a temporary file and a rename: a kill leaves the old summary or the new one.
        write_atomically(path, (text + "\n").as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(number: usize, players: [&str; 2], winner: u8) -> GameReport {
        GameReport::sample(number, players, winner)
    }

    #[test]
    fn pairs_are_counted_from_the_first_engines_side() {
        let mut s = Standings::new(vec!["a".into(), "b".into(), "c".into()]);
        // Pair 0: a wins both (WW). Pair 1: each side wins as player 1 (WL). Pair 2: b wins both vs a.
        for r in [
            report(0, ["a", "b"], 1),
            report(1, ["b", "a"], 2),
            report(2, ["a", "b"], 1),
            report(3, ["b", "a"], 1),
            report(4, ["a", "b"], 2),
            report(5, ["b", "a"], 1),
            report(6, ["c", "a"], 1),
        ] {
            s.add(&r);
        }
        let ab = s.pairings()[&(0, 1)];
        assert_eq!((ab.wins, ab.losses), (3, 3));
        assert_eq!(ab.penta, [1, 0, 1, 0, 1]);
        // The unpaired game of a against c counts as a single game.
        let ac = s.pairings()[&(0, 2)];
        assert_eq!((ac.wins, ac.losses, ac.pairs()), (0, 1, 0));
        let a = s.engine(0);
        assert_eq!((a.games(), a.wins, a.losses), (7, 3, 4));
        let c = s.engine(2);
        assert_eq!((c.wins, c.losses), (1, 0));
        assert_eq!(s.games(), 7);
    }

    #[test]
    fn the_table_lists_engines_by_score_and_pairings_with_pairs() {
        let mut s = Standings::new(vec!["weak".into(), "strong".into()]);
        for pair in 0..10 {
            s.add(&report(
                2 * pair,
                ["weak", "strong"],
                if pair < 3 { 1 } else { 2 },
            ));
            s.add(&report(2 * pair + 1, ["strong", "weak"], 1));
        }
        let text = table(&s, 20, None);
        let strong = text.find("  strong ").unwrap();
        let weak = text.find("  weak ").unwrap();
        assert!(strong < weak, "{text}");
        assert!(text.contains("weak vs strong"), "{text}");
        assert!(text.contains("15.0%") && text.contains("85.0%"), "{text}");
        assert!(text.contains("7/0/3/0/0"), "{text}");
        assert!(text.contains("Terminations: goal-reached 20"), "{text}");
    }

    #[test]
    fn small_and_lopsided_tables_print_finite_intervals_and_no_negative_zero() {
        // One split pair (1-1): once `+0.00 ± 0.00`.
        let mut s = Standings::new(vec!["a".into(), "b".into()]);
        s.add(&report(0, ["a", "b"], 1));
        s.add(&report(1, ["b", "a"], 1));
        let text = table(&s, 2, None);
        assert!(text.contains("+0.00 ± 301.28†"), "{text}");
        assert!(
            text.contains("\n† Wilson interval with a variance floor"),
            "{text}"
        );
        // 2-8 in five pairs, and a perfect score: once `± inf`.
        let mut s = Standings::new(vec!["a".into(), "b".into()]);
        for pair in 0..5 {
            s.add(&report(2 * pair, ["a", "b"], if pair < 2 { 1 } else { 2 }));
            s.add(&report(2 * pair + 1, ["b", "a"], 1));
        }
        let text = table(&s, 10, None);
        assert!(!text.contains("inf") && !text.contains("-0.00"), "{text}");
        assert!(!text.contains("± 0.00"), "{text}");
        let mut s = Standings::new(vec!["a".into(), "b".into()]);
        s.add(&report(0, ["a", "b"], 1));
        s.add(&report(1, ["b", "a"], 2));
        let text = table(&s, 2, None);
        // One won pair says little: its one-sided bound is below zero, once printed as
        // `> -113.39`, and no Elo is shown.
        assert!(!text.contains("113.39") && !text.contains('>'), "{text}");
        assert!(!text.contains("inf") && !text.contains('†'), "{text}");
    }
}
