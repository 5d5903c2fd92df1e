//! `option.NAME=VALUE` words checked against the options an engine declares in its
//! handshake: an undeclared name, a value of the wrong type or out of range is refused
//! before the engine is used, instead of being ignored by the engine.

use std::fmt;

use crate::protocol::{OptionDecl, OptionKind};

/// An option the engine would not take.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionError {
    /// The engine declares no option of this name.
    Undeclared {
        /// The option as given.
        name: String,
        /// The value given.
        value: String,
        /// The options the engine declares.
        declared: Vec<String>,
    },
    /// The engine declares the option, but it does not take this value.
    BadValue {
        /// The option as given.
        name: String,
        /// The value given.
        value: String,
        /// The option's type, such as `spin`.
        kind: &'static str,
        /// The option's name as the engine declares it.
        declared: String,
        /// What it takes.
        accepts: Accepts,
    },
}

/// The values an option takes, for error messages.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Accepts {
    /// `true` or `false`.
    TrueOrFalse,
    /// An integer within optional bounds.
    Integer {
        /// The least value, if bounded below.
        min: Option<i64>,
        /// The greatest value, if bounded above.
        max: Option<i64>,
    },
    /// One of these words.
    OneOf(Vec<String>),
}

impl fmt::Display for Accepts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accepts::TrueOrFalse => f.write_str("true or false"),
            Accepts::Integer {
                min: Some(a),
                max: Some(b),
            } => write!(f, "an integer from {a} to {b}"),
            Accepts::Integer {
                min: Some(a),
                max: None,
            } => write!(f, "an integer of at least {a}"),
            Accepts::Integer {
                min: None,
                max: Some(b),
            } => write!(f, "an integer of at most {b}"),
            Accepts::Integer {
                min: None,
                max: None,
            } => f.write_str("an integer"),
            Accepts::OneOf(vars) => write!(f, "one of {}", vars.join(", ")),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Undeclared {
                name,
                value,
                declared,
            } => write!(
                f,
                "option.{name}={value}: the engine declares no option `{name}`; expected one of: {}",
                if declared.is_empty() {
                    "(none declared)".to_string()
                } else {
                    declared.join(", ")
                }
            ),
            OptionError::BadValue {
                name,
                value,
                kind,
                declared,
                accepts,
            } => write!(
                f,
                "option.{name}={value}: the engine's {kind} option {declared} does not take `{value}`; expected {accepts}"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// Checks every `(name, value)` against the declarations; the error names the option,
/// what was wrong and what the engine accepts.
pub fn check_options(
    declared: &[OptionDecl],
    options: &[(String, String)],
) -> Result<(), OptionError> {
    for (name, value) in options {
        let Some(decl) = declared.iter().find(|d| d.name.eq_ignore_ascii_case(name)) else {
            return Err(OptionError::Undeclared {
                name: name.clone(),
                value: value.clone(),
                declared: declared.iter().map(|d| d.name.clone()).collect(),
            });
        };
        check_value(decl, value).map_err(|accepts| OptionError::BadValue {
            name: name.clone(),
            value: value.clone(),
            kind: decl.kind.type_name(),
            declared: decl.name.clone(),
            accepts,
        })?;
    }
    Ok(())
}

/// Whether `value` fits the option; the error says what fits.
fn check_value(decl: &OptionDecl, value: &str) -> Result<(), Accepts> {
    match &decl.kind {
        OptionKind::Check { .. } => match value {
            "true" | "false" => Ok(()),
            _ => Err(Accepts::TrueOrFalse),
        },
        &OptionKind::Spin { min, max, .. } => {
            let range = Accepts::Integer { min, max };
            let n: i64 = value.trim().parse().map_err(|_| range.clone())?;
            if min.is_some_and(|a| n < a) || max.is_some_and(|b| n > b) {
                return Err(range);
            }
            Ok(())
        }
        OptionKind::Combo { vars, .. } => {
            if vars.iter().any(|v| v.eq_ignore_ascii_case(value)) {
                Ok(())
            } else {
                Err(Accepts::OneOf(vars.clone()))
            }
        }
        OptionKind::String { .. } | OptionKind::Button => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level() -> Vec<OptionDecl> {
        vec![OptionDecl {
            name: "Level".to_string(),
            kind: OptionKind::Spin {
                default: 10,
                min: Some(1),
                max: Some(10),
            },
        }]
    }

    fn words(name: &str, value: &str) -> Vec<(String, String)> {
        vec![(name.to_string(), value.to_string())]
    }

    #[test]
    fn declared_options_in_range_pass_and_others_say_why_not() {
        assert_eq!(check_options(&level(), &words("level", "5")), Ok(()));
        let unknown = check_options(&level(), &words("Foo", "1"))
            .unwrap_err()
            .to_string();
        assert!(
            unknown.contains("no option `Foo`") && unknown.contains("Level"),
            "{unknown}"
        );
        let high = check_options(&level(), &words("Level", "99"))
            .unwrap_err()
            .to_string();
        assert!(high.contains("from 1 to 10"), "{high}");
        let text = check_options(&level(), &words("Level", "high"))
            .unwrap_err()
            .to_string();
        assert!(text.contains("an integer"), "{text}");
    }

    #[test]
    fn a_check_option_given_another_word_is_named_as_a_check_and_not_a_range() {
        let book = vec![OptionDecl {
            name: "OwnBook".to_string(),
            kind: OptionKind::Check { default: true },
        }];
        let err = check_options(&book, &words("ownbook", "maybe"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "option.ownbook=maybe: the engine's check option OwnBook does not take `maybe`; \
             expected true or false"
        );
    }
}
