//! The listening side of the GUI's server: hyper's HTTP/1 connections on tokio, with
//! every limit a setting ([`HttpLimits`]): at most so many connections at once, a
//! deadline for the request head and for the whole body, and bounded header size and
//! count. When every slot is taken, the connection that has waited longest without
//! sending a request is closed to make room (so that idle and slow-header sockets
//! cannot starve a page); when every connection is busy with a request, new ones wait
//! in the listening socket's bounded backlog. The accept
//! loop never stops while the process lives: running out of descriptors or memory backs
//! off and retries, and only an error that no retry can mend ends [`accept_loop`].

use std::collections::BTreeMap;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{Semaphore, oneshot};
use tower::Layer;
use tower_http::timeout::{RequestBodyDeadlineLayer, TimeoutLayer};

/// Connections served at once by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// Default time for a request's head (request line and headers) to arrive.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// Default time for a request's whole body to arrive.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(5);
/// Default cap on a request's head, in bytes.
pub const DEFAULT_MAX_HEADER_BYTES: usize = 16 * 1024;
/// Default cap on a request's header lines.
pub const DEFAULT_MAX_HEADERS: usize = 64;
/// Connections waiting in the listening socket's backlog when all slots are taken.
pub const BACKLOG: u32 = 1024;
/// Descriptors kept free for the rest of the process (engines' pipes, logs).
const RESERVED_DESCRIPTORS: usize = 64;
/// Descriptors kept free for each session's engine process and its pipes.
const DESCRIPTORS_PER_SESSION: usize = 8;
/// The longest pause of the accept loop after running out of a resource.
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// The limits of the HTTP server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HttpLimits {
    /// The most connections served at once; more wait in the backlog.
    pub max_connections: usize,
    /// Time for a request's head to arrive, also the idle time of a kept-alive connection.
    pub header_timeout: Duration,
    /// Time for a request's whole body to arrive.
    pub body_timeout: Duration,
    /// The largest request head, in bytes (answered 431 past it).
    pub max_header_bytes: usize,
    /// The most header lines of a request (answered 431 past it).
    pub max_headers: usize,
}

impl Default for HttpLimits {
    fn default() -> HttpLimits {
        HttpLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
            max_headers: DEFAULT_MAX_HEADERS,
        }
    }
}

impl HttpLimits {
    /// The connection cap that fits the process's descriptor limit: each connection
    /// costs one descriptor, and `sessions` engines and the rest of the process keep
    /// theirs. At least 8, so that a page can still load.
    pub fn connections_within_descriptors(&self, sessions: usize) -> usize {
        let Some(limit) = descriptor_limit() else {
            return self.max_connections;
        };
        let reserved = RESERVED_DESCRIPTORS + sessions * DESCRIPTORS_PER_SESSION;
        self.max_connections
            .min(limit.saturating_sub(reserved).max(8))
    }
}

/// The soft limit on open descriptors, if there is one.
fn descriptor_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given, which lives on this stack.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (got == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as usize)
}

/// A listening socket on `addr` with a backlog of [`BACKLOG`].
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// What the accept loop does with an accept error.
#[derive(Debug, PartialEq, Eq)]
enum AcceptFault {
    /// That one connection failed before it was accepted: go on at once.
    Connection,
    /// Out of descriptors or memory: wait, then go on.
    Resources,
    /// The listening socket itself is broken.
    Fatal,
}

/// Which kind of error `error` is for the accept loop.
fn accept_fault(error: &io::Error) -> AcceptFault {
    match error.raw_os_error() {
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM) => AcceptFault::Resources,
        Some(libc::ECONNABORTED | libc::ECONNRESET | libc::EINTR | libc::EPROTO | libc::EPERM) => {
            AcceptFault::Connection
        }
        Some(libc::EAGAIN) => AcceptFault::Connection,
        _ => match error.kind() {
            io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock => AcceptFault::Connection,
            _ => AcceptFault::Fatal,
        },
    }
}

