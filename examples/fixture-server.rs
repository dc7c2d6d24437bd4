//! A small MCP server for testing `mcp-lint probe` and `record`: hand-rolled JSON-RPC over
//! stdio (or Streamable HTTP with `--http`), compliant with SEP-2145 by default and broken
//! in every way the probe looks for with `--broken`.
//!
//! ```text
//! cargo run --example fixture-server -- [--broken] [--exit-on-call] [--oversize] [--modern]
//!     [--strict-initialize] [--http [--sse]]
//! ```
//!
//! By default it speaks the protocol up to 2025-11-25 (`initialize`; `server/discover` is a
//! method it does not know). `--modern` makes it speak 2026-07-28 only: `server/discover`,
//! the version in every request's `_meta`, `resultType` on every result, `ttlMs` and
//! `cacheScope` on `tools/list`, no `initialize` and no `ping`; over HTTP, no session.
//! `--strict-initialize`: over stdio, a first message other than `initialize` or `ping` ends
//! the process unanswered, as rmcp's servers do.
//!
//! Tools: `echo` (with an outputSchema), `add` (fails on a sum past 2^53), `fail` (always
//! fails), `crash` (exits the process), `sleep` (never answers), `confirm` (with `--modern`,
//! an interim `input_required` result). `echo`, `add` and `fail` are annotated read-only;
//! `crash` read-only but destructive. `tools/list` gives two tools a page. `--exit-on-call`:
//! the server exits on its first `tools/call`, whatever it names. `--oversize`: `echo`'s
//! success is over the 64 MiB a message mcp-lint reads.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use serde_json::{Value, json};

struct Server {
    broken: bool,
    modern: bool,
    strict_initialize: bool,
    exit_on_call: bool,
    oversize: bool,
}

const PAGE: usize = 2;

/// The one version `--modern` speaks, and where a request names it.
const MODERN: &str = "2026-07-28";
const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

fn tools() -> Vec<Value> {
    vec![
        json!({"name": "echo", "description": "Echoes a message",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}},
                "required": ["message"]},
            "outputSchema": {"type": "object", "properties": {"echo": {"type": "string"}},
                "required": ["echo"]},
            "annotations": {"readOnlyHint": true}}),
        json!({"name": "add", "description": "Adds two numbers",
            "inputSchema": {"type": "object",
                "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                "required": ["a", "b"]},
            "annotations": {"readOnlyHint": true, "destructiveHint": false}}),
        json!({"name": "fail", "description": "Always fails",
            "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}),
        // Read-only, yet destructive: `--explore` leaves it alone.
        json!({"name": "crash", "description": "Exits the server",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "destructiveHint": true}}),
        json!({"name": "sleep", "description": "Never answers",
            "inputSchema": {"type": "object"}}),
        json!({"name": "confirm", "description": "Asks the user first (2026-07-28)",
            "inputSchema": {"type": "object"}}),
    ]
}

/// A tools/call outcome before it is framed as JSON-RPC.
enum Outcome {
    Result(Value),
    ToolError(String),
    Protocol(i64, String),
    /// A JSON-RPC error with data.
    Refused(Value),
    Silent,
}

impl Server {
    /// The answer to one message, if it gets one.
    fn handle(&self, msg: &Value) -> Option<Value> {
        let id = msg.get("id")?.clone();
        let method = msg
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let outcome = match method {
            _ if self.modern => match self.envelope_problem(msg) {
                Some(problem) => problem,
                None => match method {
                    "server/discover" => Outcome::Result(json!({
                        "supportedVersions": [MODERN],
                        "capabilities": {"tools": {}},
                        "ttlMs": 0,
                        "cacheScope": "private"
                    })),
                    "initialize" | "ping" => {
                        Outcome::Protocol(-32601, format!("Method not found: {method}"))
                    }
                    _ => self.serve(method, msg),
                },
            },
            "initialize" => Outcome::Result(json!({
                "protocolVersion": msg.pointer("/params/protocolVersion").cloned()
                    .unwrap_or(json!("2025-11-25")),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fixture-server", "version": "1.0.0"}
            })),
            "ping" => Outcome::Result(json!({})),
            _ => self.serve(method, msg),
        };
        let error = |error| Some(json!({"jsonrpc": "2.0", "id": id, "error": error}));
        let mut result = match outcome {
            Outcome::Result(result) => result,
            Outcome::ToolError(text) => {
                json!({"content": [{"type": "text", "text": text}], "isError": true})
            }
            Outcome::Protocol(code, message) => {
                return error(json!({"code": code, "message": message}));
            }
            Outcome::Refused(refusal) => return error(refusal),
            Outcome::Silent => return None,
        };
        if self.modern && result.get("resultType").is_none() {
            result["resultType"] = json!("complete");
        }
        Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }

    /// What a 2026-07-28 server answers a request whose `_meta` does not name its version.
    /// A request with no params at all is left to its method (a malformed tools/call).
    fn envelope_problem(&self, msg: &Value) -> Option<Outcome> {
        let params = msg.get("params")?;
        match params.pointer("/_meta").and_then(|m| m.get(VERSION_KEY)) {
            Some(version) if version == MODERN => None,
            Some(version) => Some(Outcome::Refused(json!({
                "code": -32022,
                "message": format!("Unsupported protocol version: {version}"),
                "data": {"supported": [MODERN], "requested": version}
            }))),
            None => Some(Outcome::Protocol(
                -32602,
                "Request is missing the required _meta envelope for protocol revision 2026-07-28"
                    .to_string(),
            )),
        }
    }

    /// The methods of both eras.
    fn serve(&self, method: &str, msg: &Value) -> Outcome {
        match method {
            "tools/list" => {
                let start: usize = msg
                    .pointer("/params/cursor")
                    .and_then(Value::as_str)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                let all = tools();
                let page: Vec<Value> = all.iter().skip(start).take(PAGE).cloned().collect();
                let mut result = json!({"tools": page});
                if start + PAGE < all.len() {
                    result["nextCursor"] = json!((start + PAGE).to_string());
                }
                if self.modern {
                    result["ttlMs"] = json!(60_000);
                    result["cacheScope"] = json!("public");
                }
                Outcome::Result(result)
            }
            "tools/call" => self.call(msg.get("params")),
            _ => Outcome::Protocol(-32601, format!("Method not found: {method}")),
        }
    }

    fn call(&self, params: Option<&Value>) -> Outcome {
        if self.exit_on_call {
            std::process::exit(0);
        }
        let name = params.and_then(|p| p.get("name"));
        let args = params.map_or(&Value::Null, |p| p.get("arguments").unwrap_or(&Value::Null));
        let (Some(Value::String(name)), Value::Object(_) | Value::Null) = (name, args) else {
            let problem = "tools/call needs params with a string `name` and object `arguments`";
            return match self.broken {
                true => Outcome::ToolError(problem.to_string()),
                false => Outcome::Protocol(-32602, problem.to_string()),
            };
        };
        let empty = serde_json::Map::new();
        let args = match args {
            Value::Object(args) => args,
            _ => &empty,
        };
        let invalid = |problem: String| match self.broken {
            true => Outcome::Protocol(-32602, format!("Invalid params: {problem}")),
            false => Outcome::ToolError(format!("Invalid arguments for {name}: {problem}")),
        };
        match name.as_str() {
            "echo" => match args.get("message") {
                Some(Value::String(_)) if self.oversize => Outcome::Result(json!({
                    "content": [{"type": "text", "text": "x".repeat(65 << 20)}]})),
                Some(Value::String(m)) if self.broken => Outcome::Result(json!({
                    "content": [{"type": "text", "text": m}], "structuredContent": m})),
                Some(Value::String(m)) => Outcome::Result(json!({
                    "content": [{"type": "text", "text": m}], "structuredContent": {"echo": m}})),
                Some(_) => invalid("`message` must be a string".to_string()),
                None => invalid("`message` is required".to_string()),
            },
            "add" => match (
                args.get("a").and_then(Value::as_f64),
                args.get("b").and_then(Value::as_f64),
            ) {
                // A sum past 2^53 is not exact: refused, as a tool error unless broken.
                (Some(a), Some(b)) if (a + b).abs() > 9_007_199_254_740_992.0 => {
                    let problem = "the sum is too large to be exact";
                    match self.broken {
                        true => Outcome::Protocol(-32603, format!("Internal error: {problem}")),
                        false => Outcome::ToolError(format!("{problem}; add smaller numbers")),
                    }
                }
                (Some(a), Some(b)) => Outcome::Result(json!({
                    "content": [{"type": "text", "text": (a + b).to_string()}]})),
                _ => invalid("`a` and `b` must be numbers".to_string()),
            },
            "fail" if self.broken => Outcome::Protocol(-32603, "Internal error".to_string()),
            "fail" => Outcome::ToolError(
                "The upstream service is unavailable (simulated); retry in a minute.".to_string(),
            ),
            "crash" => std::process::exit(3),
            "sleep" => Outcome::Silent,
            // An interim result: the call is to be made again with the user's answer.
            "confirm" if self.modern => Outcome::Result(json!({
                "resultType": "input_required",
                "inputRequests": {"confirm": {"method": "elicitation/create", "params": {
                    "message": "Go ahead?",
                    "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}}})),
            "confirm" => {
                Outcome::Result(json!({"content": [{"type": "text", "text": "confirmed"}]}))
            }
            _ if self.broken => Outcome::Protocol(-32602, format!("Unknown tool: {name}")),
            _ => Outcome::ToolError(format!(
                "Unknown tool: {name}. Call tools/list for the tools available."
            )),
        }
    }
}

fn serve_stdio(server: &Server) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let mut first = server.strict_initialize;
    for line in io::stdin().lock().lines() {
        let line = line?;
        let method = serde_json::from_str::<Value>(&line)
            .ok()
            .and_then(|m| m["method"].as_str().map(str::to_string));
        if std::mem::take(&mut first) && !matches!(method.as_deref(), Some("initialize" | "ping")) {
            eprintln!("Error: ExpectedInitializeRequest");
            std::process::exit(1);
        }
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            writeln!(
                out,
                r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32700,"message":"Parse error"}}}}"#
            )?;
            continue;
        };
        if let Some(answer) = server.handle(&msg) {
            writeln!(out, "{answer}")?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Streamable HTTP on a loopback port, printed as the first line of stdout. One request a
/// connection; answers are JSON bodies, or SSE streams with `--sse`.
fn serve_http(server: &Server, sse: bool) -> io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    println!("http://{}/mcp", listener.local_addr()?);
    io::stdout().flush()?;
    for stream in listener.incoming() {
        let _ = exchange(server, stream?, sse);
    }
    Ok(())
}

const SESSION: &str = "fixture-session-1";

fn exchange(server: &Server, stream: TcpStream, sse: bool) -> io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0;
    let mut session = None;
    // MCP-Protocol-Version, Mcp-Method, Mcp-Name, as sent.
    let mut routing: [Option<String>; 3] = Default::default();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "mcp-session-id" => session = Some(value.trim().to_string()),
                "mcp-protocol-version" => routing[0] = Some(value.trim().to_string()),
                "mcp-method" => routing[1] = Some(value.trim().to_string()),
                "mcp-name" => routing[2] = Some(value.trim().to_string()),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let mut stream = stream;
    if !request_line.starts_with("POST") {
        return respond(&mut stream, "200 OK", "application/json", "", false);
    }
    let Ok(msg) = serde_json::from_slice::<Value>(&body) else {
        return respond(
            &mut stream,
            "400 Bad Request",
            "text/plain",
            "not JSON",
            false,
        );
    };
    let initialize = msg.get("method").and_then(Value::as_str) == Some("initialize");
    if server.modern {
        if let Some(problem) = stateless_problem(&msg, session.as_deref(), &routing) {
            let error = json!({"jsonrpc": "2.0", "id": msg.get("id"), "error": problem});
            let body = error.to_string();
            return respond(
                &mut stream,
                "400 Bad Request",
                "application/json",
                &body,
                false,
            );
        }
    } else if !initialize && session.as_deref() != Some(SESSION) {
        let error =
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"No valid session"}}"#;
        return respond(
            &mut stream,
            "400 Bad Request",
            "application/json",
            error,
            false,
        );
    }
    match server.handle(&msg) {
        None if msg.get("id").is_none() => respond(
            &mut stream,
            "202 Accepted",
            "application/json",
            "",
            initialize,
        ),
        None => Ok(()), // `sleep`: the connection is dropped unanswered
        Some(answer) if sse => {
            let body = format!("event: message\ndata: {answer}\n\n");
            respond(
                &mut stream,
                "200 OK",
                "text/event-stream",
                &body,
                initialize,
            )
        }
        Some(answer) => respond(
            &mut stream,
            "200 OK",
            "application/json",
            &answer.to_string(),
            initialize,
        ),
    }
}

