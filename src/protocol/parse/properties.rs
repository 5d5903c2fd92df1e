//! Property tests of the parser: printing then reading is the identity, and no
//! input makes it panic.

use proptest::prelude::*;

use crate::board::{Size, SquareName};
use crate::protocol::{Bound, Score};
use crate::protocol::{GameSetup, GoArgs, Id, Info, Message, OptionDecl, OptionKind};

fn square() -> impl Strategy<Value = SquareName> {
    (0u8..26, 0u8..99).prop_map(|(f, r)| SquareName::new(f, r))
}

/// Free text: single-spaced words, no control characters.
fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9é🐌_./-]{1,8}( [a-zA-Z0-9é🐌_./-]{1,8}){0,3}"
}

fn go_args() -> impl Strategy<Value = GoArgs> {
    (
        (
            any::<Option<u32>>(),
            any::<Option<u64>>(),
            any::<Option<u64>>(),
        ),
        any::<Option<(i64, i64)>>(),
        (
            any::<Option<i64>>(),
            any::<Option<i64>>(),
            any::<Option<u32>>(),
        ),
        any::<bool>(),
    )
        .prop_map(
            |((depth, nodes, movetime), clock, (i1, i2, mtg), infinite)| GoArgs {
                depth,
                nodes,
                movetime,
                p1time: clock.map(|c| c.0),
                p2time: clock.map(|c| c.1),
                p1inc: clock.and(i1),
                p2inc: clock.and(i2),
                movestogo: clock.and(mtg),
                infinite,
            },
        )
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            any::<Option<u32>>(),
            any::<Option<u32>>(),
            any::<Option<u32>>(),
        ),
        proptest::option::of((
            prop_oneof![
                any::<i32>().prop_map(Score::Cp),
                any::<i32>().prop_map(Score::Mate)
            ],
            prop_oneof![Just(Bound::Exact), Just(Bound::Lower), Just(Bound::Upper)],
        )),
        (
            any::<Option<u64>>(),
            any::<Option<u64>>(),
            any::<Option<u32>>(),
            any::<Option<u64>>(),
        ),
        proptest::option::of(square()),
        proptest::collection::vec(square(), 0..6),
        proptest::option::of(text()),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv),
                score,
                (nodes, nps, hashfull, time),
                currmove,
                pv,
                string,
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                nodes,
                nps,
                hashfull,
                time,
                currmove,
                pv,
                string,
            },
        )
}

fn message() -> impl Strategy<Value = Message> {
    prop_oneof![
        go_args().prop_map(Message::Go),
        go_args().prop_map(Message::Solve),
        info().prop_map(Message::Info),
        square().prop_map(Message::Move),
        proptest::option::of(square()).prop_map(Message::BestMove),
        any::<u32>().prop_map(Message::Perft),
        (text(), proptest::option::of(text()))
            .prop_map(|(name, value)| Message::SetOption { name, value }),
        text().prop_map(|t| Message::Id(Id::Name(t))),
        (
            text(),
            any::<i64>(),
            any::<Option<i64>>(),
            any::<Option<i64>>()
        )
            .prop_map(
                |(name, default, min, max)| Message::DeclareOption(OptionDecl {
                    name,
                    kind: OptionKind::Spin { default, min, max }
                })
            ),
        (text(), proptest::collection::vec(text(), 0..4)).prop_map(|(default, vars)| {
            Message::DeclareOption(OptionDecl {
                name: "Style".into(),
                kind: OptionKind::Combo { default, vars },
            })
        }),
        (0usize..9, 0usize..9, square()).prop_filter_map("start on the board", |(w, h, s)| {
            let setup = GameSetup {
                size: Some(Size::new(w + 3, h + 3).ok()?),
                start: Some(s),
            };
            setup.position().ok().map(|_| Message::UgiNewGame(setup))
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn display_then_parse_is_the_identity(message in message()) {
        let line = message.to_string();
        prop_assert_eq!(line.parse::<Message>(), Ok(message), "{}", line);
    }

    #[test]
    fn any_text_parses_or_fails_with_a_reason(line in "\\PC{0,60}") {
        match line.parse::<Message>() {
            Ok(message) => {
                let again: Message = message.to_string().parse().map_err(|e| {
                    TestCaseError::fail(format!("{message:?} printed unparsably: {e}"))
                })?;
                prop_assert_eq!(again, message);
            }
            Err(e) => prop_assert!(e.to_string().contains("expected"), "{}", e),
        }
    }

    #[test]
    fn command_like_text_never_panics(
        words in proptest::collection::vec(
            prop_oneof![
                Just("go"), Just("depth"), Just("info"), Just("pv"), Just("string"),
                Just("option"), Just("name"), Just("type"), Just("spin"), Just("default"),
                Just("position"), Just("fen"), Just("moves"), Just("startpos"),
                Just("7/7/7/3s3/7/7/7"), Just("1"), Just("-3"), Just("d4"), Just("score"),
                Just("mate"), Just("cp"), Just("var"), Just("value"), Just("setoption"),
            ],
            0..10,
        )
    ) {
        let line = words.join(" ");
        if let Ok(message) = line.parse::<Message>() {
            prop_assert_eq!(message.to_string().parse::<Message>(), Ok(message));
        }
    }
}
