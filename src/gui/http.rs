//! The HTTP side: the embedded page, the JSON API and the Server-Sent Events stream,
//! on `tiny_http`. Every body is bounded; requests for another host name (DNS
//! rebinding) or from another origin are refused.

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

use super::commands::{MAX_LINES, parse_commands};
use super::error::BodyError;
use super::game::Game;
use super::session::{Input, Registry, Reply};
use crate::protocol::MAX_LINE_BYTES;
use crate::record::{MAX_PGN_BYTES, read_pgn};

/// The page.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its script.
const APP_JS: &str = include_str!("assets/app.js");
/// Its style sheet.
const STYLE_CSS: &str = include_str!("assets/style.css");

/// The largest command request, in bytes.
const MAX_COMMAND_BODY: usize = MAX_LINES * 256;
/// Requests handled at once besides the event streams; more are answered 503.
const MAX_OTHER_HANDLERS: usize = 32;
/// How often an idle event stream sends a comment, which also finds closed tabs.
const HEARTBEAT: Duration = Duration::from_secs(2);
/// How long a request waits for its session's answer.
const SESSION_ANSWER: Duration = Duration::from_secs(5);

/// What the HTTP side needs.
pub struct Site {
    /// The sessions.
    pub registry: Arc<Registry>,
    /// Host names the page may be reached under (`Host` header), empty for any.
    pub allowed_hosts: Vec<String>,
    /// The most sessions, for the number of requests served at once.
    pub max_sessions: usize,
}

