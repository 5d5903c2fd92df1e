//! The nom parser behind `Message::from_str`. Private to the protocol module.
//!
//! A line is a sequence of words separated by runs of spaces or tabs. Keywords match
//! whole words only. Every failure is a [`ParseError`] whose message names the
//! command, says what was found and what was expected.

use std::fmt;
use std::str::FromStr;

use nom::bytes::complete::take_till1;
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{all_consuming, opt, peek, recognize};
use nom::error::ErrorKind;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::board::{Position, Size, SquareName, StartError};

#[cfg(test)]
mod properties;
mod replies;
#[cfg(test)]
mod tests;

use replies::{info, option};

use super::message::{
    Direction, GameSetup, GoArgs, Id, Message, PositionBase, PositionSetup, Query, Response,
    keywords,
};

/// Why a line is not a valid message: what was wrong and what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The nom error type: an explanation, or a plain mismatch that callers turn into one.
#[derive(Debug)]
struct Problem(String);

impl nom::error::ParseError<&str> for Problem {
    fn from_error_kind(input: &str, kind: ErrorKind) -> Self {
        // Must not call other parsers: they would fail here again, without end.
        let next = input.split(is_blank).find(|w| !w.is_empty()).unwrap_or("");
        Problem(format!("unexpected {} ({kind:?})", quote(next)))
    }

    fn append(_: &str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Problem>;

/// Every keyword, as error messages list them: `ugi, isready, … bestmove or response`.
/// The commands a GUI may send, for error messages: replies are left out.
fn known_commands() -> String {
    let words: Vec<&str> = keywords(Direction::ToEngine).collect();
    match words.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The command `word` was probably meant to be: the UGI form of a UCI command,
/// the same word in other case, or one typing slip away (a letter wrong, missing,
/// extra, or two swapped).
fn nearest_command(word: &str) -> Option<&'static str> {
    let lower = word.to_lowercase();
    let uci = match lower.as_str() {
        "uci" => Some("ugi"),
        "ucinewgame" => Some("uginewgame"),
        _ => None,
    };
    uci.or_else(|| keywords(Direction::ToEngine).find(|&k| k == lower))
        .or_else(|| {
            keywords(Direction::ToEngine)
                .find(|&k| k.len() >= 2 && lower.len() >= 2 && one_slip(k, &lower))
        })
}

/// Whether `b` is `a` with one letter changed, dropped, added, or two neighbours swapped.
fn one_slip(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    match (a.len(), b.len()) {
        (0, 0) => false,
        (m, n) if m == n => {
            a[1..] == b[1..] || (m >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..])
        }
        (m, n) if m + 1 == n => a == &b[1..],
        (m, n) if m == n + 1 => &a[1..] == b,
        _ => false,
    }
}
const LIMITS: &str = "depth, nodes, movetime, p1time, p2time, p1inc, p2inc, movestogo or infinite";
const INFO_FIELDS: &str =
    "depth, seldepth, multipv, score, nodes, nps, hashfull, time, currmove, pv or string";
/// Longest piece of input quoted back in an error message, in characters.
const QUOTE_LIMIT: usize = 32;

/// A committed failure with an explanation.
fn fail<T>(message: String) -> Res<'static, T> {
    Err(nom::Err::Failure(Problem(message)))
}

/// Input quoted for an error message: shortened, control characters escaped.
fn quote(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(QUOTE_LIMIT)
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    if text.chars().nth(QUOTE_LIMIT).is_some() {
        shown.push('…');
    }
    format!("'{shown}'")
}

/// What comes next in the input, for "found ..." in messages.
fn found(input: &str) -> String {
    match word(input) {
        Ok((_, w)) => quote(w),
        Err(_) => "the end of the line".to_string(),
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The next word, after any blanks.
fn word(input: &str) -> Res<'_, &str> {
    preceded(space0, take_till1(is_blank)).parse(input)
}

/// The next word if it is `keyword`, as a whole word.
fn keyword<'a>(keyword: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Problem> {
    nom::combinator::verify(word, move |w: &str| w == keyword)
}

/// The next word without consuming it.
fn peek_word(input: &str) -> Option<&str> {
    peek(word).parse(input).ok().map(|(_, w)| w)
}

/// The rest of the line after any blanks.
fn rest(input: &str) -> &str {
    input.trim_start_matches(is_blank)
}

