//! The protocol message: one type for both directions, printed and read back losslessly.
//!
//! [`Message`] covers the commands a GUI sends to an engine and the replies an engine
//! sends back. `Display` writes the canonical line (no line break); `FromStr` reads a
//! line, accepting surrounding white space and runs of spaces or tabs between words.
//! For every message `m`, `m.to_string().parse() == Ok(m)`, and a canonical line
//! printed back after parsing is the same line.

use std::fmt;
use std::str::FromStr;

use super::{Bound, Score};
use crate::board::{Position, Size, SquareName, StartError};

use super::parse::{ParseError, parse_message};

/// One line of the protocol, in either direction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Message {
    /// `ugi`: the engine identifies itself, lists its options and answers `ugiok`.
    Ugi,
    /// `isready`: the engine answers `readyok`, also during a search.
    IsReady,
    /// `setoption name <name> [value <value>]`; the value is omitted for buttons.
    SetOption {
        /// The option name, words joined by single spaces.
        name: String,
        /// The value, the rest of the line.
        value: Option<String>,
    },
    /// `newgame [size WxH] [start SQ]`: a fresh game, forgetting the previous one.
    NewGame(GameSetup),
    /// `uginewgame [size WxH] [start SQ]`: the UGI spelling of `newgame`.
    UgiNewGame(GameSetup),
    /// `position startpos|fen <rows> <side> [moves m1 m2 ...]`.
    Position(PositionSetup),
    /// `move <sq>`: plays one move on the current position.
    Move(SquareName),
    /// `go [limits]`: search the current position, then answer `bestmove`.
    Go(GoArgs),
    /// `stop`: end the running search now.
    Stop,
    /// `quit`: exit.
    Quit,
    /// `query p1turn|gameover|result`: a question about the current position.
    Query(Query),
    /// `d`: the board diagram and position string, as `info string` lines.
    Display,
    /// `perft N`: move-path counts per first move and in total.
    Perft(u32),
    /// `legal`: the legal moves.
    Legal,
    /// `eval`: the static evaluation and its terms.
    Eval,
    /// `solve [limits]`: try to prove the value of the current position.
    Solve(GoArgs),
    /// `bench`: a fixed search workload that reports nodes and speed.
    Bench,
    /// `id name <text>` or `id author <text>`.
    Id(Id),
    /// `ugiok`: the end of the reply to `ugi`.
    UgiOk,
    /// `readyok`: the reply to `isready`.
    ReadyOk,
    /// `option name <name> type <type> ...`: an option the engine offers.
    DeclareOption(OptionDecl),
    /// `info ...`: search progress or a free-text line.
    Info(Info),
    /// `bestmove <sq>`, or `bestmove (none)` when there is no move to play.
    BestMove(Option<SquareName>),
    /// `response <answer>`: the reply to `query`.
    Response(Response),
}

/// Who sends a message.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// A command from the GUI (or arena) to the engine.
    ToEngine,
    /// A reply from the engine.
    FromEngine,
}

/// The one list of message keywords, each with who sends it, in the order that error
/// messages list them. `Message::keyword` and the parser are tested against it.
pub const KEYWORDS: [(&str, Direction); 24] = {
    use Direction::{FromEngine, ToEngine};
    [
        ("ugi", ToEngine),
        ("isready", ToEngine),
        ("setoption", ToEngine),
        ("newgame", ToEngine),
        ("uginewgame", ToEngine),
        ("position", ToEngine),
        ("move", ToEngine),
        ("go", ToEngine),
        ("stop", ToEngine),
        ("quit", ToEngine),
        ("query", ToEngine),
        ("d", ToEngine),
        ("perft", ToEngine),
        ("legal", ToEngine),
        ("eval", ToEngine),
        ("solve", ToEngine),
        ("bench", ToEngine),
        ("id", FromEngine),
        ("ugiok", FromEngine),
        ("readyok", FromEngine),
        ("option", FromEngine),
        ("info", FromEngine),
        ("bestmove", FromEngine),
        ("response", FromEngine),
    ]
};

