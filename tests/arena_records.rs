//! The state file is the single source of truth: `--resume` brings the PGN back into
//! agreement with it (torn record cut, missing records written, none doubled), damaged
//! or forged lines are refused with the file, line and problem, one state file serves
//! one arena at a time, saved games are not overwritten by accident, and Ctrl-C leaves
//! the standings and the JSON summary of the finished games.

use crate::arena_support;

use std::process::Stdio;

use arena_support::*;

fn randoms(extra: &str) -> Vec<String> {
    words(&format!(
        "--engine name=a cmd=random --engine name=b cmd=random --engine name=c cmd=random --quiet {extra}"
    ))
}

/// State game numbers in file order.
fn state_numbers(dir: &TempDir, name: &str) -> Vec<u64> {
    state_games(&dir.path(name))
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect()
}

fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v
}

#[test]
fn resume_rebuilds_the_pgn_to_agree_with_the_state() {
    let dir = TempDir::new("arena-records-pgn");
    let args = randoms("--rounds 6 --state st.jsonl --pgn g.pgn --json s.json");
    let full = run(&dir, &args);
    assert!(full.status.success(), "{}", text(&full.stderr));
    let whole_pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    assert_eq!(
        sorted(pgn_numbers(&dir.path("g.pgn"))),
        (0..36).collect::<Vec<_>>()
    );
    let state = std::fs::read_to_string(dir.path("st.jsonl")).unwrap();
    let lines: Vec<&str> = state.lines().collect();

    // An interruption after 20 games: the PGN holds 25 records and half of the 26th,
    // as a full disk or a kill between the two files could leave it.
    std::fs::write(dir.path("st.jsonl"), lines[..21].join("\n") + "\n").unwrap();
    let records: Vec<&str> = whole_pgn.split_inclusive("\n\n[Event ").collect();
    let torn = records[..25].concat();
    let cut = &records[25][..records[25].len() / 2];
    std::fs::write(dir.path("g.pgn"), format!("{torn}{cut}")).unwrap();
    let mut resume = args.clone();
    resume.push("--resume".to_string());
    let resumed = run(&dir, &resume);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let in_pgn = pgn_numbers(&dir.path("g.pgn"));
    assert_eq!(
        in_pgn,
        state_numbers(&dir, "st.jsonl"),
        "PGN and state disagree"
    );
    assert_eq!(sorted(in_pgn), (0..36).collect::<Vec<_>>());

    // Records missing from the PGN are written from the state.
    let pgn = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    let records: Vec<&str> = pgn.split_inclusive("\n\n[Event ").collect();
    std::fs::write(
        dir.path("g.pgn"),
        records[..30].concat().trim_end_matches("[Event "),
    )
    .unwrap();
    let again = run(&dir, &resume);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(
        pgn_numbers(&dir.path("g.pgn")),
        state_numbers(&dir, "st.jsonl")
    );
    assert_eq!(games(&summary(&dir.path("s.json"))).len(), 36);
}