/// Checks that nothing but blanks remains.
fn end<'a>(command: &str, input: &'a str, expected: &str) -> Res<'a, ()> {
    match peek_word(input) {
        None => Ok(("", ())),
        Some(junk) => fail(format!("{command}: unexpected {} {expected}", quote(junk))),
    }
}

/// Integer types read by the parser, with their ranges for error messages.
trait Number: FromStr + Copy + fmt::Display {
    const MIN: Self;
    const MAX: Self;
}

macro_rules! number_type {
    ($($t:ty),*) => {$(impl Number for $t { const MIN: Self = <$t>::MIN; const MAX: Self = <$t>::MAX; })*};
}
number_type!(u32, u64, i32, i64);

/// A number after the word `key` of `command`.
fn number<'a, T: Number>(input: &'a str, command: &str, key: &str) -> Res<'a, T> {
    let Ok((after, token)) = word(input) else {
        return fail(format!(
            "{command}: expected a number after '{key}', found the end of the line"
        ));
    };
    let numeric = all_consuming(recognize((opt(char::<&str, Problem>('-')), digit1)))
        .parse(token)
        .is_ok();
    if !numeric {
        return fail(format!(
            "{command}: expected a number after '{key}', found {}",
            quote(token)
        ));
    }
    match token.parse::<T>() {
        Ok(value) => Ok((after, value)),
        Err(_) => fail(format!(
            "{command}: the number {} after '{key}' is out of range: expected {} to {}",
            quote(token),
            T::MIN,
            T::MAX
        )),
    }
}

/// A square name after the word `key` of `command`.
fn square<'a>(input: &'a str, command: &str, key: &str) -> Res<'a, SquareName> {
    let Ok((after, token)) = word(input) else {
        return fail(format!(
            "{command}: expected a square such as d4 after '{key}', found the end of the line"
        ));
    };
    match token.parse() {
        Ok(name) => Ok((after, name)),
        Err(e) => fail(format!("{command}: bad square after '{key}': {e}")),
    }
}

/// Squares for as long as the next word is one.
fn squares(mut input: &str) -> (&str, Vec<SquareName>) {
    let mut names = Vec::new();
    while let Some(name) = peek_word(input).and_then(|w| w.parse::<SquareName>().ok()) {
        names.push(name);
        input = word(input).map_or("", |(after, _)| after);
    }
    (input, names)
}

/// Fails when a field is given twice.
fn once<T>(slot: &Option<T>, command: &str, key: &str) -> Res<'static, ()> {
    match slot {
        Some(_) => fail(format!(
            "{command}: '{key}' is given twice: expected each at most once"
        )),
        None => Ok(("", ())),
    }
}

/// Words up to (not including) the next word in `stops`, joined by single spaces.
fn words_until<'a>(mut input: &'a str, stops: &[&str]) -> (&'a str, String) {
    let mut words: Vec<&str> = Vec::new();
    while let Some(w) = peek_word(input).filter(|w| !stops.contains(w)) {
        words.push(w);
        input = word(input).map_or("", |(after, _)| after);
    }
    (input, words.join(" "))
}

/// Parses one line into a message.
pub(super) fn parse_message(line: &str) -> Result<Message, ParseError> {
    let line = line.trim_matches(|c| is_blank(c) || c == '\r' || c == '\n');
    let Ok((args, command)) = word(line) else {
        return Err(ParseError {
            message: format!(
                "empty line: expected a command, one of {}",
                known_commands()
            ),
        });
    };
    match message(command, args) {
        Ok((_, message)) => Ok(message),
        Err(nom::Err::Error(Problem(message)) | nom::Err::Failure(Problem(message))) => {
            Err(ParseError { message })
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError {
            message: format!("{command}: the line ended too early"),
        }),
    }
}

