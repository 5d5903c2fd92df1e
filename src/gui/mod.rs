//! `slimetrail gui`: play and analyse in the browser. A local web server whose page is
//! embedded in the binary; each browser tab gets a session with its own engine process,
//! driven through the same engine client as the arena's ([`crate::client::EngineClient`]),
//! so any engine that speaks `protocol.md` can be plugged in.

mod commands;
mod error;
mod game;
mod http;
mod inputs;
mod jobs;
mod listen;
mod rooms;
mod session;
mod view;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use crate::client::EngineSetup;
pub use error::GuiError;
pub use listen::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_HEADERS, HttpLimits,
};
use rooms::Rooms;
use session::SessionConfig;

/// The default least time from one move to an engine's move shown after it.
pub const DEFAULT_PACE: Duration = Duration::from_millis(700);

/// Everything `slimetrail gui` needs.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    /// The address to listen on; loopback unless `--host` says otherwise.
    pub host: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// How every session starts its engine.
    pub engine: EngineSetup,
    /// The most sessions (and so engine processes) at once.
    pub max_sessions: usize,
    /// How the command line names that cap (such as `--max-sessions`), for the message
    /// when it is reached.
    pub max_sessions_named: &'static str,
    /// How long a session outlives its last event stream.
    pub grace: Duration,
    /// The least time from one move to an engine's move shown after it; zero for none.
    pub pace: Duration,
    /// The HTTP server's limits.
    pub limits: HttpLimits,
    /// Open the page in the browser.
    pub open: bool,
}

/// Runs the server until the process is stopped; the error says why it could not start,
/// or why it had to stop.
pub fn run(config: GuiConfig) -> Result<(), GuiError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("http")
        .enable_all()
        .build()
        .map_err(GuiError::Runtime)?;
    runtime.block_on(serve(config))
}

/// Listens, then serves until the listening socket fails for good.
async fn serve(config: GuiConfig) -> Result<(), GuiError> {
    let listener = listen::listen(SocketAddr::new(config.host, config.port)).map_err(|error| {
        GuiError::Listen {
            host: config.host,
            port: config.port,
            error: Box::new(error),
        }
    })?;
    let addr = listener.local_addr().map_err(|_| GuiError::NoAddress)?;
    let url = format!("http://{addr}/");
    let mut allowed_hosts = Vec::new();
    if config.host.is_loopback() {
        let port = addr.port();
        allowed_hosts = vec![
            format!("{addr}"),
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ];
    }
    install_interrupt_handler();
    let mut limits = config.limits;
    let fitting = limits.connections_within_descriptors(config.max_sessions);
    if fitting < limits.max_connections {
        log::warn!(
            "at most {fitting} connections at once, not {}: the descriptor limit leaves no \
             more room beside {} engines",
            limits.max_connections,
            config.max_sessions
        );
        limits.max_connections = fitting;
    }
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{url}");
        let _ = out.flush();
    }
    eprintln!(
        "slimetrail gui: serving on {url} (engine {}, at most {} sessions, {} connections); \
         Ctrl-C stops it",
        config.engine.launch.cmd.display(),
        config.max_sessions,
        limits.max_connections
    );
    if config.open {
        open_browser(&url);
    }
    let rooms = Rooms::new(
        config.max_sessions,
        SessionConfig {
            engine: config.engine,
            grace: config.grace,
            pace: config.pace,
            cap_named: config.max_sessions_named,
        },
    );
    let app = http::router(http::Site {
        rooms,
        allowed_hosts,
    });
    Err(GuiError::Accept(
        listen::accept_loop(listener, app, limits).await,
    ))
}

/// Ctrl-C and SIGTERM kill every engine, then exit.
fn install_interrupt_handler() {
    crate::client::signals::install_exit(
        "slimetrail gui: interrupted; engines stopped".to_string(),
    );
}

/// Asks the desktop to open `url`; a failure is only reported.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => eprintln!(
            "slimetrail gui: cannot open the browser with {opener}: {e}; open {url} yourself"
        ),
    }
}
