//! The state file, the tournament's single source of truth: a header line with the
//! settings, then one JSON line per finished game with its result and its whole PGN
//! record, appended as each game ends. `--resume` validates every line, cuts a torn last
//! line, and rebuilds the PGN and JSON files from it. The file is locked while a run
//! uses it, and a new run does not overwrite saved games unless told to.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::files::{FileAction, FileError, append_whole, lock_exclusive};
use super::replay::check_result;
use super::settings::Settings;
use super::state_error::{LineProblem, OtherGame, StateError};
use crate::record::GameReport;

/// Version of the state format.
const STATE_VERSION: u32 = 2;

/// The first line of a state file.
#[derive(Serialize, Deserialize)]
struct Header {
    /// Format version; marks the file as an arena state.
    slimetrail_arena_state: u32,
    /// The tournament's settings.
    settings: Settings,
}

/// A game line as written: the result and the PGN record.
#[derive(Serialize)]
struct GameLine<'a> {
    #[serde(flatten)]
    report: &'a GameReport,
    pgn: &'a str,
}

/// A game line as read; files of earlier versions have no PGN record.
#[derive(Deserialize)]
struct SavedGame {
    #[serde(flatten)]
    report: GameReport,
    #[serde(default)]
    pgn: Option<String>,
}

/// What receives each saved game with its PGN record (if saved) on resume.
pub type RecordSink<'a> = dyn FnMut(&GameReport, Option<&str>) -> Result<(), FileError> + 'a;

/// An open, locked state file, appended to as games finish.
pub struct StateFile {
    file: File,
    path: PathBuf,
}

