//! `mcp-lint record -o FILE --listen ADDR --upstream URL`: a reverse proxy in front of a
//! Streamable HTTP server. Each request is relayed to the upstream at the same path (POST,
//! GET and DELETE alike, hop-by-hop headers dropped), and each answer streamed back as it
//! comes, JSON bodies and SSE streams alike. The JSON-RPC messages of the MCP endpoint (the
//! upstream URL's path) are recorded: request bodies, JSON answers and SSE events, a batch
//! taken apart, each in the session its `Mcp-Session-Id` names. Other paths (OAuth metadata,
//! token endpoints) are relayed and not recorded.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};
use std::thread;

use serde_json::value::RawValue;
use ureq::http::{self, Uri};

use super::wire::{self, Framing, Refusal, Request};
use super::{RELAY_STACK_BYTES, SharedRecorder, record, report_failure};
use crate::cli::RecordArgs;
use crate::transcript::read::{Dir, MAX_LINE_BYTES};
use crate::transcript::sse::{Event, Events};
use crate::{Env, exit};

/// Headers that concern one connection, not the exchange (RFC 9110 section 7.6.1), and the
/// framing ones, which each side sets for itself.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
];

/// Request headers set for the upstream rather than relayed: its own `Host`; no `Expect`
/// (the body is already read); no `Accept-Encoding`, so that answers come uncompressed and
/// their messages can be recorded.
const NOT_RELAYED_UP: &[&str] = &["host", "expect", "accept-encoding"];

/// What the proxy's threads tell the thread that started them.
enum Note {
    /// A line for stderr.
    Say(String),
    /// Ctrl-C, a termination signal, or the end of a terminal's input.
    Stop,
}

struct Proxy {
    agent: ureq::Agent,
    /// `scheme://authority` of the upstream.
    origin: String,
    /// The MCP endpoint: the upstream URL's path.
    endpoint: String,
    recorder: SharedRecorder,
    notes: Sender<Note>,
}

pub fn run(
    listen: &str,
    upstream: &str,
    args: &RecordArgs,
    recorder: SharedRecorder,
    env: &mut Env,
) -> io::Result<i32> {
    let (origin, endpoint) = match split_url(upstream) {
        Ok(parts) => parts,
        Err(why) => {
            writeln!(env.stderr, "mcp-lint: --upstream `{upstream}`: {why}")?;
            return Ok(exit::TROUBLE);
        }
    };
    let listener = match TcpListener::bind(listen) {
        Ok(listener) => listener,
        Err(e) => {
            writeln!(env.stderr, "mcp-lint: cannot listen on {listen}: {e}")?;
            return Ok(exit::TROUBLE);
        }
    };
    // Said first and at once: with port 0 it is how the client learns where to connect.
    writeln!(
        env.stderr,
        "mcp-lint: recording http://{}{endpoint} -> {upstream}",
        listener.local_addr()?
    )?;
    env.stderr.flush()?;
    // Redirects are relayed to the client, whose to follow; statuses are answers to relay.
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let (notes, told) = channel();
    stop_on_signals(&notes)?;
    stop_at_terminal_eof(&notes);
    let proxy = Arc::new(Proxy {
        agent,
        origin,
        endpoint,
        recorder: Arc::clone(&recorder),
        notes: notes.clone(),
    });
    // Not joined, nor are the connections' threads: each may wait on a stream for ever.
    thread::spawn(move || accept(&listener, &proxy));
    drop(notes);
    for note in told {
        match note {
            Note::Say(line) => writeln!(env.stderr, "mcp-lint: {line}")?,
            Note::Stop => break,
        }
    }
    report_failure(&recorder, &args.output, env)?;
    // Every line is flushed as it is written; holding the recorder for good keeps a line
    // being relayed now from being cut short by the exit.
    if let Ok(guard) = recorder.lock() {
        std::mem::forget(guard);
    }
    Ok(exit::CLEAN)
}

/// The origin and the path of an `http` or `https` URL.
fn split_url(url: &str) -> Result<(String, String), String> {
    let uri: Uri = url.parse().map_err(|e| format!("not a URL ({e})"))?;
    let scheme = uri.scheme_str().unwrap_or_default();
    let authority = uri
        .authority()
        .filter(|_| matches!(scheme, "http" | "https"));
    let Some(authority) = authority else {
        return Err("not an http:// or https:// URL".to_string());
    };
    Ok((format!("{scheme}://{authority}"), uri.path().to_string()))
}

fn accept(listener: &TcpListener, proxy: &Arc<Proxy>) {
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(e) => {
                // Out of file descriptors, say: waiting a moment frees some, spinning none.
                proxy.say(format!("a connection could not be accepted: {e}"));
                thread::sleep(std::time::Duration::from_millis(100));
                continue;
            }
        };
        let worker = Arc::clone(proxy);
        let spawned = thread::Builder::new()
            .stack_size(RELAY_STACK_BYTES)
            .spawn(move || worker.serve(stream));
        if let Err(e) = spawned {
            proxy.say(format!("a connection was dropped: {e}"));
        }
    }
}

