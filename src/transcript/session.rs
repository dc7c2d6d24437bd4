//! Rebuilds sessions from a stream of recorded messages and judges each `tools/call` exchange.
//!
//! Per session: requests pending per direction (id spaces are per direction, and `3` is not
//! `"3"`), the negotiated protocol version, the tools capability, the latest complete
//! `tools/list` (pages joined through `nextCursor`, stale after `list_changed`), and
//! cancellations. Memory is bounded by in-flight requests and catalogs, not by file size.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;

use foldhash::{HashMap, HashSet};
use serde_json::Value;

use super::catalog::{Catalog, Tool, first_error};
use super::era::{self, is_modern};
use super::locate::value_span;
use super::message::{Failure, Json, Message, Outcome, Params, Parts, given, string};
use super::read::{Dir, Origin};
use super::scan;
use crate::evidence::{CallShape, ErrorAnswer, Member, codes};
use crate::finding::{Finding, Help, Label, Violation};
use crate::rules;

/// How many answered ids a session remembers to tell a duplicate response from a stray one.
const REMEMBERED_ANSWERS: usize = 4096;

/// Where something sits in the file: its line, and its byte range.
#[derive(Debug, Clone)]
pub struct Spot {
    pub line: usize,
    pub span: Range<usize>,
}

#[derive(Default)]
pub struct Auditor {
    sessions: HashMap<Option<String>, Session>,
    seq: u64,
    findings: Vec<Finding>,
    /// The lines the findings point at, to keep their text for rendering.
    lines: BTreeSet<usize>,
    /// JSON-RPC messages judged: a transcript with none was not checked at all.
    messages: usize,
    /// Lines that could not be read: one may have been the request a stray response answers.
    unreadable: usize,
    /// Set when findings are released as the audit goes ([`Auditor::release`]).
    window: Option<Window>,
}

/// The texts a streamed audit keeps: the line being judged, and the lines of the findings
/// not yet released, each `(byte offset, text)` by line number.
#[derive(Default)]
struct Window {
    current: (usize, usize, String),
    kept: BTreeMap<usize, (usize, String)>,
}

/// A line's number, byte offset and text: what a streamed finding's position is computed from.
pub type HeldLine = (usize, usize, String);

#[derive(Default)]
struct Session {
    version: Option<String>,
    /// On the 2026-07-28 wire: a `server/discover` answered, or a call that named a version
    /// from then on.
    modern: bool,
    tools_capability: Option<bool>,
    catalog: Option<Catalog>,
    /// Pages of a listing still being followed through `nextCursor`.
    listing: Option<Catalog>,
    stale: bool,
    /// Requests awaiting an answer, by [`Json::id_key`], for each direction a request can go.
    pending: [HashMap<String, Request>; 2],
    /// Fingerprints of the latest answered requests, oldest first, and as a set.
    answered: VecDeque<u64>,
    answered_set: HashSet<u64>,
    /// Sequence number of the server's latest response.
    last_answer: u64,
}

struct Request {
    /// As [`Json::id_key`] writes it, which is also how a message shows it.
    id: String,
    /// The methods the audit follows are not copied.
    method: Cow<'static, str>,
    at: Spot,
    /// The request's line, `(offset, text)`, in a streamed audit: an unanswered call is
    /// reported there later.
    held: Option<(usize, Box<str>)>,
    seq: u64,
    cancelled: bool,
    /// A `tools/list` that continues a listing (`params.cursor`).
    continues: bool,
    call: Option<Call>,
}

/// What a `tools/call` asked for.
struct Call {
    name: String,
    /// As JSON text, read whole only to check a protocol error's claim against the inputSchema.
    arguments: Option<String>,
    /// Why the request is malformed (no `params`, no `name`, ...), if it is.
    malformed: Option<&'static str>,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]` (2026-07-28 traffic).
    version: Option<String>,
    /// Task-augmented: the answer is a `CreateTaskResult`, not the tool's result.
    task: bool,
}