/// The keywords sent in one direction, in the order of [`KEYWORDS`].
pub fn keywords(direction: Direction) -> impl Iterator<Item = &'static str> {
    KEYWORDS
        .into_iter()
        .filter(move |&(_, sender)| sender == direction)
        .map(|(word, _)| word)
}

impl Message {
    /// Who sends this message: the GUI or the engine.
    pub fn direction(&self) -> Direction {
        let keyword = self.keyword();
        KEYWORDS
            .into_iter()
            .find(|&(word, _)| word == keyword)
            .map_or(Direction::ToEngine, |(_, direction)| direction)
    }

    /// The first word of the message's line, such as `go` or `bestmove`.
    pub fn keyword(&self) -> &'static str {
        use Message::*;
        match self {
            Ugi => "ugi",
            IsReady => "isready",
            SetOption { .. } => "setoption",
            NewGame(_) => "newgame",
            UgiNewGame(_) => "uginewgame",
            Position(_) => "position",
            Move(_) => "move",
            Go(_) => "go",
            Stop => "stop",
            Quit => "quit",
            Query(_) => "query",
            Display => "d",
            Perft(_) => "perft",
            Legal => "legal",
            Eval => "eval",
            Solve(_) => "solve",
            Bench => "bench",
            Id(_) => "id",
            UgiOk => "ugiok",
            ReadyOk => "readyok",
            DeclareOption(_) => "option",
            Info(_) => "info",
            BestMove(_) => "bestmove",
            Response(_) => "response",
        }
    }

    /// An `info string <text>` line.
    pub fn info_string(text: impl Into<String>) -> Message {
        Message::Info(Info {
            string: Some(text.into()),
            ..Info::default()
        })
    }
}

/// The arguments of `newgame`: board size and start square, each optional.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameSetup {
    /// The board size; 7×7 when absent.
    pub size: Option<Size>,
    /// The start square; the default start of the size when absent.
    pub start: Option<SquareName>,
}

impl GameSetup {
    /// The board size of the game.
    pub fn board_size(&self) -> Size {
        self.size.unwrap_or_default()
    }

    /// The start position, or why the start square does not fit the board.
    pub fn position(&self) -> Result<Position, StartError> {
        let size = self.board_size();
        match self.start {
            None => Ok(Position::start(size)),
            Some(name) => {
                let square = size.resolve(name).map_err(StartError::Square)?;
                Position::start_at(size, square)
            }
        }
    }
}

/// Where `position` starts before its moves are played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionBase {
    /// `startpos`: the start position of the current game (as set by `newgame`).
    StartPos,
    /// `fen <rows> <side>`: a validated position string.
    Fen(Position),
}

/// The arguments of `position`: a base position and moves to play from it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionSetup {
    /// The position before the moves.
    pub base: PositionBase,
    /// Moves as destination squares, resolved against the board by the engine.
    pub moves: Vec<SquareName>,
}

/// The limits of `go` and `solve`; every field is optional and given at most once.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GoArgs {
    /// `depth N`: maximum depth in plies.
    pub depth: Option<u32>,
    /// `nodes N`: maximum nodes.
    pub nodes: Option<u64>,
    /// `movetime MS`: search exactly this long.
    pub movetime: Option<u64>,
    /// `p1time MS`: player 1's remaining time; negative means zero.
    pub p1time: Option<i64>,
    /// `p2time MS`: player 2's remaining time; negative means zero.
    pub p2time: Option<i64>,
    /// `p1inc MS`: player 1's increment per move; negative means zero.
    pub p1inc: Option<i64>,
    /// `p2inc MS`: player 2's increment per move; negative means zero.
    pub p2inc: Option<i64>,
    /// `movestogo N`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop` and keep the result until then.
    pub infinite: bool,
}

