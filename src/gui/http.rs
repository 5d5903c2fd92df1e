//! The HTTP side: the embedded page, the JSON API and the Server-Sent Events stream,
//! on axum (the connections and their limits are [`super::listen`]'s). Every body is
//! bounded in size and time; requests for another host name (DNS rebinding) or from
//! another origin are refused.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use tokio::sync::{mpsc, oneshot};

use super::commands::{MAX_LINES, parse_commands};
use super::error::BodyError;
use super::game::Game;
use super::rooms::Rooms;
use super::session::{Input, Reply, SUBSCRIBER_QUEUE};
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
/// How often an idle event stream sends a comment, which also finds closed tabs.
const HEARTBEAT: Duration = Duration::from_secs(2);
/// How long a request waits for its session's answer.
const SESSION_ANSWER: Duration = Duration::from_secs(5);
/// What the page's `EventSource` waits before it reconnects, in milliseconds.
const RETRY: Duration = Duration::from_millis(2000);
/// The page's content security policy: its own files only.
const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; \
                   style-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'none'";

/// What the HTTP side needs.
pub struct Site {
    /// The sessions.
    pub rooms: Arc<Rooms>,
    /// Host names the page may be reached under (`Host` header), empty for any.
    pub allowed_hosts: Vec<String>,
}

/// The routes of the page and the API.
pub fn router(site: Site) -> Router {
    Router::new().fallback(handle).with_state(Arc::new(site))
}

/// A JSON response.
fn json(status: u16, body: &serde_json::Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, body.to_string()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// An error as JSON: `{"error": "..."}`.
fn error(status: u16, message: &dyn std::fmt::Display) -> Response {
    json(status, &serde_json::json!({ "error": message.to_string() }))
}

/// `{"ok": true}`.
fn ok() -> Response {
    json(200, &serde_json::json!({ "ok": true }))
}

/// A file of the page.
fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// The value of a request header, empty when it is not text.
fn header_value(headers: &HeaderMap, name: header::HeaderName) -> Option<String> {
    headers
        .get(name)
        .map(|v| v.to_str().unwrap_or_default().to_string())
}

/// Every request: the host and origin checks, then the route.
async fn handle(State(site): State<Arc<Site>>, request: Request) -> Response {
    let host = header_value(request.headers(), header::HOST).unwrap_or_default();
    if !site.allowed_hosts.is_empty() && !site.allowed_hosts.contains(&host) {
        return error(
            403,
            &format!(
                "unknown host name '{host}': expected one of {}",
                site.allowed_hosts.join(", ")
            ),
        );
    }
    if let Some(origin) = header_value(request.headers(), header::ORIGIN) {
        let same = origin
            .split_once("://")
            .is_some_and(|(_, rest)| rest == host);
        if !same {
            return error(
                403,
                &format!("requests from another site ({origin}) are refused: expected this page"),
            );
        }
    }
    let url = request.uri().path().to_string();
    let method = request.method().clone();
    let parts: Vec<&str> = url.trim_start_matches('/').split('/').collect();
    match (&method, parts.as_slice()) {
        (&Method::GET, [""] | ["index.html"]) => asset(INDEX_HTML, "text/html; charset=utf-8"),
        (&Method::GET, ["app.js"]) => asset(APP_JS, "text/javascript; charset=utf-8"),
        (&Method::GET, ["style.css"]) => asset(STYLE_CSS, "text/css; charset=utf-8"),
        (&Method::GET, ["favicon.ico"]) => StatusCode::NO_CONTENT.into_response(),
        (&Method::GET, ["api", "health"]) => {
            json(200, &serde_json::json!({ "sessions": site.rooms.count() }))
        }
        (&Method::POST, ["api", "sessions"]) => match site.rooms.open() {
            Ok(id) => json(201, &serde_json::json!({ "id": id })),
            Err(e) => error(503, &e),
        },
        (_, ["api", "sessions", id, action]) => {
            let (id, action) = (id.to_string(), action.to_string());
            session_request(&site, request, &method, &id, &action).await
        }
        (&Method::GET | &Method::POST, _) => error(404, &format!("no such page: {url}")),
        _ => error(
            405,
            &format!("method {method} is not served: expected GET or POST"),
        ),
    }
}

/// The requests of one session.
async fn session_request(
    site: &Site,
    request: Request,
    method: &Method,
    id: &str,
    action: &str,
) -> Response {
    let Some(room) = site.rooms.get(id) else {
        return error(
            404,
            &"no such session: it ended (its tab was closed, or it was idle): expected a new game",
        );
    };
    match (method, action) {
        (&Method::GET, "events") => events(&room).await,
        (&Method::POST, "commands") => {
            let body = match read_body(request, MAX_COMMAND_BODY.max(MAX_LINE_BYTES)).await {
                Ok(body) => body,
                Err(e) => return error(e.status(), &e),
            };
            match parse_commands(&body) {
                Ok(commands) => ask(&room, |reply| Input::Commands(commands, reply)).await,
                Err(e) => error(400, &e),
            }
        }
        (&Method::POST, "pgn") => {
            let body = match read_body(request, MAX_PGN_BYTES).await {
                Ok(body) => body,
                Err(e) => return error(e.status(), &e),
            };
            match read_pgn(&body).and_then(Game::from_pgn) {
                Ok(game) => ask(&room, |reply| Input::Import(game, reply)).await,
                Err(e) => error(400, &e),
            }
        }
        (&Method::POST, "close") => {
            let _ = room.send(Input::Close);
            ok()
        }
        _ => error(
            404,
            &format!(
                "no such request: {method} {action}: expected GET events, POST commands, \
                 POST pgn or POST close"
            ),
        ),
    }
}

/// Waits for a session's reply.
async fn reply_of(
    answer: oneshot::Receiver<Result<(), super::error::SessionError>>,
) -> Result<(), Response> {
    match tokio::time::timeout(SESSION_ANSWER, answer).await {
        Ok(Ok(Ok(()))) => Ok(()),
        Ok(Ok(Err(e))) => Err(error(400, &e)),
        Ok(Err(_)) => Err(error(404, &"the session has ended: expected a new game")),
        Err(_) => Err(error(503, &"the session did not answer in time")),
    }
}

/// Sends an input to the session and answers with its reply.
async fn ask(
    room: &std::sync::mpsc::Sender<Input>,
    input: impl FnOnce(Reply) -> Input,
) -> Response {
    let (tx, rx) = oneshot::channel();
    if room.send(input(tx)).is_err() {
        return error(404, &"the session has ended: expected a new game");
    }
    match reply_of(rx).await {
        Ok(()) => ok(),
        Err(response) => response,
    }
}

/// The body as text, at most `limit` bytes; its deadline is the server's body timeout.
async fn read_body(request: Request, limit: usize) -> Result<String, BodyError> {
    let too_big = |bytes: usize| BodyError::TooBig { bytes, limit };
    let declared = header_value(request.headers(), header::CONTENT_LENGTH)
        .and_then(|n| n.trim().parse::<usize>().ok());
    if let Some(n) = declared.filter(|&n| n > limit) {
        return Err(too_big(n));
    }
    let bytes = axum::body::to_bytes(request.into_body(), limit)
        .await
        .map_err(|e| {
            let cause = e.into_inner();
            if caused_by::<tower_http::timeout::TimeoutError>(cause.as_ref()) {
                BodyError::TimedOut
            } else if caused_by::<http_body_util::LengthLimitError>(cause.as_ref()) {
                too_big(limit + 1)
            } else {
                BodyError::Unreadable(cause)
            }
        })?;
    String::from_utf8(bytes.to_vec()).map_err(|_| BodyError::NotText)
}

/// Whether `error` or one of its causes is a `T`.
fn caused_by<T: std::error::Error + 'static>(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(error);
    while let Some(e) = at {
        if e.is::<T>() {
            return true;
        }
        at = e.source();
    }
    false
}

