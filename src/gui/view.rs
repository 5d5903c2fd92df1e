//! What the page is sent: the whole state of a session as one JSON object, with
//! scores, verdicts and results already put into words.

use serde::Serialize;

use crate::board::{Outcome, Position, Side, Square, WinReason};
use crate::client::SearchLimits;
use crate::protocol::{Bound, Score};

use super::game::{Controller, Game};

/// The engine's latest report on the position it searches.
#[derive(Clone, Debug)]
pub struct Thinking {
    /// Completed depth.
    pub depth: Option<u32>,
    /// The score with its bound, from the side to move of the searched position.
    pub score: Option<(Score, Bound)>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Who is to move in the searched position.
    pub side: Side,
    /// What the search is for, in words: `engine move`, `hint`, `analysis`.
    pub purpose: &'static str,
}

/// The session's state as the page draws it.
#[derive(Serialize)]
pub struct View {
    /// Always `state`.
    pub kind: &'static str,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The start square.
    pub start: String,
    /// The moves from the start, in order.
    pub moves: Vec<String>,
    /// The moves redo would replay, the next one first.
    pub redo: Vec<String>,
    /// The snail's square.
    pub snail: String,
    /// The slimed squares.
    pub slimed: Vec<String>,
    /// The legal moves.
    pub legal: Vec<String>,
    /// The player to move, 1 or 2.
    pub to_move: u8,
    /// The result once the game is over.
    pub over: Option<Over>,
    /// Who plays each side: `human` or `engine`.
    pub players: [&'static str; 2],
    /// The engine's strength.
    pub level: u32,
    /// The engine's time per move in milliseconds.
    pub movetime: u64,
    /// Whether live analysis is on.
    pub analysis: bool,
    /// The engine's name and state.
    pub engine: EngineView,
    /// The engine's live thinking.
    pub thinking: Option<ThinkingView>,
    /// The proven verdict, when the engine has one.
    pub verdict: Option<String>,
    /// The square of the last hint.
    pub hint: Option<String>,
    /// The latest event in words, such as `The engine played c3.`
    pub notice: Option<String>,
    /// The current position as a position string.
    pub position: String,
    /// The game as a PGN record.
    pub pgn: String,
}

/// The end of the game.
#[derive(Serialize)]
pub struct Over {
    /// The winner, 1 or 2.
    pub winner: u8,
    /// `goal reached` or `no legal move`.
    pub reason: String,
    /// The announcement, such as `Player 1 wins: the snail reached a1, player 1's goal.`
    pub text: String,
}

/// The engine as the page shows it.
#[derive(Serialize)]
pub struct EngineView {
    /// Its name.
    pub name: String,
    /// `starting`, `ready`, `thinking` or `down`.
    pub status: &'static str,
    /// Why it is down, with what to do.
    pub message: Option<String>,
}

/// The engine's thinking in words.
#[derive(Serialize)]
pub struct ThinkingView {
    /// What the search is for.
    pub purpose: &'static str,
    /// Completed depth.
    pub depth: Option<u32>,
    /// The score in words.
    pub score: Option<String>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: Option<u64>,
}

/// Everything but the engine, thinking, verdict and notice, from the game and settings.
pub fn board_view(
    game: &Game,
    players: [Controller; 2],
    pgn_names: [String; 2],
    limits: [SearchLimits; 2],
) -> View {
    let position = game.position();
    let size = position.size();
    let names = |squares: &mut dyn Iterator<Item = Square>| -> Vec<String> {
        squares.map(|sq| size.name(sq).to_string()).collect()
    };
    let start = game.start();
    View {
        kind: "state",
        width: size.width(),
        height: size.height(),
        start: start.name(start.snail()),
        moves: names(&mut game.moves().iter().copied()),
        redo: names(&mut game.redoable()),
        snail: position.name(position.snail()),
        slimed: names(&mut position.slimed().iter()),
        legal: names(&mut position.moves().iter()),
        to_move: position.side_to_move().number(),
        over: over(&position),
        players: [players[0].word(), players[1].word()],
        level: 0,
        movetime: 0,
        analysis: false,
        engine: EngineView {
            name: String::new(),
            status: "starting",
            message: None,
        },
        thinking: None,
        verdict: None,
        hint: None,
        notice: None,
        position: position.to_string(),
        pgn: game.pgn(pgn_names, limits),
    }
}

/// The announcement of a finished game.
fn over(position: &Position) -> Option<Over> {
    let Outcome::Decided { winner, reason } = position.outcome() else {
        return None;
    };
    let size = position.size();
    let text = match reason {
        WinReason::GoalReached => format!(
            "Player {} wins: the snail reached {}, the goal of player {}.",
            winner.number(),
            position.name(position.snail()),
            winner.number()
        ),
        WinReason::NoLegalMove => format!(
            "Player {} wins: player {} has no legal move (every square next to the snail on {} is slimed).",
            winner.number(),
            (!winner).number(),
            size.name(position.snail())
        ),
    };
    Some(Over {
        winner: winner.number(),
        reason: reason.to_string(),
        text,
    })
}

/// The thinking in words.
pub fn thinking_view(thinking: &Thinking) -> ThinkingView {
    ThinkingView {
        purpose: thinking.purpose,
        depth: thinking.depth,
        score: thinking
            .score
            .map(|(score, bound)| score_words(score, bound, thinking.side)),
        pv: thinking.pv.clone(),
        nodes: thinking.nodes,
    }
}

/// A score in words, for the player it favours: `player 1 wins in 5 plies` or
/// `player 2 is better by 0.35`.
pub fn score_words(score: Score, bound: Bound, to_move: Side) -> String {
    match score {
        Score::Mate(n) => {
            let winner = if n > 0 { to_move } else { !to_move };
            let plies = n.unsigned_abs();
            let unit = if plies == 1 { "ply" } else { "plies" };
            let exact = match (bound, n > 0) {
                (Bound::Exact, _) => "",
                (Bound::Lower, true) | (Bound::Upper, false) => "at most ",
                _ => "at least ",
            };
            format!(
                "player {} wins: mate in {exact}{plies} {unit}",
                winner.number()
            )
        }
        Score::Cp(cp) => {
            let for_one = if to_move == Side::One { cp } else { -cp };
            let pawns = f64::from(for_one.unsigned_abs()) / 100.0;
            match for_one {
                0 => "even (estimate 0.00)".to_string(),
                c if c > 0 => format!("player 1 is better by {pawns:.2} (estimate)"),
                _ => format!("player 2 is better by {pawns:.2} (estimate)"),
            }
        }
    }
}

/// The value of one move found by the verdict's checks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveValue {
    /// The move wins for the player who makes it.
    Wins,
    /// The move loses.
    Loses,
    /// Not proven either way.
    Unknown,
}