/// The questions of `query`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Query {
    /// `p1turn`: is it player 1's turn? Answered `true` or `false`.
    P1Turn,
    /// `gameover`: is the game over? Answered `true` or `false`.
    GameOver,
    /// `result`: who won? Answered `p1win`, `p2win` or `none`.
    Result,
}

/// The answers of `response`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Response {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `p1win`: player 1 has won.
    P1Win,
    /// `p2win`: player 2 has won.
    P2Win,
    /// `draw`: never sent by Slimetrail (the game has no draws), accepted for UGI.
    Draw,
    /// `none`: the game is not over.
    None,
}

/// The fields of `id`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Id {
    /// `id name <text>`.
    Name(String),
    /// `id author <text>`.
    Author(String),
}

/// An option declaration: `option name <name> type <type> [default ...] [min .. max ..] [var ...]`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionDecl {
    /// The name, words joined by single spaces.
    pub name: String,
    /// The type with its default and limits.
    pub kind: OptionKind,
}

/// The type of an option with its default value and limits.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin default D [min A] [max B]`: an integer.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value, if declared.
        min: Option<i64>,
        /// The largest value, if declared.
        max: Option<i64>,
    },
    /// `type combo default D var V1 var V2 ...`: one of a list of words.
    Combo {
        /// The default.
        default: String,
        /// The choices.
        vars: Vec<String>,
    },
    /// `type string default D`: free text (possibly empty).
    String {
        /// The default.
        default: String,
    },
    /// `type button`: an action without a value.
    Button,
}

impl OptionKind {
    /// The type's word on the wire: `check`, `spin`, `combo`, `string` or `button`.
    pub fn type_name(&self) -> &'static str {
        match self {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::String { .. } => "string",
            OptionKind::Button => "button",
        }
    }
}

/// The fields of an `info` line; all optional, printed in this order.
///
/// `string`, when present, is last and holds the rest of the line verbatim after the
/// single space that follows the word `string`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Info {
    /// `depth N`: completed depth in plies.
    pub depth: Option<u32>,
    /// `seldepth N`: deepest ply reached.
    pub seldepth: Option<u32>,
    /// `multipv N`: the rank of this line among several.
    pub multipv: Option<u32>,
    /// `score cp N|mate N [lowerbound|upperbound]`.
    pub score: Option<(Score, Bound)>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `nps N`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull N`: transposition-table fill in parts per thousand.
    pub hashfull: Option<u32>,
    /// `time MS`: milliseconds since the search started.
    pub time: Option<u64>,
    /// `currmove SQ`: the root move being searched.
    pub currmove: Option<SquareName>,
    /// `pv SQ...`: the principal variation.
    pub pv: Vec<SquareName>,
    /// `string <text>`: free text to the end of the line.
    pub string: Option<String>,
}

impl FromStr for Message {
    type Err = ParseError;

    /// Reads one line (without its line break).
    fn from_str(line: &str) -> Result<Message, ParseError> {
        parse_message(line)
    }
}

/// Free text with line breaks and other control characters replaced by spaces, so that
/// a message always stays on one line.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.chars().any(char::is_control) {
            return f.write_str(self.0);
        }
        let clean: String = self
            .0
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        f.write_str(&clean)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Message::*;
        f.write_str(self.keyword())?;
        match self {
            SetOption { name, value } => {
                write!(f, " name {}", OneLine(name))?;
                match value.as_deref() {
                    Some("") => f.write_str(" value")?,
                    Some(value) => write!(f, " value {}", OneLine(value))?,
                    None => {}
                }
                Ok(())
            }
            NewGame(setup) | UgiNewGame(setup) => write!(f, "{setup}"),
            Position(setup) => write!(f, " {setup}"),
            Move(square) => write!(f, " {square}"),
            Go(args) | Solve(args) => write!(f, "{args}"),
            Query(query) => write!(f, " {query}"),
            Perft(depth) => write!(f, " {depth}"),
            Id(self::Id::Name(text)) => write!(f, " name {}", OneLine(text)),
            Id(self::Id::Author(text)) => write!(f, " author {}", OneLine(text)),
            DeclareOption(decl) => write!(f, " {decl}"),
            Info(info) => write!(f, "{info}"),
            BestMove(Some(square)) => write!(f, " {square}"),
            BestMove(None) => f.write_str(" (none)"),
            Response(response) => write!(f, " {response}"),
            Ugi | IsReady | Stop | Quit | Display | Legal | Eval | Bench | UgiOk | ReadyOk => {
                Ok(())
            }
        }
    }
}

impl fmt::Display for GameSetup {
    /// The arguments with a leading space each, as in `newgame size 7x7 start e5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(size) = self.size {
            write!(f, " size {}x{}", size.width(), size.height())?;
        }
        if let Some(start) = self.start {
            write!(f, " start {start}")?;
        }
        Ok(())
    }
}

