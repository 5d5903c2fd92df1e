//! Serde support for durations saved as whole milliseconds (`20` rather than
//! `{"secs":0,"nanos":20000000}`), as the JSON summary and the state file document.

use std::time::Duration;

use serde::{Deserialize, Deserializer, Serializer};

/// Writes a duration as its whole milliseconds.
pub fn serialize<S: Serializer>(value: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(value.as_millis() as u64)
}

/// Reads whole milliseconds.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    u64::deserialize(deserializer).map(Duration::from_millis)
}

/// The same for optional durations, saved as milliseconds or `null`.
pub mod option {
    use super::*;

    /// Writes `Some(duration)` as milliseconds and `None` as `null`.
    pub fn serialize<S: Serializer>(
        value: &Option<Duration>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => serializer.serialize_u64(d.as_millis() as u64),
            None => serializer.serialize_none(),
        }
    }

    /// Reads milliseconds into `Some(duration)` and `null` into `None`.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(deserializer)?.map(Duration::from_millis))
    }
}
