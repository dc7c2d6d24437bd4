//! `mcp-lint probe`: drives a running server through SEP-2145's cases, records every message
//! as envelope JSONL, and audits that transcript with the transcript pass's rules, so a probe
//! and an audit of the same traffic agree (but for the failing calls `--explore` sent while
//! shrinking a failure, which the probe reports as one).

mod boundary;
mod cases;
mod explore;
mod shrink;
mod transport;
mod version;

use std::io::{self, Write};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::baseline::Mode;
use crate::cli::ProbeArgs;
use crate::engine::{conclude, settings};
use crate::finding::FileReport;
use crate::finding::Violation;
use crate::report::{ClauseVerdict, Format};
use crate::rules::{Level, RuleMeta, mcp001, mcp104, mcp301};
use crate::suppress::Checked;
use crate::transcript::era;
use crate::transcript::read::{Dir, MAX_LINE_BYTES};
use crate::transcript::redact::Redactor;
use crate::transcript::write::Recorder;
use crate::transcript::{self};
use crate::walk::InputFormat;
use crate::{Env, exit};
use explore::{Explored, Options};
use transport::{Http, Received, Stdio, Transport};

/// `tools/list` pages followed before the catalog is taken as complete.
const MAX_PAGES: usize = 1000;

pub fn run(args: &ProbeArgs, env: &mut Env) -> io::Result<i32> {
    let config = match settings(&args.output, env) {
        Ok(config) => config,
        Err(status) => return Ok(status),
    };
    let forced = version::parse(args.protocol_version.as_deref());
    let setup = parse_calls(&args.call).and_then(|calls| {
        let forced = forced?;
        let timeout = seconds("--timeout", args.timeout)?;
        let explore = args
            .explore
            .then(|| -> Result<Options, String> {
                Ok(Options {
                    allow: args.allow_tool.clone(),
                    skip: args.skip_tool.clone(),
                    max_calls: args.max_calls,
                    max_time: seconds("--max-time", args.max_time)?,
                })
            })
            .transpose()?;
        let transport: Box<dyn Transport> = match &args.url {
            Some(url) => {
                Box::new(Http::new(url, &args.header, timeout).map_err(|e| e.to_string())?)
            }
            None => Box::new(Stdio::spawn(&args.command).map_err(|e| e.to_string())?),
        };
        Ok((
            (calls, explore),
            forced,
            Session::new(transport, timeout, args.redact.redactor()),
        ))
    });
    let ((calls, explore), forced, mut session) = match setup {
        Ok(setup) => setup,
        Err(error) => {
            writeln!(env.stderr, "mcp-lint: {error}")?;
            return Ok(exit::TROUBLE);
        }
    };
    let outcome = drive(&mut session, forced, &calls, explore.as_ref());
    let leftover = session.transport.close();
    match (&outcome, &session.gone) {
        (Err(error), _) => writeln!(env.stderr, "mcp-lint: {error}")?,
        (Ok(_), Some(gone)) => writeln!(env.stderr, "mcp-lint: {gone} during the probe")?,
        (Ok(_), None) => {}
    }
    if (outcome.is_err() || session.gone.is_some()) && !leftover.is_empty() {
        writeln!(
            env.stderr,
            "mcp-lint: the server's stderr ended with:\n{leftover}"
        )?;
    }
    for note in &session.notes {
        writeln!(env.stderr, "mcp-lint: {note}")?;
    }

    let mut trouble = outcome.is_err();
    let transcript = session.log.into_inner();
    let name = match &args.save {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &transcript) {
                writeln!(env.stderr, "mcp-lint: {}: {e}", path.display())?;
                trouble = true;
            }
            path.display().to_string()
        }
        None => "<probe>".to_string(),
    };
    let Ok((protocol, explored)) = outcome else {
        // Nothing was probed: a report of no findings would read as a pass.
        return Ok(exit::TROUBLE);
    };
    let open = || -> io::Result<Box<dyn io::BufRead + '_>> { Ok(Box::new(&transcript[..])) };
    let mut file = transcript::audit(&name, &open, InputFormat::Envelope, true, None, None, false)?;
    if let Some(how) = &session.gone {
        for (id, call) in &session.died_on {
            let died = mcp104::server_died(call, how);
            restate_unanswered(&mut file, *id, &[&mcp301::META], died);
        }
    }
    for (id, call) in &session.unread {
        let why = format!(
            "the answer to {call} is over {MAX_LINE_BYTES} bytes, so it was not read and cannot be verified"
        );
        let unread = mcp001::unreadable(why);
        restate_unanswered(&mut file, *id, &[&mcp104::META, &mcp301::META], unread);
    }
    if let Some(explored) = &explored {
        explored.restate(&mut file);
    }
    let checked = vec![Checked::from(file)];
    let probes = session.probes;
    let table = args.output.format == Format::Human && !args.output.quiet;
    let mut failed = false;
    let status = conclude(
        checked,
        trouble,
        &config,
        &args.output,
        &Mode::Off,
        env,
        |report, out| {
            let verdicts = verdicts(&probes, &report.files[0], explored.as_ref());
            failed = verdicts.iter().any(|(_, v, _)| *v == Verdict::Fail);
            if table {
                write_table(&probes, &protocol, &verdicts, out)?;
            }
            report.protocol_version = Some(protocol.clone());
            report.clauses = verdicts
                .into_iter()
                .map(|(clause, verdict, detail)| ClauseVerdict {
                    clause: clause.title(),
                    verdict: verdict.as_str(),
                    detail,
                })
                .collect();
            Ok(())
        },
    )?;
    // A clause that fails without a finding of level error (an unknown method answered with
    // a result) still fails the run: the table and the exit status agree.
    Ok(if failed && status == exit::CLEAN {
        exit::FINDINGS
    } else {
        status
    })
}

