//! How the probe reaches a server: a child process over stdio, or Streamable HTTP.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio as Piped};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::version::VERSION_KEY;
use crate::transcript::read::{Lines, MAX_LINE_BYTES};
use crate::transcript::sse::{Event, Events};

/// What waiting for the server's next message gave.
pub enum Received {
    /// One message as it came (a line of stdout, an HTTP body or SSE event).
    Message(Vec<u8>),
    /// No answer is coming to what was sent: nothing came by the deadline, or the HTTP
    /// request failed (why, when known).
    Unanswered(Option<String>),
    /// The server has gone; why, as a sentence.
    Gone(String),
    /// A message over [`MAX_LINE_BYTES`] came, taken for the answer: it was not read, as the
    /// audit reads no line over that size, so what it says cannot be judged.
    TooLarge,
}

pub trait Transport {
    /// Sends one message; an error means the server can no longer be reached, and says why.
    fn send(&mut self, msg: &Value) -> io::Result<()>;
    fn receive(&mut self, deadline: Instant) -> Received;
    /// Whether requests can be in flight together, their answers coming as they come.
    fn pipelines(&self) -> bool;
    /// Ends the session; returns what the server left behind worth showing when it failed
    /// (its stderr's last lines).
    fn close(&mut self) -> String;
    /// Starts the server again after it went away, where the probe started it.
    fn restart(&mut self) -> io::Result<()>;
}

/// The last bytes of the server's stderr kept for a failure report.
const STDERR_TAIL_BYTES: usize = 4096;

/// A server run as a child process, one JSON-RPC message per line.
pub struct Stdio {
    command: Vec<OsString>,
    child: Child,
    /// Lines for the thread that writes the server's stdin: a server that stops reading
    /// blocks that thread, never the probe, whose timeouts then say so.
    stdin: Option<Sender<Vec<u8>>>,
    stdin_failed: Arc<AtomicBool>,
    /// The server's stdout lines; `None` for one over [`MAX_LINE_BYTES`], which is not kept.
    lines: Receiver<Option<Vec<u8>>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Stdio {
    pub fn spawn(command: &[OsString]) -> io::Result<Stdio> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::other("no server command after `--`"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Piped::piped())
            .stdout(Piped::piped())
            .stderr(Piped::piped())
            .spawn()
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot start `{}`: {e}", program.display()),
                )
            })?;
        let stdout = child.stdout.take().expect("piped");
        // Bounded both ways, as the audit is: a line over the limit is not held, and the
        // reader waits while the probe is behind.
        let (sender, lines) = sync_channel(4);
        thread::spawn(move || {
            let mut stdout = Lines::new(BufReader::new(stdout));
            while let Some(Ok(line)) = stdout.next_line() {
                let kept = (!line.too_long).then(|| line.bytes.to_vec());
                if sender.send(kept).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let mut child_stderr = child.stderr.take().expect("piped");
        thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n @ 1..) = child_stderr.read(&mut buf) {
                let Ok(mut tail) = tail.lock() else { break };
                tail.extend(&buf[..n]);
                let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                tail.drain(..excess);
            }
        });
        let (lines_in, to_write) = channel::<Vec<u8>>();
        let stdin_failed = Arc::new(AtomicBool::new(false));
        let failed = Arc::clone(&stdin_failed);
        let mut child_stdin: ChildStdin = child.stdin.take().expect("piped");
        thread::spawn(move || {
            for line in to_write {
                if child_stdin
                    .write_all(&line)
                    .and_then(|()| child_stdin.flush())
                    .is_err()
                {
                    failed.store(true, Ordering::Relaxed);
                    break;
                }
            }
        });
        Ok(Stdio {
            command: command.to_vec(),
            stdin: Some(lines_in),
            stdin_failed,
            child,
            lines,
            stderr,
        })
    }

    /// Why the server can no longer be reached, given a moment for its exit to be reaped.
    fn gone(&mut self, otherwise: &str) -> String {
        for _ in 0..10 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("the server exited ({status})");
            }
            thread::sleep(Duration::from_millis(10));
        }
        otherwise.to_string()
    }
}

impl Transport for Stdio {
    fn send(&mut self, msg: &Value) -> io::Result<()> {
        let mut line = msg.to_string().into_bytes();
        line.push(b'\n');
        // Only the writes before this one can have failed yet: whether this one reaches the
        // server is for its answer to show. Checked after queueing, the outcome of a request
        // sent just behind one that kills the server would depend on the scheduler.
        let failed = self.stdin_failed.load(Ordering::Relaxed);
        let sent = !failed && self.stdin.as_ref().is_some_and(|s| s.send(line).is_ok());
        match sent {
            true => Ok(()),
            false => Err(io::Error::other(
                self.gone("the server stopped reading its stdin"),
            )),
        }
    }

