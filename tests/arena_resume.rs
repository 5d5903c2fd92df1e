//! Interrupting and resuming tournaments, signals, shards with `merge`, and SPRT stops.

use crate::arena_support;

use std::collections::BTreeSet;
use std::process::Stdio;

use arena_support::*;

fn random_pair(extra: &str) -> Vec<String> {
    words(&format!(
        "--engine name=a cmd=random --engine name=b cmd=random --engine name=c cmd=random --quiet {extra}"
    ))
}

#[test]
fn a_resumed_tournament_plays_the_same_schedule_and_games() {
    let dir = TempDir::new("arena-resume-same");
    let full = run(
        &dir,
        &random_pair("--rounds 6 --seed 5 --state full.jsonl --json full.json"),
    );
    assert!(full.status.success(), "{}", text(&full.stderr));
    let expected = games(&summary(&dir.path("full.json")));
    assert_eq!(expected.len(), 36);

    // An interruption: the header, seven saved games and half of the eighth line.
    let state = std::fs::read_to_string(dir.path("full.jsonl")).unwrap();
    let lines: Vec<&str> = state.lines().collect();
    let cut = format!(
        "{}\n{}",
        lines[..8].join("\n"),
        &lines[8][..lines[8].len() / 2]
    );
    std::fs::write(dir.path("cut.jsonl"), cut).unwrap();
    let resumed = run(
        &dir,
        &random_pair("--rounds 6 --seed 5 --state cut.jsonl --json resumed.json --resume"),
    );
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(games(&summary(&dir.path("resumed.json"))), expected);
    let saved = std::fs::read_to_string(dir.path("cut.jsonl")).unwrap();
    assert_eq!(saved.lines().count(), 37, "header and one line per game");

    // Another tournament cannot continue this state.
    let other = run(
        &dir,
        &random_pair("--rounds 7 --seed 5 --state cut.jsonl --resume"),
    );
    assert!(!other.status.success());
    let err = text(&other.stderr);
    assert!(
        err.contains("--resume") && err.contains("rounds differ: 7 against 6"),
        "{err}"
    );
}

#[test]
fn sigterm_stops_engines_and_resume_finishes_the_tournament() {
    let dir = TempDir::new("arena-sigterm");
    let mut args = mock_engine(&dir, "x", &["--move-delay", "5"]);
    args.extend(mock_engine(&dir, "y", &["--move-delay", "5"]));
    args.extend(words(
        "--each depth=1 --rounds 20 --concurrency 2 --quiet --state st.jsonl --json s.json",
    ));
    let child = arena(&dir)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("a few saved games", || {
        std::fs::read_to_string(dir.path("st.jsonl")).is_ok_and(|s| s.lines().count() > 4)
    });
    // SAFETY: a plain signal to the child we started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("--resume"));
    let engines = all_pids(&dir);
    assert!(engines.len() >= 4, "{engines:?}");
    assert_all_gone(&engines);
    let saved = std::fs::read_to_string(dir.path("st.jsonl"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert!(
        saved < 40,
        "the run should have been interrupted, but {saved} games were saved"
    );

    args.push("--resume".to_string());
    let resumed = run(&dir, &args);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let numbers: BTreeSet<u64> = games(&summary(&dir.path("s.json")))
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=40).collect(), "games are numbered from 1");
    assert_all_gone(&all_pids(&dir));
}

#[test]
fn engines_die_with_the_arena_even_on_sigkill() {
    let dir = TempDir::new("arena-sigkill");
    let mut args = mock_engine(&dir, "x", &["--move-delay", "20"]);
    args.extend(mock_engine(&dir, "y", &["--move-delay", "20"]));
    args.extend(words(
        "--each depth=1 --rounds 50 --concurrency 2 --quiet --state st.jsonl",
    ));
    let mut child = arena(&dir)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_until("four engines", || all_pids(&dir).len() >= 4);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_all_gone(&all_pids(&dir));
}

#[test]
fn shards_merge_into_the_whole_tournament() {
    let dir = TempDir::new("arena-shards");
    let whole = run(
        &dir,
        &random_pair("--rounds 9 --state w.jsonl --json whole.json"),
    );
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let mut files = Vec::new();
    for k in 1..=4 {
        let json = format!("shard{k}.json");
        let out = run(
            &dir,
            &random_pair(&format!("--rounds 9 --shard {k}/4 --json {json}")),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            dir.path(&format!("slimetrail-arena-state-{k}-of-4.jsonl"))
                .exists()
        );
        let part = summary(&dir.path(&json));
        assert!(part["games_played"].as_u64().unwrap() < 54);
        files.push(json);
    }
    // State files are result files too.
    files[3] = "slimetrail-arena-state-4-of-4.jsonl".to_string();
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().cloned());
    args.extend(words("--json merged.json"));
    let merged = run(&dir, &args);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert!(
        text(&merged.stdout).contains("Standings after 54 of 54 games"),
        "{}",
        text(&merged.stdout)
    );
    let expected = summary(&dir.path("whole.json"));
    let got = summary(&dir.path("merged.json"));
    assert_eq!(got["games"], expected["games"]);
    assert_eq!(got["engines"], expected["engines"]);

    // Results of another schedule do not merge.
    let other = run(
        &dir,
        &random_pair("--rounds 9 --seed 2 --state o.jsonl --json other.json"),
    );
    assert!(other.status.success());
    let bad = run(&dir, &words("merge whole.json other.json"));
    assert!(!bad.status.success());
    let err = text(&bad.stderr);
    assert!(
        err.contains("different tournaments") && err.contains("seed differ"),
        "{err}"
    );
}