/// The message starting with the word `command`, with its arguments in `args`.
fn message<'a>(command: &str, args: &'a str) -> Res<'a, Message> {
    let bare = |message: Message| -> Res<'a, Message> {
        end(command, args, "after the command: expected nothing more")?;
        Ok(("", message))
    };
    let (args, message) = match command {
        "ugi" => return bare(Message::Ugi),
        "isready" => return bare(Message::IsReady),
        "stop" => return bare(Message::Stop),
        "quit" => return bare(Message::Quit),
        "d" => return bare(Message::Display),
        "legal" => return bare(Message::Legal),
        "eval" => return bare(Message::Eval),
        "bench" => return bare(Message::Bench),
        "ugiok" => return bare(Message::UgiOk),
        "readyok" => return bare(Message::ReadyOk),
        "setoption" => return set_option(args),
        "newgame" => game_setup(command, args).map(|(a, s)| (a, Message::NewGame(s)))?,
        "uginewgame" => game_setup(command, args).map(|(a, s)| (a, Message::UgiNewGame(s)))?,
        "position" => position(args)?,
        "move" => square(args, command, command).map(|(a, s)| (a, Message::Move(s)))?,
        "go" => limits(command, args).map(|(a, l)| (a, Message::Go(l)))?,
        "solve" => limits(command, args).map(|(a, l)| (a, Message::Solve(l)))?,
        "perft" => number(args, command, command).map(|(a, n)| (a, Message::Perft(n)))?,
        "query" => query(args)?,
        "response" => response(args)?,
        "id" => return id(args),
        "option" => return option(args),
        "info" => return info(args),
        "bestmove" => best_move(args)?,
        _ => {
            let hint = nearest_command(command)
                .map(|k| format!(" (did you mean '{k}'?)"))
                .unwrap_or_default();
            return fail(format!(
                "unknown command {}{hint}: expected one of {}",
                quote(command),
                known_commands()
            ));
        }
    };
    end(
        command,
        args,
        "at the end of the line: expected nothing more",
    )?;
    Ok(("", message))
}

/// `setoption name <words> [value <rest of line>]`.
fn set_option(args: &str) -> Res<'_, Message> {
    let Ok((args, _)) = keyword("name").parse(args) else {
        return fail(format!(
            "setoption: expected 'name' after 'setoption', found {}",
            found(args)
        ));
    };
    let (args, name) = words_until(args, &["value"]);
    if name.is_empty() {
        return fail(format!(
            "setoption: expected an option name after 'name', found {}",
            found(args)
        ));
    }
    let value = keyword("value")
        .parse(args)
        .ok()
        .map(|(after, _)| rest(after).to_string());
    Ok(("", Message::SetOption { name, value }))
}

/// `[size WxH] [start SQ]` in any order, each at most once, validated together.
fn game_setup<'a>(command: &str, mut args: &'a str) -> Res<'a, GameSetup> {
    let mut setup = GameSetup::default();
    while let Ok((after, key)) = word(args) {
        args = match key {
            "size" => {
                once(&setup.size, command, key)?;
                let Ok((after, text)) = word(after) else {
                    return fail(format!(
                        "{command}: expected a board size such as 7x7 after 'size', found the end of the line"
                    ));
                };
                match text.parse::<Size>() {
                    Ok(size) => setup.size = Some(size),
                    Err(e) => return fail(format!("{command}: {e}")),
                }
                after
            }
            "start" => {
                once(&setup.start, command, key)?;
                let (after, name) = square(after, command, key)?;
                setup.start = Some(name);
                after
            }
            other => {
                return fail(format!(
                    "{command}: unknown argument {}: expected 'size WxH' or 'start SQ'",
                    quote(other)
                ));
            }
        };
    }
    match setup.position() {
        Err(e @ StartError::Square(_)) => {
            let size = setup.board_size();
            return fail(format!(
                "{command}: {e}: expected a square of the {}x{} board",
                size.width(),
                size.height()
            ));
        }
        Err(e) => return fail(format!("{command}: {e}")),
        Ok(_) => {}
    }
    Ok((args, setup))
}

/// `startpos|fen <rows> <side> [moves SQ...]`.
fn position(args: &str) -> Res<'_, Message> {
    const BASE: &str = "expected 'startpos' or 'fen <position string>'";
    let (args, base) = match word(args) {
        Ok((after, "startpos")) => (after, PositionBase::StartPos),
        Ok((after, "fen")) => {
            let mut text = String::new();
            let mut after = after;
            for _ in 0..2 {
                match word(after) {
                    Ok((next, w)) if w != "moves" => {
                        text.push_str(w);
                        text.push(' ');
                        after = next;
                    }
                    _ => break,
                }
            }
            match text.parse::<Position>() {
                Ok(position) => (after, PositionBase::Fen(position)),
                Err(e) => return fail(format!("position: bad position string: {e}")),
            }
        }
        Ok((_, other)) => return fail(format!("position: {BASE}, found {}", quote(other))),
        Err(_) => return fail(format!("position: {BASE}, found the end of the line")),
    };
    let (args, listed, moves) = match keyword("moves").parse(args) {
        Ok((after, _)) => {
            let (after, moves) = squares(after);
            (after, true, moves)
        }
        Err(_) => (args, false, Vec::new()),
    };
    if let Some(junk) = peek_word(args) {
        // After 'moves' only squares may follow, so the junk is a bad square.
        let problem = match junk.parse::<SquareName>() {
            Err(e) if listed => format!("bad move: {e}"),
            _ => format!(
                "unexpected {}: expected 'moves' then squares such as d4, or the end of the line",
                quote(junk)
            ),
        };
        return fail(format!("position: {problem}"));
    }
    Ok((args, Message::Position(PositionSetup { base, moves })))
}

