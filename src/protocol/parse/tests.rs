//! Parser tests: canonical lines, white space, whole words, and ugly inputs.

use crate::board::{Position, Size, SquareName};
use crate::protocol::{
    Bound, Direction, GameSetup, GoArgs, Id, Info, KEYWORDS, Message, OptionDecl, OptionKind,
    PositionBase, PositionSetup, Query, Response, Score,
};

fn parse(line: &str) -> Message {
    line.parse()
        .unwrap_or_else(|e| panic!("{line:?} should parse: {e}"))
}

fn error(line: &str) -> String {
    match line.parse::<Message>() {
        Ok(m) => panic!("{line:?} should be rejected, got {m:?}"),
        Err(e) => e.to_string(),
    }
}

fn sq(name: &str) -> SquareName {
    name.parse().unwrap()
}

/// One canonical line of every kind of message.
const CANONICAL: &[&str] = &[
    "ugi",
    "isready",
    "setoption name Hash value 128",
    "setoption name Move Overhead value 30",
    "setoption name Book File value /tmp/my  book.txt",
    "setoption name Clear Hash",
    "setoption name Book File value",
    "newgame",
    "newgame size 9x7",
    "newgame size 7x7 start e5",
    "newgame start e5",
    "uginewgame",
    "uginewgame size 11x11",
    "position startpos",
    "position startpos moves c3 b2",
    "position fen 7/7/7/3s3/7/7/7 1",
    "position fen 2xx2/x1x1xx/3s1x/6 2 moves e2",
    "move d5",
    "move k11",
    "go",
    "go depth 5",
    "go nodes 1000000 movetime 250",
    "go p1time 60000 p2time -15 p1inc 100 p2inc 0 movestogo 20",
    "go depth 3 infinite",
    "go infinite",
    "stop",
    "quit",
    "query p1turn",
    "query gameover",
    "query result",
    "d",
    "perft 0",
    "perft 9",
    "legal",
    "eval",
    "solve",
    "solve depth 20 movetime 5000",
    "bench",
    "id name Slimetrail 0.1.0",
    "id author The Slimetrail authors",
    "ugiok",
    "readyok",
    "option name Hash type spin default 64 min 1 max 65536",
    "option name Ponder type check default false",
    "option name Style type combo default Very Solid var Very Solid var Wild",
    "option name Book File type string default",
    "option name Book File type string default book.bin",
    "option name Clear Hash type button",
    "option name Contempt type spin default -10",
    "info",
    "info depth 3 seldepth 5 score cp 12 nodes 345 nps 69000 hashfull 1 time 5 pv c3 b2 c1",
    "info depth 9 multipv 2 score mate -7 upperbound nodes 1",
    "info score mate 3 lowerbound",
    "info currmove d3",
    "info nodes 10 nps 0 time 0",
    "info string",
    "info string hello  world",
    "info string      a b c d e f g",
    "info depth 1 string x",
    "info string error unknown command 'foo': expected one of ugi",
    "bestmove d3",
    "bestmove (none)",
    "response true",
    "response false",
    "response p1win",
    "response p2win",
    "response draw",
    "response none",
];

#[test]
fn every_canonical_line_round_trips() {
    for line in CANONICAL {
        let message = parse(line);
        assert_eq!(&message.to_string(), line, "{message:?}");
        assert_eq!(parse(&message.to_string()), message);
    }
}

#[test]
fn keywords_match_the_line() {
    for line in CANONICAL {
        let message = parse(line);
        assert_eq!(line.split(' ').next(), Some(message.keyword()), "{line}");
    }
}

#[test]
fn directions_are_told_apart() {
    assert_eq!(parse("go").direction(), Direction::ToEngine);
    assert_eq!(parse("d").direction(), Direction::ToEngine);
    assert_eq!(parse("bestmove d3").direction(), Direction::FromEngine);
    assert_eq!(parse("info string x").direction(), Direction::FromEngine);
    assert_eq!(parse("response none").direction(), Direction::FromEngine);
}

