//! Rebuilds sessions from a stream of recorded messages and judges each `tools/call` exchange.
//!
//! Per session: requests pending per direction (id spaces are per direction, and `3` is not
//! `"3"`), the negotiated protocol version, the tools capability, the latest complete
//! `tools/list` (pages joined through `nextCursor`, stale after `list_changed`), and
//! cancellations. Memory is bounded by in-flight requests and catalogs, not by file size.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::ops::Range;

use serde_json::{Map, Value};

use super::ErrorAnswer;
use super::catalog::{Catalog, Tool, first_error};
use super::locate::value_span;
use super::read::{Dir, Record};
use crate::finding::{Finding, Label};
use crate::rules::{self, RuleMeta};

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
}

#[derive(Default)]
struct Session {
    version: Option<String>,
    tools_capability: Option<bool>,
    catalog: Option<Catalog>,
    /// Pages of a listing still being followed through `nextCursor`.
    listing: Option<Catalog>,
    stale: bool,
    pending: HashMap<(Dir, String), Request>,
    answered: VecDeque<(Dir, String)>,
    answered_set: HashSet<(Dir, String)>,
    /// Sequence number of the server's latest response.
    last_answer: u64,
}

struct Request {
    id: Value,
    method: String,
    at: Spot,
    seq: u64,
    cancelled: bool,
    /// A `tools/list` that continues a listing (`params.cursor`).
    continues: bool,
    call: Option<Call>,
}

/// What a `tools/call` asked for.
struct Call {
    name: String,
    arguments: Value,
    /// Why the request is malformed (no `params`, no `name`, ...), if it is.
    malformed: Option<&'static str>,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]` (2026-07-28 traffic).
    version: Option<String>,
    /// Task-augmented: the answer is a `CreateTaskResult`, not the tool's result.
    task: bool,
}

/// A message being processed, with where its parts are in the file.
struct Msg<'r> {
    obj: &'r Map<String, Value>,
    record: &'r Record<'r>,
    line: usize,
    /// Whether the message is a whole line's message (not one element of a batch).
    whole: bool,
}

impl Msg<'_> {
    /// The spot of `key` in the message (the message itself if it cannot be located).
    fn spot(&self, key: Option<&str>) -> Spot {
        let mut path: Vec<&str> = self.record.path.to_vec();
        path.extend(key.filter(|_| self.whole));
        let local = value_span(self.record.text, &path)
            .or_else(|| value_span(self.record.text, self.record.path))
            .unwrap_or(0..self.record.text.len());
        let offset = self.record.text_offset;
        Spot {
            line: self.line,
            span: offset + local.start..offset + local.end,
        }
    }
}

impl Auditor {
    pub fn record(&mut self, record: &Record, line: usize) {
        match &record.msg {
            Value::Array(batch) => {
                for msg in batch {
                    self.message(record, msg, line, false);
                }
            }
            msg => self.message(record, msg, line, true),
        }
    }

