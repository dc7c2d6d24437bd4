//! Transcript readers: one recorded message per line, read as a stream with byte offsets.
//!
//! - envelope JSONL `{"ts", "dir": "c2s"|"s2c", "msg": {..}, "session"?, "server"?}`;
//! - bare JSONL, one JSON-RPC message a line (direction inferred later);
//! - Claude Desktop logs, `mcp-server-<name>.log` (`TS [server] [level] Message from client: {..}`)
//!   and `mcp.log` (`TS [level] [server] ..`); other log lines are skipped.

use std::borrow::Cow;
use std::io::{self, BufRead};

use super::message::{Json, Parts, Span, string};
use super::scan::{self, Scanner};
use crate::walk::InputFormat;

/// Lines longer than this are skipped with a diagnostic instead of held in memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    ClientToServer,
    ServerToClient,
}

impl Dir {
    pub fn opposite(self) -> Dir {
        match self {
            Dir::ClientToServer => Dir::ServerToClient,
            Dir::ServerToClient => Dir::ClientToServer,
        }
    }
}

/// One physical line of the input.
pub struct Line<'b> {
    /// 1-based.
    pub number: usize,
    /// Byte offset of the line's first byte in the file.
    pub offset: usize,
    /// Without the line break; empty when the line was too long to keep.
    pub bytes: &'b [u8],
    pub too_long: bool,
}

/// Reads lines with their offsets, never holding more than [`MAX_LINE_BYTES`] of one line. A
/// line that lies whole in the reader's buffer is lent from it; one that does not is copied
/// into a buffer of our own.
pub struct Lines<R> {
    inner: R,
    number: usize,
    offset: usize,
    buf: Vec<u8>,
    /// The bytes of the line lent last, consumed when the next is read.
    lent: usize,
}

impl<R: BufRead> Lines<R> {
    pub fn new(inner: R) -> Self {
        Lines {
            inner,
            number: 0,
            offset: 0,
            buf: Vec::new(),
            lent: 0,
        }
    }

    /// The next line, valid until the next call.
    pub fn next_line(&mut self) -> Option<io::Result<Line<'_>>> {
        self.advance(true)
    }

    /// Moves past lines until the next one read is line `number` (1-based), without
    /// copying them; false at the end of the input.
    pub fn skip_to(&mut self, number: usize) -> io::Result<bool> {
        while self.number + 1 < number {
            match self.advance(false) {
                Some(line) => _ = line?,
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The next line; with `keep` false its bytes are not copied.
    fn advance(&mut self, keep: bool) -> Option<io::Result<Line<'_>>> {
        self.inner.consume(std::mem::take(&mut self.lent));
        let whole = self
            .inner
            .fill_buf()
            .ok()
            .and_then(|buf| memchr::memchr(b'\n', buf));
        if let Some(end) = whole {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) => return Some(Err(e)),
            };
            self.lent = end + 1;
            self.number += 1;
            let offset = self.offset;
            self.offset += end + 1;
            let (mut bytes, offset) = without_bom(&buf[..end], offset);
            while let [line @ .., b'\r'] = bytes {
                bytes = line;
            }
            return Some(Ok(Line {
                number: self.number,
                offset,
                bytes,
                too_long: false,
            }));
        }
        let (mut consumed, mut too_long) = (0usize, !keep);
        let bytes = &mut self.buf;
        bytes.clear();
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Some(Err(e)),
            };
            if buf.is_empty() {
                if consumed == 0 {
                    return None;
                }
                break;
            }
            let (take, done) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if !too_long && bytes.len() + take <= MAX_LINE_BYTES {
                bytes.extend_from_slice(&buf[..take]);
            } else if !too_long {
                too_long = true;
                *bytes = Vec::new();
            }
            self.inner.consume(take);
            consumed += take;
            if done {
                break;
            }
        }
        while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            bytes.pop();
        }
        self.number += 1;
        let (_, offset) = without_bom(bytes, self.offset);
        if offset != self.offset {
            bytes.drain(..BOM.len());
        }
        self.offset += consumed;
        Some(Ok(Line {
            number: self.number,
            offset,
            bytes,
            too_long,
        }))
    }
}