#[test]
fn surrounding_and_inner_white_space_is_accepted() {
    assert_eq!(parse("  isready \t"), Message::IsReady);
    assert_eq!(parse("isready\r\n"), Message::IsReady);
    assert_eq!(parse("go\tdepth   5 "), parse("go depth 5"));
    assert_eq!(
        parse(" position  startpos\tmoves c3  b2 "),
        parse("position startpos moves c3 b2")
    );
    assert_eq!(
        parse("setoption   name  Move \t Overhead   value 30"),
        parse("setoption name Move Overhead value 30")
    );
}

#[test]
fn keywords_are_whole_words() {
    assert!(error("goo").starts_with("unknown command 'goo'"));
    assert!(error("go1").starts_with("unknown command 'go1'"));
    assert!(error("isreadyx").starts_with("unknown command"));
    assert!(error("GO").starts_with("unknown command 'GO'"));
    assert!(error("go depthx 3").contains("unknown limit 'depthx'"));
    assert!(error("go infinitely").contains("unknown limit"));
    assert!(error("query p1turns").contains("expected p1turn, gameover or result"));
    assert!(error("position startposx").contains("expected 'startpos' or 'fen"));
}

#[test]
fn the_keyword_table_matches_the_parser_and_the_messages() {
    let mut seen = Vec::new();
    for line in CANONICAL {
        let message = parse(line);
        let keyword = message.keyword();
        let entry = KEYWORDS.iter().find(|(word, _)| *word == keyword);
        assert_eq!(entry.map(|e| e.1), Some(message.direction()), "{line}");
        seen.push(keyword);
    }
    for (word, _) in KEYWORDS {
        assert!(seen.contains(&word), "no canonical line starts with {word}");
        let problem = error(&format!("{word} \u{1}"));
        assert!(!problem.starts_with("unknown command"), "{word}: {problem}");
    }
}

#[test]
fn unknown_commands_list_the_commands_a_gui_may_send() {
    let message = error("foo bar");
    assert!(
        message.starts_with("unknown command 'foo': expected one of ugi, isready,"),
        "{message}"
    );
    assert!(message.ends_with("solve or bench"), "{message}");
    for reply in ["bestmove", "ugiok", "readyok", "response"] {
        assert!(!message.contains(reply), "{message}");
    }
}

#[test]
fn unknown_commands_suggest_the_nearest_one() {
    for (line, meant) in [
        ("uci", "ugi"),
        ("ucinewgame", "uginewgame"),
        ("GO depth 3", "go"),
        ("Isready", "isready"),
        ("isreddy", "isready"),
        ("postion startpos", "position"),
        ("quitt", "quit"),
        ("stpo", "stop"),
    ] {
        let message = error(line);
        assert!(
            message.contains(&format!("(did you mean '{meant}'?)")),
            "{line}: {message}"
        );
    }
    for line in ["foo", "help", "xyzzy", "g"] {
        assert!(!error(line).contains("did you mean"), "{line}");
    }
}

#[test]
fn empty_and_blank_lines_are_errors_for_the_caller_to_skip() {
    for line in ["", " ", "\t \t", "\r\n"] {
        assert!(error(line).starts_with("empty line: expected a command"));
    }
}

#[test]
fn numbers_are_checked() {
    assert_eq!(
        error("go depth abc"),
        "go: expected a number after 'depth', found 'abc'"
    );
    assert_eq!(
        error("go depth"),
        "go: expected a number after 'depth', found the end of the line"
    );
    assert_eq!(
        error("go depth 99999999999999999999"),
        "go: the number '99999999999999999999' after 'depth' is out of range: expected 0 to 4294967295"
    );
    assert!(error("go nodes 18446744073709551616").contains("out of range"));
    assert!(error("go movetime -1").contains("out of range: expected 0 to"));
    assert!(error("perft -1").contains("out of range"));
    assert!(error("go depth 5x").contains("found '5x'"));
    assert!(error("go depth +5").contains("found '+5'"));
    assert!(error("go depth ５").contains("expected a number"));
    assert!(error("perft").contains("expected a number after 'perft'"));
    assert_eq!(parse("perft 4294967295"), Message::Perft(u32::MAX));
    assert_eq!(
        parse("go nodes 18446744073709551615"),
        Message::Go(GoArgs {
            nodes: Some(u64::MAX),
            ..GoArgs::default()
        })
    );
}