/// What the audit of the transcript can only call an unanswered request `id` (MCP104, or
/// MCP301 at the end), restated as what the probe saw happen: the server died on it (an
/// MCP104 of its own), or its answer was too large to read (MCP001, as for a HAR entry with
/// no body: unverifiable, not a fault of the server).
fn restate_unanswered(file: &mut FileReport, id: i64, rules: &[&RuleMeta], seen: Violation) {
    for finding in &mut file.findings {
        let on_it = finding.request_id.as_ref().and_then(Value::as_i64) == Some(id);
        if on_it && rules.iter().any(|r| std::ptr::eq(*r, finding.rule)) {
            let seen = seen.clone().at(finding.span.clone());
            finding.rule = seen.rule;
            finding.level = seen.level;
            finding.message = seen.message;
            finding.label = seen.label;
            finding.help = seen.help;
        }
    }
}

/// A number of seconds given as `flag`, which must be positive.
fn seconds(flag: &str, secs: f64) -> Result<Duration, String> {
    match secs.is_finite() && secs > 0.0 {
        true => Ok(Duration::from_secs_f64(secs)),
        false => Err(format!("{flag} must be a positive number of seconds")),
    }
}

/// `--call TOOL=JSON` as (tool, arguments).
fn parse_calls(calls: &[String]) -> Result<Vec<(String, Value)>, String> {
    calls
        .iter()
        .map(|call| {
            let (tool, args) = call
                .split_once('=')
                .ok_or_else(|| format!("--call `{call}` is not TOOL=JSON"))?;
            let args: Value = serde_json::from_str(args)
                .map_err(|e| format!("--call {tool}: the arguments are not JSON ({e})"))?;
            if !args.is_object() {
                // Anything else is a malformed call, which the probe sends on its own.
                return Err(format!(
                    "--call {tool}: the arguments must be a JSON object"
                ));
            }
            Ok((tool.to_string(), args))
        })
        .collect()
}

/// The SEP's clauses, as the probe's table shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clause {
    UnknownTool,
    UnavailableTool,
    InvalidInput,
    ToolFailure,
    OutputValidation,
    MalformedRequest,
    UnknownMethod,
}

impl Clause {
    const ALL: [Clause; 7] = [
        Clause::UnknownTool,
        Clause::UnavailableTool,
        Clause::InvalidInput,
        Clause::ToolFailure,
        Clause::OutputValidation,
        Clause::MalformedRequest,
        Clause::UnknownMethod,
    ];

