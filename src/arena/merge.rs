//! `merge`: combines the results of shards (JSON summaries or state files) of one schedule.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::schedule::Shard;
use super::settings::Settings;
use super::state::read_state;
use super::summary::{SUMMARY_VERSION, Summary};
use crate::record::GameReport;

/// The settings and games of one result file: a JSON summary or a state file.
pub fn read_results(path: &Path) -> Result<(Settings, Vec<GameReport>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: cannot read it ({e}); expected a JSON summary or a state file",
            path.display()
        )
    })?;
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
        if value.get("games_played").is_some() {
            let version = value.get("version").and_then(serde_json::Value::as_u64);
            if version != Some(u64::from(SUMMARY_VERSION)) {
                return Err(format!(
                    "{}: a JSON summary of schema version {}; expected version {SUMMARY_VERSION} (from this slimetrail-arena)",
                    path.display(),
                    version.map_or("1 or none".to_string(), |v| v.to_string())
                ));
            }
            let summary: Summary = serde_json::from_value(value).map_err(|e| {
                format!(
                    "{}: not a valid JSON summary ({e}); expected one written by --json",
                    path.display()
                )
            })?;
            let games = summary
                .reports()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            return Ok((summary.settings, games));
        }
    }
    read_state(path)
        .map(|(settings, games, _)| (settings, games))
        .map_err(|_| {
            format!(
                "{}: neither a JSON summary (--json) nor a state file (--state) of slimetrail-arena",
                path.display()
            )
        })
}

/// Combines result files of the same schedule: the settings of the whole schedule and every game once.
pub fn merge(paths: &[PathBuf]) -> Result<(Settings, Vec<GameReport>), String> {
    let Some(first) = paths.first() else {
        return Err("merge: no files given; expected one or more result files".to_string());
    };
    let (mut settings, _) = read_results(first)?;
    let mut games: BTreeMap<usize, (GameReport, &Path)> = BTreeMap::new();
    for path in paths {
        let (other, reports) = read_results(path)?;
        if let Some(why) = settings.schedule_mismatch(&other) {
            return Err(format!(
                "merge: {} and {} come from different schedules ({why}); expected shards of one tournament",
                first.display(),
                path.display()
            ));
        }
        for report in reports {
            match games.get(&report.number) {
                Some((seen, from)) if *seen != report => {
                    return Err(format!(
                        "merge: game {} differs between {} and {}; expected each game to be played once",
                        report.number + 1,
                        from.display(),
                        path.display()
                    ));
                }
                Some(_) => {}
                None => {
                    games.insert(report.number, (report, path));
                }
            }
        }
    }
    settings.shard = Shard::WHOLE;
    Ok((settings, games.into_values().map(|(g, _)| g).collect()))
}