/// A message being processed: the members the audit reads, and where it was read.
struct Msg<'r> {
    /// Absent when `null`.
    id: Option<Json<'r>>,
    params: Option<Json<'r>>,
    result: Option<Json<'r>>,
    error: Option<Json<'r>>,
    parts: &'r Parts<Json<'r>>,
    origin: &'r Origin<'r>,
    line: usize,
}

impl Msg<'_> {
    /// The spot of `part` of the message, or of the message itself.
    fn spot(&self, part: Option<Json>) -> Spot {
        spot_of(self.origin, self.line, part.unwrap_or(self.parts.message))
    }
}

/// Where `part` of a message is; where the message was read, if the part is not in the text
/// (an HTTP body decoded from a string in a HAR entry).
fn spot_of(origin: &Origin, line: usize, part: Json) -> Spot {
    let text = origin.text;
    let local = part
        .span_in(text)
        .or_else(|| value_span(text, origin.path))
        .unwrap_or(0..text.len());
    let offset = origin.text_offset;
    Spot {
        line,
        span: offset + local.start..offset + local.end,
    }
}

impl Auditor {
    /// A line that could not be read as a message.
    pub fn broken(&mut self, message: String, at: Spot) {
        self.unreadable += 1;
        self.push(rules::mcp001::unreadable(message), at, Vec::new(), None);
    }

    /// The whole transcript could not be read; `message` says why.
    pub fn not_checked(&mut self, message: String, help: Option<Help>) {
        let at = Spot {
            line: 1,
            span: 0..0,
        };
        self.push(
            rules::mcp004::not_checked(message, help),
            at,
            Vec::new(),
            None,
        );
    }

    /// A response that was recorded in part or not at all (`dir` is the response's): close its
    /// exchange without judging it. `why` says what happened to the described exchange.
    pub fn unverifiable(
        &mut self,
        dir: Dir,
        session: Option<String>,
        id: Option<String>,
        at: Spot,
        why: fn(&str) -> String,
    ) {
        let state = self.session(&session);
        let request = id.and_then(|id| state.pending[side(dir.opposite())].remove(&id));
        let what = request
            .as_ref()
            .map_or("this message".to_string(), describe);
        self.broken(format!("{}, so it cannot be verified", why(&what)), at);
    }

    /// Ends the transcript: calls still unanswered are reported.
    /// The findings, once the transcript (read as `read_as`) has ended. A named transcript in
    /// which no message was found is one MCP004, not a warning per line: it is likely not a
    /// transcript at all, or not in the format it was read as. A file a directory walk found
    /// (`named` false) is then no transcript, and has no findings.
    pub fn finish(&mut self, read_as: &str, named: bool) -> (Vec<Finding>, BTreeSet<usize>) {
        let sessions: Vec<Session> = self.sessions.drain().map(|(_, s)| s).collect();
        for session in sessions {
            self.unanswered(session);
        }
        let whole = |f: &Finding| std::ptr::eq(f.rule, &rules::mcp004::META);
        if self.messages == 0 && !self.findings.iter().any(whole) {
            let unread = std::mem::take(&mut self.findings);
            if !named {
                return (Vec::new(), BTreeSet::new());
            }
            let first = unread.first().map_or(String::new(), |f| {
                let line = self.lines.first().copied().unwrap_or(1);
                format!(" ({} unreadable; line {line}: {})", unread.len(), f.message)
            });
            self.lines.clear();
            let message = format!(
                "no MCP message was found in this file, read as {read_as}{first}, so it was not checked"
            );
            let help = "name a JSON-RPC transcript (envelope or bare JSONL, a Claude Desktop log, a HAR capture, an Inspector export); `--input-format` says which when the content does not";
            self.not_checked(message, Some(help.into()));
        }
        (
            std::mem::take(&mut self.findings),
            std::mem::take(&mut self.lines),
        )
    }