    fn title(self) -> &'static str {
        match self {
            Clause::UnknownTool => "unknown tool",
            Clause::UnavailableTool => "unavailable tool",
            Clause::InvalidInput => "invalid input",
            Clause::ToolFailure => "tool failure",
            Clause::OutputValidation => "output validation",
            Clause::MalformedRequest => "malformed request",
            Clause::UnknownMethod => "unknown method",
        }
    }

    /// Why a clause went unprobed.
    fn unprobed(self) -> &'static str {
        match self {
            Clause::UnavailableTool => "which tools are disabled cannot be seen from outside",
            Clause::InvalidInput => "no tool's inputSchema has a required or typed property",
            Clause::ToolFailure => {
                "no --call failed; name a failing call, or --explore, to probe it"
            }
            Clause::OutputValidation => {
                "no --call of a tool with an outputSchema succeeded; name one, or --explore"
            }
            _ => "the server stopped before this probe",
        }
    }
}

/// One request the probe sent.
struct Probe {
    /// The clause it tests; a valid `--call` that succeeded without an outputSchema tests none.
    clause: Option<Clause>,
    id: i64,
    answer: Answer,
}

#[derive(Debug, Clone, PartialEq)]
enum Answer {
    Result(Value),
    Error(Value),
    None,
    /// The server had gone before the request could be sent: it tested nothing.
    NotSent,
    /// An answer too large to read came: it tested nothing that can be judged.
    Unread,
}

impl Answer {
    /// A result that is not the call's last word (2026-07-28's `input_required`): the call
    /// is to be made again with what it asks for.
    fn interim(&self) -> bool {
        match self {
            Answer::Result(result) => result
                .get("resultType")
                .and_then(Value::as_str)
                .is_some_and(|kind| kind != "complete"),
            _ => false,
        }
    }

    fn failed_tool(&self) -> bool {
        match self {
            Answer::Result(result) => result.get("isError") == Some(&Value::Bool(true)),
            Answer::NotSent | Answer::Unread => false,
            _ => true,
        }
    }
}

/// The conversation with the server, recorded message by message.
struct Session {
    transport: Box<dyn Transport>,
    log: Recorder<Vec<u8>>,
    timeout: Duration,
    next_id: i64,
    /// The `_meta` every request carries, once a version from 2026-07-28 on is spoken.
    envelope: Option<Value>,
    /// Set when the server exits or stops reading: the remaining probes are not sent.
    gone: Option<String>,
    /// The tools/calls in flight when the server went away: each id and call described.
    died_on: Vec<(i64, String)>,
    /// The tools/calls whose answer was too large to read: each id and call described.
    unread: Vec<(i64, String)>,
    /// Why the last request got no answer, when known (an HTTP failure).
    failure: Option<String>,
    notes: Vec<String>,
    probes: Vec<Probe>,
}

impl Session {
    fn new(
        transport: Box<dyn Transport>,
        timeout: Duration,
        redactor: Option<Redactor>,
    ) -> Session {
        Session {
            transport,
            log: Recorder::new(Vec::new(), redactor),
            timeout,
            next_id: 0,
            envelope: None,
            gone: None,
            died_on: Vec::new(),
            unread: Vec::new(),
            failure: None,
            notes: Vec::new(),
            probes: Vec::new(),
        }
    }

    /// Sends a request with the next id and waits for its answer.
    fn request(&mut self, method: &str, params: Option<Value>) -> (i64, Answer) {
        let (id, sent) = self.send_request(method, params);
        let answer = match sent {
            Some(msg) => self.answers(&[(id, &msg)]).remove(0),
            None => Answer::NotSent,
        };
        (id, answer)
    }

    /// Sends `requests` (method, params) and waits for their answers, which are in their
    /// order. They go one at a time while the server answers, so that each request is
    /// followed by its answer in the transcript; once one goes unanswered by a server still
    /// there, the rest go out together and are waited for against one deadline, so that N
    /// hung calls cost two timeouts, not N. A transport that cannot have requests in flight
    /// together (HTTP, where each POST waits for its answer) takes them one at a time.
    fn requests(&mut self, requests: Vec<(&str, Option<Value>)>) -> Vec<(i64, Answer)> {
        let mut done = Vec::new();
        let mut requests = requests.into_iter();
        for (method, params) in requests.by_ref() {
            let (id, answer) = self.request(method, params);
            let unanswered = answer == Answer::None;
            done.push((id, answer));
            if unanswered && self.still_there(&[id]) && self.transport.pipelines() {
                break;
            }
        }
        let sent: Vec<(i64, Option<Value>)> = requests
            .map(|(method, params)| self.send_request(method, params))
            .collect();
        let in_flight: Vec<(i64, &Value)> = sent
            .iter()
            .filter_map(|(id, msg)| Some((*id, msg.as_ref()?)))
            .collect();
        let mut answers = self.answers(&in_flight).into_iter();
        let mut unanswered = Vec::new();
        for (id, msg) in &sent {
            let answer = match msg {
                Some(_) => answers.next().unwrap_or(Answer::None),
                None => Answer::NotSent,
            };
            if answer == Answer::None {
                unanswered.push(*id);
            }
            done.push((*id, answer));
        }
        if !unanswered.is_empty() {
            self.still_there(&unanswered);
        }
        done
    }