/// The UTF-8 byte order mark that Windows editors and PowerShell write at the start of a file.
pub const BOM: &[u8] = b"\xef\xbb\xbf";

/// A line's bytes and offset without a byte order mark, which only the file's start holds.
fn without_bom(bytes: &[u8], offset: usize) -> (&[u8], usize) {
    match bytes.strip_prefix(BOM) {
        Some(rest) if offset == 0 => (rest, BOM.len()),
        _ => (bytes, offset),
    }
}

/// Where a message was read: the direction and session recorded with it, and the text its
/// JSON sits in.
pub struct Origin<'l> {
    pub dir: Option<Dir>,
    /// The recording's session key (`session`, or the Claude server name).
    pub session: Option<String>,
    /// The line's text and the path of the message in it (`["msg"]` for envelopes).
    pub text: &'l str,
    /// Byte offset of `text` in the file.
    pub text_offset: usize,
    pub path: &'static [&'static str],
}

pub enum Parsed<'l> {
    /// A message, or a batch of them, in `origin.text`: the parts of each.
    Message {
        origin: Origin<'l>,
        /// As spans in `origin.text`.
        parts: Vec<Parts<Span>>,
    },
    /// Not a message (blank, or a Claude log line that is not traffic).
    Skip,
    /// A line that should be a message but is not, and why.
    Broken(String),
    /// A message the recorder cut short: its exchange is closed but cannot be judged.
    Truncated {
        dir: Dir,
        session: Option<String>,
        /// The id, as [`Json::id_key`] writes it.
        id: Option<String>,
    },
}

/// The format a transcript's first non-blank line shows, if it shows one: a Claude Desktop
/// log line, an envelope, or a bare JSON-RPC message. `None` when the line is none of them.
pub fn detect(first_line: &str) -> Option<InputFormat> {
    let trimmed = first_line.trim_start();
    if is_claude_line(trimmed) {
        return Some(InputFormat::Claude);
    }
    match scan::members(
        trimmed,
        &["msg", "dir", "jsonrpc", "method", "result", "error"],
    ) {
        Ok(Some([Some(_), Some(_), ..])) => Some(InputFormat::Envelope),
        Ok(Some([_, _, rest @ ..])) if rest.iter().any(Option::is_some) => Some(InputFormat::Jsonl),
        _ => None,
    }
}

fn is_claude_line(line: &str) -> bool {
    line.len() > 24
        && line.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && line.as_bytes()[4] == b'-'
        && line.contains(" [")
        && line
            .split_once(" [")
            .is_some_and(|(ts, _)| ts.contains('T'))
}

pub fn parse_line(format: InputFormat, text: &str, offset: usize) -> Parsed<'_> {
    if text.trim().is_empty() {
        return Parsed::Skip;
    }
    match format {
        InputFormat::Envelope => envelope(text, offset),
        InputFormat::Claude => claude(text, offset),
        InputFormat::Jsonl | InputFormat::Auto | InputFormat::Har | InputFormat::Inspector => {
            match scan::messages(text) {
                Ok(parts) => Parsed::Message {
                    origin: Origin {
                        dir: None,
                        session: None,
                        text,
                        text_offset: offset,
                        path: &[],
                    },
                    parts,
                },
                Err(fault) => Parsed::Broken(format!("this line {}", fault.describe(text))),
            }
        }
    }
}

