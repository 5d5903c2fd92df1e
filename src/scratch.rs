//! Scratch directories for unit tests that write files: one per test, removed
//! when the test ends.

use std::path::{Path, PathBuf};

/// A new, empty directory under the system's temporary directory, removed on drop.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh directory for the test `name` (unique per test and process).
    pub fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("slimetrail-unit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path of `name` in the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
