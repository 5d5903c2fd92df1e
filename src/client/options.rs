//! `option.NAME=VALUE` words checked against the options an engine declares in its
//! handshake: an undeclared name, a value of the wrong type or out of range stops the
//! tournament before its first game instead of being ignored by the engine.

use crate::protocol::{OptionDecl, OptionKind};

/// Checks every `(name, value)` against the declarations; the error names the option,
/// what was wrong and what the engine accepts.
pub fn check_options(declared: &[OptionDecl], options: &[(String, String)]) -> Result<(), String> {
    for (name, value) in options {
        let Some(decl) = declared.iter().find(|d| d.name.eq_ignore_ascii_case(name)) else {
            let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
            return Err(format!(
                "option.{name}={value}: the engine declares no option `{name}`; expected one of: {}",
                if names.is_empty() {
                    "(none declared)".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        check_value(decl, value).map_err(|expected| {
            format!(
                "option.{name}={value}: the engine's {} option {} does not take `{value}`; expected {expected}",
                decl.kind.type_name(),
                decl.name
            )
        })?;
    }
    Ok(())
}

/// Whether `value` fits the option; the error says what fits.
fn check_value(decl: &OptionDecl, value: &str) -> Result<(), String> {
    match &decl.kind {
        OptionKind::Check { .. } => match value {
            "true" | "false" => Ok(()),
            _ => Err("true or false".to_string()),
        },
        OptionKind::Spin { min, max, .. } => {
            let range = match (min, max) {
                (Some(a), Some(b)) => format!("an integer from {a} to {b}"),
                (Some(a), None) => format!("an integer of at least {a}"),
                (None, Some(b)) => format!("an integer of at most {b}"),
                (None, None) => "an integer".to_string(),
            };
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
                Err(format!("one of {}", vars.join(", ")))
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
        let unknown = check_options(&level(), &words("Foo", "1")).unwrap_err();
        assert!(
            unknown.contains("no option `Foo`") && unknown.contains("Level"),
            "{unknown}"
        );
        let high = check_options(&level(), &words("Level", "99")).unwrap_err();
        assert!(high.contains("from 1 to 10"), "{high}");
        let text = check_options(&level(), &words("Level", "high")).unwrap_err();
        assert!(text.contains("an integer"), "{text}");
    }

    #[test]
    fn a_check_option_given_another_word_is_named_as_a_check_and_not_a_range() {
        let book = vec![OptionDecl {
            name: "OwnBook".to_string(),
            kind: OptionKind::Check { default: true },
        }];
        let err = check_options(&book, &words("ownbook", "maybe")).unwrap_err();
        assert_eq!(
            err,
            "option.ownbook=maybe: the engine's check option OwnBook does not take `maybe`; \
             expected true or false"
        );
    }
}
