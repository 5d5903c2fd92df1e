//! `slimetrail gui` under hostile clients, on loopback: idle sockets past the
//! descriptor limit, request bodies that never come, and huge headers. The server keeps
//! answering the health check and the sessions of other tabs throughout, and afterwards.
//! Every loop is bounded in count, and every wait in time.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

use crate::gui::Gui;

/// A socket with a read timeout, so that no test waits for ever.
fn connect(gui: &Gui) -> TcpStream {
    let stream = TcpStream::connect(&gui.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
}

/// The health check answers 200 with the number of sessions.
fn healthy(gui: &Gui) -> u64 {
    let (status, body) = gui.raw("GET", "/api/health", "", b"");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str::<Value>(&body).unwrap()["sessions"]
        .as_u64()
        .unwrap()
}

/// A line of the server's `/proc` status, in kB or as a count.
fn status_field(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in the status of {pid}"))
}

#[test]
fn idle_sockets_past_the_descriptor_limit_leave_the_server_serving() {
    // tiny_http's accept thread died on EMFILE, and the port stayed closed for good.
    let gui = Gui::start_under(&["prlimit", "--nofile=200:200"], &["--header-timeout", "1"]);
    let pid = gui.child.id();
    let idle: Vec<TcpStream> = (0..400).map(|_| connect(&gui)).collect();
    // While they are open, a request is answered: idle sockets time out and give up
    // their slots, and waiting connections are taken in turn.
    assert_eq!(healthy(&gui), 0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count();
    assert!(fds < 200, "{fds} descriptors open");
    drop(idle);
    // Afterwards as well.
    let id = gui.open();
    gui.ok(&id, "setoption name Level value 2");
    assert_eq!(healthy(&gui), 1);
}

#[test]
fn request_bodies_that_never_come_hold_up_no_one() {
    // With tiny_http, 39 such requests took every handler and then every request hung.
    let gui = Gui::start(&["--max-sessions", "3", "--body-timeout", "2"]);
    let id = gui.open();
    let head = format!(
        "POST /api/sessions/{id}/commands HTTP/1.1\r\nHost: {}\r\nContent-Length: 60000\r\n\r\nmove",
        gui.addr
    );
    let mut slow: Vec<TcpStream> = (0..60)
        .map(|_| {
            let mut s = connect(&gui);
            s.write_all(head.as_bytes()).unwrap();
            s
        })
        .collect();
    assert_eq!(healthy(&gui), 1);
    gui.ok(&id, "setoption name Level value 2");
    let (status, reply) = gui.command(&id, "undo");
    assert_eq!(status, 400, "{reply}");
    // Each silent body is answered 408 when its time is up.
    for s in slow.iter_mut().take(5) {
        let mut reply = Vec::new();
        let _ = s.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply);
        assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
        assert!(reply.contains("did not arrive in time"), "{reply}");
    }
    drop(slow);
    assert_eq!(healthy(&gui), 1);
}

#[test]
fn huge_headers_are_refused_without_buffering_them() {
    // tiny_http buffered a 200 MB header line whole, and answered 200.
    let gui = Gui::start(&[]);
    let pid = gui.child.id();
    healthy(&gui);
    let before = status_field(pid, "VmHWM:");
    let line = vec![b'a'; 1 << 20];
    for _ in 0..3 {
        let mut stream = connect(&gui);
        let head = format!("GET /api/health HTTP/1.1\r\nHost: {}\r\nX-Big: ", gui.addr);
        stream.write_all(head.as_bytes()).unwrap();
        // 64 MB at most; the server stops reading long before.
        for _ in 0..64 {
            if stream.write_all(&line).is_err() {
                break;
            }
        }
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply);
        assert!(
            reply.is_empty() || reply.starts_with("HTTP/1.1 431"),
            "{reply}"
        );
    }
    let after = status_field(pid, "VmHWM:");
    assert!(
        after < before + 32 * 1024,
        "peak memory went from {before} kB to {after} kB"
    );
    // Too many header lines are refused too.
    let many: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    let (status, _) = gui.raw("GET", "/api/health", &many, b"");
    assert_eq!(status, 431);
    assert_eq!(healthy(&gui), 0);
}

#[test]
fn a_slow_header_is_cut_off_and_the_server_goes_on() {
    let gui = Gui::start(&["--header-timeout", "1"]);
    let mut stream = connect(&gui);
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(b"GET /api/health HTTP/1.1\r\nHo").unwrap();
    let mut reply = Vec::new();
    // Closed by the server (408 or no answer), not by this test's read timeout.
    let read = stream.read_to_end(&mut reply);
    assert!(read.is_ok(), "{read:?}");
    let reply = String::from_utf8_lossy(&reply);
    assert!(
        reply.is_empty() || reply.starts_with("HTTP/1.1 408"),
        "{reply}"
    );
    healthy(&gui);
}

#[test]
fn idle_sockets_at_the_connection_cap_make_room_for_a_request() {
    // Without room made, the request would wait for the idle sockets' minute.
    let gui = Gui::start(&["--max-connections", "4", "--header-timeout", "60"]);
    let idle: Vec<TcpStream> = (0..20).map(|_| connect(&gui)).collect();
    assert_eq!(healthy(&gui), 0);
    let id = gui.open();
    gui.ok(&id, "setoption name Level value 2");
    drop(idle);
    assert_eq!(healthy(&gui), 1);
}