#[cfg(unix)]
fn stop_on_signals(notes: &Sender<Note>) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGHUP, SIGINT, SIGTERM])?;
    let notes = notes.clone();
    thread::spawn(move || {
        for (n, signal) in signals.forever().enumerate() {
            match n {
                0 => drop(notes.send(Note::Stop)),
                // A second Ctrl-C, while the first is being acted on, ends us at once.
                _ => drop(signal_hook::low_level::emulate_default_handler(signal)),
            }
        }
    });
    Ok(())
}

/// Elsewhere Ctrl-C ends the process at once; every line on file is whole but the last.
#[cfg(not(unix))]
fn stop_on_signals(_: &Sender<Note>) -> io::Result<()> {
    Ok(())
}

/// Ctrl-D at a terminal stops the proxy. A stdin that is not a terminal is left alone: in
/// the background it is often empty, and that must not stop a proxy started there.
fn stop_at_terminal_eof(notes: &Sender<Note>) {
    use std::io::IsTerminal;
    if !io::stdin().is_terminal() {
        return;
    }
    let notes = notes.clone();
    thread::spawn(move || {
        let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
        let _ = notes.send(Note::Stop);
    });
}

impl Proxy {
    /// A line for stderr, written by the thread that started the proxy.
    fn say(&self, line: String) {
        let _ = self.notes.send(Note::Say(line));
    }

    /// Relays the requests of one client connection, until either side ends it.
    fn serve(&self, stream: TcpStream) {
        let Ok(read_half) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(read_half);
        let mut out = BufWriter::new(stream);
        loop {
            let request = match wire::read_request(&mut reader, &mut out) {
                Ok(Some(request)) => request,
                Ok(None) => return,
                Err(refusal) => {
                    let _ = wire::write_error(&mut out, &refusal);
                    return;
                }
            };
            match self.exchange(&request, &mut out) {
                Ok(true) if !request.close => {}
                _ => return,
            }
        }
    }