fn envelope(text: &str, offset: usize) -> Parsed<'_> {
    let mut scanner = Scanner::new(text);
    let (mut found, mut msg) = ([None; 3], None);
    let object = scanner
        .object(|s, key| {
            if key == "msg" {
                // One message is the rule, a batch the exception.
                let mut parts = Vec::with_capacity(1);
                s.messages(&mut parts)?;
                msg = Some(parts);
                return Ok(true);
            }
            let Some(k) = ["dir", "session", "server"].iter().position(|k| *k == key) else {
                return Ok(false);
            };
            found[k] = Some(s.value()?);
            Ok(true)
        })
        .and_then(|object| scanner.end().map(|()| object));
    let (Ok(Some(_)), Some(parts)) = (&object, msg) else {
        return Parsed::Broken(match object {
            Err(fault) => format!("this line {}", fault.describe(text)),
            Ok(_) => "this envelope has no `msg`".to_string(),
        });
    };
    let [dir, session, server] = found;
    let dir = match string(dir).as_deref() {
        Some("c2s" | "client->server" | "client_to_server" | "send") => Some(Dir::ClientToServer),
        Some("s2c" | "server->client" | "server_to_client" | "recv") => Some(Dir::ServerToClient),
        _ => None,
    };
    // A string key as it is; any other value as compact JSON.
    let key = |part: Option<Json>| {
        part.map(|part| part.string().map_or_else(|| part.id_key(), Cow::into_owned))
    };
    let session = match (key(server), key(session)) {
        (None, None) => None,
        (server, session) => Some(format!(
            "{}/{}",
            server.unwrap_or_default(),
            session.unwrap_or_default()
        )),
    };
    Parsed::Message {
        origin: Origin {
            dir,
            session,
            text,
            text_offset: offset,
            path: &["msg"],
        },
        parts,
    }
}

/// `TS [a] [b] Message from client: {json} { metadata: undefined }`; the server is whichever
/// bracket is not a log level.
fn claude(text: &str, offset: usize) -> Parsed<'_> {
    let (dir, marker) = if let Some(i) = text.find("Message from client: ") {
        (Dir::ClientToServer, i + "Message from client: ".len())
    } else if let Some(i) = text.find("Message from server: ") {
        (Dir::ServerToClient, i + "Message from server: ".len())
    } else {
        return Parsed::Skip;
    };
    let server = text[..marker]
        .split('[')
        .skip(1)
        .filter_map(|part| part.split_once(']').map(|(name, _)| name))
        .find(|name| {
            !matches!(
                *name,
                "info" | "warn" | "warning" | "error" | "debug" | "trace"
            )
        })
        .map(str::to_string);
    let json = &text[marker..];
    // The message is the first value; what follows it (`{ metadata: undefined }`) is not.
    let mut parts = Vec::with_capacity(1);
    match Scanner::new(json).messages(&mut parts) {
        Ok(_) => Parsed::Message {
            origin: Origin {
                dir: Some(dir),
                session: server,
                text: json,
                text_offset: offset + marker,
                path: &[],
            },
            parts,
        },
        _ if json.contains(" chars truncated]") => Parsed::Truncated {
            dir,
            session: server,
            id: leading_id(json),
        },
        _ if json.trim().is_empty() => {
            Parsed::Broken("the message on this line is empty".to_string())
        }
        Err(fault) => Parsed::Broken(format!("the message on this line {}", fault.describe(json))),
    }
}

