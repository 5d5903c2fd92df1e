//! What a running tournament shows on stderr: a progress line with the standings' lead,
//! games done, games per second and the time left; and, when asked, a line per finished game.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use super::summary::{Standings, sprt_line};
use crate::record::GameReport;
use crate::stats::Sprt;

/// How often the progress line is redrawn on a terminal, and printed otherwise.
const PROGRESS_TTY: Duration = Duration::from_millis(100);
const PROGRESS_PLAIN: Duration = Duration::from_secs(2);

/// The live progress line on stderr, and the finished-game lines.
pub struct Progress {
    enabled: bool,
    show_games: bool,
    tty: bool,
    total: usize,
    last: Option<Instant>,
    started: Instant,
    /// Games counted when this run started (saved games of a resumed run).
    done_before: Option<usize>,
}

impl Progress {
    /// Progress of `total` scheduled games; `show_games` adds a line per finished game.
    pub fn new(enabled: bool, show_games: bool, total: usize) -> Progress {
        Progress {
            enabled,
            show_games,
            tty: std::io::stderr().is_terminal(),
            total,
            last: None,
            started: Instant::now(),
            done_before: None,
        }
    }

    /// Prints the line of a finished game, if asked for; `done` games are counted with it.
    pub fn finished(&mut self, report: &GameReport, done: usize) {
        if !self.show_games {
            return;
        }
        let line = game_line(report, done, self.total);
        let mut err = std::io::stderr().lock();
        let _ = if self.tty && self.enabled && self.last.is_some() {
            // Over the progress line, which the next redraw restores.
            writeln!(err, "\r\x1b[2K{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }

    /// Redraws the line if it is due (always when `last`).
    pub fn show(&mut self, standings: &Standings, sprt: Option<&Sprt>, last: bool) {
        let done_before = *self.done_before.get_or_insert(standings.games());
        if !self.enabled {
            return;
        }
        let every = if self.tty {
            PROGRESS_TTY
        } else {
            PROGRESS_PLAIN
        };
        if !last && self.last.is_some_and(|t| t.elapsed() < every) {
            return;
        }
        self.last = Some(Instant::now());
        let pace = Pace {
            games: standings.games().saturating_sub(done_before),
            elapsed: self.started.elapsed(),
            last,
        };
        let line = progress_line(standings, self.total, sprt, pace);
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r\x1b[2K{line}{}", if last { "\n" } else { "" })
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }
}

/// Games played in this run and the time they took.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Games finished since the run started.
    pub games: usize,
    /// Time since the run started.
    pub elapsed: Duration,
    /// Whether the run is over: no time left to show.
    pub last: bool,
}

impl Pace {
    /// `3.2 games/s, ETA 0:01:05` for `left` games still to play, without the ETA once the
    /// run is over (the SPRT may have ended it early); empty before the first game.
    fn describe(&self, left: usize) -> String {
        let secs = self.elapsed.as_secs_f64();
        if self.games == 0 || secs <= 0.0 {
            return String::new();
        }
        let rate = self.games as f64 / secs;
        if self.last {
            return format!(", {rate:.1} games/s");
        }
        let eta = (left as f64 / rate).round() as u64;
        format!(
            ", {rate:.1} games/s, ETA {}:{:02}:{:02}",
            eta / 3600,
            eta % 3600 / 60,
            eta % 60
        )
    }
}

/// `Finished game 7 (7 of 40 done: alpha vs beta): 1-0, goal-reached, 23 plies`.
pub fn game_line(report: &GameReport, done: usize, total: usize) -> String {
    format!(
        "Finished game {} ({done} of {total} done: {} vs {}): {}, {}, {} plies",
        report.number + 1,
        report.players[0],
        report.players[1],
        report.result_text(),
        report.termination,
        report.plies
    )
}

/// Two engines: `[12/40] A vs B 7-5 (58.3%) Elo +58.45 ± 201.30, 3.2 games/s, ETA 0:00:09`,
/// with the SPRT over complete pairs. More: the leader by score instead of the first engine,
/// `[12/60] leader C 6-2 (75.0%) Elo … of 3 engines, …`.
pub fn progress_line(
    standings: &Standings,
    total: usize,
    sprt: Option<&Sprt>,
    pace: Pace,
) -> String {
    let names = standings.engines();
    let (who, tally) = if names.len() == 2 {
        (
            format!("{} vs {}", names[0], names[1]),
            standings.first_pairing(),
        )
    } else {
        let leader = (0..names.len())
            .map(|i| (i, standings.engine(i)))
            .max_by(|(i, a), (j, b)| {
                let score = |t: &crate::stats::Tally| t.score().unwrap_or(0.0);
                score(a).total_cmp(&score(b)).then(j.cmp(i))
            })
            .map_or(0, |(i, _)| i);
        (
            format!("leader {} of {}:", names[leader], names.len()),
            standings.engine(leader),
        )
    };
    let done = standings.games();
    let mut line = format!("[{done}/{total}] {who} {}-{}", tally.wins, tally.losses);
    if let Some(score) = tally.score() {
        line.push_str(&format!(" ({:.1}%)", score * 100.0));
    }
    if let Some(text) = tally.elo().and_then(|e| e.describe_marked("±", true)) {
        line.push_str(&format!(" Elo {text}"));
    }
    if let Some(text) = sprt.and_then(|s| sprt_line(s, &standings.sprt_pairs())) {
        line.push(' ');
        line.push_str(&text);
    }
    line.push_str(&pace.describe(total.saturating_sub(done)));
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::settings::SprtSettings;

    fn report(number: usize, players: [&str; 2], winner: u8) -> GameReport {
        GameReport::sample(number, players, winner)
    }

    #[test]
    fn a_round_robin_shows_its_leader_and_pace() {
        let mut s = Standings::new(vec!["a".into(), "b".into(), "c".into()]);
        s.add(&report(0, ["a", "b"], 2));
        s.add(&report(1, ["b", "a"], 1));
        s.add(&report(2, ["b", "c"], 1));
        let pace = Pace {
            games: 3,
            elapsed: Duration::from_secs(2),
            last: false,
        };
        let line = progress_line(&s, 12, None, pace);
        assert!(
            line.starts_with("[3/12] leader b of 3: 3-0 (100.0%)"),
            "{line}"
        );
        assert!(line.ends_with(", 1.5 games/s, ETA 0:00:06"), "{line}");
        let over = Pace { last: true, ..pace };
        let line = progress_line(&s, 12, None, over);
        assert!(line.ends_with(", 1.5 games/s"), "{line}");
    }

    /// A run with no game timed yet: the progress line shows no speed.
    const NO_PACE: Pace = Pace {
        games: 0,
        elapsed: Duration::ZERO,
        last: false,
    };

    #[test]
    fn no_llr_is_shown_before_a_pair_is_complete() {
        let sprt = SprtSettings::new(0.0, 5.0, None, None, None)
            .unwrap()
            .build()
            .unwrap();
        let mut s = Standings::new(vec!["a".into(), "b".into()]);
        s.add(&report(0, ["a", "b"], 1));
        let pace = NO_PACE;
        let line = progress_line(&s, 10, Some(&sprt), pace);
        assert!(!line.contains("LLR"), "{line}");
        s.add(&report(1, ["b", "a"], 2));
        let line = progress_line(&s, 10, Some(&sprt), pace);
        assert!(
            line.contains("LLR") && line.contains("over 1 pairs 0,0,0,0,1"),
            "{line}"
        );
    }

    #[test]
    fn no_elo_bound_is_shown_until_it_says_who_is_stronger() {
        let mut s = Standings::new(vec!["a".into(), "b".into()]);
        s.add(&report(0, ["a", "b"], 1));
        let pace = NO_PACE;
        // Once `Elo > -233.80`: true, but it reads as a claim.
        let line = progress_line(&s, 40, None, pace);
        assert_eq!(line, "[1/40] a vs b 1-0 (100.0%)");
        for number in 1..12 {
            let players = if number % 2 == 0 {
                ["a", "b"]
            } else {
                ["b", "a"]
            };
            s.add(&report(
                number,
                players,
                if number % 2 == 0 { 1 } else { 2 },
            ));
        }
        let line = progress_line(&s, 40, None, pace);
        assert!(line.contains("12-0 (100.0%) Elo > +"), "{line}");
    }

    #[test]
    fn finished_games_have_a_line_each() {
        assert_eq!(
            game_line(&report(6, ["alpha", "beta"], 2), 7, 40),
            "Finished game 7 (7 of 40 done: alpha vs beta): 0-1, goal-reached, 11 plies"
        );
    }
}