    /// Relays one request and its answer; whether the connection can carry another.
    fn exchange(&self, request: &Request, out: &mut impl Write) -> io::Result<bool> {
        // An absolute-form target (`http://proxy/mcp`) names the path all the same.
        let target = match request.target.parse::<Uri>() {
            Ok(uri) => uri.path_and_query().map_or("/", |p| p.as_str()).to_string(),
            Err(_) => request.target.clone(),
        };
        let recorded = target.split('?').next() == Some(self.endpoint.as_str());
        let asked_in = request.header("mcp-session-id");
        let response = match self.send(request, &target) {
            Ok(response) => response,
            Err(why) => {
                if recorded {
                    self.record_body(asked_in, Dir::ClientToServer, &request.body);
                }
                let why = format!("{} {target}: the upstream failed: {why}", request.method);
                self.say(why.clone());
                wire::write_error(out, &Refusal(502, why))?;
                return Ok(false);
            }
        };
        let status = response.status();
        let answered_in = header(response.headers(), "mcp-session-id");
        // An `initialize` has no session until its answer names one.
        let session = asked_in.map(str::to_string).or(answered_in);
        let session = session.as_deref();
        if recorded {
            self.record_body(session, Dir::ClientToServer, &request.body);
        }
        let no_body = request.method == "HEAD"
            || status.is_informational()
            || matches!(status.as_u16(), 204 | 304);
        let length = header(response.headers(), "content-length").and_then(|l| l.parse().ok());
        let framing = match (no_body, length) {
            (true, _) => Framing::Empty,
            (false, Some(length)) => Framing::Length(length),
            (false, None) => Framing::Chunked,
        };
        let content_type = header(response.headers(), "content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let connection = header(response.headers(), "connection").unwrap_or_default();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .filter(|(name, _)| {
                !HOP_BY_HOP.contains(&name.as_str()) && !wire::has_token(&connection, name.as_str())
            })
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.to_string(), value)
            })
            .collect();
        let reason = status.canonical_reason().unwrap_or_default();
        wire::write_head(out, status.as_u16(), reason, &headers, framing)?;
        let answer = match recorded && framing != Framing::Empty {
            false => Answer::Ignored,
            true if content_type.starts_with("text/event-stream") => {
                Answer::Events(Events::new(MAX_LINE_BYTES))
            }
            true => Answer::Body(Vec::new()),
        };
        let body = response.into_body().into_reader();
        let exchange = Exchange {
            session,
            success: status.is_success(),
            framing,
        };
        match self.relay_body(body, answer, &exchange, out)? {
            Relayed::Whole => Ok(true),
            Relayed::Cut(e) => {
                let what = format!("{} {target}", request.method);
                self.say(format!("{what}: the upstream's answer was cut short: {e}"));
                Ok(false)
            }
        }
    }

    /// Streams an answer's body to the client, recording its messages. An error writing to
    /// the client is an error; one reading the upstream cuts the stream, for the client as
    /// it was for us.
    fn relay_body(
        &self,
        mut body: impl Read,
        mut answer: Answer,
        exchange: &Exchange,
        out: &mut impl Write,
    ) -> io::Result<Relayed> {
        let Exchange {
            session,
            success,
            framing,
        } = *exchange;
        let mut buf = vec![0; 1 << 16];
        // A message is on file before the bytes that complete it are passed on: an SSE event
        // as it completes, a JSON body when it ends, so its latest bytes are held until then.
        let mut held = Vec::new();
        loop {
            let n = match body.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.take_answer(answer, session, success);
                    return Ok(Relayed::Cut(e));
                }
            };
            answer = self.take_part(answer, &buf[..n], session);
            wire::write_body(out, framing, &held)?;
            held.clear();
            match answer {
                Answer::Body(_) => held.extend_from_slice(&buf[..n]),
                _ => wire::write_body(out, framing, &buf[..n])?,
            }
        }
        self.take_answer(answer, session, success);
        wire::write_body(out, framing, &held)?;
        wire::end_body(out, framing)?;
        Ok(Relayed::Whole)
    }

    fn send(&self, request: &Request, target: &str) -> Result<http::Response<ureq::Body>, String> {
        let mut up = http::Request::builder()
            .method(request.method.as_str())
            .uri(format!("{}{target}", self.origin));
        let connection = request.header("connection").unwrap_or_default();
        for (name, value) in &request.headers {
            let lower = name.to_ascii_lowercase();
            let dropped = HOP_BY_HOP.contains(&lower.as_str())
                || NOT_RELAYED_UP.contains(&lower.as_str())
                || wire::has_token(connection, &lower);
            if !dropped {
                up = up.header(name.as_str(), value.as_str());
            }
        }
        let sent = match request.body.is_empty() && request.method != "POST" {
            true => up.body(()).map(|r| self.agent.run(r)),
            false => up.body(&request.body[..]).map(|r| self.agent.run(r)),
        };
        match sent {
            Ok(Ok(response)) => Ok(response),
            Ok(Err(e)) => Err(e.to_string()),
            Err(e) => Err(format!("the request cannot be relayed ({e})")),
        }
    }

    /// Feeds part of an answer's body to what records it.
    fn take_part(&self, answer: Answer, bytes: &[u8], session: Option<&str>) -> Answer {
        match answer {
            Answer::Events(mut events) => {
                events.feed(bytes, &mut |e| self.record_event(e, session));
                Answer::Events(events)
            }
            Answer::Body(mut body) if body.len() + bytes.len() <= MAX_LINE_BYTES => {
                body.extend_from_slice(bytes);
                Answer::Body(body)
            }
            Answer::Body(_) => {
                self.say(format!(
                    "an answer over {MAX_LINE_BYTES} bytes was relayed but not recorded"
                ));
                Answer::Ignored
            }
            Answer::Ignored => Answer::Ignored,
        }
    }

    /// Records what is left of an answer once its body has ended. A JSON body that is not
    /// a success is recorded when it is JSON-RPC (an error for a request), not when it is
    /// HTTP's own (`{"error": "invalid_token"}` with a 401).
    fn take_answer(&self, answer: Answer, session: Option<&str>, success: bool) {
        match answer {
            Answer::Events(mut events) => events.finish(&mut |e| self.record_event(e, session)),
            Answer::Body(body) if success || is_json_rpc(&body) => {
                self.record_body(session, Dir::ServerToClient, &body);
            }
            Answer::Body(_) | Answer::Ignored => {}
        }
    }

    fn record_event(&self, event: Event, session: Option<&str>) {
        match event {
            Event::Data(data) => self.record_body(session, Dir::ServerToClient, data.as_bytes()),
            Event::TooLarge => self.say(format!(
                "an event over {MAX_LINE_BYTES} bytes was relayed but not recorded"
            )),
        }
    }

    /// Records a body's messages, a batch one by one.
    fn record_body(&self, session: Option<&str>, dir: Dir, body: &[u8]) {
        let text = String::from_utf8_lossy(body);
        let batch = serde_json::from_str::<Vec<&RawValue>>(&text);
        record(&self.recorder, |r| match batch {
            Ok(messages) => messages
                .iter()
                .try_for_each(|m| r.raw_in(session, dir, m.get().as_bytes())),
            Err(_) => r.raw_in(session, dir, body),
        });
    }
}

/// What recording an answer depends on.
#[derive(Clone, Copy)]
struct Exchange<'s> {
    session: Option<&'s str>,
    /// A 2xx status.
    success: bool,
    framing: Framing,
}

/// How an answer's body went through.
enum Relayed {
    Whole,
    /// The upstream's stream broke off.
    Cut(io::Error),
}

/// Where an answer's body goes as it streams through.
enum Answer {
    Events(Events),
    /// A JSON body, recorded whole when it ends.
    Body(Vec<u8>),
    Ignored,
}

fn is_json_rpc(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Member {
        jsonrpc: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Member>(body).is_ok_and(|m| m.jsonrpc.is_some())
}

fn header(headers: &http::HeaderMap, name: &str) -> Option<String> {
    Some(headers.get(name)?.to_str().ok()?.to_string())
}
