//! The protocol-traffic log: every line sent to and read from every
//! engine, with a UTC timestamp and the engine's name, like cutechess-cli's `-debug`:
//! `2026-03-01T12:00:00.125Z >alpha go p1time 1000 …` for a line sent to `alpha`,
//! `2026-03-01T12:00:00.141Z <alpha bestmove c3` for a line it wrote.

use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::log::{LogError, SharedLog, open_log};
use crate::calendar::civil_from_days;
use crate::protocol::Direction;

/// The shared traffic log; cheap to clone, and a no-op when not asked for.
#[derive(Clone, Default)]
pub struct TrafficLog(Option<SharedLog>);

impl TrafficLog {
    /// A log writing to `path` (appending when `append`), or one that discards everything.
    pub fn open(path: Option<&Path>, append: bool) -> Result<TrafficLog, LogError> {
        Ok(TrafficLog(open_log(path, append)?))
    }

    /// Records one protocol line of engine `name`: `>` for a line sent to it, `<` for
    /// one it wrote.
    pub fn line(&self, name: &str, direction: Direction, text: &str) {
        if let Some(file) = &self.0 {
            let arrow = match direction {
                Direction::ToEngine => '>',
                Direction::FromEngine => '<',
            };
            let stamp = timestamp(SystemTime::now());
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            // A failing log must not stop the tournament.
            let _ = writeln!(file, "{stamp} {arrow}{name} {text}");
        }
    }
}

/// `2026-03-01T12:00:00.125Z`.
fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let day = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        day / 3600,
        day % 3600 / 60,
        day % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_with_milliseconds() {
        let at = UNIX_EPOCH + Duration::from_millis(1_772_366_400_125);
        assert_eq!(timestamp(at), "2026-03-01T12:00:00.125Z");
    }
}
