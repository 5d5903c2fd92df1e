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

/// Text of an output stream.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
