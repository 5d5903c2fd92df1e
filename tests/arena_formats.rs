//! Records that standard tools read without surprises: PGN by the standard's tag-pair
//! grammar and its tags by python-chess (not its moves: they are no chess moves),
//! ratings by Ordo's maximum-likelihood method, the JSON summary by its documented
//! schema, cutechess-cli command lines, and the logs.

use std::collections::BTreeMap;
use std::process::Command;

use crate::arena_support::pgn::{read_pgn, standard_time_control};
use crate::arena_support::ratings::ordo_ratings;
use crate::arena_support::*;

/// A small round robin of three engines (the real engine at level 1, the built-in random
/// player and the mock engine), with a move-list and a position-string opening.
fn small_round_robin(dir: &TempDir, rounds: usize, extra: &str) -> std::process::Output {
    std::fs::write(dir.path("book.txt"), "c3 b3\n7/7/7/3x3/2s4/7/7 2\n").unwrap();
    let args = format!(
        "--engine name=L1 cmd={ENGINE} option.Level=1 depth=1 --engine name=rnd cmd=random \
         --engine name=mock cmd={ARENA} arg=mock-engine nodes=1000 --rounds {rounds} --concurrency 2 \
         --openings file=book.txt --pgn g.pgn --json s.json --state st.jsonl --quiet {extra}"
    );
    let out = run(dir, &words(&args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

#[test]
fn pgn_records_follow_the_tag_pair_grammar_that_rating_tools_read() {
    let dir = TempDir::new("records-pgn");
    let mut args = words(
        "--engine name=a cmd=random tc=40/60+0.5 --engine name=b\\\"x cmd=random tc=40/60+0.5 \
         --rounds 2 --openings file=book.txt --pgn g.pgn --state st.jsonl --quiet --event",
    );
    args.push("Test \"cup\" 2026".to_string());
    std::fs::write(dir.path("book.txt"), "c3 b3\n7/7/7/3x3/2s4/7/7 2\n").unwrap();
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    let games = read_pgn(&pgn).unwrap_or_else(|e| panic!("{e} in\n{pgn}"));
    assert_eq!(games.len(), 4);
    for game in &games {
        let names: Vec<&str> = game.tags.iter().map(|(n, _)| n.as_str()).collect();
        // The seven tag roster comes first, in its order.
        assert_eq!(
            names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "{game:?}"
        );
        assert_eq!(game.tag("Event"), Some("Test \"cup\" 2026"));
        assert_eq!(game.tag("White"), game.tag("P1"));
        assert_eq!(game.tag("Black"), game.tag("P2"));
        assert!(
            ["a", "b\\\"x"].contains(&game.tag("White").unwrap()),
            "{game:?}"
        );
        assert_eq!(game.tag("Variant"), Some("slimetrail"));
        let tc = game.tag("TimeControl").unwrap();
        assert_eq!(tc, "40/60+0.5");
        assert!(standard_time_control(tc));
        assert!(
            game.movetext
                .trim_end()
                .ends_with(game.tag("Result").unwrap())
        );
    }
    // Move-list openings start from the start square; a position string is a set-up position.
    assert_eq!(games[0].tag("Start"), Some("d4"));
    assert_eq!(games[0].tag("SetUp"), None);
    assert_eq!(games[2].tag("SetUp"), Some("1"));
    assert_eq!(games[2].tag("FEN"), Some("7/7/7/3x3/2s4/7/7 2"));
    assert_eq!(
        games[2].tag("Start"),
        None,
        "Start names only a game's start square"
    );
    for (limits, tc, search) in [
        ("movetime=20", "-", Some("movetime=20")),
        ("depth=3 tc=10+0.1", "10+0.1", Some("depth=3")),
        ("", "-", None),
    ] {
        assert!(standard_time_control(tc));
        let dir = TempDir::new("records-pgn-tc");
        let args = format!(
            "--engine name=a cmd=random --engine name=b cmd=random --each {limits} timemargin=60000 \
             --pgn g.pgn --state st.jsonl --quiet"
        );
        let out = run(&dir, &words(&args));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let games = read_pgn(&std::fs::read_to_string(dir.path("g.pgn")).unwrap()).unwrap();
        assert_eq!(games[0].tag("TimeControl"), Some(tc), "{limits}");
        assert_eq!(games[0].tag("SearchLimits"), search, "{limits}");
    }
    assert!(!standard_time_control("movetime=20") && !standard_time_control("depth=3"));
}

/// The headers of every game of a PGN file as python-chess reads them, or `None` when
/// python3 or python-chess is missing here (`.ci/run` installs it and sets
/// `SLIMETRAIL_REQUIRE_PYTHON_CHESS`, which makes a missing one a failure).
fn python_chess_headers(pgn: &std::path::Path) -> Option<Vec<BTreeMap<String, String>>> {
    const SCRIPT: &str = "import json, logging, sys\n\
        logging.disable(logging.CRITICAL)\n\
        import chess.pgn\n\
        games = []\n\
        with open(sys.argv[1]) as f:\n\
        \x20   while (game := chess.pgn.read_game(f)) is not None:\n\
        \x20       games.append(dict(game.headers))\n\
        print(json.dumps(games))\n";
    let required = std::env::var_os("SLIMETRAIL_REQUIRE_PYTHON_CHESS").is_some();
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(pgn)
        .output();
    match out {
        Ok(out) if out.status.success() => {
            Some(serde_json::from_slice(&out.stdout).expect("python-chess printed JSON"))
        }
        other => {
            let why = match other {
                Ok(out) => text(&out.stderr),
                Err(e) => e.to_string(),
            };
            assert!(!required, "python-chess is required here but failed: {why}");
            eprintln!(
                "SKIPPED the python-chess check: python3 with the chess package is not available \
                 ({}); install it with `python3 -m pip install chess`",
                why.lines().last().unwrap_or("")
            );
            None
        }
    }
}

#[test]
fn python_chess_reads_the_headers_and_ordo_style_ratings_agree_with_the_arenas_elo() {
    let dir = TempDir::new("records-ratings");
    small_round_robin(&dir, 10, "");
    let pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    let games = read_pgn(&pgn).unwrap();
    assert_eq!(games.len(), 60);
    if let Some(headers) = python_chess_headers(&dir.path("g.pgn")) {
        assert_eq!(headers.len(), games.len());
        for (theirs, ours) in headers.iter().zip(&games) {
            for (name, value) in &ours.tags {
                assert_eq!(
                    theirs.get(name),
                    Some(value),
                    "python-chess read {theirs:?}"
                );
            }
            assert_ne!(theirs["White"], "?");
        }
    }
    let results: Vec<(String, String, f64)> = games
        .iter()
        .map(|g| {
            let score = match g.tag("Result") {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                other => panic!("result {other:?}"),
            };
            (
                g.tag("White").unwrap().to_string(),
                g.tag("Black").unwrap().to_string(),
                score,
            )
        })
        .collect();
    let ratings = ordo_ratings(&results);
    let summary = summary(&dir.path("s.json"));
    let expected_score = |name: &str, r: &BTreeMap<String, f64>| {
        let mut total = 0.0;
        for (white, black, _) in &results {
            let (me, them) = if white == name {
                (white, black)
            } else if black == name {
                (black, white)
            } else {
                continue;
            };
            total += 1.0 / (1.0 + 10f64.powf((r[them] - r[me]) / 400.0));
        }
        total
    };
    for row in summary["engines"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        // At the maximum of the likelihood every player's expected points are its points,
        // so the arena's score per engine is what the ratings predict.
        let points = row["score"].as_f64().unwrap() * row["games"].as_f64().unwrap();
        assert!(
            (expected_score(name, &ratings) - points).abs() < 1e-6,
            "{row}"
        );
    }
    for row in summary["pairings"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        let (a, b) = name.split_once(" vs ").unwrap();
        let difference = ratings[a] - ratings[b];
        let (low, high) = (row["elo_lower95"].as_f64(), row["elo_upper95"].as_f64());
        assert!(
            low.is_none_or(|l| l <= difference) && high.is_none_or(|h| difference <= h),
            "the maximum-likelihood difference {difference:.1} of {name} lies outside the arena's \
             95% interval: {row}; ratings {ratings:?}"
        );
    }
    // The ratings rank the engines as the arena's scores do. Engines with equal scores
    // get equal ratings, up to the fit's precision, so their order is either way.
    let scores: Vec<(String, f64)> = summary["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["score"].as_f64().unwrap(),
            )
        })
        .collect();
    for (a, score_a) in &scores {
        for (b, score_b) in &scores {
            let (rating_a, rating_b) = (ratings[a], ratings[b]);
            if (score_a - score_b).abs() < 1e-9 {
                assert!(
                    (rating_a - rating_b).abs() < 0.5,
                    "{a} and {b} score the same but are rated {rating_a:.2} and {rating_b:.2}"
                );
            } else if score_a > score_b {
                assert!(
                    rating_a > rating_b,
                    "{a} scores more than {b} ({score_a} against {score_b}) but is rated \
                     {rating_a:.2} against {rating_b:.2}"
                );
            }
        }
    }
}

#[test]
fn ordo_style_ratings_recover_known_strengths() {
    // A check of the method itself: A beats B 3 games in 4, B beats C 3 in 4, A beats C 9 in 10.
    let mut games = Vec::new();
    for (a, b, wins, losses) in [("A", "B", 30, 10), ("B", "C", 30, 10), ("A", "C", 36, 4)] {
        games.extend((0..wins).map(|_| (a.to_string(), b.to_string(), 1.0)));
        games.extend((0..losses).map(|_| (a.to_string(), b.to_string(), 0.0)));
    }
    let r = ordo_ratings(&games);
    let expected = 400.0 * 3f64.log10();
    assert!((r["A"] - r["B"] - expected).abs() < 25.0, "{r:?}");
    assert!((r["B"] - r["C"] - expected).abs() < 25.0, "{r:?}");
    assert!(r.values().sum::<f64>().abs() < 1e-6);
}

/// The shape of a JSON value: its type, and recursively the fields of objects and the
/// elements of arrays.
fn same_shape(documented: &serde_json::Value, real: &serde_json::Value, path: &str) {
    use serde_json::Value;
    match (documented, real) {
        (Value::Object(d), Value::Object(r)) => {
            let dk: Vec<&String> = d.keys().collect();
            let rk: Vec<&String> = r.keys().collect();
            if path != ".terminations" {
                assert_eq!(dk, rk, "fields of {path}");
            }
            for (key, value) in d {
                if let Some(other) = r.get(key) {
                    same_shape(value, other, &format!("{path}.{key}"));
                }
            }
        }
        (Value::Array(d), Value::Array(r)) => {
            if let (Some(d), Some(r)) = (d.first(), r.first()) {
                same_shape(d, r, &format!("{path}[]"));
            }
        }
        (Value::Null, _) | (_, Value::Null) => {}
        (Value::Number(_), Value::Number(_))
        | (Value::String(_), Value::String(_))
        | (Value::Bool(_), Value::Bool(_)) => {}
        (d, r) => panic!("{path}: documented as {d}, written as {r}"),
    }
}

#[test]
fn the_json_summary_follows_its_documented_schema() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/arena-json.md"
    ))
    .unwrap();
    let start = doc.find("```json\n").expect("a JSON example") + 8;
    let end = start + doc[start..].find("```").unwrap();
    let documented: serde_json::Value = serde_json::from_str(&doc[start..end]).unwrap();
    let dir = TempDir::new("records-json");
    std::fs::write(dir.path("book.txt"), "c3 b3\n").unwrap();
    let args = format!(
        "--engine name=alpha cmd={ARENA} arg=mock-engine option.Level=5 tc=40/10+0.1 \
         --engine name=beta cmd=random movetime=20 depth=3 nodes=100000 --rounds 1 --start d4 \
         --openings file=book.txt --sprt elo0=0 elo1=5 --json s.json --state st.jsonl --quiet"
    );
    let out = run(&dir, &words(&args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let real = summary(&dir.path("s.json"));
    same_shape(&documented, &real, "");
    assert_eq!(real["version"], 2);
    // Milliseconds as numbers, enums as on the command line.
    let alpha = &real["settings"]["engines"][0];
    assert_eq!(alpha["limits"]["clock"]["base_ms"], 10_000);
    assert_eq!(alpha["limits"]["clock"]["moves"], 40);
    assert_eq!(alpha["command"]["kind"], "process");
    assert_eq!(real["settings"]["engines"][1]["limits"]["movetime_ms"], 20);
    assert_eq!(real["settings"]["format"], "round-robin");
    assert_eq!(real["settings"]["size"], "7x7");
    assert_eq!(real["settings"]["openings"]["order"], "sequential");
    // Numbering from 1, the moves of every game, one spelling per termination.
    let games = games(&real);
    let numbers: Vec<u64> = games
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2]);
    assert_eq!(games[0]["pair"], 1);
    for g in &games {
        assert_eq!(g["opening"], serde_json::json!(["c3", "b3"]));
        let moves = g["moves"].as_array().unwrap();
        assert_eq!(moves.len() as u64, g["plies"].as_u64().unwrap());
        assert_eq!(moves[..2], g["opening"].as_array().unwrap()[..]);
        let termination = g["termination"].as_str().unwrap();
        assert!(
            real["terminations"].get(termination).is_some(),
            "{termination}"
        );
    }
    // `merge` reads the summary back, and refuses a summary of another schema version.
    let merged = run(&dir, &words("merge s.json --json m.json"));
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(summary(&dir.path("m.json"))["games"], real["games"]);
    let mut old = real.clone();
    old["version"] = serde_json::json!(1);
    std::fs::write(dir.path("old.json"), old.to_string()).unwrap();
    let refused = run(&dir, &words("merge old.json"));
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("schema version 1; expected version 2"),
        "{}",
        text(&refused.stderr)
    );
}