/// Event streams are numbered, so that the session knows which one ended.
static STREAMS: AtomicU64 = AtomicU64::new(0);

/// The Server-Sent Events stream: the whole state at once and after every change, a
/// comment every few seconds (a failed write means the tab is gone).
async fn events(room: &std::sync::mpsc::Sender<Input>) -> Response {
    let (tx, rx) = mpsc::channel(SUBSCRIBER_QUEUE);
    let id = STREAMS.fetch_add(1, Ordering::Relaxed);
    let (reply, answer) = oneshot::channel();
    let stream = StateStream {
        states: rx,
        retry_sent: false,
        _gone: Gone {
            room: room.clone(),
            id,
        },
    };
    if room
        .send(Input::Subscribe {
            id,
            events: tx,
            reply,
        })
        .is_err()
    {
        return error(404, &"the session has ended: expected a new game");
    }
    match tokio::time::timeout(SESSION_ANSWER, answer).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(e))) => return error(409, &e),
        Ok(Err(_)) => return error(404, &"the session has ended: expected a new game"),
        Err(_) => return error(503, &"the session did not answer in time"),
    }
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(HEARTBEAT).text("ping"))
        .into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Tells the session that an event stream ended when its response is dropped, however
/// it ends (the tab closed, the connection broke).
struct Gone {
    room: std::sync::mpsc::Sender<Input>,
    id: u64,
}

impl Drop for Gone {
    fn drop(&mut self) {
        let _ = self.room.send(Input::Unsubscribe(self.id));
    }
}

/// The states a session sends to one page, as events.
struct StateStream {
    states: mpsc::Receiver<String>,
    retry_sent: bool,
    _gone: Gone,
}

impl Stream for StateStream {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if !self.retry_sent {
            self.retry_sent = true;
            return Poll::Ready(Some(Ok(Event::default().retry(RETRY))));
        }
        self.states
            .poll_recv(cx)
            .map(|state| state.map(|json| Ok(Event::default().data(json))))
    }
}