/// Serves requests until the process ends.
pub fn serve(server: Server, site: Site) {
    let site = Arc::new(site);
    let active = Arc::new(AtomicUsize::new(0));
    // Every session's event streams, and some room for the other requests.
    let max_handlers = site.max_sessions * super::session::MAX_SUBSCRIBERS + MAX_OTHER_HANDLERS;
    for request in server.incoming_requests() {
        if active.load(Ordering::SeqCst) >= max_handlers {
            let _ = request.respond(error(
                503,
                &format!("the server is busy: {max_handlers} requests at once; expected fewer"),
            ));
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let site = Arc::clone(&site);
        let done = Arc::clone(&active);
        let spawned = thread::Builder::new()
            .name("http".to_string())
            .spawn(move || {
                handle(&site, request);
                done.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A JSON response.
fn json(status: u16, body: &serde_json::Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

/// An error as JSON: `{"error": "..."}`.
fn error(status: u16, message: &dyn std::fmt::Display) -> Response<std::io::Cursor<Vec<u8>>> {
    json(status, &serde_json::json!({ "error": message.to_string() }))
}

/// A header of the server's own (ASCII constants only).
fn header(name: &'static str, value: &'static str) -> Header {
    Header::from_bytes(name, value).expect("the server's own headers are ASCII")
}

/// A file of the page.
fn asset(body: &'static str, kind: &'static str) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(body)
        .with_header(header("Content-Type", kind))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; \
             style-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'none'",
        ))
        .with_header(header("Referrer-Policy", "no-referrer"))
}

/// The value of a request header.
fn header_value(request: &Request, name: &'static str) -> Option<String> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str().to_string())
}

fn handle(site: &Site, request: Request) {
    let host = header_value(&request, "Host").unwrap_or_default();
    if !site.allowed_hosts.is_empty() && !site.allowed_hosts.contains(&host) {
        let _ = request.respond(error(
            403,
            &format!(
                "unknown host name '{host}': expected one of {}",
                site.allowed_hosts.join(", ")
            ),
        ));
        return;
    }
    if let Some(origin) = header_value(&request, "Origin") {
        let same = origin
            .split_once("://")
            .is_some_and(|(_, rest)| rest == host);
        if !same {
            let _ = request.respond(error(
                403,
                &format!("requests from another site ({origin}) are refused: expected this page"),
            ));
            return;
        }
    }
    let url = request.url().split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    let parts: Vec<&str> = url.trim_start_matches('/').split('/').collect();
    let result = match (&method, parts.as_slice()) {
        (Method::Get, [""] | ["index.html"]) => {
            request.respond(asset(INDEX_HTML, "text/html; charset=utf-8"))
        }
        (Method::Get, ["app.js"]) => {
            request.respond(asset(APP_JS, "text/javascript; charset=utf-8"))
        }
        (Method::Get, ["style.css"]) => {
            request.respond(asset(STYLE_CSS, "text/css; charset=utf-8"))
        }
        (Method::Get, ["favicon.ico"]) => request.respond(Response::empty(204)),
        (Method::Get, ["api", "health"]) => request.respond(json(
            200,
            &serde_json::json!({ "sessions": site.registry.count() }),
        )),
        (Method::Post, ["api", "sessions"]) => match site.registry.open() {
            Ok(id) => request.respond(json(201, &serde_json::json!({ "id": id }))),
            Err(e) => request.respond(error(503, &e)),
        },
        (_, ["api", "sessions", id, action]) => {
            let id = id.to_string();
            let action = action.to_string();
            session_request(site, request, &method, &id, &action)
        }
        (Method::Get | Method::Post, _) => {
            request.respond(error(404, &format!("no such page: {url}")))
        }
        _ => request.respond(error(
            405,
            &format!("method {method} is not served: expected GET or POST"),
        )),
    };
    if let Err(e) = result {
        log::debug!("cannot answer {url}: {e}");
    }
}

/// The requests of one session.
fn session_request(
    site: &Site,
    mut request: Request,
    method: &Method,
    id: &str,
    action: &str,
) -> std::io::Result<()> {
    let Some(session) = site.registry.get(id) else {
        return request.respond(error(
            404,
            &"no such session: it ended (its tab was closed, or it was idle): expected a new game",
        ));
    };
    match (method, action) {
        (Method::Get, "events") => events(request, &session),
        (Method::Post, "commands") => {
            let body = match read_body(&mut request, MAX_COMMAND_BODY.max(MAX_LINE_BYTES)) {
                Ok(body) => body,
                Err(e) => return request.respond(error(e.status(), &e)),
            };
            let commands = match parse_commands(&body) {
                Ok(commands) => commands,
                Err(e) => return request.respond(error(400, &e)),
            };
            ask(request, &session, |reply| Input::Commands(commands, reply))
        }
        (Method::Post, "pgn") => {
            let body = match read_body(&mut request, MAX_PGN_BYTES) {
                Ok(body) => body,
                Err(e) => return request.respond(error(e.status(), &e)),
            };
            match read_pgn(&body).and_then(Game::from_pgn) {
                Ok(game) => ask(request, &session, |reply| Input::Import(game, reply)),
                Err(e) => request.respond(error(400, &e)),
            }
        }
        (Method::Post, "close") => {
            let _ = session.send(Input::Close);
            request.respond(json(200, &serde_json::json!({ "ok": true })))
        }
        _ => request.respond(error(
            404,
            &format!(
                "no such request: {method} {action}: expected GET events, POST commands, \
                 POST pgn or POST close"
            ),
        )),
    }
}

/// Sends an input to the session and answers with its reply.
fn ask(
    request: Request,
    session: &mpsc::Sender<Input>,
    input: impl FnOnce(Reply) -> Input,
) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel();
    if session.send(input(tx)).is_err() {
        return request.respond(error(404, &"the session has ended: expected a new game"));
    }
    match rx.recv_timeout(SESSION_ANSWER) {
        Ok(Ok(())) => request.respond(json(200, &serde_json::json!({ "ok": true }))),
        Ok(Err(e)) => request.respond(error(400, &e)),
        Err(_) => request.respond(error(503, &"the session did not answer in time")),
    }
}

/// The body as text, at most `limit` bytes.
fn read_body(request: &mut Request, limit: usize) -> Result<String, BodyError> {
    let too_big = |bytes: usize| BodyError::TooBig { bytes, limit };
    if let Some(n) = request.body_length() {
        if n > limit {
            return Err(too_big(n));
        }
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(BodyError::Unreadable)?;
    if bytes.len() > limit {
        return Err(too_big(bytes.len()));
    }
    String::from_utf8(bytes).map_err(|_| BodyError::NotText)
}

/// Marks an event stream gone when its thread ends, however it ends.
struct Gone(Arc<AtomicBool>);

impl Drop for Gone {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// The Server-Sent Events stream: the state now and after every change, a comment
/// every few seconds; a failed write means the tab is gone.
fn events(request: Request, session: &mpsc::Sender<Input>) -> std::io::Result<()> {
    let (tx, rx) = mpsc::sync_channel(super::session::SUBSCRIBER_QUEUE);
    let alive = Arc::new(AtomicBool::new(true));
    let _gone = Gone(Arc::clone(&alive));
    let (reply_tx, reply) = mpsc::channel();
    if session
        .send(Input::Subscribe(tx, Arc::clone(&alive), reply_tx))
        .is_err()
    {
        return request.respond(error(404, &"the session has ended: expected a new game"));
    }
    match reply.recv_timeout(SESSION_ANSWER) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return request.respond(error(409, &e)),
        Err(_) => return request.respond(error(503, &"the session did not answer in time")),
    }
    let mut out = request.into_writer();
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\nretry: 2000\n\n",
    )?;
    out.flush()?;
    loop {
        match rx.recv_timeout(HEARTBEAT) {
            Ok(json) => {
                out.write_all(b"data: ")?;
                out.write_all(json.as_bytes())?;
                out.write_all(b"\n\n")?;
            }
            Err(RecvTimeoutError::Timeout) => out.write_all(b": ping\n\n")?,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
        out.flush()?;
    }
}