#[test]
fn sprt_stops_when_a_bound_is_crossed() {
    let dir = TempDir::new("arena-sprt");
    let mut args = mock_engine(&dir, "good", &[]);
    args.extend(mock_engine(&dir, "bad", &["--illegal-at", "1"]));
    args.extend(words(
        "--each depth=1 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --concurrency 2 --state st.jsonl --json s.json",
    ));
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = summary(&dir.path("s.json"));
    assert_eq!(s["sprt"]["decision"], "H1 accepted", "{}", s["sprt"]);
    let llr = s["sprt"]["llr"].as_f64().unwrap();
    assert!(llr >= s["sprt"]["bounds"][1].as_f64().unwrap());
    let played = s["games_played"].as_u64().unwrap();
    assert!(
        played < 1000,
        "the SPRT should stop early, not after {played} games"
    );
    assert_eq!(s["games_scheduled"], 100_000);
    assert!(
        text(&out.stderr).contains("LLR"),
        "the progress line shows the LLR"
    );
    // The end says the test decided, not "Standings after 42 of 100000 games" as if the
    // run had been cut short.
    let stdout = text(&out.stdout);
    let decided_pairs: u64 = s["sprt"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    let bound = s["sprt"]["bounds"][1].as_f64().unwrap();
    let head = format!(
        "SPRT: H1 accepted after {} games (LLR {llr:.2} ≥ {bound:.2})",
        2 * decided_pairs
    );
    assert!(stdout.starts_with(&head), "{head} in\n{stdout}");
    assert!(!stdout.contains("of 100000 games"), "{stdout}");
    // The last progress line has no time left.
    let stderr = text(&out.stderr);
    let last = stderr.lines().rfind(|l| l.starts_with('[')).unwrap();
    assert!(!last.contains("ETA") && last.contains("games/s"), "{last}");
    assert_all_gone(&all_pids(&dir));
    // A decided SPRT is a finished tournament: the same command line runs again.
    let again = run(&dir, &args);
    let err = text(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert!(
        err.contains("st.finished-1.jsonl") && err.contains("s.finished-1.json"),
        "{err}"
    );
}

#[test]
fn merge_refuses_duplicate_overlapping_foreign_and_forged_shards() {
    let dir = TempDir::new("arena-merge-refusals");
    for k in 1..=2 {
        let out = run(
            &dir,
            &random_pair(&format!("--rounds 2 --shard {k}/2 --json sh{k}.json")),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let whole = run(&dir, &random_pair("--rounds 2 --json whole.json"));
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let foreign = run(
        &dir,
        &random_pair("--rounds 2 --shard 2/2 --each depth=3 --state f.jsonl --json foreign.json"),
    );
    assert!(foreign.status.success(), "{}", text(&foreign.stderr));
    std::fs::copy(dir.path("sh1.json"), dir.path("copy.json")).unwrap();
    let good = run(&dir, &words("merge sh1.json sh2.json"));
    assert!(good.status.success(), "{}", text(&good.stderr));
    // Once `merge sh1.json sh1.json` counted the shard twice: "after 6 of 12 games", exit 0.
    for (files, needles) in [
        ("sh1.json sh1.json", &["sh1.json", "given twice"][..]),
        (
            "sh1.json copy.json",
            &["sh1.json", "copy.json", "both hold shard 1/2"],
        ),
        (
            "whole.json sh1.json",
            &["whole.json", "sh1.json", "shard 1/1", "shard 1/2"],
        ),
        (
            "sh1.json foreign.json",
            &["different tournaments", "engine options or limits differ"],
        ),
    ] {
        let out = run(&dir, &words(&format!("merge {files}")));
        let err = text(&out.stderr);
        assert!(
            !out.status.success(),
            "merge {files}: {}",
            text(&out.stdout)
        );
        assert!(
            out.stdout.is_empty(),
            "merge {files}: {}",
            text(&out.stdout)
        );
        for needle in needles {
            assert!(err.contains(needle), "merge {files}: {needle} not in {err}");
        }
    }
    // A game whose stored winner its moves contradict.
    let mut forged = summary(&dir.path("sh2.json"));
    let game = forged["games"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|g| g["termination"] == "goal-reached")
        .unwrap();
    let number = game["number"].as_u64().unwrap();
    let winner = game["winner"].as_u64().unwrap();
    game["winner"] = (3 - winner).into();
    game["result"] = if winner == 1 { "0-1" } else { "1-0" }.into();
    std::fs::write(dir.path("forged.json"), forged.to_string()).unwrap();
    let out = run(&dir, &words("merge sh1.json forged.json"));
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(
        err.contains("forged.json")
            && err.contains(&format!("game {number}"))
            && err.contains(&format!("winner {} by goal-reached saved", 3 - winner)),
        "{err}"
    );
}