#[test]
fn damaged_or_forged_state_lines_are_refused_naming_file_line_and_problem() {
    let dir = TempDir::new("arena-records-damaged");
    let args = randoms("--rounds 2 --state st.jsonl");
    let full = run(&dir, &args);
    assert!(full.status.success(), "{}", text(&full.stderr));
    let state = std::fs::read_to_string(dir.path("st.jsonl")).unwrap();
    let lines: Vec<String> = state.lines().map(str::to_string).collect();
    let forged_winner = {
        let mut l = lines.clone();
        let mut game: serde_json::Value = serde_json::from_str(&l[2]).unwrap();
        game["winner"] = 7.into();
        l[2] = game.to_string();
        l
    };
    let duplicated = {
        let mut l = lines[..5].to_vec();
        l.push(lines[1].clone());
        l
    };
    let cut_in_the_middle = {
        let mut l = lines.clone();
        l[3] = l[3][..l[3].len() / 2].to_string();
        l
    };
    let outside = {
        let mut l = lines.clone();
        let mut game: serde_json::Value = serde_json::from_str(&l[4]).unwrap();
        game["number"] = 999.into();
        l[4] = game.to_string();
        l
    };
    // Issue 27: a game that ends with player 1 entering a1 (or any game ended by the
    // rules), its winner edited; the PGN inside still says the truth. Once accepted.
    let (flipped_line, flipped) = {
        let mut l = lines.clone();
        let parsed: Vec<serde_json::Value> = l[1..]
            .iter()
            .map(|t| serde_json::from_str(t).unwrap())
            .collect();
        let ended = |g: &serde_json::Value| g["termination"] == "goal-reached";
        let into_a1 = |g: &serde_json::Value| {
            ended(g) && g["winner"] == 1 && g["moves"].as_array().unwrap().last().unwrap() == "a1"
        };
        let i = parsed
            .iter()
            .position(into_a1)
            .or_else(|| parsed.iter().position(ended))
            .unwrap();
        let mut game = parsed[i].clone();
        let winner = game["winner"].as_u64().unwrap();
        game["winner"] = (3 - winner).into();
        l[i + 1] = game.to_string();
        (i + 2, l)
    };
    let flipped_problem = "by goal-reached saved, but the moves end the game with winner";
    for (name, damaged, line, problem) in [
        ("flipped", flipped, flipped_line, flipped_problem),
        ("winner", forged_winner, 3, "winner 7"),
        ("duplicate", duplicated, 6, "second time"),
        (
            "cut",
            cut_in_the_middle,
            4,
            "expected one saved game per line",
        ),
        ("outside", outside, 5, "not in this tournament's schedule"),
    ] {
        let file = format!("{name}.jsonl");
        let text_before = damaged.join("\n") + "\n";
        std::fs::write(dir.path(&file), &text_before).unwrap();
        let resume = randoms(&format!("--rounds 2 --resume --state {file}"));
        let out = run(&dir, &resume);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{name}: resumed a damaged state");
        assert!(
            err.contains(&file) && err.contains(&format!("line {line}:")) && err.contains(problem),
            "{name}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path(&file)).unwrap(),
            text_before
        );
    }
}

#[test]
fn saved_games_are_not_overwritten_and_a_missing_state_is_not_resumed() {
    let dir = TempDir::new("arena-records-overwrite");
    let args = randoms("--rounds 2 --state st.jsonl --pgn g.pgn");
    assert!(run(&dir, &args).status.success());
    let saved = std::fs::read_to_string(dir.path("st.jsonl")).unwrap();
    let records = std::fs::read_to_string(dir.path("g.pgn")).unwrap();
    // A finished tournament is kept under a new name, and the rerun starts (once it
    // stopped on the state file, as if it were an interrupted run).
    let rerun = run(&dir, &args);
    let err = text(&rerun.stderr);
    assert!(rerun.status.success(), "{err}");
    assert!(
        err.contains("st.jsonl") && err.contains("st.finished-1.jsonl"),
        "{err}"
    );
    assert!(err.contains("g.finished-1.pgn"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path("st.finished-1.jsonl")).unwrap(),
        saved
    );
    assert_eq!(
        std::fs::read_to_string(dir.path("g.finished-1.pgn")).unwrap(),
        records
    );
    assert_eq!(state_games(&dir.path("st.jsonl")).len(), 12);
    // The next rerun takes the next free name.
    assert!(run(&dir, &args).status.success());
    assert!(dir.path("st.finished-2.jsonl").exists());
    // An unfinished one is never overwritten without --force.
    let unfinished: Vec<&str> = saved.lines().take(6).collect();
    let unfinished = unfinished.join("\n") + "\n";
    std::fs::write(dir.path("st.jsonl"), &unfinished).unwrap();
    let rerun = run(&dir, &args);
    let err = text(&rerun.stderr);
    assert!(!rerun.status.success(), "a rerun overwrote saved games");
    assert!(
        err.contains("holds 5 finished games")
            && err.contains("--resume")
            && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path("st.jsonl")).unwrap(),
        unfinished
    );
    assert!(!dir.path("st.finished-3.jsonl").exists());
    let mut forced = args.clone();
    forced.push("--force".to_string());
    assert!(run(&dir, &forced).status.success());

    let missing = run(&dir, &randoms("--rounds 2 --resume --state missing.jsonl"));
    let err = text(&missing.stderr);
    assert!(
        !missing.status.success(),
        "resumed a state that does not exist"
    );
    assert!(
        err.contains("missing.jsonl") && err.contains("does not exist"),
        "{err}"
    );
    assert!(!dir.path("missing.jsonl").exists());
}

