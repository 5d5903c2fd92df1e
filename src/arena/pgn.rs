//! Game records in a PGN-style text: tag pairs, then the moves numbered in pairs, with
//! the engines' scores and thinking times as comments.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use super::game::GameRecord;
use crate::board::Side;

/// The event name written in every record.
pub const EVENT: &str = "Slimetrail arena";

/// Where and when the games are played: the `Site` and `Date` tags.
#[derive(Clone, Debug)]
pub struct Venue {
    /// The `Site` tag: the machine's host name.
    pub site: String,
    /// The `Date` tag, `YYYY.MM.DD` (UTC).
    pub date: String,
}

impl Venue {
    /// This machine, today.
    pub fn here_and_now() -> Venue {
        let site = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|s| s.trim().to_string())
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "?".to_string());
        let days = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() / 86_400)
            .unwrap_or(0);
        let (y, m, d) = civil_from_days(days as i64);
        Venue {
            site,
            date: format!("{y:04}.{m:02}.{d:02}"),
        }
    }
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A tag value with `\` and `"` escaped, and control characters (such as a carriage
/// return or an escape from an engine's output) written out as `\r` or `\u{1b}`.
fn quoted(value: &str) -> String {
    printable(value).replace('"', "\\\"")
}

/// The text with `\` doubled and control characters written out as escapes.
fn printable(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

/// The record of one game, ending with a blank line.
pub fn write_game(record: &GameRecord, venue: &Venue) -> String {
    let report = &record.report;
    let size = record.start.size();
    let mut out = String::new();
    let start_square = record.start.name(record.start.snail());
    let fresh = record.start.slimed().is_empty() && record.start.side_to_move() == Side::One;
    let tags: Vec<(&str, String)> = vec![
        ("Event", EVENT.to_string()),
        ("Site", venue.site.clone()),
        ("Date", venue.date.clone()),
        ("Round", format!("{}.{}", report.round, report.number + 1)),
        ("P1", report.players[0].clone()),
        ("P2", report.players[1].clone()),
        ("Board", format!("{}x{}", size.width(), size.height())),
        ("Start", start_square),
        ("Opening", report.opening.clone()),
        ("Result", report.result_text().to_string()),
        ("Termination", report.termination.to_string()),
        ("TimeControl", record.time_control.clone()),
    ];
    for (tag, value) in tags {
        let _ = writeln!(out, "[{tag} \"{}\"]", quoted(&value));
    }
    if !fresh {
        let _ = writeln!(out, "[Position \"{}\"]", record.start);
    }
    if !report.detail.is_empty() {
        let _ = writeln!(out, "[TerminationDetails \"{}\"]", quoted(&report.detail));
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    let first_side = record.start.side_to_move();
    for (ply, mv) in record.moves.iter().enumerate() {
        let side = if ply % 2 == 0 {
            first_side
        } else {
            !first_side
        };
        let number = (ply + usize::from(first_side == Side::Two)) / 2 + 1;
        if side == Side::One {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(size.name(mv.square).to_string());
        let mut notes = Vec::new();
        if ply + 1 == record.opening_plies {
            notes.push("opening".to_string());
        }
        if let Some(comment) = &mv.comment {
            notes.push(comment.clone());
        }
        if let Some(elapsed) = mv.elapsed {
            notes.push(format!("{}ms", elapsed.as_millis()));
        }
        if !notes.is_empty() {
            words.push(format!("{{{}}}", notes.join(" ")));
        }
    }
    if !report.termination.is_normal() {
        words.push(format!(
            "{{{}}}",
            printable(&report.detail.replace(['{', '}'], ""))
        ));
    }
    words.push(report.result_text().to_string());
    // Lines of at most 80 characters, as PGN asks.
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::{GameReport, MoveRecord, Termination};
    use crate::board::{Position, Size};
    use std::time::Duration;

    fn record(
        start: Position,
        moves: &[&str],
        opening_plies: usize,
        termination: Termination,
    ) -> GameRecord {
        let mut pos = start;
        let moves: Vec<MoveRecord> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let square = pos.parse_move(m).unwrap();
                pos.play(square);
                MoveRecord {
                    square,
                    elapsed: (i >= opening_plies).then(|| Duration::from_millis(12)),
                    comment: (i == opening_plies).then(|| "+0.35/4".to_string()),
                }
            })
            .collect();
        GameRecord {
            report: GameReport {
                number: 6,
                round: 2,
                pair: 3,
                players: ["alpha".to_string(), "beta \"b\"".to_string()],
                winner: 1,
                termination,
                detail: "beta played d4: d4 is slimed".to_string(),
                plies: moves.len(),
                opening: "c3".to_string(),
            },
            start,
            moves,
            opening_plies,
            time_control: "10+0.1".to_string(),
        }
    }

    #[test]
    fn records_have_every_tag_and_numbered_moves() {
        let start = Position::start(Size::DEFAULT);
        let text = write_game(
            &record(start, &["c3", "b2", "a1"], 1, Termination::GoalReached),
            &Venue {
                site: "box".to_string(),
                date: "2026.01.02".to_string(),
            },
        );
        for tag in [
            "[Event \"Slimetrail arena\"]",
            "[Site \"box\"]",
            "[Date \"2026.01.02\"]",
            "[Round \"2.7\"]",
            "[P1 \"alpha\"]",
            "[P2 \"beta \\\"b\\\"\"]",
            "[Board \"7x7\"]",
            "[Start \"d4\"]",
            "[Opening \"c3\"]",
            "[Result \"1-0\"]",
            "[Termination \"goal reached\"]",
            "[TimeControl \"10+0.1\"]",
        ] {
            assert!(text.contains(tag), "missing {tag} in\n{text}");
        }
        assert!(!text.contains("[Position"), "{text}");
        assert!(
            text.contains("\n\n1. c3 {opening} b2 {+0.35/4 12ms} 2. a1 {12ms} 1-0\n\n"),
            "{text}"
        );
    }

    #[test]
    fn records_from_a_position_with_player_two_to_move_say_so() {
        let start: Position = "7/7/7/3x3/1sx4/7/7 2".parse().unwrap();
        let text = write_game(
            &record(start, &["a4", "b5"], 0, Termination::IllegalMove),
            &Venue {
                site: "box".to_string(),
                date: "2026.01.02".to_string(),
            },
        );
        assert!(
            text.contains("[Position \"7/7/7/3x3/1sx4/7/7 2\"]"),
            "{text}"
        );
        assert!(text.contains("[Start \"b3\"]"), "{text}");
        assert!(
            text.contains("1... a4 {+0.35/4 12ms} 2. b5 {12ms} {beta played d4: d4 is slimed} 1-0"),
            "{text}"
        );
    }

    #[test]
    fn dates_follow_the_calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert!(Venue::here_and_now().date.starts_with("20"));
    }
}