    /// The session a message belongs to, begun if new.
    fn session(&mut self, key: &Option<String>) -> &mut Session {
        if !self.sessions.contains_key(key) {
            self.sessions.insert(key.clone(), Session::default());
        }
        self.sessions.get_mut(key).expect("inserted above")
    }

    /// One message, whose parts were found already (maybe by the reading thread).
    pub fn message(&mut self, origin: &Origin, parts: &Parts<Json>, line: usize) {
        self.seq += 1;
        if !parts.object {
            return self.broken(
                "this is not a JSON-RPC message (not an object)".to_string(),
                spot_of(origin, line, parts.message),
            );
        }
        let Message {
            id,
            method,
            params,
            result,
            error,
        } = parts.of_message;
        let m = Msg {
            id: id.filter(|id| !id.is_null()),
            params,
            result,
            error,
            parts,
            origin,
            line,
        };
        let is_message = method.is_some() || result.is_some() || error.is_some();
        self.messages += usize::from(is_message);
        match (string(method).as_deref(), m.id) {
            (Some(method), Some(id)) => self.request(&m, method, id),
            (Some(method), None) => self.notification(&m, method),
            (None, _) if result.is_some() || error.is_some() => self.response(&m),
            _ => self.broken(
                "this is not a JSON-RPC message: no method, result or error".to_string(),
                m.spot(None),
            ),
        }
    }

    fn request(&mut self, m: &Msg, method: &str, id: Json) {
        let dir = m.origin.dir.unwrap_or(request_dir(method));
        if dir == Dir::ClientToServer && method == "initialize" {
            // A new connection: what the old one left unanswered is reported now.
            if let Some(old) = self.sessions.remove(&m.origin.session) {
                self.unanswered(old);
            }
        }
        let request = Request {
            id: id.id_key(),
            method: match method {
                "tools/call" => Cow::Borrowed("tools/call"),
                "tools/list" => Cow::Borrowed("tools/list"),
                "initialize" => Cow::Borrowed("initialize"),
                other => Cow::Owned(other.to_string()),
            },
            at: m.spot(None),
            held: self.held_line(),
            seq: self.seq,
            cancelled: false,
            continues: method == "tools/list" && given(cursor(m)),
            call: (method == "tools/call").then(|| call(m)),
        };
        let session = self.session(&m.origin.session);
        let named = request.call.as_ref().and_then(|c| c.version.as_deref());
        session.modern |= named.is_some_and(is_modern);
        session.pending[side(dir)].insert(request.id.clone(), request);
    }

    fn notification(&mut self, m: &Msg, method: &str) {
        let session = self.session(&m.origin.session);
        match method {
            "notifications/cancelled" => {
                let target = m.parts.of_params.request_id;
                let Some(target) = target else {
                    return;
                };
                let key = target.id_key();
                // The side that cancels is the side that asked; bare JSONL does not say which.
                let dir = m.origin.dir.unwrap_or(Dir::ClientToServer);
                for dir in [dir, dir.opposite()] {
                    if let Some(request) = session.pending[side(dir)].get_mut(&key) {
                        request.cancelled = true;
                        break;
                    }
                }
            }
            "notifications/tools/list_changed" => session.stale = true,
            _ => {}
        }
    }