    /// Whether the server is still there after leaving the requests `ids` unanswered. A
    /// ping answered after them makes the audit see calls the server skipped (MCP104) rather
    /// than a transcript that merely ends (MCP301). No answer to the ping either: the server
    /// is stuck, and probing it further would only wait out every timeout. When why they
    /// went unanswered is known (an HTTP failure), it is noted and no ping is needed.
    fn still_there(&mut self, ids: &[i64]) -> bool {
        if let Some(why) = self.failure.take() {
            for id in ids {
                self.notes.push(format!("request {id}: {why}"));
            }
            return false;
        }
        if self.gone.is_none()
            && self.request("ping", None).1 == Answer::None
            && self.gone.is_none()
        {
            self.gone = Some("the server stopped answering (not even a ping)".into());
        }
        self.gone.is_none()
    }

    /// Sends a request with the next id; the message, unless the server was gone.
    fn send_request(&mut self, method: &str, params: Option<Value>) -> (i64, Option<Value>) {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": method});
        let params = match (params, &self.envelope) {
            (Some(Value::Object(mut params)), Some(meta)) => {
                params.insert("_meta".to_string(), meta.clone());
                Some(Value::Object(params))
            }
            // A tools/call without params is the malformed probe: it stays without.
            (None, Some(meta)) if method != "tools/call" => Some(json!({"_meta": meta})),
            (params, _) => params,
        };
        if let Some(params) = params {
            msg["params"] = params;
        }
        (id, self.send(&msg).then_some(msg))
    }

    /// Names `version` (2026-07-28 on) in every request from now on.
    fn speak(&mut self, version: &str) {
        if version::is_modern(version) {
            self.envelope = Some(version::envelope(version));
        }
    }

    /// Starts the server again after it went away, for a conversation of its own.
    fn restart(&mut self) -> io::Result<()> {
        self.transport.restart()?;
        self.gone = None;
        self.died_on.clear();
        self.failure = None;
        Ok(())
    }

    /// Back to requests that name no version, for `initialize` and what follows it.
    fn unspeak(&mut self) {
        self.envelope = None;
    }

    fn notify(&mut self, method: &str) {
        self.send(&json!({"jsonrpc": "2.0", "method": method}));
    }

    /// Records and sends `msg`; false when the server is gone, before or by this.
    fn send(&mut self, msg: &Value) -> bool {
        if self.gone.is_some() {
            return false;
        }
        if let Err(e) = self.log.message(Dir::ClientToServer, msg) {
            self.notes
                .push(format!("the transcript could not be kept: {e}"));
        }
        if let Err(e) = self.transport.send(msg) {
            self.gone = Some(e.to_string());
            return false;
        }
        true
    }

