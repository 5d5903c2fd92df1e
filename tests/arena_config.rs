//! Misconfiguration stops the arena before the first game, with a non-zero exit and a
//! message naming the engine or file: engines that cannot start or finish their
//! handshake, options they do not declare or that are out of range, and output paths
//! that cannot be written.

use crate::arena_support;

use arena_support::*;

/// Runs `engine_words` (one engine) against a good mock; returns the stderr of a failed run.
fn refused(dir: &TempDir, engine: &[String], extra: &str) -> String {
    let mut args = mock_engine(dir, "good", &[]);
    args.extend(engine.iter().cloned());
    args.extend(words(&format!(
        "--each depth=1 timeout=3000 --rounds 2 --quiet --state st.jsonl {extra}"
    )));
    let output = run_within(dir, &args, 60);
    let err = text(&output.stderr);
    assert!(
        !output.status.success(),
        "the arena should refuse to start: {err}\n{}",
        text(&output.stdout)
    );
    assert!(
        state_games(&dir.path("st.jsonl")).is_empty(),
        "games were played: {err}"
    );
    assert!(!text(&output.stdout).contains("Standings"), "{err}");
    err
}

#[test]
fn engines_that_cannot_start_stop_the_arena_before_the_first_game() {
    let dir = TempDir::new("arena-config-start");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (words("--engine name=dir cmd=/tmp"), "could not be started"),
        (
            words("--engine name=nowhere cmd=no-such-engine-on-path"),
            "looked up on PATH",
        ),
        (
            mock_engine(&dir, "exit", &["--exit-at-once"]),
            "exited during its start-up handshake",
        ),
        (
            mock_engine(&dir, "noreadyok", &["--no-readyok"]),
            "no readyok to isready",
        ),
        (
            {
                let mut w = mock_engine(&dir, "slow", &["--slow-start", "3000"]);
                w.push("timeout=200".to_string());
                w
            },
            "no ugiok within 200 ms",
        ),
    ];
    for (engine, reason) in cases {
        let name = engine[1].trim_start_matches("name=").to_string();
        let err = refused(&dir, &engine, "");
        assert!(
            err.contains(&format!("--engine name={name}")) && err.contains(reason),
            "{name}: {err}"
        );
    }
    assert_all_gone(&all_pids(&dir));
}

#[test]
fn options_the_engine_does_not_declare_or_out_of_range_are_refused() {
    let dir = TempDir::new("arena-config-options");
    let mut unknown = mock_engine(&dir, "foo", &[]);
    unknown.push("option.Foo=1".to_string());
    let err = refused(&dir, &unknown, "");
    assert!(
        err.contains("name=foo") && err.contains("option.Foo=1") && err.contains("Level"),
        "{err}"
    );
    let mut high = mock_engine(&dir, "high", &[]);
    high.push("option.Level=99".to_string());
    let err = refused(&dir, &high, "");
    assert!(
        err.contains("option.Level=99") && err.contains("from 1 to 10"),
        "{err}"
    );
    // The engine did start and finish its handshake: the error must not say otherwise.
    assert!(
        !err.contains("handshake") && !err.contains("range"),
        "an option error blamed the start-up: {err}"
    );
    // In range, the same option is accepted.
    let mut fine = mock_engine(&dir, "fine", &[]);
    fine.push("option.Level=3".to_string());
    let mut args = mock_engine(&dir, "good", &[]);
    args.extend(fine);
    args.extend(words("--each depth=1 --rounds 1 --quiet --state ok.jsonl"));
    let output = run_within(&dir, &args, 60);
    assert!(output.status.success(), "{}", text(&output.stderr));
}

#[test]
fn unwritable_output_paths_are_found_before_the_first_game() {
    let dir = TempDir::new("arena-config-paths");
    std::fs::create_dir_all(dir.path("a-directory")).unwrap();
    for flag in ["--json", "--pgn", "--log"] {
        for path in ["no-such-dir/out.txt", "a-directory"] {
            let engine = mock_engine(&dir, "other", &[]);
            let err = refused(&dir, &engine, &format!("{flag} {path}"));
            assert!(err.contains(flag) && err.contains(path), "{err}");
        }
    }
}
