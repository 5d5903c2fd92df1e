//! The sessions that are open, at most so many: each one a [`Room`] on a thread of its
//! own, reached through its input channel under a random id.

use std::collections::HashMap;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;

use super::session::{Input, Room, SessionConfig};

/// Why no session can be opened.
#[derive(Debug)]
pub enum OpenError {
    /// As many sessions are open as the server allows.
    Full {
        /// Sessions open.
        open: usize,
        /// The most allowed.
        max: usize,
        /// How the command line names that cap, such as `--max-sessions`.
        cap_named: &'static str,
    },
    /// The session's thread cannot be started.
    Thread(std::io::Error),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Full {
                open,
                max,
                cap_named,
            } => write!(
                f,
                "too many sessions: {open} games are open, the most this server allows \
                 ({cap_named} {max}), each with its own engine process; expected a closed tab \
                 first: close another game's tab, or wait a few seconds for a closed one to end"
            ),
            OpenError::Thread(e) => write!(f, "cannot start a session thread: {e}"),
        }
    }
}

impl std::error::Error for OpenError {}

/// The sessions that are open, at most `max`.
pub struct Rooms {
    sessions: Mutex<HashMap<String, Sender<Input>>>,
    max: usize,
    config: SessionConfig,
}

impl Rooms {
    /// No sessions yet.
    pub fn new(max: usize, config: SessionConfig) -> Arc<Rooms> {
        Arc::new(Rooms {
            sessions: Mutex::new(HashMap::new()),
            max,
            config,
        })
    }

    /// Opens a session with its engine; the error says the cap is reached.
    pub fn open(self: &Arc<Rooms>) -> Result<String, OpenError> {
        let mut sessions = self.lock();
        if sessions.len() >= self.max {
            return Err(OpenError::Full {
                open: sessions.len(),
                max: self.max,
                cap_named: self.config.cap_named,
            });
        }
        let id = new_id();
        let (tx, rx) = mpsc::channel();
        sessions.insert(id.clone(), tx.clone());
        let rooms = Arc::clone(self);
        let session_id = id.clone();
        let spawned = thread::Builder::new()
            .name(format!("session-{}", &id[..8]))
            .spawn(move || {
                Room::new(rooms.config.clone(), tx, rx).run();
                // The engine is gone by now: only then does the slot free up.
                rooms.lock().remove(&session_id);
            });
        if let Err(e) = spawned {
            sessions.remove(&id);
            return Err(OpenError::Thread(e));
        }
        Ok(id)
    }

    /// The channel of session `id`.
    pub fn get(&self, id: &str) -> Option<Sender<Input>> {
        self.lock().get(id).cloned()
    }

    /// How many sessions are open.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Sender<Input>>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A session id: 128 random bits in hex, so that other pages cannot guess it.
fn new_id() -> String {
    use std::io::Read as _;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_err() {
        // No /dev/urandom: the clock and the address space are the best left.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let mut rng = crate::rng::Rng::new(nanos as u64 ^ (&bytes as *const _ as u64));
        for b in &mut bytes {
            *b = rng.next_u64() as u8;
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
