//! Transcript readers: one recorded message per line, read as a stream with byte offsets.
//!
//! - envelope JSONL `{"ts", "dir": "c2s"|"s2c", "msg": {..}, "session"?, "server"?}`;
//! - bare JSONL, one JSON-RPC message a line (direction inferred later);
//! - Claude Desktop logs, `mcp-server-<name>.log` (`TS [server] [level] Message from client: {..}`)
//!   and `mcp.log` (`TS [level] [server] ..`); other log lines are skipped.

use std::io::{self, BufRead};

use serde_json::Value;
use serde_json::value::RawValue;

/// Lines longer than this are skipped with a diagnostic instead of held in memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Detect from the first line
    Auto,
    /// `{"ts", "dir", "msg"}` per line
    Envelope,
    /// One JSON-RPC message per line
    Jsonl,
    /// Claude Desktop `mcp.log` / `mcp-server-<name>.log`
    Claude,
    /// HAR capture of Streamable HTTP (JSON or `text/event-stream` bodies)
    Har,
    /// MCP Inspector export (a JSON array of `{direction, message}`)
    Inspector,
}

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
pub struct Line {
    /// 1-based.
    pub number: usize,
    /// Byte offset of the line's first byte in the file.
    pub offset: usize,
    /// Without the line break; empty when the line was too long to keep.
    pub bytes: Vec<u8>,
    pub too_long: bool,
}

/// Reads lines with their offsets, never holding more than [`MAX_LINE_BYTES`] of one line.
pub struct Lines<R> {
    inner: R,
    number: usize,
    offset: usize,
}

impl<R: BufRead> Lines<R> {
    pub fn new(inner: R) -> Self {
        Lines {
            inner,
            number: 0,
            offset: 0,
        }
    }

    /// Moves past lines until the next one read is line `number` (1-based), without
    /// copying them; false at the end of the input.
    pub fn skip_to(&mut self, number: usize) -> io::Result<bool> {
        while self.number + 1 < number {
            match self.advance(false) {
                Some(line) => drop(line?),
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The next line; with `keep` false its bytes are not copied.
    fn advance(&mut self, keep: bool) -> Option<io::Result<Line>> {
        let (mut bytes, mut consumed, mut too_long) = (Vec::new(), 0usize, !keep);
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
                bytes = Vec::new();
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
        let line = Line {
            number: self.number,
            offset: self.offset,
            bytes,
            too_long,
        };
        self.offset += consumed;
        Some(Ok(line))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<io::Result<Line>> {
        self.advance(true)
    }
}

/// A message read from a line, with where its JSON text sits.
pub struct Record<'l> {
    pub dir: Option<Dir>,
    /// The recording's session key (`session`, or the Claude server name).
    pub session: Option<String>,
    pub msg: Value,
    /// The line's text and the path of the message in it (`["msg"]` for envelopes).
    pub text: &'l str,
    /// Byte offset of `text` in the file.
    pub text_offset: usize,
    pub path: &'static [&'static str],
}

pub enum Parsed<'l> {
    Record(Record<'l>),
    /// Not a message (blank, or a Claude log line that is not traffic).
    Skip,
    /// A line that should be a message but is not, and why.
    Broken(String),
    /// A message the recorder cut short: its exchange is closed but cannot be judged.
    Truncated {
        dir: Dir,
        session: Option<String>,
        id: Option<Value>,
    },
}

/// Picks the format of a transcript from its first non-blank line.
pub fn detect(first_line: &str) -> InputFormat {
    let trimmed = first_line.trim_start();
    if is_claude_line(trimmed) {
        return InputFormat::Claude;
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(o)) if o.contains_key("msg") && o.contains_key("dir") => {
            InputFormat::Envelope
        }
        _ => InputFormat::Jsonl,
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
            match serde_json::from_str::<Value>(text) {
                Ok(msg) => Parsed::Record(Record {
                    dir: None,
                    session: None,
                    msg,
                    text,
                    text_offset: offset,
                    path: &[],
                }),
                Err(e) => Parsed::Broken(format!("this line is not JSON ({e})")),
            }
        }
    }
}

/// The fields of an envelope line, borrowed: the rest (`ts`) is skipped unparsed.
#[derive(serde::Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    dir: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    session: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    server: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    msg: Option<Value>,
}

/// A field that is there, `null` included (`Option` alone would read `null` as absent).
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

