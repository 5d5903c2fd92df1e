//! Parsers of the engine replies with a richer grammar: `option` and `info`.

use nom::Parser;

use crate::protocol::{Bound, Score};

use super::super::message::{Info, Message, OptionDecl, OptionKind};
use super::{
    INFO_FIELDS, Problem, Res, end, fail, found, keyword, number, once, quote, read, square,
    squares, word, words_until,
};

/// `option name <words> type <type> [default ..] [min ..] [max ..] [var ..]...`.
pub(super) fn option(args: &str) -> Res<'_, Message> {
    const KEYS: [&str; 4] = ["default", "min", "max", "var"];
    let Ok((args, _)) = keyword("name").parse(args) else {
        return fail(format!("option: expected 'name', found {}", found(args)));
    };
    let (args, name) = words_until(args, &["type"]);
    if name.is_empty() {
        return fail(format!(
            "option: expected an option name after 'name', found {}",
            found(args)
        ));
    }
    let Ok((args, _)) = keyword("type").parse(args) else {
        return fail(format!(
            "option: expected 'type' after the name, found {}",
            found(args)
        ));
    };
    let (mut args, kind) = word(args).unwrap_or(("", ""));
    // The fields after the type: a key, then the words up to the next key.
    let mut fields: Vec<(&str, String)> = Vec::new();
    while let Ok((after, key)) = word(args) {
        if !KEYS.contains(&key) {
            return fail(format!(
                "option: unexpected {}: expected default, min, max or var",
                quote(key)
            ));
        }
        if key != "var" && fields.iter().any(|(k, _)| *k == key) {
            return fail(format!(
                "option: '{key}' is given twice: expected it at most once"
            ));
        }
        let (after, value) = words_until(after, &KEYS);
        fields.push((key, value));
        args = after;
    }
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    };
    let allow_only = |allowed: &[&str]| -> Res<'static, ()> {
        match fields.iter().find(|(k, _)| !allowed.contains(k)) {
            Some((key, _)) => fail(format!(
                "option: '{key}' does not apply to type {kind}: expected only {}",
                if allowed.is_empty() {
                    "nothing".to_string()
                } else {
                    allowed.join(", ")
                }
            )),
            None => Ok(("", ())),
        }
    };
    let integer = |key: &str| -> Result<Option<i64>, nom::Err<Problem>> {
        match field(key) {
            None => Ok(None),
            Some(text) => number::<i64>(text, "option", key).and_then(|(after, n)| {
                end("option", after, &format!("after the number of '{key}'"))?;
                Ok(Some(n))
            }),
        }
    };
    let kind = match kind {
        "check" => {
            allow_only(&["default"])?;
            let default = match field("default") {
                Some("true") => true,
                Some("false") => false,
                other => {
                    return fail(format!(
                        "option: expected 'default true' or 'default false' for a check, found {}",
                        other.map_or("nothing".to_string(), quote)
                    ));
                }
            };
            OptionKind::Check { default }
        }
        "spin" => {
            allow_only(&["default", "min", "max"])?;
            let Some(default) = integer("default")? else {
                return fail("option: expected 'default N' for a spin".into());
            };
            OptionKind::Spin {
                default,
                min: integer("min")?,
                max: integer("max")?,
            }
        }
        "combo" => {
            allow_only(&["default", "var"])?;
            let default = field("default").unwrap_or("").to_string();
            if default.is_empty() {
                return fail("option: expected 'default <choice>' for a combo".into());
            }
            let vars = fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.clone())
                .collect();
            OptionKind::Combo { default, vars }
        }
        "string" => {
            allow_only(&["default"])?;
            OptionKind::String {
                default: field("default").unwrap_or("").to_string(),
            }
        }
        "button" => {
            allow_only(&[])?;
            OptionKind::Button
        }
        _ => {
            return fail(format!(
                "option: expected a type (check, spin, combo, string or button), found {}",
                if kind.is_empty() {
                    "the end of the line".to_string()
                } else {
                    quote(kind)
                }
            ));
        }
    };
    Ok(("", Message::DeclareOption(OptionDecl { name, kind })))
}

/// The fields of `info` in any order, each at most once; `string` takes the rest.
pub(super) fn info(mut args: &str) -> Res<'_, Message> {
    const C: &str = "info";
    let mut info = Info::default();
    while let Ok((after, key)) = word(args) {
        args = match key {
            "depth" => read(&mut info.depth, after, C, key)?,
            "seldepth" => read(&mut info.seldepth, after, C, key)?,
            "multipv" => read(&mut info.multipv, after, C, key)?,
            "nodes" => read(&mut info.nodes, after, C, key)?,
            "nps" => read(&mut info.nps, after, C, key)?,
            "hashfull" => read(&mut info.hashfull, after, C, key)?,
            "time" => read(&mut info.time, after, C, key)?,
            "score" => {
                once(&info.score, C, key)?;
                let (after, score) = score(after)?;
                info.score = Some(score);
                after
            }
            "currmove" => {
                once(&info.currmove, C, key)?;
                let (after, name) = square(after, C, key)?;
                info.currmove = Some(name);
                after
            }
            "pv" => {
                if !info.pv.is_empty() {
                    once(&Some(()), C, key)?;
                }
                let (after, pv) = squares(after);
                if pv.is_empty() {
                    return fail(format!(
                        "info: expected squares such as d4 after 'pv', found {}",
                        found(after)
                    ));
                }
                info.pv = pv;
                after
            }
            "string" => {
                // The text starts after the single blank that follows `string`.
                let mut chars = after.chars();
                chars.next();
                info.string = Some(chars.as_str().to_string());
                ""
            }
            other => {
                return fail(format!(
                    "info: unknown field {}: expected {INFO_FIELDS}",
                    quote(other)
                ));
            }
        };
    }
    Ok(("", Message::Info(info)))
}

/// `cp N|mate N [lowerbound|upperbound]`.
fn score(args: &str) -> Res<'_, (Score, Bound)> {
    let (args, score) = match word(args) {
        Ok((after, "cp")) => number::<i32>(after, "info", "cp").map(|(a, n)| (a, Score::Cp(n)))?,
        Ok((after, "mate")) => {
            number::<i32>(after, "info", "mate").map(|(a, n)| (a, Score::Mate(n)))?
        }
        _ => {
            return fail(format!(
                "info: expected 'cp' or 'mate' after 'score', found {}",
                found(args)
            ));
        }
    };
    match word(args) {
        Ok((after, "lowerbound")) => Ok((after, (score, Bound::Lower))),
        Ok((after, "upperbound")) => Ok((after, (score, Bound::Upper))),
        _ => Ok((args, (score, Bound::Exact))),
    }
}