/// The `id` of a cut message, from its intact start (`{"jsonrpc":"2.0","id":4,...`).
fn leading_id(json: &str) -> Option<String> {
    let mut cut = json.len().min(200);
    while !json.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &json[..cut];
    let after = &head[head.find("\"id\":")? + 5..];
    let id = Scanner::new(after).value().ok()?;
    matches!(id.text().as_bytes()[0], b'"' | b'-' | b'0'..=b'9').then(|| id.id_key())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_offsets_and_strip_crlf() {
        let text = "a\r\r\n\nbc";
        let read = |mut lines: Lines<_>| {
            let mut seen = Vec::new();
            while let Some(line) = lines.next_line() {
                let line = line.unwrap();
                seen.push((line.number, line.offset, line.bytes.to_vec()));
            }
            seen
        };
        let seen = read(Lines::new(io::BufReader::new(text.as_bytes())));
        // Lines that do not lie whole in the reader's buffer are copied, with the same result.
        let copied = read(Lines::new(io::BufReader::with_capacity(2, text.as_bytes())));
        assert_eq!(seen, copied);
        assert_eq!(
            seen,
            [
                (1, 0, b"a".to_vec()),
                (2, 4, b"".to_vec()),
                (3, 5, b"bc".to_vec())
            ]
        );
    }

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect(r#"{"ts":"t","dir":"c2s","msg":{}}"#),
            Some(InputFormat::Envelope)
        );
        assert_eq!(
            detect(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Some(InputFormat::Jsonl)
        );
        let claude = r#"2025-07-30T21:16:29.756Z [info] [memory] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(detect(claude), Some(InputFormat::Claude));
        assert_eq!(detect(r#"{"hello":"world"}"#), None);
        assert_eq!(detect("fn main() {}"), None);
    }

    #[test]
    fn claude_lines_in_both_layouts() {
        for line in [
            r#"2025-07-12T05:51:44.601Z [Desktop Commander] [info] Message from server: {"jsonrpc":"2.0","id":0,"result":{}} { metadata: undefined }"#,
            r#"2025-07-30T21:16:29.756Z [info] [Desktop Commander] Message from server: {"jsonrpc":"2.0","id":0,"result":{}}"#,
        ] {
            let Parsed::Message { origin, parts } = parse_line(InputFormat::Claude, line, 10)
            else {
                panic!("{line}")
            };
            let msg = parts[0].resolve(origin.text).message.text();
            assert_eq!(origin.dir, Some(Dir::ServerToClient));
            assert_eq!(origin.session.as_deref(), Some("Desktop Commander"));
            assert_eq!(msg, r#"{"jsonrpc":"2.0","id":0,"result":{}}"#);
            assert_eq!(&line[origin.text_offset - 10..][..1], "{");
        }
        let skip =
            "2025-07-12T05:51:44.599Z [chatlog] [info] Server started and connected successfully";
        assert!(matches!(
            parse_line(InputFormat::Claude, skip, 0),
            Parsed::Skip
        ));
        let cut = r#"2025-07-12T05:51:44.601Z [x] [info] Message from server: {"jsonrpc":"2.0","id":4,"result":{"content":[{"text":"ab...[14696 chars truncated]...":1}]}} { metadata: undefined }"#;
        let Parsed::Truncated { id, .. } = parse_line(InputFormat::Claude, cut, 0) else {
            panic!("not truncated")
        };
        assert_eq!(id.as_deref(), Some("4"));
        // Cut inside a character: the id is still read, nothing panics.
        let cut = format!(
            r#"2025-07-12T05:51:44.601Z [x] [info] Message from server: {{"id":"{}é...[9 chars truncated]"#,
            "a".repeat(192)
        );
        assert!(matches!(
            parse_line(InputFormat::Claude, &cut, 0),
            Parsed::Truncated { id: None, .. }
        ));
    }

    #[test]
    fn envelopes_read_what_they_hold() {
        let read = |line: &str| match parse_line(InputFormat::Envelope, line, 0) {
            Parsed::Message { origin, parts } => Ok((
                origin.dir,
                origin.session,
                parts[0].resolve(origin.text).message.text().to_string(),
            )),
            Parsed::Broken(why) => Err(why),
            _ => Err("skipped".to_string()),
        };
        let line = r#"{"ts":"x","dir":"c\u0032s","session":null,"server":{"a": 1},"msg":{"id":1}}"#;
        assert_eq!(
            read(line),
            Ok((
                Some(Dir::ClientToServer),
                Some(r#"{"a":1}/null"#.to_string()),
                r#"{"id":1}"#.to_string()
            ))
        );
        assert_eq!(
            read(r#"{"dir":"s2c","msg":null}"#),
            Ok((Some(Dir::ServerToClient), None, "null".to_string()))
        );
        // A key twice is read as JSON reads it: the last one wins.
        assert_eq!(
            read(r#"{"msg":{"id":1},"msg":{"id":2}}"#).map(|r| r.2),
            Ok(r#"{"id":2}"#.to_string())
        );
        let no_msg = Err("this envelope has no `msg`".to_string());
        assert_eq!(read("[1, 2]"), no_msg);
        assert_eq!(read(r#"{"dir":"c2s"}"#), no_msg);
        assert!(read("{").is_err_and(|e| e.starts_with("this line is not JSON")));
    }
}