fn envelope(text: &str, offset: usize) -> Parsed<'_> {
    let envelope: Envelope = match serde_json::from_str(text) {
        Ok(envelope) => envelope,
        // Not an object, or a key twice (whose `dir` and session are then not read): read it
        // whole, as any JSON, to say which.
        Err(_) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(mut fields)) => Envelope {
                dir: None,
                session: None,
                server: None,
                msg: fields.remove("msg"),
            },
            Ok(_) => Envelope {
                dir: None,
                session: None,
                server: None,
                msg: None,
            },
            Err(e) => return Parsed::Broken(format!("this line is not JSON ({e})")),
        },
    };
    let as_str = |raw: &RawValue| serde_json::from_str::<std::borrow::Cow<str>>(raw.get()).ok();
    let dir = match envelope.dir.and_then(as_str).as_deref() {
        Some("c2s" | "client->server" | "client_to_server" | "send") => Some(Dir::ClientToServer),
        Some("s2c" | "server->client" | "server_to_client" | "recv") => Some(Dir::ServerToClient),
        _ => None,
    };
    let Some(msg) = envelope.msg else {
        return Parsed::Broken("this envelope has no `msg`".to_string());
    };
    // A string key as it is; any other value as compact JSON.
    let key = |raw: Option<&RawValue>| {
        raw.map(|raw| match as_str(raw) {
            Some(s) => s.into_owned(),
            None => serde_json::from_str::<Value>(raw.get())
                .map_or_else(|_| raw.get().to_string(), |v| v.to_string()),
        })
    };
    let session = match (key(envelope.server), key(envelope.session)) {
        (None, None) => None,
        (server, session) => Some(format!(
            "{}/{}",
            server.unwrap_or_default(),
            session.unwrap_or_default()
        )),
    };
    Parsed::Record(Record {
        dir,
        session,
        msg,
        text,
        text_offset: offset,
        path: &["msg"],
    })
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
    let mut stream = serde_json::Deserializer::from_str(json).into_iter::<Value>();
    match stream.next() {
        Some(Ok(msg)) => Parsed::Record(Record {
            dir: Some(dir),
            session: server,
            msg,
            text: json,
            text_offset: offset + marker,
            path: &[],
        }),
        _ if json.contains(" chars truncated]") => Parsed::Truncated {
            dir,
            session: server,
            id: leading_id(json),
        },
        Some(Err(e)) => Parsed::Broken(format!("the message on this line is not JSON ({e})")),
        None => Parsed::Broken("the message on this line is empty".to_string()),
    }
}

/// The `id` of a cut message, from its intact start (`{"jsonrpc":"2.0","id":4,...`).
fn leading_id(json: &str) -> Option<Value> {
    let head = &json[..json.len().min(200)];
    let after = &head[head.find("\"id\":")? + 5..];
    let mut stream = serde_json::Deserializer::from_str(after.trim_start()).into_iter::<Value>();
    stream
        .next()?
        .ok()
        .filter(|id| id.is_number() || id.is_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_offsets_and_strip_crlf() {
        let lines: Vec<Line> = Lines::new("a\r\n\nbc".as_bytes())
            .map(Result::unwrap)
            .collect();
        let seen: Vec<(usize, usize, &[u8])> = lines
            .iter()
            .map(|l| (l.number, l.offset, &l.bytes[..]))
            .collect();
        assert_eq!(
            seen,
            [(1, 0, &b"a"[..]), (2, 3, &b""[..]), (3, 4, &b"bc"[..])]
        );
    }

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect(r#"{"ts":"t","dir":"c2s","msg":{}}"#),
            InputFormat::Envelope
        );
        assert_eq!(
            detect(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            InputFormat::Jsonl
        );
        let claude = r#"2025-07-30T21:16:29.756Z [info] [memory] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(detect(claude), InputFormat::Claude);
    }

    #[test]
    fn claude_lines_in_both_layouts() {
        for line in [
            r#"2025-07-12T05:51:44.601Z [Desktop Commander] [info] Message from server: {"jsonrpc":"2.0","id":0,"result":{}} { metadata: undefined }"#,
            r#"2025-07-30T21:16:29.756Z [info] [Desktop Commander] Message from server: {"jsonrpc":"2.0","id":0,"result":{}}"#,
        ] {
            let Parsed::Record(r) = parse_line(InputFormat::Claude, line, 10) else {
                panic!("{line}")
            };
            assert_eq!(r.dir, Some(Dir::ServerToClient));
            assert_eq!(r.session.as_deref(), Some("Desktop Commander"));
            assert_eq!(r.msg["id"], 0);
            assert_eq!(&line[r.text_offset - 10..][..1], "{");
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
        assert_eq!(id, Some(serde_json::json!(4)));
    }

    #[test]
    fn envelopes_read_what_they_hold() {
        let read = |line: &str| match parse_line(InputFormat::Envelope, line, 0) {
            Parsed::Record(r) => Ok((r.dir, r.session, r.msg)),
            Parsed::Broken(why) => Err(why),
            _ => Err("skipped".to_string()),
        };
        let line = r#"{"ts":"x","dir":"c\u0032s","session":null,"server":{"a": 1},"msg":{"id":1}}"#;
        assert_eq!(
            read(line),
            Ok((
                Some(Dir::ClientToServer),
                Some(r#"{"a":1}/null"#.to_string()),
                serde_json::json!({"id": 1})
            ))
        );
        assert_eq!(
            read(r#"{"dir":"s2c","msg":null}"#),
            Ok((Some(Dir::ServerToClient), None, Value::Null))
        );
        // A key twice is read as JSON reads it: the last one wins.
        assert_eq!(
            read(r#"{"msg":{"id":1},"msg":{"id":2}}"#).map(|r| r.2),
            Ok(serde_json::json!({"id": 2}))
        );
        let no_msg = Err("this envelope has no `msg`".to_string());
        assert_eq!(read("[1, 2]"), no_msg);
        assert_eq!(read(r#"{"dir":"c2s"}"#), no_msg);
        assert!(read("{").is_err_and(|e| e.starts_with("this line is not JSON")));
    }
}