    /// Reads until each request of `pending` (id, message) is answered or the deadline has
    /// passed, and gives their answers in that order; the server's own requests on the way
    /// are answered.
    fn answers(&mut self, pending: &[(i64, &Value)]) -> Vec<Answer> {
        self.failure = None;
        let mut answers: Vec<Option<Answer>> = vec![None; pending.len()];
        let deadline = Instant::now() + self.timeout;
        // What came instead of an answer, to say so if the answer never does.
        let mut instead: Option<String> = None;
        while let Some(open) = answers.iter().position(Option::is_none) {
            let (id, msg) = pending[open];
            let bytes = match self.transport.receive(deadline) {
                Received::Message(bytes) => bytes,
                Received::Unanswered(why) => {
                    self.failure = why.or(instead);
                    break;
                }
                Received::Gone(why) => {
                    self.gone = Some(why);
                    let open = pending.iter().zip(&answers).filter(|(_, a)| a.is_none());
                    let calls = open.filter_map(|((id, msg), _)| call_of(msg, *id));
                    self.died_on.extend(calls);
                    break;
                }
                Received::TooLarge => {
                    // Which request it answers is in what was not read: a server answers
                    // in order, so the oldest one open is taken.
                    self.failure = Some(format!(
                        "the server answered with a message over {MAX_LINE_BYTES} bytes, which was not read"
                    ));
                    self.unread.extend(call_of(msg, id));
                    answers[open] = Some(Answer::Unread);
                    continue;
                }
            };
            let _ = self.log.raw(Dir::ServerToClient, &bytes);
            let message = match serde_json::from_slice::<Value>(&bytes) {
                Ok(message) => message,
                Err(e) => {
                    instead = Some(match e.classify() {
                        serde_json::error::Category::Syntax
                            if e.to_string().contains("recursion") =>
                        {
                            "its answer nests deeper than 128 levels, which is not read".to_string()
                        }
                        _ => format!("it wrote a line that is not JSON ({e}) instead of an answer"),
                    });
                    continue;
                }
            };
            if message.get("method").is_some() {
                if message.get("id").is_some() {
                    self.answer_server(&message);
                }
                continue;
            }
            let Some(answered) = message.get("id") else {
                continue;
            };
            match pending.iter().position(|(id, _)| *answered == json!(id)) {
                Some(i) if answers[i].is_none() => {
                    answers[i] = Some(match (message.get("result"), message.get("error")) {
                        (Some(result), _) => Answer::Result(result.clone()),
                        (None, Some(error)) => Answer::Error(error.clone()),
                        (None, None) => Answer::None,
                    });
                }
                Some(_) => {} // answered twice: the audit says so
                None => {
                    instead = Some(format!(
                        "it answered id {answered}, but the request's id is {id}"
                    ));
                }
            }
        }
        answers
            .into_iter()
            .map(|answer| answer.unwrap_or(Answer::None))
            .collect()
    }

    /// Answers a request the server makes mid-probe: `ping`, and a refusal of anything else
    /// (the probe offers no sampling, roots or elicitation).
    fn answer_server(&mut self, request: &Value) {
        let id = request["id"].clone();
        let reply = match request["method"].as_str() {
            Some("ping") => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            _ => json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32601, "message": "mcp-lint's probe does not offer this method"
            }}),
        };
        let _ = self.log.message(Dir::ClientToServer, &reply);
        if let Err(e) = self.transport.send(&reply) {
            self.gone = Some(e.to_string());
        }
    }
}

/// The request `msg` with `id`, described, if it is a tools/call.
fn call_of(msg: &Value, id: i64) -> Option<(i64, String)> {
    let tool = msg["params"]["name"].as_str().unwrap_or("?");
    (msg["method"] == "tools/call").then(|| (id, format!("tools/call `{tool}` (id {id})")))
}

/// A tool as `tools/list` gave it.
struct Tool {
    name: String,
    input_schema: Value,
    has_output_schema: bool,
    /// Annotated `readOnlyHint: true` and not `destructiveHint: true`: `--explore` calls it.
    read_only: bool,
}

/// The clause a call of a listed `tool` tests by its `answer`: a tool failure, or output
/// validation when the tool has an outputSchema; none for a success without one, nor for a
/// request for input (2026-07-28's `input_required`), which is not the call's last word.
fn call_clause(tool: &Tool, answer: &Answer) -> Option<Clause> {
    match answer {
        _ if answer.interim() => None,
        _ if answer.failed_tool() => Some(Clause::ToolFailure),
        _ => tool.has_output_schema.then_some(Clause::OutputValidation),
    }
}