    fn receive(&mut self, deadline: Instant) -> Received {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => Received::Message(line),
            Ok(None) => Received::TooLarge,
            Err(RecvTimeoutError::Timeout) => Received::Unanswered(None),
            Err(RecvTimeoutError::Disconnected) => {
                Received::Gone(self.gone("the server closed its stdout"))
            }
        }
    }

    fn pipelines(&self) -> bool {
        true
    }

    fn restart(&mut self) -> io::Result<()> {
        self.close();
        *self = Stdio::spawn(&self.command)?;
        Ok(())
    }

    fn close(&mut self) -> String {
        // Closing stdin is how a stdio server is asked to stop; then it gets a moment.
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let tail = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        String::from_utf8_lossy(&Vec::from(tail)).trim().to_string()
    }
}

/// A Streamable HTTP server: each message is a POST whose answer is a JSON body or an SSE
/// stream; the messages it brings are queued for [`Transport::receive`].
pub struct Http {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    session: Option<String>,
    protocol_version: Option<String>,
    /// The version the last request that named one in `_meta` named (2026-07-28 on).
    named: Option<String>,
    /// Whether `initialize` was sent: the older wire, with sessions.
    initialized: bool,
    queue: VecDeque<Vec<u8>>,
    /// What the last POST brought instead of an answer, if it failed.
    trouble: Option<Received>,
}

impl Http {
    pub fn new(url: &str, headers: &[String], timeout: Duration) -> io::Result<Http> {
        let headers = headers
            .iter()
            .map(|h| match h.split_once(':') {
                Some((name, value)) => Ok((name.trim().to_string(), value.trim().to_string())),
                None => Err(io::Error::other(format!(
                    "--header `{h}` is not `Name: value`"
                ))),
            })
            .collect::<io::Result<_>>()?;
        // Redirects are not followed: a POST redirected is a URL to fix, and the probe says so.
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .build()
            .into();
        Ok(Http {
            agent,
            url: url.to_string(),
            headers,
            session: None,
            protocol_version: None,
            named: None,
            initialized: false,
            queue: VecDeque::new(),
            trouble: None,
        })
    }

    fn post(&mut self, msg: &Value) -> Result<(), Received> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        let method = msg.get("method").and_then(Value::as_str);
        let named = msg
            .get("params")
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(VERSION_KEY))
            .and_then(Value::as_str);
        if let Some(version) = named {
            self.named = Some(version.to_string());
        }
        // A request of the new wire names its version; so, for the headers, does one sent
        // without params among such requests (the malformed probe). Once `initialize` is
        // sent, none does.
        self.initialized |= method == Some("initialize");
        let stateless = named.or(self.named.as_deref().filter(|_| !self.initialized));
        if let Some(version) = stateless.or(self.protocol_version.as_deref()) {
            request = request.header("MCP-Protocol-Version", version);
        }
        if stateless.is_some() {
            // From 2026-07-28 there is no session, and the headers repeat what the body says
            // so that a server can route without reading it (SEP-2243). A name that is not
            // plain ASCII would need the header's Base64 form; it is left out.
            if let Some(method) = method {
                request = request.header("Mcp-Method", method);
            }
            let name = msg.pointer("/params/name").and_then(Value::as_str);
            if let Some(name) = name.filter(|n| method == Some("tools/call") && is_header_safe(n)) {
                request = request.header("Mcp-Name", name);
            }
        } else if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let response = request.send(msg.to_string()).map_err(failed)?;
        let status = response.status().as_u16();
        // A refusal is said even when its body is a JSON-RPC error: the status is the news.
        if let Some(why) = refusal(&response) {
            return Err(failed(why));
        }
        if let Some(id) = header(&response, "mcp-session-id").filter(|_| stateless.is_none()) {
            self.session = Some(id);
        }
        let content_type = header(&response, "content-type").unwrap_or_default();
        let mut body = response.into_body();
        let reader = body.with_config().limit(MAX_LINE_BYTES as u64).reader();
        let before = self.queue.len();
        if content_type.starts_with("text/event-stream") {
            self.read_events(reader, msg.get("id"))?;
        } else {
            let mut bytes = Vec::new();
            BufReader::new(reader)
                .read_to_end(&mut bytes)
                .map_err(body_failed)?;
            match serde_json::from_slice::<Value>(&bytes) {
                // A batch answer is taken apart: the transcript holds a message a line.
                Ok(Value::Array(items)) => self
                    .queue
                    .extend(items.iter().map(|m| m.to_string().into_bytes())),
                Ok(_) => self.queue.push_back(bytes),
                Err(_) if status < 300 && bytes.iter().all(u8::is_ascii_whitespace) => {}
                Err(_) => {
                    let text = String::from_utf8_lossy(&bytes);
                    return Err(failed(format!("HTTP {status}: {}", text.trim())));
                }
            }
        }
        if msg.get("method").and_then(Value::as_str) == Some("initialize") {
            self.protocol_version = self.queue.range(before..).find_map(|m| {
                let m: Value = serde_json::from_slice(m).ok()?;
                Some(m.pointer("/result/protocolVersion")?.as_str()?.to_string())
            });
        }
        if status >= 400 && self.queue.len() == before {
            return Err(failed(format!("HTTP {status}")));
        }
        Ok(())
    }

    /// Reads SSE events until the answer to `id` arrives or the stream ends (or is cut by
    /// the timeout); an event over the size limit is [`Received::TooLarge`].
    fn read_events(&mut self, mut reader: impl Read, id: Option<&Value>) -> Result<(), Received> {
        let mut events = Events::new(MAX_LINE_BYTES);
        let mut got = Vec::new();
        let mut buf = vec![0; 1 << 16];
        loop {
            let n = match reader.read(&mut buf).map_err(body_failed) {
                Ok(0) | Err(Received::Unanswered(_)) => break,
                Ok(n) => n,
                Err(trouble) => return Err(trouble),
            };
            events.feed(&buf[..n], &mut |e| got.push(e));
            if self.queue_events(&mut got, id)? {
                return Ok(());
            }
        }
        events.finish(&mut |e| got.push(e));
        self.queue_events(&mut got, id).map(drop)
    }

    /// Queues the messages of `events`; whether one answers `id`.
    fn queue_events(
        &mut self,
        events: &mut Vec<Event>,
        id: Option<&Value>,
    ) -> Result<bool, Received> {
        let mut answered = false;
        for event in events.drain(..) {
            let Event::Data(data) = event else {
                return Err(Received::TooLarge);
            };
            answered |= id.is_some_and(|id| {
                serde_json::from_str::<Value>(&data)
                    .is_ok_and(|m| m.get("id") == Some(id) && m.get("method").is_none())
            });
            self.queue.push_back(data.into_bytes());
        }
        Ok(answered)
    }
}