#[test]
fn a_cutechess_cli_command_line_runs_unchanged() {
    let dir = TempDir::new("records-cutechess");
    // A cutechess-cli line as people write it, with only the engine commands swapped.
    let mut args = words(&format!(
        "-engine cmd={ARENA} arg=mock-engine name=mock -engine cmd=random name=rnd \
         -each proto=uci tc=40/2+0.05 -rounds 2 -games 2 -repeat -concurrency 2 -recover \
         -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=400 \
         -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -pgnout g.pgn min -event"
    ));
    args.push("Test match".to_string());
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("-resign movecount=3 score=400 ignored"));
    assert!(
        text(&out.stdout).contains("Standings after 4 of 4 games"),
        "{}",
        text(&out.stdout)
    );
    let pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    let games = read_pgn(&pgn).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("Event"), Some("Test match"));
        assert_eq!(g.tag("TimeControl"), Some("40/2+0.05"));
        assert!(
            !g.movetext.contains('{'),
            "min records have no comments: {}",
            g.movetext
        );
    }
    // -games must make whole pairs.
    let out = run(
        &dir,
        &words("-engine cmd=random -engine cmd=random name=b -rounds 3 -games 1"),
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("colour-swapped pairs"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_protocol_log_and_a_line_per_game_are_there_when_asked_for() {
    let dir = TempDir::new("records-logs");
    let args = format!(
        "--engine name=mock cmd={ARENA} arg=mock-engine depth=1 --engine name=rnd cmd=random \
         --protocol-log p.log --show-games --state st.jsonl"
    );
    let out = run(&dir, &words(&args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let finished: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len(), 2, "{stderr}");
    assert!(
        finished[0].starts_with("Finished game 1 (1 of 2 done: mock vs rnd): "),
        "{stderr}"
    );
    assert!(finished[0].contains(" plies"), "{stderr}");
    let log = std::fs::read_to_string(dir.path("p.log")).unwrap();
    let (mut sent, mut read) = (0, 0);
    for line in log.lines() {
        let (stamp, rest) = line.split_once(' ').unwrap();
        assert!(
            stamp.len() == 24 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
            "{line}"
        );
        if rest.starts_with(">mock ") {
            sent += 1;
        } else if rest.starts_with("<mock ") {
            read += 1;
        } else {
            panic!("a line of another engine or direction: {line}");
        }
    }
    assert!(
        log.contains(">mock go ") && log.contains("<mock bestmove "),
        "{log}"
    );
    assert!(sent > 2 && read > 2, "{log}");
}

#[test]
fn the_sprt_stops_at_a_pair_boundary_and_its_figures_are_reproducible() {
    let dir = TempDir::new("records-sprt");
    let args = format!(
        "--engine name=L1 cmd={ENGINE} option.Level=1 depth=1 --engine name=rnd cmd=random \
         --sprt elo0=0 elo1=50 --concurrency 3 --json s.json --state st.jsonl --quiet"
    );
    let out = run(&dir, &words(&args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = summary(&dir.path("s.json"));
    let played = s["games_played"].as_u64().unwrap();
    assert_eq!(
        played % 2,
        0,
        "the SPRT finishes the pairs it began: {played} games"
    );
    let pairing = &s["pairings"][0];
    let penta: Vec<u64> = pairing["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(
        2 * penta.iter().sum::<u64>(),
        played,
        "every game is in a complete pair"
    );
    // The SPRT's figures are over the pairs at which it decided; pairs begun before that
    // are finished and counted in the standings.
    let decided_at: Vec<u64> = s["sprt"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert!(decided_at.iter().zip(&penta).all(|(a, b)| a <= b), "{s}");
    // At most one pair per worker (3) was begun when it decided.
    assert!(penta.iter().sum::<u64>() - decided_at.iter().sum::<u64>() <= 3);
    assert_ne!(s["sprt"]["decision"], "continue");
    // `stats` reproduces the printed LLR and decision from the printed counts, and the
    // standings' counts without a warning.
    let counts = |p: &[u64]| p.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let stats = |args: &[&str]| {
        let out = Command::new(ARENA)
            .arg("stats")
            .args(args)
            .args(["--elo0", "0", "--elo1", "50"])
            .output()
            .unwrap();
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let report = stats(&["--penta", &counts(&decided_at)]);
    let llr = format!("{:.2}", s["sprt"]["llr"].as_f64().unwrap());
    assert!(
        report.contains(&format!("pair llr            {llr}\n")),
        "{llr} in\n{report}"
    );
    let decision = s["sprt"]["decision"].as_str().unwrap();
    assert!(
        report.contains(&format!("decision            {decision} (from pairs)")),
        "{report}"
    );
    let (wins, losses) = (pairing["wins"].to_string(), pairing["losses"].to_string());
    stats(&[
        "--wins",
        &wins,
        "--losses",
        &losses,
        "--penta",
        &counts(&penta),
    ]);
    let table = text(&out.stdout);
    assert!(table.contains(&format!("LLR {llr} ")), "{table}");
}