/// Runs the probes in order, then explores; gives the protocol version they were sent in and
/// what exploring did. An error means the server could not be probed at all.
fn drive(
    session: &mut Session,
    forced: Option<&'static str>,
    calls: &[(String, Value)],
    explore: Option<&Options>,
) -> Result<(String, Option<Explored>), String> {
    let protocol = version::open(session, forced)?;
    let tools = list_tools(session)?;

    let mut unknown = "mcp_lint_probe_unknown_tool".to_string();
    while tools.iter().any(|t| t.name == unknown) {
        unknown.push('_');
    }
    // Each request with what it tests; none depends on another's answer.
    let mut planned = vec![(
        Tests::Clause(Clause::UnknownTool),
        "tools/call",
        Some(json!({"name": unknown, "arguments": {}})),
    )];
    for tool in &tools {
        for (_, arguments) in cases::invalid_arguments(&tool.input_schema) {
            let params = json!({"name": tool.name, "arguments": arguments});
            planned.push((
                Tests::Clause(Clause::InvalidInput),
                "tools/call",
                Some(params),
            ));
        }
    }
    let some_tool = tools.first().map_or(unknown.as_str(), |t| t.name.as_str());
    let malformed = [
        None,
        Some(json!({"arguments": {}})),
        Some(json!({"name": 42, "arguments": {}})),
        Some(json!({"name": some_tool, "arguments": "mcp-lint"})),
    ];
    for params in malformed {
        planned.push((
            Tests::Clause(Clause::MalformedRequest),
            "tools/call",
            params,
        ));
    }
    planned.push((
        Tests::Clause(Clause::UnknownMethod),
        "mcp-lint/no-such-method",
        None,
    ));
    for (name, arguments) in calls {
        let tests = match tools.iter().find(|t| &t.name == name) {
            Some(tool) => Tests::Call(tool),
            None => {
                session.notes.push(format!(
                    "--call {name}: no tool of that name is listed, so its answer is judged as an unknown tool's"
                ));
                Tests::Clause(Clause::UnknownTool)
            }
        };
        let params = json!({"name": name, "arguments": arguments});
        planned.push((tests, "tools/call", Some(params)));
    }

    let (tests, requests): (Vec<Tests>, Vec<_>) = planned
        .into_iter()
        .map(|(tests, method, params)| (tests, (method, params)))
        .unzip();
    let answers = session.requests(requests);
    for (tests, (id, answer)) in tests.into_iter().zip(answers) {
        let clause = match tests {
            Tests::Clause(clause) => Some(clause),
            Tests::Call(tool) if answer.interim() => {
                session.notes.push(format!(
                    "--call {}: the server asks for input first (resultType `input_required`), which the probe does not give: the call tests nothing",
                    tool.name
                ));
                None
            }
            Tests::Call(tool) => call_clause(tool, &answer),
        };
        session.probes.push(Probe { clause, id, answer });
    }
    let explored = explore
        .filter(|_| session.gone.is_none())
        .map(|options| explore::explore(session, &tools, options));
    Ok((protocol, explored))
}

/// What a probe's request tests: a clause, or, for a `--call` of a listed tool, what its
/// answer shows (a tool failure, or output validation when the tool has an outputSchema).
enum Tests<'t> {
    Clause(Clause),
    Call(&'t Tool),
}

/// Every page of `tools/list`.
fn list_tools(session: &mut Session) -> Result<Vec<Tool>, String> {
    let mut tools = Vec::new();
    let mut cursors = Vec::new();
    let mut params = None;
    for _ in 0..MAX_PAGES {
        let (id, answer) = session.request("tools/list", params.take());
        let result = match answer {
            Answer::Result(result) => result,
            Answer::Error(error) => {
                return Err(format!("the server refused `tools/list`: {error}"));
            }
            Answer::None | Answer::NotSent | Answer::Unread => {
                return Err(unanswered(session, "tools/list"));
            }
        };
        // The new era's cache hints: no rule covers them, so they are said, not reported.
        let spoken = session
            .envelope
            .as_ref()
            .map(|m| m[version::VERSION_KEY].clone());
        if let Some(Value::String(version)) = spoken {
            for problem in era::cache_hint_problems(&result) {
                let note = format!("the tools/list answer (id {id}) breaks {version}: {problem}");
                session.notes.push(note);
            }
        }
        for tool in result["tools"].as_array().into_iter().flatten() {
            let Some(name) = tool["name"].as_str() else {
                continue;
            };
            let hint = |name| tool["annotations"][name] == Value::Bool(true);
            tools.push(Tool {
                name: name.to_string(),
                input_schema: tool["inputSchema"].clone(),
                has_output_schema: tool.get("outputSchema").is_some(),
                read_only: hint("readOnlyHint") && !hint("destructiveHint"),
            });
        }
        match result.get("nextCursor") {
            // A cursor seen before would page forever.
            Some(cursor) if !cursor.is_null() && !cursors.contains(cursor) => {
                cursors.push(cursor.clone());
                params = Some(json!({"cursor": cursor}));
            }
            _ => break,
        }
    }
    Ok(tools)
}