/// A POST that brought no answer, and why.
fn failed(why: impl ToString) -> Received {
    Received::Unanswered(Some(why.to_string()))
}

/// A body that could not be read: over the size limit, or cut short.
fn body_failed(e: io::Error) -> Received {
    let why = e.to_string();
    match ureq::Error::from(e) {
        ureq::Error::BodyExceedsLimit(_) => Received::TooLarge,
        _ => failed(why),
    }
}

/// What an HTTP status that is not an answer means for the probe, and what to do about it.
fn refusal(response: &ureq::http::Response<ureq::Body>) -> Option<String> {
    let status = response.status().as_u16();
    match status {
        300..=399 => Some(match header(response, "location") {
            Some(to) => {
                format!("HTTP {status}: the server redirects to {to}; probe that URL with --url")
            }
            None => format!("HTTP {status}: a redirect without a Location"),
        }),
        401 | 403 => {
            let scheme = header(response, "www-authenticate")
                .map(|w| format!(" ({w})"))
                .unwrap_or_default();
            Some(format!(
                "HTTP {status}: the server wants authorization{scheme}; pass it with --header 'Authorization: Bearer <token>'"
            ))
        }
        _ => None,
    }
}

/// Whether `value` can be sent as an HTTP header value as it is.
fn is_header_safe(value: &str) -> bool {
    value.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
}

fn header(response: &ureq::http::Response<ureq::Body>, name: &str) -> Option<String> {
    Some(response.headers().get(name)?.to_str().ok()?.to_string())
}

impl Transport for Http {
    fn send(&mut self, msg: &Value) -> io::Result<()> {
        self.trouble = self.post(msg).err();
        Ok(())
    }

    /// Everything a POST brought is queued by the time it returns: an empty queue means
    /// no answer is coming.
    fn receive(&mut self, _deadline: Instant) -> Received {
        match self.queue.pop_front() {
            Some(message) => Received::Message(message),
            None => self.trouble.take().unwrap_or(Received::Unanswered(None)),
        }
    }

    /// Each POST waits for its answer (posting on threads would order the transcript by
    /// the scheduler).
    fn pipelines(&self) -> bool {
        false
    }

    fn restart(&mut self) -> io::Result<()> {
        Err(io::Error::other(
            "a server at a URL is not started by the probe",
        ))
    }

    fn close(&mut self) -> String {
        if let Some(session) = &self.session {
            // Ending the session is a courtesy; a server may not support it.
            let _ = self
                .agent
                .delete(&self.url)
                .header("Mcp-Session-Id", session)
                .call();
        }
        String::new()
    }
}