#[test]
fn go_limits_are_given_at_most_once_in_any_order() {
    assert_eq!(
        error("go depth 3 depth 4"),
        "go: 'depth' is given twice: expected each at most once"
    );
    assert!(error("go infinite infinite").contains("'infinite' is given twice"));
    assert!(error("solve movetime 1 movetime 2").starts_with("solve: 'movetime' is given twice"));
    assert_eq!(
        parse("go infinite movetime 10 depth 2"),
        parse("go depth 2 movetime 10 infinite")
    );
}

#[test]
fn clocks_come_in_pairs_and_negative_times_mean_zero() {
    assert!(error("go p1time 100").contains("incomplete clock"));
    assert!(error("go p2time 100 p2inc 5").contains("incomplete clock"));
    assert!(error("go movestogo 5").contains("incomplete clock"));
    let Message::Go(args) = parse("go p1time -500 p2time 2000 p2inc 30 movestogo 0") else {
        panic!("not a go");
    };
    assert_eq!(args.p1time, Some(-500));
    assert_eq!(args.p2time, Some(2000));
    assert_eq!(args.p2inc, Some(30));
    assert_eq!(args.movestogo, Some(0));
    let Message::Go(args) = parse("go p1time 5 p2time 5 movetime 40 depth 2") else {
        panic!("not a go");
    };
    assert_eq!((args.movetime, args.depth), (Some(40), Some(2)));
    assert!(!args.infinite);
    let Message::Go(args) = parse("go infinite") else {
        panic!("not a go");
    };
    assert!(args.infinite);
}

#[test]
fn missing_arguments_are_reported() {
    assert!(error("move").contains("expected a square such as d4 after 'move'"));
    assert!(error("setoption").contains("expected 'name'"));
    assert!(error("setoption name").contains("expected an option name"));
    assert!(error("setoption name value 3").contains("expected an option name"));
    assert!(error("position").contains("expected 'startpos' or 'fen"));
    assert!(error("query").contains("found the end of the line"));
    assert!(error("response").contains("expected true, false"));
    assert!(error("bestmove").contains("found the end of the line"));
    assert!(error("id").contains("expected 'name' or 'author'"));
    assert!(error("id name").contains("expected text after 'name'"));
    assert!(error("newgame size").contains("expected a board size"));
    assert!(error("info score").contains("expected 'cp' or 'mate'"));
    assert!(error("info score cp").contains("expected a number after 'cp'"));
    assert!(error("info pv").contains("expected squares"));
    assert!(error("info currmove").contains("expected a square"));
}

#[test]
fn trailing_junk_is_rejected() {
    assert_eq!(
        error("isready now"),
        "isready: unexpected 'now' after the command: expected nothing more"
    );
    assert!(error("move d4 d5").starts_with("move: unexpected 'd5'"));
    assert!(error("bestmove d4 ponder e5").starts_with("bestmove: unexpected 'ponder'"));
    assert!(error("query p1turn x").starts_with("query: unexpected 'x'"));
    assert!(error("perft 3 4").starts_with("perft: unexpected '4'"));
    assert!(error("response true false").contains("unexpected 'false'"));
    assert!(error("position startpos c3").contains("expected 'moves'"));
    assert!(error("position startpos moves c3 zz").contains("bad move"));
    assert!(error("position startpos moves c3 1a").contains("'1a' is not a square"));
}

#[test]
fn position_strings_are_validated_at_parse_time() {
    let message = error("position fen 7/7/7/3q3/7/7/7 1");
    assert!(
        message.starts_with("position: bad position string: unexpected character 'q' in row 4"),
        "{message}"
    );
    assert!(error("position fen 7/7/7/3s3/7/7/7").contains("side to move is missing"));
    assert!(error("position fen 7/7/7/3s3/7/7/7 moves c3").contains("side to move is missing"));
    assert!(error("position fen").contains("the position is empty"));
    assert!(error("position fen 6s/7/7/7/7/7/7 1").contains("goal corner g7"));
    assert!(error("position fen 7/7/7/3s3/7/7/7 3").contains("bad side to move '3'"));
    let Message::Position(setup) = parse("position fen 3/1s1/3 2 moves a1") else {
        panic!("not a position");
    };
    assert_eq!(
        setup.base,
        PositionBase::Fen("3/1s1/3 2".parse::<Position>().unwrap())
    );
    assert_eq!(setup.moves, vec![sq("a1")]);
    assert_eq!(
        parse("position startpos moves"),
        parse("position startpos"),
        "an empty move list is no move list"
    );
}

