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

use super::files::{append_whole, lock_exclusive};
use super::settings::Settings;
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
pub type RecordSink<'a> = dyn FnMut(&GameReport, Option<&str>) -> Result<(), String> + 'a;

/// An open, locked state file, appended to as games finish.
pub struct StateFile {
    file: File,
    path: PathBuf,
}

impl StateFile {
    /// Starts a new state file. A file that holds finished games is replaced only with `force`.
    pub fn create(path: &Path, settings: &Settings, force: bool) -> Result<StateFile, String> {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| cannot(path, "create", &e))?;
        lock_exclusive(&file, "--state", path)?;
        let saved = saved_games(path);
        if saved > 0 && !force {
            return Err(format!(
                "--state {}: holds {saved} finished games of an earlier run; expected --resume to continue it, or --force (or another --state file) to start over",
                path.display()
            ));
        }
        file.set_len(0).map_err(|e| cannot(path, "truncate", &e))?;
        let header = Header {
            slimetrail_arena_state: STATE_VERSION,
            settings: settings.clone(),
        };
        let line = serde_json::to_string(&header)
            .map_err(|e| format!("cannot encode the state header: {e}"))?;
        writeln!(file, "{line}").map_err(|e| cannot(path, "write", &e))?;
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
    ) -> Result<(StateFile, Vec<GameReport>), String> {
        if !path.exists() {
            return Err(format!(
                "--resume: the state file {} does not exist; expected the --state file of the interrupted run, or no --resume to start a new tournament",
                path.display()
            ));
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| cannot(path, "open", &e))?;
        lock_exclusive(&file, "--state", path)?;
        let mut games = Vec::new();
        let mut scheduled = HashMap::new();
        for game in settings.schedule() {
            scheduled.insert(game.number, game);
        }
        let same_tournament = |saved: &Settings| match settings.resume_mismatch(saved) {
            Some(why) => Err(format!(
                "--resume: the state file {} belongs to another tournament ({why}); expected the same arguments as the interrupted run, or another --state file",
                path.display()
            )),
            None => Ok(()),
        };
        let complete_len = read_lines(path, &same_tournament, &mut |line, saved: SavedGame| {
            let r = &saved.report;
            let Some(game) = scheduled.get(&r.number) else {
                return Err(format!(
                    "game number {} is not in this tournament's schedule",
                    r.number
                ));
            };
            let names = game.engines.map(|i| settings.engines[i].name.as_str());
            if r.round != game.round || r.pair != game.pair || r.players.each_ref().map(String::as_str) != names {
                return Err(format!(
                    "game {} is saved as round {}, pair {}, {} against {}; expected round {}, pair {}, {} against {}",
                    r.number, r.round, r.pair, r.players[0], r.players[1], game.round, game.pair, names[0], names[1]
                ));
            }
            record(r, saved.pgn.as_deref()).map_err(|e| format!("{e} (game on line {line})"))?;
            games.push(saved.report);
            Ok(())
        })?
        .1;
        // Drop a partial last line left by an interruption.
        file.set_len(complete_len)
            .map_err(|e| cannot(path, "truncate", &e))?;
        Ok((
            StateFile {
                file,
                path: path.to_path_buf(),
            },
            games,
        ))
    }

    /// Saves one finished game with its PGN record, as one whole line or nothing.
    pub fn append(&mut self, report: &GameReport, pgn: &str) -> Result<(), String> {
        let mut line = serde_json::to_string(&GameLine { report, pgn })
            .map_err(|e| format!("cannot encode a game: {e}"))?;
        line.push('\n');
        append_whole(&mut self.file, line.as_bytes()).map_err(|e| cannot(&self.path, "write", &e))
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
pub fn read_state(path: &Path) -> Result<(Settings, Vec<GameReport>, u64), String> {
    let mut games = Vec::new();
    let (settings, len) = read_lines(path, &|_| Ok(()), &mut |_, saved| {
        games.push(saved.report);
        Ok(())
    })?;
    Ok((settings, games, len))
}

/// Reads a state file line by line, checking the header (also with `header`) and every
/// game line (fields in range, each game once) and handing each game to `game` with its line number; a
/// last line without its line ending is a torn write and is left out. Returns the
/// settings and the length of the complete lines.
fn read_lines(
    path: &Path,
    header: &dyn Fn(&Settings) -> Result<(), String>,
    game: &mut dyn FnMut(usize, SavedGame) -> Result<(), String>,
) -> Result<(Settings, u64), String> {
    let file = File::open(path).map_err(|e| cannot(path, "read", &e))?;
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
            .map_err(|e| at_line(path, number + 1, &format!("cannot read it ({e})")))?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        number += 1;
        complete += n as u64;
        let text = line.trim_end();
        let Some(_) = settings else {
            let saved: Header = serde_json::from_str(text).map_err(|_| {
                format!(
                    "{}: not an arena state file; expected a first line with the saved settings",
                    path.display()
                )
            })?;
            if saved.slimetrail_arena_state != STATE_VERSION {
                return Err(at_line(
                    path,
                    1,
                    &format!(
                        "state format version {}; expected version {STATE_VERSION}",
                        saved.slimetrail_arena_state
                    ),
                ));
            }
            header(&saved.settings)?;
            settings = Some(saved.settings);
            continue;
        };
        let saved: SavedGame = serde_json::from_str(text).map_err(|e| {
            at_line(
                path,
                number,
                &format!("{e}; expected one saved game per line"),
            )
        })?;
        let r = &saved.report;
        if !(1..=2).contains(&r.winner) {
            return Err(at_line(
                path,
                number,
                &format!("winner {}; expected 1 or 2", r.winner),
            ));
        }
        if r.round == 0 || r.players.iter().any(String::is_empty) {
            return Err(at_line(
                path,
                number,
                "a round 0 or an empty player name; expected rounds from 1 and named players",
            ));
        }
        if let Some(first) = first_seen.insert(r.number, number) {
            return Err(at_line(
                path,
                number,
                &format!(
                    "game number {} saved a second time (first on line {first}); expected each game once",
                    r.number
                ),
            ));
        }
        game(number, saved).map_err(|e| at_line(path, number, &e))?;
    }
    let settings = settings.ok_or_else(|| {
        format!(
            "{}: not an arena state file (empty, or no complete first line); expected a first line with the saved settings",
            path.display()
        )
    })?;
    Ok((settings, complete))
}

/// A problem with one line of a state file, naming the file and the line.
fn at_line(path: &Path, line: usize, problem: &str) -> String {
    format!(
        "--state {} line {line}: {problem}; the state file is damaged: repair or remove that line, or start over with --force",
        path.display()
    )
}

/// An I/O error message naming the file.
fn cannot(path: &Path, what: &str, error: &std::io::Error) -> String {
    format!(
        "--state {}: cannot {what} it ({error}); expected a writable file path",
        path.display()
    )
}
