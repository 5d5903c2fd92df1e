//! `slimetrail-arena stats`, run as a real process.

use std::process::Command;

/// Runs the arena binary; returns (success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_slimetrail-arena"))
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the arena binary starts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `stats` with the given arguments and expects success.
fn stats(args: &[&str]) -> String {
    let mut all = vec!["stats"];
    all.extend_from_slice(args);
    let (ok, out, err) = run(&all);
    assert!(ok, "stats {args:?} failed: {err}");
    assert!(!out.contains("NaN") && !out.contains("nan"), "{out}");
    out
}

/// The value of the report line whose label (the first 20 columns) is `label`.
fn field<'a>(report: &'a str, label: &str) -> &'a str {
    report
        .lines()
        .find(|line| line.get(..20).map(str::trim) == Some(label))
        .and_then(|line| line.get(20..))
        .unwrap_or_else(|| panic!("no '{label}' line in:\n{report}"))
}

/// The first number of a field.
fn number(report: &str, label: &str) -> f64 {
    let text = field(report, label);
    text.split_whitespace()
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_else(|| panic!("'{label}' is not a number: {text}"))
}

/// Runs `stats` with bad arguments: it must fail, print nothing on stdout and name `needle`
/// on stderr.
fn rejects(args: &[&str], needle: &str) -> String {
    let mut all = vec!["stats"];
    all.extend_from_slice(args);
    let (ok, out, err) = run(&all);
    assert!(!ok, "stats {args:?} succeeded: {out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains(needle), "stats {args:?}: {err}");
    err
}

#[test]
fn reference_elo_margin_and_los() {
    let out = stats(&["--wins", "136", "--losses", "96", "--draws", "111"]);
    assert_eq!(field(&out, "games"), "343: 136 wins, 111 draws, 96 losses");
    // cutechess prints 40.70 +/- 30.43 from the normal interval, and so does the arena
    // (once 30.33, from a Wilson-type interval with a variance floor).
    assert_eq!(field(&out, "elo"), "40.70 +/- 30.43");
    assert_eq!(field(&out, "los"), "99.60 %");
    assert_eq!(field(&out, "score"), "55.83 %");
    assert!(!out.contains("sprt") && !out.contains("pair"), "{out}");
}

#[test]
fn reference_normalized_elo() {
    let out = stats(&["--wins", "76", "--losses", "89", "--draws", "123"]);
    assert_eq!(field(&out, "normalized elo"), "-20.76 +/- 40.13");
}

#[test]
fn reference_normalized_llrs_trinomial_and_pentanomial() {
    let out = stats(&[
        "--wins",
        "36433",
        "--losses",
        "36027",
        "--draws",
        "68692",
        "--penta",
        "365,16618,36229,16974,390",
        "--elo0",
        "0",
        "--elo1",
        "2",
    ]);
    assert!((number(&out, "llr") - 0.92).abs() < 0.01, "{out}");
    assert!((number(&out, "pair llr") - 2.25).abs() < 0.01, "{out}");
    assert_eq!(field(&out, "llr bounds"), "[-2.94, 2.94]");
    assert_eq!(field(&out, "decision"), "continue (from pairs)");
    assert_eq!(
        field(&out, "sprt"),
        "elo0=0 elo1=2 alpha=0.05 beta=0.05 model=normalized"
    );
    assert!(field(&out, "pairs").starts_with("70576: LL 365, LD 16618, DD+WL 36229"));
    assert_eq!(field(&out, "pair elo"), "1.00 +/- 0.92");
    assert_eq!(field(&out, "pair normalized elo"), "1.96 +/- 1.81");
}

#[test]
fn sprt_decides_for_clear_results_in_both_models() {
    for model in ["normalized", "logistic"] {
        let strong = stats(&[
            "--wins", "700", "--losses", "300", "--elo0", "0", "--elo1", "10", "--model", model,
        ]);
        assert_eq!(field(&strong, "decision"), "H1 accepted (from games)");
        assert!(field(&strong, "sprt").ends_with(&format!("model={model}")));
        let weak = stats(&[
            "--wins", "300", "--losses", "700", "--elo0", "0", "--elo1", "10", "--model", model,
        ]);
        assert_eq!(field(&weak, "decision"), "H0 accepted (from games)");
        assert!(number(&weak, "llr") < -2.94);
    }
}

#[test]
fn alpha_and_beta_set_the_bounds() {
    let out = stats(&[
        "--wins",
        "10",
        "--losses",
        "10",
        "--elo0=-3",
        "--elo1",
        "1",
        "--alpha",
        "0.1",
        "--beta",
        "0.01",
    ]);
    // ln(0.01 / 0.9) and ln(0.99 / 0.1).
    assert_eq!(field(&out, "llr bounds"), "[-4.50, 2.29]");
    assert!(field(&out, "sprt").starts_with("elo0=-3 elo1=1 alpha=0.1 beta=0.01"));
}

#[test]
fn more_wins_raise_elo_and_llr() {
    let mut previous = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for wins in [40, 50, 60, 70] {
        let wins = wins.to_string();
        let out = stats(&[
            "--wins", &wins, "--losses", "50", "--elo0", "0", "--elo1", "10",
        ]);
        let now = (number(&out, "elo"), number(&out, "llr"));
        assert!(now.0 > previous.0 && now.1 > previous.1, "{out}");
        previous = now;
    }
}

#[test]
fn zero_games_report_na_and_a_zero_llr() {
    let out = stats(&["--wins", "0", "--losses", "0", "--elo0", "0", "--elo1", "5"]);
    assert_eq!(field(&out, "score"), "n/a");
    assert_eq!(field(&out, "elo"), "n/a (no games)");
    assert_eq!(field(&out, "los"), "n/a (no games)");
    assert!(field(&out, "normalized elo").starts_with("n/a"));
    assert_eq!(field(&out, "llr"), "0.00");
    assert_eq!(field(&out, "decision"), "continue (from games)");
}

#[test]
fn all_wins_and_all_losses_are_reported_explicitly() {
    let out = stats(&[
        "--wins",
        "10",
        "--losses",
        "0",
        "--penta",
        "0,0,0,0,5",
        "--elo0",
        "0",
        "--elo1",
        "5",
    ]);
    assert!(
        field(&out, "elo").starts_with("> +") && field(&out, "elo").contains("no upper end"),
        "{out}"
    );
    assert_eq!(field(&out, "los"), "100.00 %");
    assert!(field(&out, "pair elo").starts_with("> +"), "{out}");
    assert_eq!(field(&out, "normalized elo"), "n/a (all results equal)");
    assert!(number(&out, "pair llr") > 0.0);
    let out = stats(&[
        "--wins", "0", "--losses", "12", "--elo0", "0", "--elo1", "5",
    ]);
    assert!(field(&out, "elo").starts_with("< -"), "{out}");
    assert_eq!(field(&out, "los"), "0.00 %");
    assert!(number(&out, "llr") < 0.0);
}

#[test]
fn inconsistent_pairs_are_reported_with_a_warning() {
    let (ok, out, err) = run(&[
        "stats",
        "--wins",
        "3",
        "--losses",
        "1",
        "--penta",
        "0,0,0,0,1",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        err,
        "warning: --penta 0,0,0,0,1 cannot describe the same games as 3 wins, 0 draws, 1 loss; \
         reporting both as given\n",
        "a plain warning, without a logger's prefix, singular where the count is 1"
    );
    // One won pair: no bound that reads as a claim.
    assert!(
        field(&out, "pair elo").starts_with("n/a, 95 % interval from -"),
        "{out}"
    );
}

#[test]
fn pair_counts_alone_are_enough() {
    // Fishtest users hold pentanomial counts only.
    let out = stats(&[
        "--penta",
        "2,0,27,0,66",
        "--elo0",
        "0",
        "--elo1",
        "5",
        "--draws-possible",
    ]);
    assert!(field(&out, "games").contains("cannot be split"), "{out}");
    assert!(
        field(&out, "elo").starts_with("n/a (the DD+WL pairs"),
        "{out}"
    );
    assert_eq!(
        field(&out, "pairs"),
        "95: LL 2, LD 0, DD+WL 27, WD 0, WW 66"
    );
    assert!(field(&out, "pair elo").starts_with("284.01 +/- "), "{out}");
    assert!(field(&out, "decision").ends_with("(from pairs)"), "{out}");
    assert!(
        !out.lines()
            .any(|l| l.get(..20).map(str::trim) == Some("llr")),
        "no per-game LLR without games: {out}"
    );
    // Without DD+WL pairs the games are known.
    let out = stats(&["--penta", "1,0,0,0,2"]);
    assert_eq!(field(&out, "games"), "6: 4 wins, 0 draws, 2 losses");
    rejects(&[], "expected game counts --wins W --losses L");
}

#[test]
fn pair_counts_of_a_game_without_draws_fix_the_games() {
    // Slime Trail has no draws: a DD+WL pair is a win and a loss (once `n/a`, "cannot be
    // split from pair counts").
    let out = stats(&["--penta", "0,0,5,0,15", "--elo0", "0", "--elo1", "50"]);
    assert_eq!(field(&out, "games"), "40: 35 wins, 0 draws, 5 losses");
    assert!(field(&out, "elo").starts_with("338.04 +/- "), "{out}");
    assert!(field(&out, "los").ends_with(" %"), "{out}");
    assert!(!field(&out, "normalized elo").starts_with("n/a"), "{out}");
    assert!(field(&out, "llr").parse::<f64>().is_ok(), "{out}");
    assert!(!out.contains("n/a"), "{out}");
    // Pairs with a draw cannot come from such a game.
    let err = rejects(&["--penta", "0,1,5,0,15"], "--draws-possible");
    assert!(err.contains("LD"), "{err}");
    // Other games: the DD+WL pairs may be two draws.
    let out = stats(&["--penta", "0,0,5,0,15", "--draws-possible"]);
    assert!(field(&out, "games").contains("cannot be split"), "{out}");
}

#[test]
fn small_and_lopsided_samples_print_no_nonsense() {
    for (wins, losses) in [("1", "1"), ("2", "8"), ("0", "1"), ("30", "1")] {
        let out = stats(&["--wins", wins, "--losses", losses]);
        let elo = field(&out, "elo");
        assert!(
            !elo.contains("inf") && !elo.contains("-0.00"),
            "{wins}-{losses}: {out}"
        );
    }
    // Where cutechess's normal interval reaches past a score of 0 (it prints nan), the
    // Wilson interval, and the report says so.
    for (wins, losses, figure) in [
        ("1", "1", "0.00 +/- 392.52"),
        ("2", "8", "-240.82 +/- 247.66"),
    ] {
        let out = stats(&["--wins", wins, "--losses", losses]);
        let elo = field(&out, "elo");
        assert!(
            elo.starts_with(&format!("{figure} (Wilson score interval")),
            "{out}"
        );
    }
    // After one game won, no bound that reads as a claim (once `> -233.80`).
    let out = stats(&["--wins", "1", "--losses", "0"]);
    let elo = field(&out, "elo");
    assert!(
        elo.starts_with("n/a, 95 % interval from -233.80 up ("),
        "{out}"
    );
    assert!(
        elo.contains("too few results") && !elo.contains('>'),
        "{out}"
    );
    let out = stats(&["--wins", "3", "--losses", "3", "--penta", "0,0,3,0,0"]);
    let pair = field(&out, "pair elo");
    assert!(
        pair.starts_with("0.00 +/- ") && !pair.starts_with("0.00 +/- 0.00"),
        "{out}"
    );
    assert!(pair.contains("variance floor"), "{out}");
    assert_eq!(field(&out, "games"), "6: 3 wins, 0 draws, 3 losses");
    assert_eq!(
        field(
            &stats(&["--wins", "1", "--losses", "1", "--draws", "1"]),
            "games"
        ),
        "3: 1 win, 1 draw, 1 loss"
    );
}

#[test]
fn bad_arguments_name_the_argument_and_what_was_expected() {
    let err = rejects(
        &["--wins", "1", "--losses", "1", "--penta", "1,2"],
        "--penta",
    );
    assert!(
        err.contains("--penta: expected five comma-separated counts LL,LD,DDWL,WD,WW, found '1,2'")
    );
    rejects(
        &["--wins", "1", "--losses", "1", "--penta", "1,2,x,4,5"],
        "--penta: 'x' is not a count: expected five comma-separated non-negative integers",
    );
    rejects(&["--wins", "1"], "--losses");
    rejects(
        &["--wins", "-1", "--losses", "1"],
        "'--wins <W>': expected a non-negative whole number, found '-1'",
    );
    rejects(
        &[
            "--wins", "1", "--losses", "1", "--elo0", "0", "--elo1", "two",
        ],
        "'--elo1 <E1>': expected a finite number",
    );
    rejects(&["--wins", "1", "--losses", "1", "--elo0", "0"], "--elo1");
    rejects(
        &["--wins", "1", "--losses", "1", "--alpha", "0.1"],
        "--elo0",
    );
    rejects(
        &["--wins", "1", "--losses", "1", "--elo0", "3", "--elo1", "1"],
        "--elo0/--elo1: elo0 3 is not below elo1 1: expected elo0 < elo1",
    );
    rejects(
        &[
            "--wins", "1", "--losses", "1", "--elo0", "0", "--elo1", "1", "--beta", "1.5",
        ],
        "--beta: beta is 1.5: expected an error rate strictly between 0 and 1",
    );
    rejects(
        &[
            "--wins", "1", "--losses", "1", "--elo0", "0", "--elo1", "1", "--alpha", "0.5",
            "--beta", "0.5",
        ],
        "--alpha/--beta",
    );
    rejects(
        &[
            "--wins", "1", "--losses", "1", "--elo0", "0", "--elo1", "1", "--model", "bayes",
        ],
        "--model: SPRT model 'bayes' is unknown: expected normalized or logistic",
    );
}
