//! The reader thread: bytes from the GUI, cut into lines, parsed into messages.
//!
//! Input is read as bytes, so nothing the GUI sends can make it fail: a line that is
//! not UTF-8 or is longer than [`MAX_LINE_BYTES`] becomes an error event (the excess
//! of a long line is skipped, never stored), blank lines are dropped, and the end of
//! input or a read error becomes [`Event::Eof`].
//!
//! At most [`READ_AHEAD`] lines are read ahead of the session (a [`Credit`] counts
//! them): beyond that the reader waits, the input pipe fills, and the writer is held
//! back instead of the engine's memory growing.

use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};

use super::Event;
use crate::protocol::Message;

/// The longest line accepted, in bytes (the protocol's limit); longer lines are answered
/// with an error.
pub use crate::protocol::MAX_LINE_BYTES;

/// Lines read but not yet carried out, at most: the commands a caller may send
/// ahead of a running search without waiting.
pub const READ_AHEAD: usize = 1024;

/// The count of lines read and not yet carried out, shared by the reader (which
/// takes one per line) and the session (which gives it back once it has handled
/// the line).
#[derive(Clone, Default)]
pub(super) struct Credit {
    taken: Arc<(Mutex<usize>, Condvar)>,
}

impl Credit {
    /// Takes one line's credit, first waiting while [`READ_AHEAD`] lines are
    /// outstanding, unless `urgent` (`stop` and `quit` never wait).
    fn take(&self, urgent: bool) {
        let (count, freed) = &*self.taken;
        let mut count = count.lock().unwrap_or_else(|e| e.into_inner());
        while !urgent && *count >= READ_AHEAD {
            count = freed.wait(count).unwrap_or_else(|e| e.into_inner());
        }
        *count += 1;
    }

    /// Gives back the credit of one line that has been handled.
    pub fn give_back(&self) {
        let (count, freed) = &*self.taken;
        let mut count = count.lock().unwrap_or_else(|e| e.into_inner());
        *count = count.saturating_sub(1);
        freed.notify_one();
    }
}

/// Reads lines until the end of input or `quit`, sending one event per non-blank line.
#[cfg(test)]
pub(super) fn read_lines(input: impl Read, events: Sender<Event>) {
    read_lines_within(input, events, &Credit::default());
}

/// Reads lines as [`read_lines`] does, taking one credit per line sent.
pub(super) fn read_lines_within(input: impl Read, events: Sender<Event>, credit: &Credit) {
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
            if length > 0 && !deliver(&line, length, &events, credit) {
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
            if !deliver(&line, length, &events, credit) {
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
fn deliver(bytes: &[u8], length: usize, events: &Sender<Event>, credit: &Credit) -> bool {
    let Some(event) = line_event(bytes, length) else {
        return true;
    };
    let quit = matches!(event, Event::Line(Ok(Message::Quit)));
    credit.take(quit || matches!(event, Event::Line(Ok(Message::Stop))));
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
    fn the_reader_waits_while_too_many_lines_are_outstanding() {
        let (tx, rx) = mpsc::channel();
        let credit = Credit::default();
        let reader_credit = credit.clone();
        let input = "d\n".repeat(READ_AHEAD + 10) + "stop\n";
        let reader =
            std::thread::spawn(move || read_lines_within(input.as_bytes(), tx, &reader_credit));
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(
            rx.try_iter().count(),
            READ_AHEAD,
            "no more than the read-ahead"
        );
        for _ in 0..20 {
            credit.give_back();
        }
        reader.join().expect("the reader ends");
        // The last ten lines, then stop and the end of input.
        assert_eq!(rx.try_iter().count(), 12);
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