    fn response(&mut self, m: &Msg) {
        let Some(id) = m.id else {
            // Parse errors and transport errors answer no request: no verdict.
            return;
        };
        let key = id.id_key();
        let session = self.session(&m.origin.session);
        let dir = m.origin.dir.unwrap_or_else(|| {
            let asked_by = |dir| session.pending[side(dir)].contains_key(&key);
            match asked_by(Dir::ClientToServer) || !asked_by(Dir::ServerToClient) {
                true => Dir::ServerToClient,
                false => Dir::ClientToServer,
            }
        });
        let asked = dir.opposite();
        let request = match session.pending[side(asked)].remove(&key) {
            Some(request) => request,
            None => {
                let retyped = retyped_key(id).and_then(|k| session.pending[side(asked)].remove(&k));
                let duplicate = session.answered_set.contains(&fingerprint(asked, &key));
                let violation = match (&retyped, duplicate) {
                    (Some(r), _) => rules::mcp302::retyped(&key, &r.id, &describe(r)),
                    (None, true) => rules::mcp302::duplicate(&key),
                    // Its request may be a line that could not be read (MCP001 says so).
                    (None, false) if self.unreadable > 0 => return,
                    (None, false) => rules::mcp302::never_requested(&key),
                };
                let related = retyped
                    .iter()
                    .map(|r| (r.at.clone(), "the request".to_string()))
                    .collect();
                if let Some(r) = &retyped {
                    self.hold(r.at.line, r.held.clone());
                }
                self.push(violation, m.spot(m.id), related, Some(&key));
                match retyped {
                    Some(request) => request,
                    None => return,
                }
            }
        };
        let seq = self.seq;
        let session = self.session(&m.origin.session);
        session.remember(asked, &request.id);
        if dir == Dir::ServerToClient {
            session.last_answer = seq;
        }
        if asked != Dir::ClientToServer {
            return;
        }
        match request.method.as_ref() {
            "initialize" => {
                let Outcome {
                    protocol_version: version,
                    capabilities,
                    ..
                } = m.parts.of_result;
                session.version = string(version).map(Cow::into_owned);
                session.tools_capability = capabilities
                    .map(|c| matches!(scan::members(c.text(), &["tools"]), Ok(Some([Some(_)]))));
            }
            // 2026-07-28's opening, when there is one: the capabilities come with the versions.
            "server/discover" if m.result.is_some() => {
                let capabilities = m.parts.of_result.capabilities;
                session.modern = true;
                session.tools_capability = capabilities
                    .map(|c| matches!(scan::members(c.text(), &["tools"]), Ok(Some([Some(_)]))));
            }
            "tools/list" => {
                let Some(result) = m
                    .result
                    .and_then(|r| self.parsed(m, r, "tools/list result"))
                else {
                    return;
                };
                let held = self.held_line();
                let session = self.session(&m.origin.session);
                let mut listing = if request.continues {
                    session.listing.take().unwrap_or_default()
                } else {
                    Catalog::default()
                };
                let problems = listing.add_page(&result);
                if result.get("nextCursor").is_some_and(|c| !c.is_null()) {
                    session.listing = Some(listing);
                } else {
                    let at = m.spot(m.result);
                    (listing.line, listing.span) = (at.line, at.span);
                    listing.held = held;
                    session.catalog = Some(listing);
                    session.stale = false;
                }
                let at = m.spot(m.result);
                for problem in problems {
                    self.push(problem, at.clone(), Vec::new(), None);
                }
            }
            "tools/call" => self.judge(m, &request),
            _ => {}
        }
    }

    /// A part of a message built whole, or MCP001 where it cannot be (nested too deep).
    fn parsed(&mut self, m: &Msg, part: Json, what: &str) -> Option<Value> {
        part.value()
            .map_err(|e| {
                let message = format!("this {what} cannot be read ({e}), so it was not checked");
                self.broken(message, m.spot(Some(part)));
            })
            .ok()
    }

    fn judge(&mut self, m: &Msg, request: &Request) {
        let Some(call) = &request.call else { return };
        if request.cancelled {
            return; // a response after a cancellation is allowed, and not the tool's verdict
        }
        if let Some(reason) = call.malformed {
            if m.result.is_some() {
                self.push_call(
                    rules::mcp107::answered(reason, &request.id),
                    m.spot(m.result),
                    request,
                    call,
                    None,
                );
            }
            return;
        }
        if m.error.is_some() {
            return self.protocol_error(m, request, call);
        }
        if m.result.is_none() {
            return;
        }
        let Outcome {
            result_type,
            task,
            is_error,
            content,
            structured,
            ..
        } = m.parts.of_result;
        let not_final = string(result_type).is_some_and(|t| t != "complete");
        if call.task || not_final || task.is_some() {
            return; // a task handle or an input request: the tool's result comes later
        }
        if is_error.is_some_and(|e| e.text() == "true") {
            let content = content.and_then(|c| c.value().ok());
            let text = content.as_ref().and_then(first_text);
            if let Some(why) = rules::mcp201::vague_tool_error(text) {
                self.push_call(
                    rules::mcp201::in_traffic(&call.name, &request.id, &why),
                    m.spot(m.result),
                    request,
                    call,
                    text,
                );
            }
            self.check_listed_tools(m, request, call, text.unwrap_or_default());
        } else {
            let any_value = result_type.is_some();
            self.check_output(m, request, call, structured, any_value);
        }
    }