fn unanswered(session: &Session, method: &str) -> String {
    match (&session.gone, &session.failure) {
        (Some(gone), _) => format!("{gone} before answering `{method}`"),
        (None, Some(failure)) => format!("`{method}` failed: {failure}"),
        (None, None) => format!(
            "the server did not answer `{method}` within {:?}",
            session.timeout
        ),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Pass,
    Fail,
    NotProbed,
}

impl Verdict {
    /// As the JSON and SARIF reports spell it.
    fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::NotProbed => "not-probed",
        }
    }
}

/// Each clause's verdict, with what backs it: pass (the requests sent), fail (the findings
/// that fail it), or not probed (why); the clauses `--explore` probes say what it called.
fn verdicts(
    probes: &[Probe],
    file: &FileReport,
    explored: Option<&Explored>,
) -> Vec<(Clause, Verdict, String)> {
    let mut verdicts = Vec::new();
    for clause in Clause::ALL {
        let of_clause = || probes.iter().filter(move |p| p.clause == Some(clause));
        let sent: Vec<&Probe> = of_clause()
            .filter(|p| p.answer != Answer::NotSent && p.answer != Answer::Unread)
            .collect();
        let ids: Vec<i64> = sent.iter().map(|p| p.id).collect();
        let explorable = matches!(clause, Clause::ToolFailure | Clause::OutputValidation);
        let failures: Vec<String> = if clause == Clause::UnknownMethod {
            // No rule covers other methods; an answer that is not an error fails the clause.
            sent.iter()
                .filter_map(|p| match &p.answer {
                    Answer::Result(_) => Some("answered with a result".to_string()),
                    Answer::None => Some("not answered".to_string()),
                    Answer::Error(_) | Answer::NotSent | Answer::Unread => None,
                })
                .collect()
        } else {
            file.findings
                .iter()
                .filter(|f| f.level != Level::Advice)
                .filter(|f| {
                    f.request_id
                        .as_ref()
                        .and_then(Value::as_i64)
                        .is_some_and(|id| ids.contains(&id))
                })
                .map(|f| {
                    let line = file.source.position(f.span.start).line;
                    format!("{} at line {line}", f.rule.code)
                })
                .collect()
        };
        let verdict = match (sent.len(), failures.is_empty()) {
            (0, _) if of_clause().any(|p| p.answer == Answer::Unread) => (
                Verdict::NotProbed,
                format!("the answer was over {MAX_LINE_BYTES} bytes, so it was not read"),
            ),
            (0, _) if of_clause().next().is_some() => (
                Verdict::NotProbed,
                "the server exited before this probe was sent".to_string(),
            ),
            (0, _) => (
                Verdict::NotProbed,
                match explored.filter(|_| explorable) {
                    Some(explored) => explored.unprobed(clause),
                    None => clause.unprobed().to_string(),
                },
            ),
            (n, true) => {
                let requests = format!("{n} request{}", if n == 1 { "" } else { "s" });
                match explored.filter(|_| explorable) {
                    Some(explored) => (
                        Verdict::Pass,
                        format!("{requests} ({})", explored.summary()),
                    ),
                    None => (Verdict::Pass, requests),
                }
            }
            (_, false) => (Verdict::Fail, failures.join(", ")),
        };
        verdicts.push((clause, verdict.0, verdict.1));
    }
    verdicts
}

/// The per-clause table, headed by the number of probes actually sent and the protocol
/// version they were sent in.
fn write_table(
    probes: &[Probe],
    protocol: &str,
    verdicts: &[(Clause, Verdict, String)],
    out: &mut dyn Write,
) -> io::Result<()> {
    let sent = probes
        .iter()
        .filter(|p| p.answer != Answer::NotSent)
        .count();
    writeln!(out, "SEP-2145 probe: {sent} requests, protocol {protocol}")?;
    for (clause, verdict, detail) in verdicts {
        let verdict = match verdict {
            Verdict::Fail => "FAIL", // to stand out in a table read by eye
            Verdict::NotProbed => "not probed",
            Verdict::Pass => "pass",
        };
        writeln!(out, "  {:<19} {verdict:<11} {detail}", clause.title())?;
    }
    writeln!(out)
}