/// What is wrong with a 2026-07-28 POST's headers: a session (there are none), or routing
/// headers that do not repeat the body (SEP-2243): the version, the method, a tool's name.
fn stateless_problem(
    msg: &Value,
    session: Option<&str>,
    routing: &[Option<String>; 3],
) -> Option<Value> {
    if session.is_some() {
        return Some(
            json!({"code": -32600, "message": "Mcp-Session-Id: this server has no sessions"}),
        );
    }
    let version = msg
        .pointer("/params/_meta")
        .and_then(|m| m.get(VERSION_KEY));
    let name = match msg.get("method") {
        Some(method) if method == "tools/call" => {
            msg.pointer("/params/name").filter(|n| n.is_string())
        }
        _ => None,
    };
    let body = [version, msg.get("method"), name];
    let names = ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];
    for ((header, value), name) in routing.iter().zip(body).zip(names) {
        if let Some(value) = value.and_then(Value::as_str)
            && header.as_deref() != Some(value)
        {
            return Some(json!({"code": -32020,
                "message": format!("Header mismatch: {name} is {header:?}, the body says {value}")}));
        }
    }
    None
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &str,
    new_session: bool,
) -> io::Result<()> {
    let session = match new_session {
        true => format!("Mcp-Session-Id: {SESSION}\r\n"),
        false => String::new(),
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{session}Connection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let server = Server {
        broken: has("--broken"),
        modern: has("--modern"),
        strict_initialize: has("--strict-initialize"),
        exit_on_call: has("--exit-on-call"),
        oversize: has("--oversize"),
    };
    match has("--http") {
        true => serve_http(&server, has("--sse")),
        false => serve_stdio(&server),
    }
}
