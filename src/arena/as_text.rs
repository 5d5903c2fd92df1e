//! Serde support for typed values saved in their command-line spelling (`7x7`, `e5`,
//! `normalized`), so files keep the form users type while the code carries types.

use std::fmt::Display;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serializer, de::Error};

/// Writes a value as its `Display` text.
pub fn serialize<T: Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// Reads a value from text with its `FromStr`, reporting the text and why it was refused.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    text.parse()
        .map_err(|e| D::Error::custom(format!("'{text}': {e}")))
}

/// The same for optional values, saved as text or `null`.
pub mod option {
    use super::*;

    /// Writes `Some(value)` as its text and `None` as `null`.
    pub fn serialize<T: Display, S: Serializer>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(value) => serializer.collect_str(value),
            None => serializer.serialize_none(),
        }
    }

    /// Reads text into `Some(value)` and `null` into `None`.
    pub fn deserialize<'de, T, D>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        match Option::<String>::deserialize(deserializer)? {
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|e| D::Error::custom(format!("'{text}': {e}"))),
            None => Ok(None),
        }
    }
}

/// Board sizes saved as `WxH`, as `--size` reads them.
pub mod size {
    use super::*;
    use crate::board::Size;

    /// Writes `7x7`.
    pub fn serialize<S: Serializer>(value: &Size, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{}x{}", value.width(), value.height()))
    }

    /// Reads `7x7` (or `7×7`, as older files wrote it).
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Size, D::Error> {
        super::deserialize(deserializer)
    }
}