impl StateFile {
    /// Starts a new state file. A file that holds finished games is replaced only with `force`.
    pub fn create(path: &Path, settings: &Settings, force: bool) -> Result<StateFile, StateError> {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| cannot(path, FileAction::Create, e))?;
        lock_exclusive(&file, path)?;
        let saved = saved_games(path);
        if saved > 0 && !force {
            return Err(StateError::HoldsGames {
                path: path.to_path_buf(),
                saved,
            });
        }
        file.set_len(0)
            .map_err(|e| cannot(path, FileAction::Truncate, e))?;
        let header = Header {
            slimetrail_arena_state: STATE_VERSION,
            settings: settings.clone(),
        };
        let line = serde_json::to_string(&header).map_err(|error| StateError::Encode {
            what: "the state header",
            error,
        })?;
        writeln!(file, "{line}").map_err(|e| cannot(path, FileAction::Write, e))?;
        Ok(StateFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens the saved state of an interrupted run of `settings`, validated line by line,
    /// and returns its games; `record` gets each game with its PGN record (if saved), in
    /// file order. A torn last line is cut off.
    pub fn resume(
        path: &Path,
        settings: &Settings,
        record: &mut RecordSink<'_>,
    ) -> Result<(StateFile, Vec<GameReport>), StateError> {
        if !path.exists() {
            return Err(StateError::Missing {
                path: path.to_path_buf(),
            });
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| cannot(path, FileAction::Open, e))?;
        lock_exclusive(&file, path)?;
        let mut games = Vec::new();
        let mut scheduled = HashMap::new();
        for game in settings.schedule() {
            scheduled.insert(game.number, game);
        }
        let same_tournament = |saved: &Settings| match settings.resume_mismatch(saved) {
            Some(mismatch) => Err(StateError::OtherTournament {
                path: path.to_path_buf(),
                mismatch,
            }),
            None => Ok(()),
        };
        let complete_len = read_lines(path, &same_tournament, &mut |_, saved: SavedGame| {
            let r = &saved.report;
            let Some(game) = scheduled.get(&r.number) else {
                return Err(LineProblem::NotScheduled { number: r.number }.into());
            };
            let names = game.engines.map(|i| settings.engines[i].name.as_str());
            if r.round != game.round
                || r.pair != game.pair
                || r.players.each_ref().map(String::as_str) != names
            {
                return Err(LineProblem::OtherGame(Box::new(OtherGame {
                    number: r.number,
                    saved: (r.round, r.pair, r.players.clone()),
                    scheduled: (game.round, game.pair, names.map(str::to_string)),
                }))
                .into());
            }
            record(r, saved.pgn.as_deref()).map_err(StateError::Record)?;
            games.push(saved.report);
            Ok(())
        })?
        .1;
        // Drop a partial last line left by an interruption.
        file.set_len(complete_len)
            .map_err(|e| cannot(path, FileAction::Truncate, e))?;
        Ok((
            StateFile {
                file,
                path: path.to_path_buf(),
            },
            games,
        ))
    }

    /// Saves one finished game with its PGN record, as one whole line or nothing.
    pub fn append(&mut self, report: &GameReport, pgn: &str) -> Result<(), StateError> {
        let mut line = serde_json::to_string(&GameLine { report, pgn }).map_err(|error| {
            StateError::Encode {
                what: "a game",
                error,
            }
        })?;
        line.push('\n');
        append_whole(&mut self.file, line.as_bytes())
            .map_err(|e| cannot(&self.path, FileAction::Write, e))
    }
}

/// How many complete game lines a file holds (0 when it cannot be read).
fn saved_games(path: &Path) -> usize {
    let Ok(file) = File::open(path) else {
        return 0;
    };
    let mut count = 0usize;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    while let Ok(n) = reader.read_until(b'\n', &mut line) {
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        count += 1;
        line.clear();
    }
    count.saturating_sub(1)
}

/// The settings, the games and the length of the complete lines of a state file.
pub fn read_state(path: &Path) -> Result<(Settings, Vec<GameReport>, u64), StateError> {
    let mut games = Vec::new();
    let (settings, len) = read_lines(path, &|_| Ok(()), &mut |_, saved| {
        games.push(saved.report);
        Ok(())
    })?;
    Ok((settings, games, len))
}

/// Reads a state file line by line, checking the header (also with `header`) and every
/// game line (fields in range, the result its moves give by the rules, each game once)
/// and handing each game to `game` with its line number; a
/// last line without its line ending is a torn write and is left out. Returns the
/// settings and the length of the complete lines.
fn read_lines(
    path: &Path,
    header: &dyn Fn(&Settings) -> Result<(), StateError>,
    game: &mut dyn FnMut(usize, SavedGame) -> Result<(), StateError>,
) -> Result<(Settings, u64), StateError> {
    let damaged = |line, problem| StateError::Damaged {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let file = File::open(path).map_err(|e| cannot(path, FileAction::Read, e))?;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut complete: u64 = 0;
    let mut number = 0usize;
    let mut settings = None;
    let mut first_seen: HashMap<usize, usize> = HashMap::new();
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| damaged(number + 1, LineProblem::Unreadable(e)))?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        number += 1;
        complete += n as u64;
        let text = line.trim_end();
        let Some(_) = settings else {
            let saved: Header = serde_json::from_str(text).map_err(|_| StateError::NotAState {
                path: path.to_path_buf(),
            })?;
            if saved.slimetrail_arena_state != STATE_VERSION {
                return Err(damaged(
                    1,
                    LineProblem::Version {
                        found: saved.slimetrail_arena_state,
                        expected: STATE_VERSION,
                    },
                ));
            }
            header(&saved.settings)?;
            settings = Some(saved.settings);
            continue;
        };
        let saved: SavedGame =
            serde_json::from_str(text).map_err(|e| damaged(number, LineProblem::NotAGame(e)))?;
        let r = &saved.report;
        if !(1..=2).contains(&r.winner) {
            return Err(damaged(number, LineProblem::Winner(r.winner)));
        }
        if r.round == 0 || r.players.iter().any(String::is_empty) {
            return Err(damaged(number, LineProblem::Unnamed));
        }
        check_result(r).map_err(|problem| {
            damaged(
                number,
                LineProblem::Result {
                    number: r.number,
                    problem: Box::new(problem),
                },
            )
        })?;
        if let Some(first) = first_seen.insert(r.number, number) {
            return Err(damaged(
                number,
                LineProblem::Twice {
                    number: r.number,
                    first,
                },
            ));
        }
        game(number, saved).map_err(|e| match e {
            StateError::Line(problem) => damaged(number, problem),
            other => other,
        })?;
    }
    let settings = settings.ok_or_else(|| StateError::Empty {
        path: path.to_path_buf(),
    })?;
    Ok((settings, complete))
}

/// The error of a failed `action` on the state file.
fn cannot(path: &Path, action: FileAction, error: std::io::Error) -> StateError {
    StateError::File(FileError::io(path, action, error))
}