/// Serves `app` on `listener` under `limits` until the listening socket fails for
/// good; the error is why.
pub async fn accept_loop(listener: TcpListener, app: Router, limits: HttpLimits) -> io::Error {
    // The whole time to an answer (an event stream answers at once, then streams), and
    // the whole time of a body.
    let answer = limits.body_timeout + limits.header_timeout + Duration::from_secs(10);
    let service = TimeoutLayer::with_status_code(hyper::StatusCode::REQUEST_TIMEOUT, answer)
        .layer(RequestBodyDeadlineLayer::new(limits.body_timeout).layer(app));
    let service = TowerToHyperService::new(service);
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let waiting = Arc::new(Waiting::default());
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(limits.max_header_bytes)
        .max_headers(limits.max_headers)
        .max_buf_size((limits.max_header_bytes + 1024).max(64 * 1024))
        .keep_alive(true);
    let mut backoff = Duration::from_millis(10);
    let mut serial = 0u64;
    loop {
        let slot = match Arc::clone(&slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                // All slots taken: the longest-waiting connection without a request
                // makes room; if every one is busy, this waits for one to end.
                waiting.close_oldest();
                match Arc::clone(&slots).acquire_owned().await {
                    Ok(slot) => slot,
                    Err(_) => return io::Error::other("the connection slots are closed"),
                }
            }
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => {
                backoff = Duration::from_millis(10);
                stream
            }
            Err(error) => match accept_fault(&error) {
                AcceptFault::Connection => continue,
                AcceptFault::Resources => {
                    log::warn!(
                        "cannot accept a connection: {error}; trying again in {} ms",
                        backoff.as_millis()
                    );
                    drop(slot);
                    waiting.close_oldest();
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
                AcceptFault::Fatal => return error,
            },
        };
        let _ = stream.set_nodelay(true);
        serial += 1;
        let id = serial;
        let (close, closed) = oneshot::channel();
        waiting.add(id, close);
        let marked = Marked {
            inner: service.clone(),
            waiting: Arc::clone(&waiting),
            id,
        };
        let connection = builder.serve_connection(TokioIo::new(stream), marked);
        let waiting = Arc::clone(&waiting);
        tokio::spawn(async move {
            // The sender is dropped once a request came: then only the connection ends it.
            let made_room = async {
                if closed.await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                ended = connection => if let Err(e) = ended {
                    log::debug!("connection ended: {e}");
                },
                () = made_room => log::debug!("closed a connection without a request to make room"),
            }
            waiting.remove(id);
            drop(slot);
        });
    }
}

/// The connections that have not sent a request yet, oldest first, each with the means
/// to close it.
#[derive(Default)]
struct Waiting(Mutex<BTreeMap<u64, oneshot::Sender<()>>>);

impl Waiting {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, oneshot::Sender<()>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn add(&self, id: u64, close: oneshot::Sender<()>) {
        self.lock().insert(id, close);
    }

    /// Connection `id` sent a request, or ended.
    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Closes the connection that has waited longest without a request, if any.
    fn close_oldest(&self) {
        if let Some((_, close)) = self.lock().pop_first() {
            let _ = close.send(());
        }
    }
}

/// The server's service for one connection, which marks the connection busy at its
/// first request.
struct Marked<S> {
    inner: S,
    waiting: Arc<Waiting>,
    id: u64,
}

impl<S, R> hyper::service::Service<R> for Marked<S>
where
    S: hyper::service::Service<R>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn call(&self, request: R) -> Self::Future {
        self.waiting.remove(self.id);
        self.inner.call(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_of_descriptors_is_retried_and_a_broken_socket_is_not() {
        for code in [libc::EMFILE, libc::ENFILE, libc::ENOBUFS, libc::ENOMEM] {
            let e = io::Error::from_raw_os_error(code);
            assert_eq!(accept_fault(&e), AcceptFault::Resources, "{e}");
        }
        for code in [libc::ECONNABORTED, libc::EINTR, libc::EAGAIN] {
            let e = io::Error::from_raw_os_error(code);
            assert_eq!(accept_fault(&e), AcceptFault::Connection, "{e}");
        }
        for code in [libc::EBADF, libc::EINVAL, libc::ENOTSOCK] {
            let e = io::Error::from_raw_os_error(code);
            assert_eq!(accept_fault(&e), AcceptFault::Fatal, "{e}");
        }
    }

    #[test]
    fn the_connection_cap_leaves_room_for_the_engines() {
        let limits = HttpLimits {
            max_connections: usize::MAX,
            ..HttpLimits::default()
        };
        if let Some(limit) = descriptor_limit() {
            let cap = limits.connections_within_descriptors(8);
            assert!(cap < limit, "{cap} of {limit}");
        }
        let small = HttpLimits {
            max_connections: 3,
            ..HttpLimits::default()
        };
        assert_eq!(small.connections_within_descriptors(8), 3);
    }
}