    /// A line that could not be read as a message.
    pub fn broken(&mut self, message: String, at: Spot) {
        self.push(
            &rules::PARSE_ERROR,
            at,
            message,
            "not checked".to_string(),
            None,
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
        id: Option<Value>,
        at: Spot,
        why: fn(&str) -> String,
    ) {
        let state = self.sessions.entry(session).or_default();
        let request = id.and_then(|id| state.pending.remove(&(dir.opposite(), id_key(&id))));
        let what = request
            .as_ref()
            .map_or("this message".to_string(), describe);
        self.broken(format!("{}, so it cannot be verified", why(&what)), at);
    }

    /// Ends the transcript: calls still unanswered are reported.
    pub fn finish(mut self) -> (Vec<Finding>, BTreeSet<usize>) {
        let sessions: Vec<Session> = self.sessions.drain().map(|(_, s)| s).collect();
        for session in sessions {
            self.unanswered(session);
        }
        (self.findings, self.lines)
    }

    fn message(&mut self, record: &Record, msg: &Value, line: usize, whole: bool) {
        self.seq += 1;
        let Some(obj) = msg.as_object() else {
            let local = value_span(record.text, record.path).unwrap_or(0..record.text.len());
            let at = Spot {
                line,
                span: record.text_offset + local.start..record.text_offset + local.end,
            };
            return self.broken(
                "this is not a JSON-RPC message (not an object)".to_string(),
                at,
            );
        };
        let m = Msg {
            obj,
            record,
            line,
            whole,
        };
        let method = obj.get("method").and_then(Value::as_str);
        let id = obj.get("id").filter(|id| !id.is_null());
        match (method, id) {
            (Some(method), Some(id)) => self.request(&m, method, id),
            (Some(method), None) => self.notification(&m, method),
            (None, _) if obj.contains_key("result") || obj.contains_key("error") => {
                self.response(&m)
            }
            _ => self.broken(
                "this is not a JSON-RPC message: no method, result or error".to_string(),
                m.spot(None),
            ),
        }
    }

    fn request(&mut self, m: &Msg, method: &str, id: &Value) {
        let dir = m.record.dir.unwrap_or(request_dir(method));
        if dir == Dir::ClientToServer && method == "initialize" {
            // A new connection: what the old one left unanswered is reported now.
            if let Some(old) = self.sessions.remove(&m.record.session) {
                self.unanswered(old);
            }
        }
        let params = m.obj.get("params");
        let request = Request {
            id: id.clone(),
            method: method.to_string(),
            at: m.spot(None),
            seq: self.seq,
            cancelled: false,
            continues: params
                .and_then(|p| p.get("cursor"))
                .is_some_and(|c| !c.is_null()),
            call: (method == "tools/call").then(|| call(params)),
        };
        let session = self.sessions.entry(m.record.session.clone()).or_default();
        session.pending.insert((dir, id_key(id)), request);
    }

    fn notification(&mut self, m: &Msg, method: &str) {
        let session = self.sessions.entry(m.record.session.clone()).or_default();
        match method {
            "notifications/cancelled" => {
                let target = m.obj.get("params").and_then(|p| p.get("requestId"));
                let Some(target) = target else { return };
                let key = id_key(target);
                // The side that cancels is the side that asked; bare JSONL does not say which.
                let dir = m.record.dir.unwrap_or(Dir::ClientToServer);
                for dir in [dir, dir.opposite()] {
                    if let Some(request) = session.pending.get_mut(&(dir, key.clone())) {
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
        let Some(id) = m.obj.get("id").filter(|id| !id.is_null()) else {
            // Parse errors and transport errors answer no request: no verdict.
            return;
        };
        let session = self.sessions.entry(m.record.session.clone()).or_default();
        let key = id_key(id);
        let inferred = if session
            .pending
            .contains_key(&(Dir::ClientToServer, key.clone()))
        {
            Dir::ServerToClient
        } else if session
            .pending
            .contains_key(&(Dir::ServerToClient, key.clone()))
        {
            Dir::ClientToServer
        } else {
            Dir::ServerToClient
        };
        let dir = m.record.dir.unwrap_or(inferred);
        let asked = dir.opposite();
        let request = match session.pending.remove(&(asked, key.clone())) {
            Some(request) => request,
            None => {
                let retyped = retyped_key(id).and_then(|k| session.pending.remove(&(asked, k)));
                let duplicate = session.answered_set.contains(&(asked, key));
                let message = match (&retyped, duplicate) {
                    (Some(r), _) => format!(
                        "the response echoes id {id} for request id {} ({})",
                        r.id,
                        describe(r)
                    ),
                    (None, true) => format!("a second response to request id {id}"),
                    (None, false) => format!("a response to id {id}, which was never requested"),
                };
                let related = retyped
                    .iter()
                    .map(|r| (r.at.clone(), "the request".to_string()))
                    .collect();
                self.push(
                    &rules::TRANSCRIPT_INTEGRITY,
                    m.spot(Some("id")),
                    message,
                    "this id".into(),
                    None,
                    related,
                    Some(id.clone()),
                );
                match retyped {
                    Some(request) => request,
                    None => return,
                }
            }
        };
        let session = self.sessions.entry(m.record.session.clone()).or_default();
        session.remember((asked, id_key(&request.id)));
        if dir == Dir::ServerToClient {
            session.last_answer = self.seq;
        }
        if asked != Dir::ClientToServer {
            return;
        }
        let result = m.obj.get("result");
        match request.method.as_str() {
            "initialize" => {
                session.version = result
                    .and_then(|r| r.get("protocolVersion"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                session.tools_capability = result
                    .and_then(|r| r.get("capabilities"))
                    .map(|c| c.get("tools").is_some());
            }
            "tools/list" => {
                let Some(result) = result else { return };
                let mut listing = if request.continues {
                    session.listing.take().unwrap_or_default()
                } else {
                    Catalog::default()
                };
                listing.add_page(result);
                if result.get("nextCursor").is_some_and(|c| !c.is_null()) {
                    session.listing = Some(listing);
                } else {
                    let at = m.spot(Some("result"));
                    (listing.line, listing.span) = (at.line, at.span);
                    session.catalog = Some(listing);
                    session.stale = false;
                }
            }
            "tools/call" => self.judge(m, &request),
            _ => {}
        }
    }

    fn judge(&mut self, m: &Msg, request: &Request) {
        let Some(call) = &request.call else { return };
        if request.cancelled {
            return; // a response after a cancellation is allowed, and not the tool's verdict
        }
        let related = vec![(
            request.at.clone(),
            format!("tools/call `{}` requested here", call.name),
        )];
        if let Some(reason) = call.malformed {
            if m.obj.contains_key("result") {
                let message = format!(
                    "malformed tools/call ({reason}) answered with a result (id {})",
                    request.id
                );
                let help = "a tools/call that does not satisfy CallToolRequest gets a JSON-RPC error, -32602 \"Invalid params\"";
                let label = "a result".to_string();
                self.push(
                    &rules::MALFORMED_CALL,
                    m.spot(Some("result")),
                    message,
                    label,
                    Some(help.into()),
                    related,
                    Some(request.id.clone()),
                );
            }
            return;
        }
        if let Some(error) = m.obj.get("error") {
            return self.protocol_error(m, request, call, error, related);
        }
        let Some(result) = m.obj.get("result") else {
            return;
        };
        let not_final = result
            .get("resultType")
            .and_then(Value::as_str)
            .is_some_and(|t| t != "complete");
        if call.task || not_final || result.get("task").is_some() {
            return; // a task handle or an input request: the tool's result comes later
        }
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            let text = first_text(result);
            if let Some(why) = rules::vague_tool_error(text) {
                let message = format!(
                    "tool execution error of `{}` (id {}) {why}",
                    call.name, request.id
                );
                let help = format!(
                    "say what failed and what to do next, for example \"{}\"",
                    rules::VAGUE_HELP
                );
                self.push(
                    &rules::VAGUE_TOOL_ERROR,
                    m.spot(Some("result")),
                    message,
                    "this result".into(),
                    Some(help),
                    related.clone(),
                    Some(request.id.clone()),
                );
            }
            self.check_listed_tools(m, request, call, text.unwrap_or_default(), related);
        } else {
            self.check_output(m, request, call, result, related);
        }
    }

    fn protocol_error(
        &mut self,
        m: &Msg,
        request: &Request,
        call: &Call,
        error: &Value,
        related: Vec<(Spot, String)>,
    ) {
        let code = error.get("code").and_then(Value::as_i64);
        let text = error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let session = &self.sessions[&m.record.session];
        const KEPT_CODES: &[i64] = &[-32042, -32020, -32021, -32022];
        let no_tools = code == Some(-32601) && session.tools_capability == Some(false);
        if code.is_some_and(|c| KEPT_CODES.contains(&c)) || no_tools {
            return;
        }
        let catalog = session.catalog.as_ref().filter(|_| !session.stale);
        let tool = catalog.and_then(|c| c.get(&call.name));
        let (input_error, bad_schema) = match tool.and_then(Tool::input) {
            Some((Ok(validator), _)) => (first_error(validator, &call.arguments), None),
            Some((Err(e), fresh)) => (None, fresh.then(|| e.clone())),
            None => (None, None),
        };
        let listed_at = catalog.map(|c| Spot {
            line: c.line,
            span: c.span.clone(),
        });
        let answer = ErrorAnswer {
            tool_known: catalog.map(|_| tool.is_some()),
            input_error: input_error.as_deref(),
            code,
            message: text,
        };
        let rule = rules::PROTOCOL_ERROR_RULES_IN_TRAFFIC
            .iter()
            .find(|r| (r.audit)(&answer))
            .expect("MCP104 takes the rest");
        let code_text = code.map_or("no code".to_string(), |c| c.to_string());
        let message = format!(
            "{} answered with a JSON-RPC error ({code_text}) for tools/call `{}` (id {})",
            rule.case, call.name, request.id
        );
        let evidence = match (&answer.tool_known, &input_error) {
            (Some(false), _) => format!("; `{}` is not in the latest tools/list", call.name),
            (_, Some(e)) => format!("; the arguments fail the inputSchema {e}"),
            _ => String::new(),
        };
        let label = format!(
            "{}{evidence}",
            shorten(&format!("JSON-RPC error {code_text}: {text}"), 100)
        );
        let fix = rule
            .fix_text
            .replace("<name>", &call.name)
            .replace("<tool_name>", &call.name);
        let help = format!(
            "answer with a result instead: {{\"content\": [{{\"type\": \"text\", \"text\": {}}}], \"isError\": true}}\n{}",
            Value::String(fix),
            rule.meta.sep
        );
        self.push(
            rule.meta,
            m.spot(Some("error")),
            message,
            label,
            Some(help),
            related.clone(),
            Some(request.id.clone()),
        );
        if let (Some(e), Some(at)) = (bad_schema, listed_at) {
            self.bad_schema(&call.name, "inputSchema", e, at);
        }
        self.check_listed_tools(m, request, call, text, related);
    }

    /// MCP106: a success result of a tool with an `outputSchema`.
    fn check_output(
        &mut self,
        m: &Msg,
        request: &Request,
        call: &Call,
        result: &Value,
        related: Vec<(Spot, String)>,
    ) {
        let session = &self.sessions[&m.record.session];
        let Some(catalog) = session.catalog.as_ref().filter(|_| !session.stale) else {
            return;
        };
        let Some(tool) = catalog.get(&call.name) else {
            return;
        };
        let Some(schema) = &tool.output_schema else {
            return;
        };
        let version = call.version.as_deref().or(session.version.as_deref());
        // From 2026-07-28 structuredContent may be any JSON value that conforms.
        let any_value =
            version.is_some_and(|v| v >= "2026-07-28") || result.get("resultType").is_some();
        let object_root = schema.get("type").and_then(Value::as_str) == Some("object");
        let listed_at = Spot {
            line: catalog.line,
            span: catalog.span.clone(),
        };
        let (problem, key) = match result.get("structuredContent") {
            None => (
                "has no structuredContent, though the tool declares an outputSchema".to_string(),
                "result",
            ),
            Some(content) if !content.is_object() && (object_root || !any_value) => (
                "has a structuredContent that is not an object".to_string(),
                "result",
            ),
            Some(content) => match tool.output() {
                Some((Ok(validator), _)) => match first_error(validator, content) {
                    Some(e) => (
                        format!(
                            "has a structuredContent that does not conform to the outputSchema {e}"
                        ),
                        "result",
                    ),
                    None => return,
                },
                Some((Err(e), fresh)) => {
                    if fresh {
                        let e = e.clone();
                        self.bad_schema(&call.name, "outputSchema", e, listed_at);
                    }
                    return;
                }
                None => return,
            },
        };
        let key = if key == "result" && result.get("structuredContent").is_some() {
            "structuredContent"
        } else {
            key
        };
        let mut at = m.spot(Some("result"));
        if key == "structuredContent" {
            let mut path: Vec<&str> = m.record.path.to_vec();
            path.extend(["result", "structuredContent"]);
            if let (true, Some(local)) = (m.whole, value_span(m.record.text, &path)) {
                at.span = m.record.text_offset + local.start..m.record.text_offset + local.end;
            }
        }
        let message = format!(
            "the success result of tools/call `{}` (id {}) {problem}",
            call.name, request.id
        );
        let help = format!(
            "when the output cannot satisfy the schema, answer {{\"content\": [{{\"type\": \"text\", \"text\": \"Tool produced invalid structured output for {}: <details>.\"}}], \"isError\": true}}\n{}",
            call.name,
            rules::UNREPORTED_INVALID_OUTPUT.sep
        );
        self.push(
            &rules::UNREPORTED_INVALID_OUTPUT,
            at,
            message,
            "this result".into(),
            Some(help),
            related,
            Some(request.id.clone()),
        );
    }

    /// MCP202: an error text that enumerates the server's tools.
    fn check_listed_tools(
        &mut self,
        m: &Msg,
        request: &Request,
        call: &Call,
        text: &str,
        related: Vec<(Spot, String)>,
    ) {
        let session = &self.sessions[&m.record.session];
        let names: Vec<&str> = session
            .catalog
            .as_ref()
            .map(|c| c.names().filter(|n| *n != call.name).collect())
            .unwrap_or_default();
        let Some(why) = rules::lists_tools(text, &names) else {
            return;
        };
        let message = format!(
            "the error text of tools/call `{}` (id {}) {why}",
            call.name, request.id
        );
        let help = "name the failing tool only; the model can call tools/list to see the others"
            .to_string();
        let key = if m.obj.contains_key("error") {
            "error"
        } else {
            "result"
        };
        self.push(
            &rules::TOOL_ERROR_LISTS_TOOLS,
            m.spot(Some(key)),
            message,
            "this text".into(),
            Some(help),
            related,
            Some(request.id.clone()),
        );
    }

    fn bad_schema(&mut self, tool: &str, which: &str, error: String, at: Spot) {
        let message = format!(
            "the {which} of tool `{tool}` is not a usable JSON Schema ({error}), so it was not checked"
        );
        self.push(
            &rules::PARSE_ERROR,
            at,
            message,
            "listed here".into(),
            None,
            Vec::new(),
            None,
        );
    }

    /// MCP104 or MCP301 for each call a session left unanswered.
    fn unanswered(&mut self, session: Session) {
        let mut open: Vec<Request> = session
            .pending
            .into_iter()
            .filter(|((dir, _), r)| *dir == Dir::ClientToServer && r.call.is_some() && !r.cancelled)
            .map(|(_, r)| r)
            .collect();
        open.sort_by_key(|r| r.seq);
        for request in open {
            let (rule, message) = if session.last_answer > request.seq {
                (
                    &rules::TOOL_FAILURE,
                    format!(
                        "{} was never answered, though the server answered later requests",
                        describe(&request)
                    ),
                )
            } else {
                (
                    &rules::UNANSWERED_CALL,
                    format!(
                        "{} has no response and no cancellation when the transcript ends",
                        describe(&request)
                    ),
                )
            };
            let help = "answer every tools/call; a tool that fails or times out answers {\"content\": [..], \"isError\": true}".to_string();
            self.push(
                rule,
                request.at.clone(),
                message,
                "this request".into(),
                Some(help),
                Vec::new(),
                Some(request.id.clone()),
            );
        }
    }

    #[allow(clippy::too_many_arguments)] // one constructor for every transcript finding
    fn push(
        &mut self,
        rule: &'static RuleMeta,
        at: Spot,
        message: String,
        label: String,
        help: Option<String>,
        related: Vec<(Spot, String)>,
        request_id: Option<Value>,
    ) {
        self.lines.insert(at.line);
        self.lines.extend(related.iter().map(|(spot, _)| spot.line));
        let mut finding = Finding::new(rule, at.span, message, label);
        finding.help = help;
        finding.related = related
            .into_iter()
            .map(|(spot, text)| Label {
                span: spot.span,
                text,
            })
            .collect();
        finding.request_id = request_id;
        self.findings.push(finding);
    }
}

impl Session {
    fn remember(&mut self, key: (Dir, String)) {
        if self.answered.len() == REMEMBERED_ANSWERS
            && let Some(old) = self.answered.pop_front()
        {
            self.answered_set.remove(&old);
        }
        self.answered_set.insert(key.clone());
        self.answered.push_back(key);
    }
}

/// Reads a `tools/call`'s params, and whether they satisfy CallToolRequest.
fn call(params: Option<&Value>) -> Call {
    let name = params.and_then(|p| p.get("name"));
    let arguments = params.and_then(|p| p.get("arguments"));
    let malformed = match (params, name, arguments) {
        (None, _, _) => Some("no `params`"),
        (Some(p), _, _) if !p.is_object() => Some("`params` is not an object"),
        (_, None, _) => Some("no `name`"),
        (_, Some(n), _) if !n.is_string() => Some("`name` is not a string"),
        (_, _, Some(a)) if !a.is_object() => Some("`arguments` is not an object"),
        _ => None,
    };
    let meta = params.and_then(|p| p.get("_meta"));
    Call {
        name: name.and_then(Value::as_str).unwrap_or("?").to_string(),
        arguments: arguments
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new())),
        malformed,
        version: meta
            .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
            .and_then(Value::as_str)
            .map(str::to_string),
        task: params
            .and_then(|p| p.get("task"))
            .is_some_and(|t| !t.is_null()),
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

/// A request id with its type: `3` and `"3"` are different ids.
fn id_key(id: &Value) -> String {
    id.to_string()
}

/// The same id with the other type (`3` <-> `"3"`), to recognise an id echoed with another type.
fn retyped_key(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(id_key(&Value::String(n.to_string()))),
        Value::String(s) => s
            .parse::<serde_json::Number>()
            .ok()
            .map(|n| id_key(&Value::Number(n))),
        _ => None,
    }
}

fn describe(request: &Request) -> String {
    match &request.call {
        Some(call) => format!("tools/call `{}` (id {})", call.name, request.id),
        None => format!("{} (id {})", request.method, request.id),
    }
}

/// The text of the first text content item of a result.
fn first_text(result: &Value) -> Option<&str> {
    let content = result.get("content")?.as_array()?;
    content
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("text"))?
        .get("text")?
        .as_str()
}

fn shorten(text: &str, max: usize) -> String {
    let first_line = text.lines().next().unwrap_or_default();
    if first_line.chars().count() <= max && first_line.len() == text.len() {
        return text.to_string();
    }
    let cut: String = first_line.chars().take(max).collect();
    format!("{cut}…")
}
