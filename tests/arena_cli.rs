//! The arena's command line: errors for bad arguments, the default match with the real
//! engine, and game records that replay legally under the rules.

use crate::arena_support;

use arena_support::*;
use slimetrail::board::Position;

/// Runs the arena expecting failure; returns stderr.
fn fails(dir: &TempDir, args: &str) -> String {
    let out = run(dir, &words(args));
    assert!(!out.status.success(), "`{args}` should fail");
    assert!(
        out.stdout.is_empty(),
        "`{args}` printed on stdout: {}",
        text(&out.stdout)
    );
    text(&out.stderr)
}

#[test]
fn bad_arguments_name_the_argument_and_what_was_expected() {
    let dir = TempDir::new("arena-cli-errors");
    let two = "--engine name=a cmd=random --engine name=b cmd=random";
    let cases: &[(&str, &[&str])] = &[
        (
            "--engine name=a cmd=random speed=3 --engine name=b cmd=random",
            &["unknown key `speed`", "expected one of"],
        ),
        (
            "--engine name=a --engine name=b cmd=random",
            &["--engine #1", "missing cmd=", "expected cmd=PATH"],
        ),
        (
            "--engine name=a cmd=random",
            &["only 1 engine", "expected at least two"],
        ),
        (
            &format!("{two} --each tc=fast"),
            &["tc=fast", "such as tc=10+0.1"],
        ),
        (
            "--engine name=a cmd=random tc=1+x --engine name=b cmd=random",
            &["--engine #1 tc=1+x"],
        ),
        (
            &format!("{two} --shard 5/4"),
            &["--shard", "out of range", "expected K/N"],
        ),
        (&format!("{two} --shard two"), &["--shard", "expected K/N"]),
        (
            &format!("{two} --format swiss"),
            &["--format", "round-robin or gauntlet"],
        ),
        (&format!("{two} --concurrency 0"), &["--concurrency"]),
        (
            &format!("{two} --openings random:x"),
            &["--openings random:x", "random:4"],
        ),
        (
            &format!("{two} --openings file=/no/such/file"),
            &["--openings file=/no/such/file", "cannot read"],
        ),
        (&format!("{two} --sprt elo0=0"), &["--sprt", "missing elo1"]),
        (
            &format!("{two} --sprt elo0=0 elo1=5 model=bayes"),
            &["--sprt model=bayes"],
        ),
        (
            &format!("{two} --engine name=c cmd=random --sprt elo0=0 elo1=5"),
            &["--sprt needs exactly two engines"],
        ),
        (&format!("{two} --size 12x7"), &["--size"]),
        (&format!("{two} --start g7"), &["--start g7", "goal corner"]),
        (
            "--engine name=a cmd=/no/such/engine --engine name=b cmd=random",
            &["cmd=/no/such/engine", "no such file"],
        ),
        (
            "--engine name=a cmd=random --engine name=a cmd=random",
            &["name `a` is already taken"],
        ),
        ("merge", &["FILE"]),
        (
            "merge /no/such/result.json",
            &["/no/such/result.json", "cannot read"],
        ),
    ];
    for (args, needles) in cases {
        let err = fails(&dir, args);
        for needle in *needles {
            assert!(
                err.contains(needle),
                "`{args}`: `{needle}` missing from: {err}"
            );
        }
    }
}

#[test]
fn the_mock_engine_is_hidden_from_help() {
    let dir = TempDir::new("arena-cli-help");
    let out = run(&dir, &words("--help"));
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(
        help.contains("--engine") && help.contains("merge") && help.contains("stats"),
        "{help}"
    );
    assert!(!help.contains("mock"), "{help}");
}

