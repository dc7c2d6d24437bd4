//! Server-sent events (`text/event-stream`) decoded as they arrive, for the probe's HTTP
//! transport, `record --listen` and HAR bodies alike: the `data` of each event as the W3C
//! EventSource algorithm gives it (lines end in CRLF, LF or CR; `data:` lines join with LF;
//! comments and other fields are skipped), except that events with blank data (a stream's
//! priming event) are not given, and an event cut short by the end of the stream is.

/// What an event brought.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    Data(String),
    /// Data over the decoder's limit: not held, so not given.
    TooLarge,
}

pub struct Events {
    limit: usize,
    line: Vec<u8>,
    data: Vec<u8>,
    /// The line being read, or the event, went over the limit.
    line_over: bool,
    event_over: bool,
    /// The last byte fed was a CR: an LF first in the next feed ends no further line.
    after_cr: bool,
}

impl Events {
    /// A decoder that holds at most `limit` bytes of an event.
    pub fn new(limit: usize) -> Self {
        Events {
            limit,
            line: Vec::new(),
            data: Vec::new(),
            line_over: false,
            event_over: false,
            after_cr: false,
        }
    }

    /// Decodes `bytes`, the next of the stream, giving each event they complete to `event`.
    pub fn feed(&mut self, mut bytes: &[u8], event: &mut impl FnMut(Event)) {
        if std::mem::take(&mut self.after_cr) {
            bytes = bytes.strip_prefix(b"\n").unwrap_or(bytes);
        }
        while let Some(end) = memchr::memchr2(b'\n', b'\r', bytes) {
            self.extend_line(&bytes[..end]);
            self.end_line(event);
            let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
            self.after_cr = bytes[end] == b'\r' && end + 1 == bytes.len();
            bytes = &bytes[end + 1 + usize::from(crlf)..];
        }
        self.extend_line(bytes);
    }

    /// The stream has ended: what is left of it is the last event.
    pub fn finish(&mut self, event: &mut impl FnMut(Event)) {
        if !self.line.is_empty() || self.line_over {
            self.end_line(event);
        }
        self.dispatch(event);
    }

    fn extend_line(&mut self, part: &[u8]) {
        // A line holds its field's name too.
        if self.line.len() + part.len() > self.limit.saturating_add(8) {
            self.line_over = true;
            self.line.clear();
        } else if !self.line_over {
            self.line.extend_from_slice(part);
        }
    }

    fn end_line(&mut self, event: &mut impl FnMut(Event)) {
        let line = std::mem::take(&mut self.line);
        if std::mem::take(&mut self.line_over) {
            self.event_over = true;
        } else if line.is_empty() {
            self.dispatch(event);
        } else if let Some(value) = line.strip_prefix(b"data") {
            let value = match value.strip_prefix(b":") {
                Some(value) => value.strip_prefix(b" ").unwrap_or(value),
                None if value.is_empty() => value,
                None => return, // a field whose name merely starts with `data`
            };
            if self.data.len() + value.len() + 1 > self.limit {
                self.event_over = true;
                self.data.clear();
            } else if !self.event_over {
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
        }
    }

    fn dispatch(&mut self, event: &mut impl FnMut(Event)) {
        let data = std::mem::take(&mut self.data);
        if std::mem::take(&mut self.event_over) {
            event(Event::TooLarge);
            return;
        }
        let data = data.strip_suffix(b"\n").unwrap_or(&data);
        let text = String::from_utf8_lossy(data);
        if !text.trim().is_empty() {
            event(Event::Data(text.into_owned()));
        }
    }
}

/// The events of a whole body.
pub fn events(body: &[u8], limit: usize) -> Vec<Event> {
    let mut decoder = Events::new(limit);
    let mut events = Vec::new();
    let mut give = |e| events.push(e);
    decoder.feed(body, &mut give);
    decoder.finish(&mut give);
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(events: Vec<Event>) -> Vec<String> {
        events
            .into_iter()
            .map(|e| match e {
                Event::Data(d) => d,
                Event::TooLarge => "<too large>".to_string(),
            })
            .collect()
    }

    #[test]
    fn events_in_every_line_ending() {
        let body = b": hi\r\nid: 0\r\ndata:\r\n\r\ndata: {\"id\":1}\r\n\r\ndata: {\"a\":\rdata:2}\n\nevent: x\ndata";
        let all = data(events(body, usize::MAX));
        assert_eq!(all, ["{\"id\":1}", "{\"a\":\n2}"]);
    }

    #[test]
    fn the_same_events_whatever_the_chunks() {
        let body = b"data: {\"id\":1}\r\n\r\ndata: one\r\ndata: two\r\n\r\ndatum: no\n\ndata:last";
        let whole = data(events(body, usize::MAX));
        assert_eq!(whole, ["{\"id\":1}", "one\ntwo", "last"]);
        for size in 1..body.len() {
            let mut decoder = Events::new(usize::MAX);
            let mut got = Vec::new();
            let mut give = |e| got.push(e);
            for chunk in body.chunks(size) {
                decoder.feed(chunk, &mut give);
            }
            decoder.finish(&mut give);
            assert_eq!(data(got), whole, "chunks of {size}");
        }
    }

    #[test]
    fn an_event_over_the_limit_is_not_held() {
        let body = b"data: 0123456789a\n\ndata: 01234\ndata: 5678\n\ndata: 0123\ndata: 4\n\n";
        let all = data(events(body, 10));
        assert_eq!(all, ["<too large>", "<too large>", "0123\n4"]);
        let long_line = format!("data: {}\n\ndata: 0\n\n", "x".repeat(100));
        assert_eq!(data(events(long_line.as_bytes(), 10)), ["<too large>", "0"]);
    }
}
