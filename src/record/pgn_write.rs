//! Game records in a PGN-style text: tag pairs, then the moves numbered in pairs, with
//! the engines' scores and thinking times as comments.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use super::game_record::GameRecord;
use crate::board::Side;
use crate::calendar::civil_from_days;
use crate::client::SearchLimits;

/// The `Variant` tag: the game the records are of.
pub const VARIANT: &str = "slimetrail";

/// Where and when the games are played: the `Event`, `Site` and `Date` tags.
#[derive(Clone, Debug)]
pub struct Venue {
    /// The `Event` tag.
    pub event: String,
    /// The `Site` tag: the machine's host name.
    pub site: String,
    /// The `Date` tag, `YYYY.MM.DD` (UTC).
    pub date: String,
}

impl Venue {
    /// This machine, today, for the event named `event`.
    pub fn here_and_now(event: &str) -> Venue {
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
            event: event.to_string(),
            site,
            date: format!("{y:04}.{m:02}.{d:02}"),
        }
    }
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

/// Whether the records carry the engines' scores and times as move comments
/// (`--pgn FILE`), or only the moves (`--pgn FILE min`, as cutechess-cli's `-pgnout FILE min`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Comments {
    /// Scores, depths, thinking times and the end of a faulted game as comments.
    Full,
    /// Moves and tags only.
    Minimal,
}

/// The tag pairs of one game, in order: the seven-tag roster (with player 1 as `White` and
/// player 2 as `Black`, as rating tools expect), then the arena's own tags.
pub fn tags(record: &GameRecord, venue: &Venue) -> Vec<(&'static str, String)> {
    let report = &record.report;
    let size = record.start.size();
    let fresh = record.start.slimed().is_empty() && record.start.side_to_move() == Side::One;
    let mut tags: Vec<(&'static str, String)> = vec![
        ("Event", venue.event.clone()),
        ("Site", venue.site.clone()),
        ("Date", venue.date.clone()),
        ("Round", format!("{}.{}", report.round, report.number + 1)),
        ("White", report.players[0].clone()),
        ("Black", report.players[1].clone()),
        ("Result", report.result_text().to_string()),
        ("P1", report.players[0].clone()),
        ("P2", report.players[1].clone()),
        ("Variant", VARIANT.to_string()),
        ("Board", format!("{}x{}", size.width(), size.height())),
    ];
    if fresh {
        // The square the snail starts the game on; only known when the record starts there.
        tags.push(("Start", record.start.name(record.start.snail())));
    } else {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", record.start.to_string()));
    }
    tags.push(("Opening", report.opening.clone()));
    tags.push(("Termination", report.termination.to_string()));
    let [one, two] = &record.limits;
    tags.push(("TimeControl", time_control(one, two)));
    if let Some(limits) = search_limits(one, two) {
        tags.push(("SearchLimits", limits));
    }
    if !report.detail.is_empty() {
        tags.push(("TerminationDetails", report.detail.clone()));
    }
    tags
}

/// The standard `TimeControl` value: `40/60`, `10+0.1`, `40/60+0.5`, `-` without a clock,
/// `?` when the players' clocks differ (their limits are then in `SearchLimits`).
fn time_control(one: &SearchLimits, two: &SearchLimits) -> String {
    match (one.clock, two.clock) {
        (a, b) if a != b => "?".to_string(),
        (Some(clock), _) => clock.to_string(),
        (None, _) => "-".to_string(),
    }
}

/// The `SearchLimits` tag: what `TimeControl` cannot say (`movetime=20`, `depth=3`,
/// `nodes=1000`), or every limit of each player when their clocks differ.
fn search_limits(one: &SearchLimits, two: &SearchLimits) -> Option<String> {
    let (a, b) = if one.clock == two.clock {
        (one.describe_non_clock(), two.describe_non_clock())
    } else {
        (one.describe(), two.describe())
    };
    if a == b {
        (a != "-").then_some(a)
    } else {
        Some(format!("P1 {a}, P2 {b}"))
    }
}