    fn protocol_error(&mut self, m: &Msg, request: &Request, call: &Call) {
        let Failure {
            code,
            message: text,
        } = m.parts.of_error;
        let code = code.and_then(|c| c.text().parse::<i64>().ok());
        let text = string(text).unwrap_or_default();
        let text = text.as_ref();
        let session = &self.sessions[&m.origin.session];
        let no_tools =
            code == Some(codes::METHOD_NOT_FOUND) && session.tools_capability == Some(false);
        // -32020 to -32022 were given their meaning by 2026-07-28 (before, in drafts, they
        // were -32001, -32003, -32004); a server known to speak an older version means
        // something of its own by them.
        let version = call.version.as_deref().or(session.version.as_deref());
        let older = !session.modern && version.is_some_and(|v| !is_modern(v));
        let kept =
            code.is_some_and(|c| c == codes::URL_ELICITATION || !older && codes::KEPT.contains(&c));
        // On the 2026-07-28 wire a request that does not name its version in `_meta` is
        // refused with -32602, whatever it asks.
        let no_envelope =
            session.modern && call.version.is_none() && code == Some(codes::INVALID_PARAMS);
        if kept || no_tools || no_envelope {
            return;
        }
        let catalog = session.catalog.as_ref().filter(|_| !session.stale);
        let tool = catalog.and_then(|c| c.get(&call.name));
        let (input_error, bad_schema) = match tool.and_then(Tool::input) {
            Some((Ok(validator), _)) => {
                let arguments = match &call.arguments {
                    Some(text) => serde_json::from_str(text).ok(),
                    None => Some(Value::Object(Default::default())),
                };
                (arguments.and_then(|a| first_error(validator, &a)), None)
            }
            Some((Err(e), fresh)) => (None, fresh.then(|| e.clone())),
            None => (None, None),
        };
        let listed_at = catalog.map(|c| {
            let at = Spot {
                line: c.line,
                span: c.span.clone(),
            };
            (at, c.held.clone())
        });
        let answer = ErrorAnswer {
            tool_known: catalog.map(|_| tool.is_some()),
            input_error: input_error.as_deref(),
            code,
            message: text,
        };
        let violation = rules::classify_answer(&answer).on_wire(&answer, &call.name, &request.id);
        let failure = match code {
            Some(code) => format!("{code} {text}"),
            None => text.to_string(),
        };
        self.push_call(violation, m.spot(m.error), request, call, Some(&failure));
        if let (Some(e), Some((at, held))) = (bad_schema, listed_at) {
            self.hold(at.line, held);
            self.bad_schema(&call.name, "inputSchema", e, at);
        }
        self.check_listed_tools(m, request, call, text);
    }

