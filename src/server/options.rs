//! The engine options offered over the protocol: their declarations for `ugi` and
//! how `setoption` changes them.

use super::error::OptionError;
use crate::protocol::{Message, OptionDecl, OptionKind};
use crate::search::{
    EngineOptions, LEVEL, MOVE_OVERHEAD_MS, OptionRange, SEED, THREADS, hash_range,
};

/// One numeric option: its protocol name, range, and where it lives in [`EngineOptions`].
struct SpinOption {
    name: &'static str,
    /// The range, which for `Hash` depends on the machine.
    range: fn() -> OptionRange,
    set: fn(&mut EngineOptions, i64),
}

const SPIN_OPTIONS: [SpinOption; 5] = [
    SpinOption {
        name: "Hash",
        range: hash_range,
        set: |options, value| options.hash_mb = value as usize,
    },
    SpinOption {
        name: "Threads",
        range: || THREADS,
        set: |options, value| options.threads = value as usize,
    },
    SpinOption {
        name: "Level",
        range: || LEVEL,
        set: |options, value| options.level = value as u32,
    },
    SpinOption {
        name: "MoveOverhead",
        range: || MOVE_OVERHEAD_MS,
        set: |options, value| options.move_overhead_ms = value as u64,
    },
    SpinOption {
        name: "Seed",
        range: || SEED,
        set: |options, value| options.seed = value as u64,
    },
];

/// One on/off option: its protocol name, default, and where it lives.
struct CheckOption {
    name: &'static str,
    default: bool,
    set: fn(&mut EngineOptions, bool),
}

const CHECK_OPTIONS: [CheckOption; 1] = [CheckOption {
    name: "OwnBook",
    default: true,
    set: |options, value| options.own_book = value,
}];

/// The `option` lines of the reply to `ugi`.
pub(super) fn declarations() -> Vec<Message> {
    let checks = CHECK_OPTIONS.iter().map(|option| {
        Message::DeclareOption(OptionDecl {
            name: option.name.to_string(),
            kind: OptionKind::Check {
                default: option.default,
            },
        })
    });
    SPIN_OPTIONS
        .iter()
        .map(|option| {
            Message::DeclareOption(OptionDecl {
                name: option.name.to_string(),
                kind: {
                    let range = (option.range)();
                    OptionKind::Spin {
                        default: range.default,
                        min: Some(range.min),
                        max: Some(range.max),
                    }
                },
            })
        })
        .chain(checks)
        .collect()
}

/// Names compare without case and without spaces: `hash`, `Move Overhead`.
fn same_name(declared: &str, given: &str) -> bool {
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    squeeze(declared) == squeeze(given)
}

/// `options` with `name` set to `value`, or why that is not possible.
pub(super) fn apply(
    options: &EngineOptions,
    name: &str,
    value: Option<&str>,
) -> Result<EngineOptions, OptionError> {
    if let Some(option) = CHECK_OPTIONS.iter().find(|o| same_name(o.name, name)) {
        let on = match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => true,
            Some("false") => false,
            Some(other) => {
                return Err(OptionError::NotTrueOrFalse {
                    option: option.name,
                    value: other.to_string(),
                });
            }
            None => return Err(OptionError::CheckWithoutValue(option.name)),
        };
        let mut changed = *options;
        (option.set)(&mut changed, on);
        return Ok(changed);
    }
    let Some(option) = SPIN_OPTIONS.iter().find(|o| same_name(o.name, name)) else {
        let known: Vec<&str> = SPIN_OPTIONS
            .iter()
            .map(|o| o.name)
            .chain(CHECK_OPTIONS.iter().map(|o| o.name))
            .collect();
        return Err(OptionError::Unknown {
            name: name.to_string(),
            known,
        });
    };
    let range = (option.range)();
    let range = (range.min, range.max);
    let text = match value {
        Some(text) if !text.is_empty() => text,
        _ => {
            return Err(OptionError::SpinWithoutValue {
                option: option.name,
                range,
            });
        }
    };
    let number: i64 = text.parse().map_err(|_| OptionError::NotANumber {
        option: option.name,
        value: text.to_string(),
        range,
    })?;
    if number < range.0 || number > range.1 {
        return Err(OptionError::OutOfRange {
            option: option.name,
            number,
            range,
        });
    }
    let mut changed = *options;
    (option.set)(&mut changed, number);
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_and_spaces() {
        let defaults = EngineOptions::default();
        let changed = apply(&defaults, "move overhead", Some("30")).unwrap();
        assert_eq!(changed.move_overhead_ms, 30);
        assert_eq!(apply(&defaults, "HASH", Some("1")).unwrap().hash_mb, 1);
        assert_eq!(apply(&defaults, "level", Some("3")).unwrap().level, 3);
        assert_eq!(apply(&defaults, "Threads", Some("2")).unwrap().threads, 2);
        assert!(!apply(&defaults, "ownbook", Some("FALSE")).unwrap().own_book);
        assert!(apply(&defaults, "Own Book", Some("true")).unwrap().own_book);
    }

    #[test]
    fn bad_settings_say_what_is_expected() {
        let defaults = EngineOptions::default();
        let error = |name: &str, value: Option<&str>| {
            apply(&defaults, name, value).unwrap_err().to_string()
        };
        assert!(
            error("Ponder", Some("true")).contains("unknown option 'Ponder': expected one of Hash")
        );
        assert!(error("Hash", None).contains("needs 'value N'"));
        assert!(error("Hash", Some("")).contains("needs 'value N'"));
        assert!(
            error("Hash", Some("big"))
                .contains("bad Hash value 'big': expected a whole number from 1 to")
        );
        assert!(error("Hash", Some("0")).contains("out of range"));
        assert!(
            error("Level", Some("11"))
                .contains("out of range: expected a whole number from 1 to 10")
        );
        assert!(error("Level", Some("99999999999999999999")).contains("bad Level value"));
        assert!(
            error("OwnBook", Some("yes"))
                .contains("bad OwnBook value 'yes': expected true or false")
        );
        assert!(error("OwnBook", None).contains("needs 'value true' or 'value false'"));
    }

    #[test]
    fn every_option_is_declared_with_its_range() {
        let lines: Vec<String> = declarations().iter().map(Message::to_string).collect();
        assert_eq!(
            lines[0],
            format!(
                "option name Hash type spin default {} min {} max {}",
                hash_range().default,
                hash_range().min,
                hash_range().max
            )
        );
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[5], "option name OwnBook type check default true");
        assert!(lines[3].starts_with("option name MoveOverhead type spin"));
        assert_eq!(
            lines[4],
            format!(
                "option name Seed type spin default 0 min 0 max {}",
                SEED.max
            )
        );
    }
}