/// The proven verdict in words: `player 2 wins with best play; your winning moves: c3, d2`.
pub fn verdict_words(
    mate: i32,
    to_move: Side,
    mover: Controller,
    moves: &[(String, MoveValue)],
    checking: bool,
) -> String {
    if mate < 0 {
        return format!(
            "player {} wins with best play; every move of player {} loses",
            (!to_move).number(),
            to_move.number()
        );
    }
    let mut text = format!("player {} wins with best play", to_move.number());
    let winning: Vec<&str> = moves
        .iter()
        .filter(|(_, v)| *v == MoveValue::Wins)
        .map(|(m, _)| m.as_str())
        .collect();
    let unknown: Vec<&str> = moves
        .iter()
        .filter(|(_, v)| *v == MoveValue::Unknown)
        .map(|(m, _)| m.as_str())
        .collect();
    let whose = match mover {
        Controller::Human => "your winning moves".to_string(),
        Controller::Engine => format!("winning moves of player {}", to_move.number()),
    };
    if !winning.is_empty() {
        text.push_str(&format!("; {whose}: {}", winning.join(", ")));
    }
    if !unknown.is_empty() {
        text.push_str(&format!("; not proven: {}", unknown.join(", ")));
    }
    if checking {
        text.push_str("; checking each move…");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_words_for_the_player_they_favour() {
        assert_eq!(
            score_words(Score::Mate(3), Bound::Exact, Side::Two),
            "player 2 wins: mate in 3 plies"
        );
        assert_eq!(
            score_words(Score::Mate(-1), Bound::Exact, Side::Two),
            "player 1 wins: mate in 1 ply"
        );
        assert_eq!(
            score_words(Score::Cp(35), Bound::Exact, Side::Two),
            "player 2 is better by 0.35 (estimate)"
        );
        let v = verdict_words(
            5,
            Side::Two,
            Controller::Human,
            &[
                ("c3".to_string(), MoveValue::Wins),
                ("d2".to_string(), MoveValue::Wins),
                ("e4".to_string(), MoveValue::Loses),
            ],
            false,
        );
        assert_eq!(
            v,
            "player 2 wins with best play; your winning moves: c3, d2"
        );
    }
}