#[test]
fn a_state_file_in_use_by_another_arena_is_refused() {
    let dir = TempDir::new("arena-records-lock");
    let mut first = arena(&dir)
        .args(randoms("--rounds 100000 --state st.jsonl"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_until("a few saved games", || {
        state_games(&dir.path("st.jsonl")).len() > 3
    });
    for extra in ["--resume", "--force"] {
        let second = run_within(
            &dir,
            &randoms(&format!("--rounds 100000 --state st.jsonl {extra}")),
            30,
        );
        let err = text(&second.stderr);
        assert!(!second.status.success(), "two arenas shared a state file");
        assert!(
            err.contains("st.jsonl") && err.contains("in use by another arena"),
            "{err}"
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
}

#[test]
fn ctrl_c_prints_the_standings_writes_the_json_and_says_how_to_resume() {
    let dir = TempDir::new("arena-records-sigint");
    let args =
        randoms("--rounds 100000 --concurrency 2 --state st.jsonl --json s.json --pgn g.pgn");
    let child = arena(&dir)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("some saved games", || {
        state_games(&dir.path("st.jsonl")).len() > 20
    });
    // SAFETY: a plain signal to the child we started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let saved = state_numbers(&dir, "st.jsonl");
    assert!(
        text(&output.stdout).contains(&format!("Standings after {} of 600000 games", saved.len())),
        "{}",
        text(&output.stdout)
    );
    // The JSON numbers games from 1, the state file from 0.
    let json: Vec<u64> = games(&summary(&dir.path("s.json")))
        .iter()
        .map(|g| g["number"].as_u64().unwrap() - 1)
        .collect();
    assert_eq!(sorted(json), sorted(saved.clone()));
    assert_eq!(pgn_numbers(&dir.path("g.pgn")), saved);
}

#[test]
fn a_full_disk_leaves_only_whole_records_and_resume_completes_them() {
    use std::os::unix::process::CommandExt;
    let dir = TempDir::new("arena-records-full-disk");
    let args = randoms("--rounds 20 --state st.jsonl --pgn g.pgn --json s.json");
    let mut limited = arena(&dir);
    limited.args(&args);
    // SAFETY: only async-signal-safe calls between fork and exec: a file size limit of
    // 40 kB (a full disk for the arena's files) with SIGXFSZ ignored, so that writes
    // past it fail with EFBIG, part-way through a record.
    unsafe {
        limited.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 40_000,
                rlim_max: 40_000,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let full = limited.output().unwrap();
    assert!(
        !full.status.success(),
        "the run should fail on the full disk"
    );
    let err = text(&full.stderr);
    assert!(err.contains("cannot write it"), "{err}");
    let state = std::fs::read_to_string(dir.path("st.jsonl")).unwrap();
    assert!(state.ends_with('\n'), "a torn state line was left");
    let saved = state_numbers(&dir, "st.jsonl");
    assert!(
        !saved.is_empty() && saved.len() < 120,
        "{} games saved",
        saved.len()
    );
    assert_eq!(pgn_numbers(&dir.path("g.pgn")), saved);

    let mut resume = args.clone();
    resume.push("--resume".to_string());
    let resumed = run(&dir, &resume);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let in_pgn = pgn_numbers(&dir.path("g.pgn"));
    assert_eq!(in_pgn, state_numbers(&dir, "st.jsonl"));
    assert_eq!(sorted(in_pgn), (0..120).collect::<Vec<_>>());
}
