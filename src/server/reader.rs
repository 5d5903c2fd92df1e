//! The reader thread: bytes from the GUI, cut into lines, parsed into messages.
//!
//! Input is read as bytes, so nothing the GUI sends can make it fail: a line that is
//! not UTF-8 or is longer than [`MAX_LINE_BYTES`] becomes an error event (the excess
//! of a long line is skipped, never stored), blank lines are dropped, and the end of
//! input or a read error becomes [`Event::Eof`].

use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::mpsc::Sender;

use super::Event;
use crate::protocol::Message;

/// The longest line accepted, in bytes; longer lines are answered with an error.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Reads lines until the end of input or `quit`, sending one event per non-blank line.
pub(super) fn read_lines(input: impl Read, events: Sender<Event>) {
    let mut input = BufReader::with_capacity(MAX_LINE_BYTES, input);
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading the input failed, treating it as its end: {e}");
                break;
            }
        };
        if chunk.is_empty() {
            // End of input: a last line without a line feed still counts.
            if length > 0 && !deliver(&line, length, &events) {
                return;
            }
            break;
        }
        let (taken, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&taken[..taken.len().min(room)]);
        length = length.saturating_add(taken.len());
        let ends_line = complete > taken.len();
        input.consume(complete);
        if ends_line {
            if !deliver(&line, length, &events) {
                return;
            }
            line.clear();
            length = 0;
        }
    }
    let _ = events.send(Event::Eof);
}

/// Turns one line into an event. Returns false when reading should stop (after
/// `quit`, or when nobody listens any more).
fn deliver(bytes: &[u8], length: usize, events: &Sender<Event>) -> bool {
    let Some(event) = line_event(bytes, length) else {
        return true;
    };
    let quit = matches!(event, Event::Line(Ok(Message::Quit)));
    events.send(event).is_ok() && !quit
}

/// The event for one line of `length` bytes, of which `bytes` were kept; `None` for a
/// blank line.
pub(super) fn line_event(bytes: &[u8], length: usize) -> Option<Event> {
    if length > MAX_LINE_BYTES {
        return Some(Event::Line(Err(format!(
            "the line is too long ({length} bytes): expected at most {MAX_LINE_BYTES} bytes per line"
        ))));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            return Some(Event::Line(Err(format!(
                "the line is not valid UTF-8 (bad byte at offset {}): expected UTF-8 text",
                e.valid_up_to()
            ))));
        }
    };
    if text.trim_matches([' ', '\t', '\r']).is_empty() {
        return None;
    }
    log::debug!("<< {text}");
    Some(Event::Line(text.parse().map_err(|e| format!("{e}"))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn events_of(input: &[u8]) -> Vec<String> {
        let (tx, rx) = mpsc::channel();
        read_lines(input, tx);
        rx.into_iter()
            .map(|event| match event {
                Event::Line(Ok(message)) => message.to_string(),
                Event::Line(Err(e)) => format!("error: {e}"),
                Event::Eof => "EOF".to_string(),
                Event::Done(_) => "done".to_string(),
            })
            .collect()
    }

    #[test]
    fn lines_are_split_and_blank_ones_dropped() {
        assert_eq!(
            events_of(b"isready\r\n\n  \t \nstop\nugi"),
            ["isready", "stop", "ugi", "EOF"]
        );
        assert_eq!(events_of(b""), ["EOF"]);
    }

    #[test]
    fn reading_stops_after_quit() {
        assert_eq!(events_of(b"isready\nquit\nugi\n"), ["isready", "quit"]);
    }

    #[test]
    fn invalid_utf8_is_an_error_line_and_reading_goes_on() {
        let events = events_of(b"is\xffready\nisready\n");
        assert_eq!(events.len(), 3, "{events:?}");
        assert!(events[0].contains("not valid UTF-8 (bad byte at offset 2)"));
        assert_eq!(events[1], "isready");
    }

    #[test]
    fn a_huge_line_is_an_error_line_and_reading_goes_on() {
        let mut input = vec![b'a'; 10 * 1024 * 1024];
        input.extend_from_slice(b"\nisready\n");
        let events = events_of(&input);
        assert_eq!(events.len(), 3, "{events:?}");
        assert!(
            events[0].contains("too long (10485760 bytes)"),
            "{}",
            events[0]
        );
        assert_eq!(events[1], "isready");
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        let mut input = b"info string ".to_vec();
        input.resize(MAX_LINE_BYTES, b'x');
        input.push(b'\n');
        let events = events_of(&input);
        assert!(
            events[0].starts_with("info string xxx"),
            "{}",
            &events[0][..40]
        );
    }
}