/// The limits of `go` and `solve`, in any order, each at most once.
fn limits<'a>(command: &str, mut args: &'a str) -> Res<'a, GoArgs> {
    let mut go = GoArgs::default();
    while let Ok((after, key)) = word(args) {
        args = match key {
            "depth" => read(&mut go.depth, after, command, key)?,
            "nodes" => read(&mut go.nodes, after, command, key)?,
            "movetime" => read(&mut go.movetime, after, command, key)?,
            "p1time" => read(&mut go.p1time, after, command, key)?,
            "p2time" => read(&mut go.p2time, after, command, key)?,
            "p1inc" => read(&mut go.p1inc, after, command, key)?,
            "p2inc" => read(&mut go.p2inc, after, command, key)?,
            "movestogo" => read(&mut go.movestogo, after, command, key)?,
            "infinite" => {
                once(&go.infinite.then_some(()), command, key)?;
                go.infinite = true;
                after
            }
            other => {
                return fail(format!(
                    "{command}: unknown limit {}: expected {LIMITS}",
                    quote(other)
                ));
            }
        };
    }
    let clock_parts = go.p1inc.is_some() || go.p2inc.is_some() || go.movestogo.is_some();
    if go.p1time.is_some() != go.p2time.is_some() || (clock_parts && go.p1time.is_none()) {
        return fail(format!(
            "{command}: incomplete clock: expected both 'p1time MS' and 'p2time MS' whenever a clock field is given"
        ));
    }
    Ok((args, go))
}

/// Reads the number of a field that may be given once.
fn read<'a, T: Number>(
    slot: &mut Option<T>,
    input: &'a str,
    command: &str,
    key: &str,
) -> Result<&'a str, nom::Err<Problem>> {
    once(slot, command, key)?;
    let (after, value) = number(input, command, key)?;
    *slot = Some(value);
    Ok(after)
}

fn query(args: &str) -> Res<'_, Message> {
    let (after, w) = word(args).unwrap_or(("", ""));
    let query = match w {
        "p1turn" => Query::P1Turn,
        "gameover" => Query::GameOver,
        "result" => Query::Result,
        _ => {
            return fail(format!(
                "query: expected p1turn, gameover or result, found {}",
                found(args)
            ));
        }
    };
    Ok((after, Message::Query(query)))
}

fn response(args: &str) -> Res<'_, Message> {
    let (after, w) = word(args).unwrap_or(("", ""));
    let response = match w {
        "true" => Response::True,
        "false" => Response::False,
        "p1win" => Response::P1Win,
        "p2win" => Response::P2Win,
        "draw" => Response::Draw,
        "none" => Response::None,
        _ => {
            return fail(format!(
                "response: expected true, false, p1win, p2win, draw or none, found {}",
                found(args)
            ));
        }
    };
    Ok((after, Message::Response(response)))
}

fn best_move(args: &str) -> Res<'_, Message> {
    match word(args) {
        Ok((after, "(none)")) => Ok((after, Message::BestMove(None))),
        Ok((after, w)) => match w.parse() {
            Ok(name) => Ok((after, Message::BestMove(Some(name)))),
            Err(e) => fail(format!("bestmove: {e}, or '(none)'")),
        },
        Err(_) => fail(
            "bestmove: expected a square such as d4 or '(none)', found the end of the line".into(),
        ),
    }
}

fn id(args: &str) -> Res<'_, Message> {
    let (after, field) = word(args).unwrap_or(("", ""));
    let text = rest(after).to_string();
    let id = match field {
        "name" if !text.is_empty() => Id::Name(text),
        "author" if !text.is_empty() => Id::Author(text),
        "name" | "author" => {
            return fail(format!(
                "id: expected text after '{field}', found the end of the line"
            ));
        }
        _ => {
            return fail(format!(
                "id: expected 'name' or 'author', found {}",
                found(args)
            ));
        }
    };
    Ok(("", Message::Id(id)))
}