#[test]
fn new_games_are_validated() {
    assert!(error("newgame size 12x12").contains("out of range"));
    assert!(error("newgame size big").contains("malformed"));
    assert!(error("newgame start g7").contains("goal corner"));
    assert!(error("newgame size 3x3 start e5").contains("off the 3x3 board"));
    assert!(error("newgame start 5e").contains("not a square"));
    assert!(error("newgame size 7x7 size 7x7").contains("given twice"));
    assert!(error("newgame colour red").contains("expected 'size WxH' or 'start SQ'"));
    let Message::NewGame(setup) = parse("newgame start b2 size 5") else {
        panic!("not a newgame");
    };
    assert_eq!(setup.board_size(), Size::new(5, 5).unwrap());
    assert_eq!(setup.position().unwrap().to_string(), "5/5/5/1s3/5 1");
    assert_eq!(
        parse("newgame start b2 size 5").to_string(),
        "newgame size 5x5 start b2"
    );
}

#[test]
fn set_option_keeps_the_value_verbatim() {
    assert_eq!(
        parse("setoption name Book File value  my  file.txt "),
        Message::SetOption {
            name: "Book File".into(),
            value: Some("my  file.txt".into())
        }
    );
    assert_eq!(
        parse("setoption name Clear Hash"),
        Message::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        parse("setoption name X value"),
        Message::SetOption {
            name: "X".into(),
            value: Some(String::new())
        }
    );
}

#[test]
fn option_declarations_are_checked_by_type() {
    assert_eq!(
        parse("option name Style type combo default Solid var Solid var Very Wild"),
        Message::DeclareOption(OptionDecl {
            name: "Style".into(),
            kind: OptionKind::Combo {
                default: "Solid".into(),
                vars: vec!["Solid".into(), "Very Wild".into()]
            }
        })
    );
    assert!(error("option name X type check default maybe").contains("'default true'"));
    assert!(error("option name X type spin").contains("expected 'default N'"));
    assert!(error("option name X type spin default ten").contains("found 'ten'"));
    assert!(error("option name X type spin default 1 2").contains("unexpected '2'"));
    assert!(error("option name X type spin default 1 default 2").contains("given twice"));
    assert!(error("option name X type button default 1").contains("does not apply"));
    assert!(error("option name X type check default true var a").contains("does not apply"));
    assert!(error("option name X type colour").contains("expected a type"));
    assert!(error("option name X type").contains("found the end of the line"));
    assert!(error("option name X").contains("expected 'type'"));
    assert!(error("option name type spin").contains("expected an option name"));
    assert!(error("option name X type spin default 1 colour 3").contains("unexpected 'colour'"));
    assert!(error("option name X type combo var a").contains("expected 'default <choice>'"));
}

#[test]
fn info_fields() {
    assert_eq!(
        parse("info pv c3 b2 string the rest  stays"),
        Message::Info(Info {
            pv: vec![sq("c3"), sq("b2")],
            string: Some("the rest  stays".into()),
            ..Info::default()
        })
    );
    assert_eq!(
        parse("info score cp -5 upperbound depth 2"),
        Message::Info(Info {
            depth: Some(2),
            score: Some((Score::Cp(-5), Bound::Upper)),
            ..Info::default()
        })
    );
    assert_eq!(
        parse("info string depth 3 is text"),
        Message::info_string("depth 3 is text")
    );
    assert!(error("info depth 2 depth 3").contains("given twice"));
    assert!(error("info pv c3 pv d4").contains("given twice"));
    assert!(error("info score cp 5 mate 3").contains("unknown field 'mate'"));
    assert!(error("info score draw").contains("expected 'cp' or 'mate'"));
    assert!(error("info cpuload 3").contains("unknown field 'cpuload': expected depth"));
    assert!(error("info hashfull 4294967296").contains("out of range"));
}