/// The help of one flag: its line of `--help` and those below it, up to the next flag.
fn flag_help(help: &str, flag: &str) -> String {
    let start = help
        .find(&format!("      {flag} "))
        .unwrap_or_else(|| panic!("no {flag} in {help}"));
    let rest = &help[start + flag.len() + 6..];
    let end = ["\n  -", "\n      -"]
        .iter()
        .filter_map(|next| rest.find(next))
        .min()
        .unwrap_or(rest.len());
    rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn help_names_every_engine_key_and_the_defaults_the_arena_uses() {
    use slimetrail::arena::{DEFAULT_MATCH_CONCURRENCY, DEFAULT_MATCH_ROUNDS, SPRT_MAX_ROUNDS};
    let dir = TempDir::new("arena-cli-help-keys");
    let out = run(&dir, &words("--help"));
    assert!(out.status.success());
    let help = text(&out.stdout);
    // Once without tc=MOVES/S, st= and proto=.
    let engine = flag_help(&help, "--engine");
    for key in [
        "tc=MOVES/S",
        "st=",
        "proto=",
        "tc=S+INC",
        "timemargin=",
        "movetime=",
    ] {
        assert!(engine.contains(key), "{key} not in: {engine}");
    }
    use slimetrail::client::{DEFAULT_TIME_MARGIN_MS, DEFAULT_TIMEOUT_MS};
    assert!(
        engine.contains(&format!("time loss, default {DEFAULT_TIME_MARGIN_MS})"))
            && engine.contains(&format!("clock, default {DEFAULT_TIMEOUT_MS})")),
        "{engine}"
    );
    // Once "[default: 1]", while the default match plays 20 rounds, 2 games at a time.
    let rounds = flag_help(&help, "--rounds");
    assert!(
        rounds.contains(&format!("{DEFAULT_MATCH_ROUNDS} in the default match"))
            && rounds.contains(&format!("{SPRT_MAX_ROUNDS} with --sprt")),
        "{rounds}"
    );
    let concurrency = flag_help(&help, "--concurrency");
    assert!(
        concurrency.contains(&format!("{DEFAULT_MATCH_CONCURRENCY} in the default match")),
        "{concurrency}"
    );
}

/// Moves of a PGN record's movetext: squares outside comments, move numbers and results.
fn pgn_moves(movetext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut plain = String::new();
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    for word in plain.split_whitespace() {
        if !word.ends_with('.') && !["1-0", "0-1"].contains(&word) {
            out.push(word.to_string());
        }
    }
    out
}

/// Checks every record: legal moves from the start, and the rules' winner for normal ends.
fn check_records(pgn: &str, expected_games: usize) {
    let records: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!(records.len(), expected_games);
    for record in records {
        let tag = |name: &str| {
            let start = record
                .find(&format!("[{name} \""))
                .unwrap_or_else(|| panic!("no {name} tag in {record}"));
            let rest = &record[start + name.len() + 3..];
            rest[..rest.find("\"]").unwrap()].to_string()
        };
        for name in [
            "Site",
            "Date",
            "Round",
            "P1",
            "P2",
            "Board",
            "Opening",
            "Result",
            "Termination",
            "TimeControl",
        ] {
            tag(name);
        }
        let size = tag("Board").parse().unwrap();
        let mut pos: Position = if record.contains("[SetUp \"1\"]") {
            tag("FEN").parse().unwrap()
        } else {
            Position::start_named(size, &tag("Start")).unwrap()
        };
        let movetext = &record[record.find("\n\n").unwrap()..];
        for mv in pgn_moves(movetext) {
            let square = pos
                .parse_move(&mv)
                .unwrap_or_else(|e| panic!("{mv}: {e} in {record}"));
            pos.play(square);
        }
        let result = tag("Result");
        if ["goal-reached", "no-legal-move"].contains(&tag("Termination").as_str()) {
            let winner = pos
                .outcome()
                .winner()
                .expect("a normal end is a finished game");
            assert_eq!(
                result,
                if winner.number() == 1 { "1-0" } else { "0-1" },
                "{record}"
            );
        } else {
            assert!(
                !pos.outcome().is_over(),
                "a fault ends an unfinished game: {record}"
            );
        }
    }
}

#[test]
fn the_real_engine_plays_legal_recorded_games() {
    let dir = TempDir::new("arena-cli-real");
    let args = format!(
        "--engine name=engine cmd={ENGINE} depth=2 option.Hash=1 --engine name=rnd cmd=random \
         --engine name=mock cmd={ARENA} arg=mock-engine depth=1 --format gauntlet --rounds 3 \
         --concurrency 2 --size 6x5 --start c3 --openings random:3 --quiet --pgn g.pgn --json s.json \
         --state st.jsonl --log e.log"
    );
    let out = run(&dir, &words(&args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = summary(&dir.path("s.json"));
    assert_eq!(s["games_played"], 12);
    for g in games(&s) {
        assert!(
            g["termination"] == "goal-reached" || g["termination"] == "no-legal-move",
            "well-behaved players end games by the rules: {g}"
        );
        assert_eq!(
            g["players"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| *p == "engine")
                .count(),
            1
        );
    }
    let pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    assert!(
        pgn.contains("[Board \"6x5\"]")
            && pgn.contains("[TimeControl \"-\"]")
            && pgn.contains("[SearchLimits \"P1 depth=2, P2 -\"]"),
        "{pgn}"
    );
    check_records(&pgn, 12);
}

#[test]
fn opening_files_are_played_in_order_with_colours_swapped() {
    let dir = TempDir::new("arena-cli-book");
    std::fs::write(
        dir.path("book.txt"),
        "# two openings\nc3 b3\n7/7/7/3s3/7/7/7 1 e5\n",
    )
    .unwrap();
    let args = "--engine name=a cmd=random --engine name=b cmd=random --rounds 3 --quiet \
                --openings file=book.txt --pgn g.pgn --json s.json --state st.jsonl";
    let out = run(&dir, &words(args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let openings = openings(&summary(&dir.path("s.json")));
    assert_eq!(openings, ["c3 b3", "c3 b3", "e5", "e5", "c3 b3", "c3 b3"]);
    check_records(&std::fs::read_to_string(dir.path("g.pgn")).unwrap(), 6);
}

#[test]
fn the_default_match_plays_the_engine_against_itself_at_two_levels() {
    let dir = TempDir::new("arena-cli-default");
    let out = run(&dir, &words("--rounds 2 --each depth=1 --quiet"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("Standings after 4 of 4 games"), "{table}");
    assert!(table.contains("slimetrail vs slimetrail-level5"), "{table}");
    assert!(dir.path("slimetrail-arena-state.jsonl").exists());
}