impl fmt::Display for PositionSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.base {
            PositionBase::StartPos => f.write_str("startpos")?,
            PositionBase::Fen(position) => write!(f, "fen {position}")?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for square in &self.moves {
                write!(f, " {square}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for GoArgs {
    /// The arguments with a leading space each, in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let numbers: [(&str, Option<i128>); 8] = [
            ("depth", self.depth.map(i128::from)),
            ("nodes", self.nodes.map(i128::from)),
            ("movetime", self.movetime.map(i128::from)),
            ("p1time", self.p1time.map(i128::from)),
            ("p2time", self.p2time.map(i128::from)),
            ("p1inc", self.p1inc.map(i128::from)),
            ("p2inc", self.p2inc.map(i128::from)),
            ("movestogo", self.movestogo.map(i128::from)),
        ];
        for (key, value) in numbers {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Query::P1Turn => "p1turn",
            Query::GameOver => "gameover",
            Query::Result => "result",
        })
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Response::True => "true",
            Response::False => "false",
            Response::P1Win => "p1win",
            Response::P2Win => "p2win",
            Response::Draw => "draw",
            Response::None => "none",
        })
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "name {} type {}",
            OneLine(&self.name),
            self.kind.type_name()
        )?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, " default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, " default {default}")?;
                if let Some(min) = min {
                    write!(f, " min {min}")?;
                }
                if let Some(max) = max {
                    write!(f, " max {max}")?;
                }
                Ok(())
            }
            OptionKind::Combo { default, vars } => {
                write!(f, " default {}", OneLine(default))?;
                for var in vars {
                    write!(f, " var {}", OneLine(var))?;
                }
                Ok(())
            }
            OptionKind::String { default } if default.is_empty() => f.write_str(" default"),
            OptionKind::String { default } => write!(f, " default {}", OneLine(default)),
            OptionKind::Button => Ok(()),
        }
    }
}

impl fmt::Display for Info {
    /// The fields with a leading space each, in a fixed order, `string` last.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let before_score = [
            ("depth", self.depth),
            ("seldepth", self.seldepth),
            ("multipv", self.multipv),
        ];
        for (key, value) in before_score {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if let Some((score, bound)) = self.score {
            write!(f, " score {score}")?;
            match bound {
                Bound::Exact => {}
                Bound::Lower => f.write_str(" lowerbound")?,
                Bound::Upper => f.write_str(" upperbound")?,
            }
        }
        let after_score = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("time", self.time),
        ];
        for (key, value) in after_score {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if let Some(square) = self.currmove {
            write!(f, " currmove {square}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for square in &self.pv {
                write!(f, " {square}")?;
            }
        }
        match &self.string {
            Some(text) if text.is_empty() => f.write_str(" string"),
            Some(text) => write!(f, " string {}", OneLine(text)),
            None => Ok(()),
        }
    }
}