#[test]
fn best_moves_and_responses() {
    assert_eq!(parse("bestmove k11"), Message::BestMove(Some(sq("k11"))));
    assert_eq!(parse("bestmove (none)"), Message::BestMove(None));
    assert!(error("bestmove none").contains("'none' is not a square"));
    assert!(error("bestmove D4").contains("or '(none)'"));
    assert_eq!(parse("response p2win"), Message::Response(Response::P2Win));
    assert_eq!(parse("query result"), Message::Query(Query::Result));
    assert_eq!(
        parse("id author  A. N. Other"),
        Message::Id(Id::Author("A. N. Other".into()))
    );
}

#[test]
fn unicode_input_is_rejected_cleanly() {
    assert!(error("gö").starts_with("unknown command 'gö'"));
    assert!(error("go depth 三").contains("found '三'"));
    assert!(error("move d４").contains("not a square"));
    assert!(error("\u{feff}isready").starts_with("unknown command"));
    assert_eq!(
        parse("info string héllo ✓ 🐌"),
        Message::info_string("héllo ✓ 🐌")
    );
    assert_eq!(
        parse("setoption name Schnecke value größer"),
        Message::SetOption {
            name: "Schnecke".into(),
            value: Some("größer".into())
        }
    );
}

#[test]
fn quoted_input_is_short_and_escaped() {
    let long = "x".repeat(1_000_000);
    let message = error(&long);
    assert!(message.len() < 300, "{} bytes", message.len());
    assert!(message.contains("xxx…'"), "{message}");
    let message = error("go depth \u{1b}[2J");
    assert!(message.contains("\\u{1b}[2J"), "{message}");
    assert!(!message.chars().any(char::is_control), "{message}");
    let message = error(&format!("go depth {}", "9".repeat(100_000)));
    assert!(message.len() < 300, "{message}");
}

#[test]
fn display_keeps_free_text_on_one_line() {
    let message = Message::info_string("two\nlines\r");
    assert_eq!(message.to_string(), "info string two lines ");
}

#[test]
fn constructed_messages_round_trip() {
    let messages = [
        Message::Go(GoArgs {
            depth: Some(1),
            nodes: Some(2),
            movetime: Some(3),
            p1time: Some(-4),
            p2time: Some(5),
            p1inc: Some(6),
            p2inc: Some(-7),
            movestogo: Some(8),
            infinite: true,
        }),
        Message::NewGame(GameSetup {
            size: Some(Size::new(11, 3).unwrap()),
            start: Some(sq("b2")),
        }),
        Message::Position(PositionSetup {
            base: PositionBase::Fen("x10/11/11/11/11/5s5/11/11/11/11/10x 1".parse().unwrap()),
            moves: vec![sq("e5"), sq("k11")],
        }),
        Message::Info(Info {
            depth: Some(u32::MAX),
            seldepth: Some(0),
            multipv: Some(1),
            score: Some((Score::Mate(i32::MIN), Bound::Lower)),
            nodes: Some(u64::MAX),
            nps: Some(0),
            hashfull: Some(1000),
            time: Some(17),
            currmove: Some(sq("z99")),
            pv: vec![sq("a1")],
            string: Some(" spaced  out".into()),
        }),
        Message::DeclareOption(OptionDecl {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: 1,
                min: None,
                max: Some(i64::MAX),
            },
        }),
    ];
    for message in messages {
        let line = message.to_string();
        assert_eq!(parse(&line), message, "{line}");
    }
}

#[test]
fn every_error_says_what_was_expected() {
    let lines = [
        "",
        "foo",
        "go depth x",
        "go depth 1 depth 1",
        "go p1time 5",
        "move",
        "move zz",
        "position",
        "position fen 7/7 1",
        "position startpos moves q",
        "newgame start a1",
        "setoption",
        "query",
        "response",
        "bestmove",
        "option name X type spin",
        "info score",
        "isready x",
        "perft 3 3",
        "id",
    ];
    for line in lines {
        let message = error(line);
        assert!(
            message.contains("expected") || message.contains("must") || message.contains("would"),
            "{line:?}: {message}"
        );
    }
}
