//! Openings from files in cutechess-cli's terms: `format=pgn` reads PGN records (the
//! arena's own among them) as openings, `plies=N` cuts them, `order=` and `start=` pick
//! them; `format=epd` is refused with the formats that work.

use crate::arena_support;

use arena_support::*;

fn randoms(extra: &str) -> Vec<String> {
    words(&format!(
        "--engine name=a cmd=random --engine name=b cmd=random --quiet {extra}"
    ))
}

/// The openings of the games of the summary `json` in `dir`, in game order.
fn openings_in(dir: &TempDir, json: &str) -> Vec<String> {
    openings(&summary(&dir.path(json)))
}

/// The first `plies` moves of each game of a summary, in game order.
fn prefixes(dir: &TempDir, json: &str, plies: usize) -> Vec<String> {
    games(&summary(&dir.path(json)))
        .iter()
        .map(|g| {
            let moves: Vec<&str> = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .take(plies)
                .map(|m| m.as_str().unwrap())
                .collect();
            moves.join(" ")
        })
        .collect()
}

#[test]
fn pgn_records_are_openings_in_cutechess_terms() {
    let dir = TempDir::new("arena-openings-pgn");
    // The records: 4 games from 0-ply openings, so that every game is a full game.
    let made = run(
        &dir,
        &randoms("--rounds 2 --openings random:0 --pgn o.pgn --json made.json --state m.jsonl"),
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let records = prefixes(&dir, "made.json", 4);
    // Once: "the subcommand 'order=random' cannot be used with …".
    let mut args = randoms("--rounds 2 --json seq.json --state s.jsonl");
    args.extend(words(
        "-openings file=o.pgn format=pgn order=sequential plies=4 start=2",
    ));
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Pair 1 plays record 2, pair 2 record 3, cut to 4 plies, both games of a pair alike.
    let got = openings_in(&dir, "seq.json");
    assert_eq!(
        got,
        [&records[1], &records[1], &records[2], &records[2]].map(String::clone),
        "{records:?}"
    );
    let mut args = randoms("--rounds 4 --json rnd.json --state r.jsonl");
    args.extend(words(
        "-openings file=o.pgn format=pgn order=random plies=4",
    ));
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for opening in openings_in(&dir, "rnd.json") {
        assert!(records.contains(&opening), "{opening} not in {records:?}");
    }
    // Without format=, a file of PGN records is read as one (cutechess's default format).
    let out = run(
        &dir,
        &randoms("--rounds 1 --openings file=o.pgn plies=2 --json auto.json --state a.jsonl"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(openings_in(&dir, "auto.json")[0], records[0][..5]);
    // Records of games from a position string (SetUp and FEN tags) start where they did.
    std::fs::write(dir.path("book.txt"), "7/7/7/3x3/2s4/7/7 2\n").unwrap();
    let made = run(
        &dir,
        &randoms("--rounds 1 --openings file=book.txt --pgn set.pgn --state b.jsonl"),
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let out = run(
        &dir,
        &randoms("--rounds 1 --openings file=set.pgn plies=1 --json set.json --state c.jsonl"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for g in games(&summary(&dir.path("set.json"))) {
        assert_eq!(g["start"], "7/7/7/3x3/2s4/7/7 2", "{g}");
        assert_eq!(g["opening"].as_array().unwrap().len(), 1, "{g}");
    }
}

#[test]
fn openings_that_cannot_be_had_say_what_works() {
    let dir = TempDir::new("arena-openings-refused");
    std::fs::write(
        dir.path("o.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    std::fs::write(
        dir.path("full.pgn"),
        "[Board \"7x7\"]\n\n1. c3 b2 2. a1 1-0\n",
    )
    .unwrap();
    for (openings, needles) in [
        (
            "file=o.epd format=epd",
            &["format=epd", "no EPD", "format=pgn"][..],
        ),
        (
            "file=full.pgn format=pgn",
            &["full.pgn", "game 1", "end the game", "plies="],
        ),
        (
            "file=full.pgn format=pgn plies=1 start=5",
            &["start=5", "1 opening"],
        ),
        ("file=full.pgn format=pgn depth=3", &["depth=3", "plies="]),
    ] {
        let mut args = randoms("--rounds 1 --state st.jsonl");
        args.push("--openings".to_string());
        args.extend(words(openings));
        let out = run(&dir, &args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{openings}: {}", text(&out.stdout));
        for needle in needles {
            assert!(err.contains(needle), "{openings}: {needle} not in {err}");
        }
    }
}
