//! `slimetrail play` driven through pipes, as a person at a terminal would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn play(args: &[&str], input: &str) -> (Output, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_slimetrail"))
        .arg("play")
        .args(["--movetime", "20"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input.as_bytes()).expect("input is written");
    drop(stdin);
    let output = child.wait_with_output().expect("the game ends");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, text)
}

#[test]
fn a_person_wins_after_a_mistyped_and_an_illegal_move() {
    let (output, text) = play(&["--position", "3/1s1/3 1"], "zz\nb2\nhelp\na1\nquit\n");
    assert!(output.status.success());
    assert!(
        text.starts_with("You are player 1 (goal a1); Slimetrail is player 2 (goal c3), level 10."),
        "{text}"
    );
    assert!(
        text.contains("'zz' is not a legal move: 'zz' is not a square"),
        "{text}"
    );
    assert!(
        text.contains("'b2' is not a legal move: b2 is the snail's own square"),
        "{text}"
    );
    assert!(
        text.contains("Expected one of: a1 a2 a3 b1 b3 c1 c2 c3."),
        "{text}"
    );
    assert!(text.contains("Commands:\n  <square>"), "{text}");
    assert!(text.contains("You play a1."), "{text}");
    assert!(
        text.contains("Last move: b2 -> a1"),
        "the board marks the last move: {text}"
    );
    assert!(
        text.contains("Game over: player 1 wins (goal reached). You win!"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("Goodbye."), "{text}");
    assert!(!text.contains("Slimetrail plays"), "{text}");
}

#[test]
fn the_engine_moves_first_with_second_and_can_win() {
    let (output, text) = play(
        &["--position", "3/1s1/3 1", "--second", "--level", "1"],
        "undo\nc1\nquit\n",
    );
    assert!(output.status.success());
    assert!(
        text.contains("You are player 2 (goal c3); Slimetrail is player 1 (goal a1), level 1."),
        "{text}"
    );
    assert!(text.contains("Slimetrail plays a1."), "{text}");
    assert!(
        text.contains("Game over: player 1 wins (goal reached). Slimetrail wins."),
        "{text}"
    );
    assert!(
        text.contains("Nothing to undo: you have not moved yet."),
        "{text}"
    );
    assert!(
        text.contains("The game is over: expected 'undo' or 'quit'."),
        "{text}"
    );
}

#[test]
fn undo_takes_back_the_move_and_the_reply() {
    let (output, text) = play(&[], "c3\nundo\nquit\n");
    assert!(output.status.success());
    let reply = text.find("Slimetrail plays ").expect("the engine replied");
    let undo = text.find("Took back your last move.").expect("undo worked");
    assert!(reply < undo, "{text}");
    assert!(
        text[undo..].contains("Position: 7/7/7/3s3/7/7/7 1"),
        "the start is back: {text}"
    );
    let boards = text.matches("     a b c d e f g\n   +").count();
    assert_eq!(
        boards, 4,
        "drawn at the start, after each move and after undo: {text}"
    );
}

/// `C3` is the same move as `c3`, and a finished game's result is told once (the
/// board's own `Game over` line came before the announcement).
#[test]
fn capital_squares_are_moves_and_the_result_is_told_once() {
    let (output, text) = play(&["--position", "3/1s1/3 1"], "A1\nquit\n");
    assert!(output.status.success());
    assert!(text.contains("You play a1."), "{text}");
    assert_eq!(text.matches("Game over").count(), 1, "{text}");
    assert!(
        text.contains("Game over: player 1 wins (goal reached). You win!"),
        "{text}"
    );
}

#[test]
fn the_end_of_input_ends_the_game() {
    let (output, text) = play(&["--size", "5x5", "--start", "b4"], "");
    assert!(output.status.success());
    assert!(text.contains("Position: 5/1s3/5/5/5 1"), "{text}");
    assert!(
        text.trim_end().ends_with("End of input: goodbye."),
        "{text}"
    );
}

#[test]
fn bad_arguments_are_refused() {
    let (output, _) = play(&["--level", "11"], "");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--level"));
    let (output, _) = play(&["--start", "g7"], "");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("goal corner"));
}