    /// MCP106: a success result of a tool with an `outputSchema`. `any_value` when the
    /// result says which protocol it follows (`resultType`, 2026-07-28).
    fn check_output(
        &mut self,
        m: &Msg,
        request: &Request,
        call: &Call,
        structured: Option<Json>,
        any_value: bool,
    ) {
        let session = &self.sessions[&m.origin.session];
        let Some(catalog) = session.catalog.as_ref().filter(|_| !session.stale) else {
            return;
        };
        let Some(schema) = catalog
            .get(&call.name)
            .and_then(|t| t.output_schema.as_ref())
        else {
            return;
        };
        let version = call.version.as_deref().or(session.version.as_deref());
        // From 2026-07-28 structuredContent may be any JSON value that conforms.
        let any_value = any_value || version.is_some_and(is_modern);
        let object_root = schema.get("type").and_then(Value::as_str) == Some("object");
        let shape = rules::mcp106::shape_problem(member(structured), object_root, any_value);
        let problem = match (shape, structured) {
            (Some(problem), _) => problem.to_string(),
            (None, None) => return,
            (None, Some(content)) => {
                if catalog
                    .get(&call.name)
                    .is_some_and(|t| t.surely_conforms(content))
                {
                    return;
                }
                let Some(content) = self.parsed(m, content, "structuredContent") else {
                    return;
                };
                match self.conformance(&m.origin.session, &call.name, &content) {
                    Some(e) => {
                        format!(
                            "has a structuredContent that does not conform to the outputSchema {e}"
                        )
                    }
                    None => return,
                }
            }
        };
        let at = m.spot(structured.or(m.result));
        self.push_call(
            rules::mcp106::in_traffic(&call.name, &request.id, &problem),
            at,
            request,
            call,
            None,
        );
    }

    /// How `content` fails the outputSchema of `tool` in the session's catalog; a schema that
    /// does not compile is reported once, where the tools were listed.
    fn conformance(
        &mut self,
        session: &Option<String>,
        tool: &str,
        content: &Value,
    ) -> Option<String> {
        let catalog = self.sessions[session].catalog.as_ref()?;
        match catalog.get(tool)?.output()? {
            (Ok(validator), _) => first_error(validator, content),
            (Err(e), fresh) => {
                if fresh {
                    let at = Spot {
                        line: catalog.line,
                        span: catalog.span.clone(),
                    };
                    let (e, held) = (e.clone(), catalog.held.clone());
                    self.hold(at.line, held);
                    self.bad_schema(tool, "outputSchema", e, at);
                }
                None
            }
        }
    }

    /// MCP202: an error text that enumerates the server's tools.
    fn check_listed_tools(&mut self, m: &Msg, request: &Request, call: &Call, text: &str) {
        let session = &self.sessions[&m.origin.session];
        let known = session.catalog.as_ref().map(Catalog::known_tools);
        let Some(why) = rules::mcp202::lists_tools(text, known, &call.name) else {
            return;
        };
        self.push_call(
            rules::mcp202::in_traffic(&call.name, &request.id, &why),
            m.spot(m.error.or(m.result)),
            request,
            call,
            Some(text),
        );
    }

    fn bad_schema(&mut self, tool: &str, which: &str, error: String, at: Spot) {
        self.push(
            rules::mcp401::not_a_schema(tool, which, &error),
            at,
            Vec::new(),
            None,
        );
    }

    /// MCP104 or MCP301 for each call a session left unanswered.
    fn unanswered(&mut self, session: Session) {
        let [asked_by_client, _] = session.pending;
        let mut open: Vec<Request> = asked_by_client
            .into_values()
            .filter(|r| r.call.is_some() && !r.cancelled)
            .collect();
        open.sort_by_key(|r| r.seq);
        for request in open {
            let violation = if session.last_answer > request.seq {
                rules::mcp104::never_answered(&describe(&request))
            } else {
                rules::mcp301::open_at_end(&describe(&request))
            };
            let tool = request.call.as_ref().map(|c| c.name.clone());
            self.hold(request.at.line, request.held.clone());
            let finding = self.push(violation, request.at.clone(), Vec::new(), Some(&request.id));
            finding.identity = tool; // not the id, as for [`Auditor::push_call`]
        }
    }

    /// An auditor that releases findings as it goes ([`Auditor::release`]).
    pub fn streamed() -> Self {
        Auditor {
            window: Some(Window::default()),
            ..Auditor::default()
        }
    }

    /// The line about to be judged, in a streamed audit: its number, byte offset and text.
    pub fn at_line(&mut self, number: usize, offset: usize, text: &str) {
        if let Some(window) = &mut self.window {
            let current = &mut window.current;
            (current.0, current.1) = (offset, number);
            current.2.clear();
            current.2.push_str(text);
        }
    }

