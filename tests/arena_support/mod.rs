//! Helpers shared by the arena's integration tests: temporary directories, the arena and
//! mock-engine command lines, summaries, and checks that no engine process survives.

pub mod pgn;
pub mod ratings;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The arena binary under test.
pub const ARENA: &str = env!("CARGO_BIN_EXE_slimetrail-arena");
/// The engine binary.
pub const ENGINE: &str = env!("CARGO_BIN_EXE_slimetrail");

/// A fresh directory for one test, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new empty directory named after the test.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("slimetrail-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A path inside the directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The same path as a string.
    pub fn file(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An arena command running in `dir`.
pub fn arena(dir: &TempDir) -> Command {
    let mut command = Command::new(ARENA);
    command.current_dir(&dir.0);
    command
}

/// Runs the arena with `args` in `dir`.
pub fn run(dir: &TempDir, args: &[String]) -> Output {
    arena(dir).args(args).output().unwrap()
}

/// `--engine` words of a mock engine with extra mock flags; its pids go to `<name>.pids` in `dir`.
pub fn mock_engine(dir: &TempDir, name: &str, flags: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={ARENA}"),
        "arg=mock-engine".to_string(),
        "arg=--pid-file".to_string(),
        format!("arg={}", dir.file(&format!("{name}.pids"))),
    ];
    words.extend(flags.iter().map(|f| format!("arg={f}")));
    words
}

/// Splits a command line written with spaces into words.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Process ids recorded by a mock engine.
pub fn pids(dir: &TempDir, name: &str) -> Vec<i32> {
    std::fs::read_to_string(dir.path(&format!("{name}.pids")))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// Every pid recorded by any mock engine in `dir`.
pub fn all_pids(dir: &TempDir) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir.0).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pids") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            out.extend(pids(dir, &name));
        }
    }
    out
}

/// Whether a process is still running (a zombie awaiting its reaper counts as gone).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.contains(") Z"),
        Err(_) => false,
    }
}

/// Asserts that none of `pids` runs, allowing a kill signal a moment to take effect.
pub fn assert_all_gone(pids: &[i32]) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let survivors: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    assert!(
        survivors.is_empty(),
        "engine processes outlived the arena: {survivors:?}"
    );
}

/// Waits (bounded) until `ready` holds.
pub fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The JSON summary written to `path`.
pub fn summary(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The games of a summary.
pub fn games(summary: &serde_json::Value) -> Vec<serde_json::Value> {
    summary["games"].as_array().unwrap().clone()
}

/// The openings of a summary's games, in game order, each its moves joined by spaces.
pub fn openings(summary: &serde_json::Value) -> Vec<String> {
    games(summary)
        .iter()
        .map(|g| {
            let moves: Vec<&str> = g["opening"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            moves.join(" ")
        })
        .collect()
}

/// Text of an output stream.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the arena with `args` in `dir`, killing it and failing if it runs longer than
/// `seconds` (a hang under test; the limit is generous for a loaded machine).
pub fn run_within(dir: &TempDir, args: &[String], seconds: u64) -> Output {
    let mut child = arena(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "the arena ran for more than {seconds} s: it hangs; stderr: {}",
                text(&output.stderr).chars().take(2000).collect::<String>()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Kills (with SIGKILL) whichever of `pids` still run, and returns them.
pub fn kill_survivors(pids: &[i32]) -> Vec<i32> {
    std::thread::sleep(Duration::from_millis(200));
    let survivors: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for &pid in &survivors {
        // SAFETY: a plain signal to a test process left behind.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    survivors
}

/// The complete lines of a state file after its header.
pub fn state_games(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The game numbers (from the `Round` tag `r.n`, n from 1) of the records of a PGN file,
/// in file order; panics on a record that is not whole.
pub fn pgn_numbers(path: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut numbers = Vec::new();
    for record in text.split("\n\n[Event ").filter(|r| !r.trim().is_empty()) {
        let round = record
            .split("[Round \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_else(|| panic!("a record without a Round tag: {record}"));
        let n: u64 = round.split('.').nth(1).unwrap().parse().unwrap();
        let result = record.trim_end().rsplit(' ').next().unwrap_or("");
        assert!(
            ["1-0", "0-1"].contains(&result.rsplit('\n').next().unwrap_or("")),
            "a record that is not whole: {record}"
        );
        numbers.push(n - 1);
    }
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "the PGN does not end with a whole record"
    );
    numbers
}