/// The record of one game, ending with a blank line.
pub fn write_game(record: &GameRecord, venue: &Venue, comments: Comments) -> String {
    let report = &record.report;
    let size = record.start.size();
    let mut out = String::new();
    for (tag, value) in tags(record, venue) {
        let _ = writeln!(out, "[{tag} \"{}\"]", quoted(&value));
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
        if comments == Comments::Minimal {
            continue;
        }
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
    if !report.termination.is_normal() && comments == Comments::Full {
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
    use crate::board::{Position, Size};
    use crate::record::{GameReport, MoveRecord, Termination};
    use std::time::Duration;

    fn record(
        start: Position,
        moves: &[&str],
        opening_plies: usize,
        termination: Termination,
    ) -> GameRecord {
        let limits = SearchLimits {
            clock: crate::client::parse_clock("10+0.1"),
            ..SearchLimits::default()
        };
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
                start: start.to_string(),
                moves: Vec::new(),
            },
            start,
            moves,
            opening_plies,
            limits: [limits.clone(), limits],
        }
    }

    fn venue() -> Venue {
        Venue {
            event: "Test \\ event".to_string(),
            site: "box".to_string(),
            date: "2026.01.02".to_string(),
        }
    }

    #[test]
    fn records_have_every_tag_and_numbered_moves() {
        let start = Position::start(Size::DEFAULT);
        let text = write_game(
            &record(start, &["c3", "b2", "a1"], 1, Termination::GoalReached),
            &venue(),
            Comments::Full,
        );
        for tag in [
            "[Event \"Test \\\\ event\"]",
            "[Site \"box\"]",
            "[Date \"2026.01.02\"]",
            "[Round \"2.7\"]",
            "[P1 \"alpha\"]",
            "[P2 \"beta \\\"b\\\"\"]",
            "[White \"alpha\"]",
            "[Black \"beta \\\"b\\\"\"]",
            "[Variant \"slimetrail\"]",
            "[Board \"7x7\"]",
            "[Start \"d4\"]",
            "[Opening \"c3\"]",
            "[Result \"1-0\"]",
            "[Termination \"goal-reached\"]",
            "[TimeControl \"10+0.1\"]",
        ] {
            assert!(text.contains(tag), "missing {tag} in\n{text}");
        }
        assert!(!text.contains("[SetUp"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        assert!(!text.contains("[SearchLimits"), "{text}");
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
            &venue(),
            Comments::Full,
        );
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"7/7/7/3x3/1sx4/7/7 2\"]"),
            "{text}"
        );
        // `Start` names the game's start square; a set-up position does not know it.
        assert!(!text.contains("[Start"), "{text}");
        assert!(
            text.contains("1... a4 {+0.35/4 12ms} 2. b5 {12ms} {beta played d4: d4 is slimed} 1-0"),
            "{text}"
        );
    }

    #[test]
    fn minimal_records_have_moves_without_comments() {
        let start = Position::start(Size::DEFAULT);
        let text = write_game(
            &record(start, &["c3", "b2", "a1"], 1, Termination::GoalReached),
            &venue(),
            Comments::Minimal,
        );
        assert!(text.contains("\n\n1. c3 b2 2. a1 1-0\n\n"), "{text}");
    }

    #[test]
    fn time_controls_use_the_standard_forms_and_other_limits_their_own_tag() {
        let limits = |words: &str| {
            let words: Vec<String> = words.split_whitespace().map(str::to_string).collect();
            let mut all = vec!["cmd=random".to_string()];
            all.extend(words);
            crate::client::parse_engines(&[all], &[]).unwrap()[0]
                .limits
                .clone()
        };
        let case = |a: &str, b: &str| {
            let (a, b) = (limits(a), limits(b));
            (time_control(&a, &b), search_limits(&a, &b))
        };
        assert_eq!(case("tc=40/60", "tc=40/60"), ("40/60".into(), None));
        assert_eq!(case("tc=10+0.1", "tc=10+0.1"), ("10+0.1".into(), None));
        assert_eq!(
            case("tc=40/60+0.5 depth=3", "tc=40/60+0.5 depth=3"),
            ("40/60+0.5".into(), Some("depth=3".into()))
        );
        assert_eq!(
            case("movetime=20", "movetime=20"),
            ("-".into(), Some("movetime=20".into()))
        );
        assert_eq!(case("", ""), ("-".into(), None));
        assert_eq!(
            case("depth=2", ""),
            ("-".into(), Some("P1 depth=2, P2 -".into()))
        );
        assert_eq!(
            case("tc=10", "movetime=5"),
            ("?".into(), Some("P1 tc=10, P2 movetime=5".into()))
        );
    }

    #[test]
    fn the_venue_is_dated_today() {
        assert!(Venue::here_and_now("Test").date.starts_with("20"));
    }
}