    /// The line being judged, to keep with what may be reported there later.
    fn held_line(&self) -> Option<(usize, Box<str>)> {
        let (offset, _, text) = &self.window.as_ref()?.current;
        Some((*offset, text.as_str().into()))
    }

    /// Keeps a line held by a request or a catalog, for a finding about to be placed on it.
    fn hold(&mut self, number: usize, held: Option<(usize, Box<str>)>) {
        if let (Some(window), Some((offset, text))) = (&mut self.window, held) {
            window.kept.entry(number).or_insert((offset, text.into()));
        }
    }

    /// The findings that no later line can precede, with the lines they are on, once every
    /// line before byte `end` is judged: nothing before an unanswered call (it is reported
    /// at its request) or a listing with a bad schema not yet reported (it is reported where it
    /// was listed, at the first call of its tool). Nothing either while no message has been
    /// seen: the file may be no transcript at all (see [`Auditor::finish`]).
    pub fn release(&mut self, end: usize) -> (Vec<Finding>, Vec<HeldLine>) {
        let Some(window) = &mut self.window else {
            return (Vec::new(), Vec::new());
        };
        if self.messages == 0 {
            return (Vec::new(), Vec::new());
        }
        let mut settled = end;
        for session in self.sessions.values() {
            let calls = session.pending[side(Dir::ClientToServer)].values();
            let open = calls.filter(|r| r.call.is_some() && !r.cancelled);
            let lines = open.filter_map(|r| r.held.as_ref().map(|(offset, _)| *offset));
            let catalog = session.catalog.as_ref().filter(|c| c.bad_schema_pending());
            let listed = catalog.and_then(|c| c.held.as_ref().map(|(offset, _)| *offset));
            settled = lines.chain(listed).fold(settled, usize::min);
        }
        let (ready, waiting) = std::mem::take(&mut self.findings)
            .into_iter()
            .partition(|f| f.span.start < settled);
        self.findings = waiting;
        let mut lines = Vec::new();
        while let Some(entry) = window.kept.first_entry() {
            if entry.get().0 >= settled {
                break;
            }
            let (number, (offset, text)) = entry.remove_entry();
            self.lines.remove(&number);
            lines.push((offset, number, text));
        }
        (ready, lines)
    }

    /// The lines a streamed audit still holds, once it has ended.
    pub fn held(&mut self) -> Vec<HeldLine> {
        let kept = self.window.as_mut().map(|w| std::mem::take(&mut w.kept));
        let kept = kept.unwrap_or_default().into_iter();
        kept.map(|(number, (offset, text))| (offset, number, text))
            .collect()
    }

    /// Places a rule's violation at `at`, with the places it relates to. Its fingerprint is
    /// keyed on its message: a message's own text may hold ids and timestamps.
    fn push(
        &mut self,
        violation: Violation,
        at: Spot,
        related: Vec<(Spot, String)>,
        request_id: Option<&str>,
    ) -> &mut Finding {
        self.lines.insert(at.line);
        self.lines.extend(related.iter().map(|(spot, _)| spot.line));
        if let Some(window) = &mut self.window
            && window.current.1 == at.line
        {
            let (offset, _, text) = &window.current;
            let text = text.clone();
            window.kept.entry(at.line).or_insert((*offset, text));
        }
        let mut finding = violation.at(at.span);
        finding.related = related
            .into_iter()
            .map(|(spot, text)| Label {
                span: spot.span,
                text,
            })
            .collect();
        finding.request_id = request_id.and_then(|id| serde_json::from_str(id).ok());
        finding.identity = Some(finding.message.clone());
        self.findings.push(finding);
        self.findings.last_mut().expect("just pushed")
    }

    /// Places a violation of a `tools/call` exchange, related to where it was asked. Its
    /// fingerprint is keyed on the tool and the error (`failure`: code and message, or the
    /// result's text), not on the request's id, which changes from one recording to the next.
    fn push_call(
        &mut self,
        violation: Violation,
        at: Spot,
        request: &Request,
        call: &Call,
        failure: Option<&str>,
    ) {
        let related = requested(request, call);
        // The label's line is the request's, which a streamed audit holds until now.
        self.hold(request.at.line, request.held.clone());
        let finding = self.push(violation, at, related, Some(&request.id));
        finding.identity = Some(match failure {
            Some(failure) => format!("{} {failure}", call.name),
            None => call.name.clone(),
        });
    }
}

impl Session {
    fn remember(&mut self, dir: Dir, id: &str) {
        if self.answered.len() == REMEMBERED_ANSWERS
            && let Some(old) = self.answered.pop_front()
        {
            self.answered_set.remove(&old);
        }
        let key = fingerprint(dir, id);
        self.answered_set.insert(key);
        self.answered.push_back(key);
    }
}

/// A request id in 64 bits, for telling a second response from a stray one: a collision
/// would only change which of the two a message says. The seed is fixed, so runs agree.
fn fingerprint(dir: Dir, id: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one((dir, id))
}

/// Where a direction's pending requests are kept.
fn side(dir: Dir) -> usize {
    match dir {
        Dir::ClientToServer => 0,
        Dir::ServerToClient => 1,
    }
}

/// The `cursor` of a `tools/list` that continues a listing.
fn cursor<'m>(m: &Msg<'m>) -> Option<Json<'m>> {
    m.parts.of_params.cursor
}

/// Reads a `tools/call`'s params, and whether they satisfy CallToolRequest.
fn call(m: &Msg) -> Call {
    let Params {
        name,
        arguments,
        meta,
        task,
        ..
    } = m.parts.of_params;
    let malformed = rules::mcp107::malformed(CallShape {
        params: member(m.params),
        name: member(name),
        arguments: member(arguments),
    });
    let version = meta
        .and_then(|m| scan::members(m.text(), &[era::VERSION_KEY]).ok()?)
        .and_then(|[version]| string(version).map(Cow::into_owned));
    Call {
        name: string(name).map_or_else(|| "?".to_string(), Cow::into_owned),
        arguments: arguments.map(|a| a.text().to_string()),
        malformed,
        version,
        task: given(task),
    }
}

/// A member's JSON type, as the rules ask it.
fn member(part: Option<Json>) -> Member {
    match part {
        None => Member::Absent,
        Some(p) if p.is_object() => Member::Object,
        Some(p) if p.string().is_some() => Member::String,
        Some(_) => Member::Other,
    }
}

/// Which side sends a request, by method, when the recording does not say.
fn request_dir(method: &str) -> Dir {
    let server_side = method.starts_with("sampling/")
        || method.starts_with("elicitation/")
        || method == "roots/list";
    if server_side {
        Dir::ServerToClient
    } else {
        Dir::ClientToServer
    }
}

/// The same id with the other type (`3` <-> `"3"`), to recognise an id echoed with another type.
fn retyped_key(id: Json) -> Option<String> {
    match id.value().ok()? {
        Value::Number(n) => Some(Value::String(n.to_string()).to_string()),
        Value::String(s) => s
            .parse::<serde_json::Number>()
            .ok()
            .map(|n| Value::Number(n).to_string()),
        _ => None,
    }
}

/// The related label of a call's findings: where it was asked.
fn requested(request: &Request, call: &Call) -> Vec<(Spot, String)> {
    let text = format!("tools/call `{}` requested here", call.name);
    vec![(request.at.clone(), text)]
}

fn describe(request: &Request) -> String {
    match &request.call {
        Some(call) => format!("tools/call `{}` (id {})", call.name, request.id),
        None => format!("{} (id {})", request.method, request.id),
    }
}

/// The text of the first text item of a result's `content`.
fn first_text(content: &Value) -> Option<&str> {
    content
        .as_array()?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("text"))?
        .get("text")?
        .as_str()
}
