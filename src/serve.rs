//! `mcp-lint mcp`: mcp-lint as an MCP server over stdio, so that the coding agents that write
//! MCP servers can check them. It keeps SEP-2145 itself: every failure of a well-formed
//! `tools/call` (unknown tool, bad arguments, a check that could not run) is a tool execution
//! error; protocol errors are only for unreadable or malformed requests and unknown methods.
//!
//! The tools run mcp-lint in-process with `--format json`, so they answer what the command line
//! would.

use std::io::{self, BufReader};
use std::path::Path;
use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use crate::transcript::read::Lines;
use crate::{Env, commands, exit, rules};

/// Newest first: the version a client asks for is answered if known, else the newest.
const PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

/// What a tool gives back: structured content and its text, or what went wrong, for the model.
type Outcome = Result<(Value, String), String>;

struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input: Value,
    output: Value,
    /// Built once: every call's arguments are checked against `input` before `run` sees them.
    validator: jsonschema::Validator,
    run: fn(&Value, &Path) -> Outcome,
}

static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| {
    let paths = |what: &str| json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "description": what});
    vec![
        tool(
            "check",
            "Check Rust sources",
            "Lint Rust MCP server sources for tools/call failures answered with JSON-RPC protocol errors (SEP-2145). Paths are files or directories, relative to the server's working directory; transcripts named here are audited.",
            json!({
                "type": "object",
                "properties": {"paths": paths("Rust files or directories to check")},
                "required": ["paths"],
                "additionalProperties": false
            }),
            report_schema(),
            check,
        ),
        tool(
            "audit",
            "Audit recorded MCP traffic",
            "Audit recorded MCP traffic (envelope or bare JSONL, Claude Desktop logs, HAR, MCP Inspector exports) for responses that break SEP-2145. Give transcript files, or a transcript's text as `content`.",
            json!({
                "type": "object",
                "properties": {
                    "files": paths("Transcript files or directories"),
                    "content": {"type": "string", "description": "A transcript's text, audited as standard input"}
                },
                "anyOf": [{"required": ["files"]}, {"required": ["content"]}],
                "additionalProperties": false
            }),
            report_schema(),
            audit,
        ),
        tool(
            "explain",
            "Explain a rule",
            "The documentation of one rule: what it flags, why, an example, and what to write instead.",
            json!({
                "type": "object",
                "properties": {"rule": {"type": "string", "description": "A rule code (MCP101) or name (unknown-tool-protocol-error)"}},
                "required": ["rule"],
                "additionalProperties": false
            }),
            object(&[
                ("code", "string"),
                ("name", "string"),
                ("level", "string"),
                ("documentation", "string"),
            ]),
            explain,
        ),
        tool(
            "rules",
            "List the rules",
            "The rule catalog: each rule's code, name, level, the passes that report it, what it flags, the SEP clause it enforces, its fix (none, safe or unsafe) and for which findings (never, sometimes, always), and its documentation.",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            json!({
                "type": "object",
                "properties": {"rules": {"type": "array", "items": object(&[
                    ("code", "string"),
                    ("name", "string"),
                    ("level", "string"),
                    ("source", "boolean"),
                    ("transcript", "boolean"),
                    ("passes", "array"),
                    ("summary", "string"),
                    ("sep", "string"),
                    ("fix", "string"),
                    ("fixable", "string"),
                    ("doc", "string"),
                ])}},
                "required": ["rules"]
            }),
            |_, _| {
                let catalog = commands::catalog();
                let text = serde_json::to_string_pretty(&catalog).unwrap_or_default();
                Ok((json!({ "rules": catalog }), text))
            },
        ),
    ]
});

fn tool(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input: Value,
    output: Value,
    run: fn(&Value, &Path) -> Outcome,
) -> Tool {
    let validator = jsonschema::validator_for(&input).expect("the tools' input schemas are valid");
    Tool {
        name,
        title,
        description,
        input,
        output,
        validator,
        run,
    }
}

/// An object schema whose every field is required, of the given JSON types.
fn object(fields: &[(&str, &str)]) -> Value {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|(name, ty)| (name.to_string(), json!({ "type": ty })))
        .collect();
    let required: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    json!({"type": "object", "properties": properties, "required": required})
}

/// The JSON output of `check` and `audit` (SPEC.md, version 1), as structured content.
fn report_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "version": {"type": "integer"},
            "profile": {"type": "string"},
            "findings": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "code": {"type": "string"},
                    "rule": {"type": "string"},
                    "level": {"enum": ["error", "warning", "advice"]},
                    "file": {"type": "string"},
                    "line": {"type": "integer"},
                    "column": {"type": "integer"},
                    "end_line": {"type": "integer"},
                    "end_column": {"type": "integer"},
                    "message": {"type": "string"},
                    "help": {"type": ["string", "null"]},
                    "request_id": {}
                },
                "required": ["code", "rule", "level", "file", "line", "column", "message"]
            }},
            "summary": object(&[
                ("files", "integer"),
                ("errors", "integer"),
                ("warnings", "integer"),
                ("advice", "integer"),
            ])
        },
        "required": ["version", "findings", "summary"]
    })
}

/// Serves requests from standard input until it ends.
pub fn run(env: &mut Env) -> io::Result<i32> {
    let mut lines = Lines::new(BufReader::new(&mut *env.stdin));
    while let Some(line) = lines.next_line() {
        let line = line?;
        let reply = if line.too_long {
            Some(error(
                &Value::Null,
                PARSE_ERROR,
                "Parse error: message too long",
            ))
        } else if line.bytes.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            answer(line.bytes, &env.cwd)
        };
        if let Some(reply) = reply {
            serde_json::to_writer(&mut *env.stdout, &reply)?;
            writeln!(env.stdout)?;
            env.stdout.flush()?;
        }
    }
    Ok(exit::CLEAN)
}

/// The reply to one message; none to a notification or a client's response.
fn answer(bytes: &[u8], cwd: &Path) -> Option<Value> {
    let message: Value = match serde_json::from_slice(bytes) {
        Ok(message) => message,
        Err(e) => {
            return Some(error(
                &Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {e}"),
            ));
        }
    };
    let Some(fields) = message.as_object() else {
        return Some(error(
            &Value::Null,
            INVALID_REQUEST,
            "Invalid Request: a message is a JSON object (batches are not supported)",
        ));
    };
    let id = fields.get("id");
    let Some(method) = fields.get("method").and_then(Value::as_str) else {
        // A response to a request of ours: this server sends none, so there is nothing to do.
        let response = fields.contains_key("result") || fields.contains_key("error");
        return (!response).then(|| {
            error(
                id.unwrap_or(&Value::Null),
                INVALID_REQUEST,
                "Invalid Request: no `method`",
            )
        });
    };
    let id = id?; // a notification: initialized, cancelled, ... need no answer
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return Some(error(
            &Value::Null,
            INVALID_REQUEST,
            "Invalid Request: `id` is a string or an integer",
        ));
    }
    let params = fields.get("params");
    let result = match method {
        "initialize" => initialize(params),
        "ping" => json!({}),
        "tools/list" => tools_list(),
        "tools/call" => {
            // A malformed call is the one failure of tools/call that is a protocol error.
            let params = params.and_then(Value::as_object);
            let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str) else {
                return Some(error(
                    id,
                    INVALID_PARAMS,
                    "Invalid params: tool name is required (`params.name`, a string)",
                ));
            };
            let arguments = match params.and_then(|p| p.get("arguments")) {
                None => json!({}),
                Some(arguments @ Value::Object(_)) => arguments.clone(),
                Some(_) => {
                    return Some(error(
                        id,
                        INVALID_PARAMS,
                        "Invalid params: `params.arguments` must be an object",
                    ));
                }
            };
            call(name, arguments, cwd)
        }
        other => {
            return Some(error(
                id,
                METHOD_NOT_FOUND,
                &format!("Method not found: {other}"),
            ));
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn initialize(params: Option<&Value>) -> Value {
    let asked = params
        .and_then(|p| p.get("protocolVersion"))
        .and_then(Value::as_str);
    let version = asked
        .filter(|v| PROTOCOL_VERSIONS.contains(v))
        .unwrap_or(PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": {"name": "mcp-lint", "title": "mcp-lint", "version": env!("CARGO_PKG_VERSION")},
        "instructions": "Call `check` with the paths of an MCP server's Rust sources, or `audit` with recorded traffic, to find tools/call failures answered with JSON-RPC protocol errors where SEP-2145 requires tool execution errors. `explain` tells how to fix a finding's rule."
    })
}

fn tools_list() -> Value {
    let tools: Vec<Value> = TOOLS
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "title": t.title,
                "description": t.description,
                "inputSchema": t.input,
                "outputSchema": t.output,
                // The tools read files and write nothing: agents may call them freely.
                "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
            })
        })
        .collect();
    json!({ "tools": tools })
}

/// A well-formed `tools/call`: whatever fails is a tool execution error.
fn call(name: &str, arguments: Value, cwd: &Path) -> Value {
    let Some(tool) = TOOLS.iter().find(|t| t.name == name) else {
        return tool_error(format!(
            "Unknown tool: {name}. Re-run tools/list and retry."
        ));
    };
    if let Some(problem) = tool.validator.iter_errors(&arguments).next() {
        let at = problem.instance_path().to_string();
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" at `{at}`")
        };
        return tool_error(format!(
            "Invalid input: {name}. {problem}{at}. See the tool's inputSchema in tools/list."
        ));
    }
    match (tool.run)(&arguments, cwd) {
        Ok((structured, text)) => json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": structured,
            "isError": false
        }),
        Err(text) => tool_error(text),
    }
}

fn tool_error(text: String) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": true})
}

fn check(arguments: &Value, cwd: &Path) -> Outcome {
    lint("check", strings(arguments.get("paths")), None, cwd)
}

fn audit(arguments: &Value, cwd: &Path) -> Outcome {
    let mut files = strings(arguments.get("files"));
    let content = arguments.get("content").and_then(Value::as_str);
    if content.is_some() {
        files.push("-".to_string());
    }
    lint("audit", files, content, cwd)
}

fn explain(arguments: &Value, _: &Path) -> Outcome {
    let asked = arguments
        .get("rule")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let rule = rules::lookup(asked).ok_or_else(|| {
        format!(
            "Unknown rule: {asked}. Call the `rules` tool for the catalog, and pass a code (MCP101) or a name (unknown-tool-protocol-error)."
        )
    })?;
    let structured = json!({
        "code": rule.code,
        "name": rule.name,
        "level": rule.level.as_str(),
        "documentation": rule.doc
    });
    Ok((structured, rule.doc.to_string()))
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `mcp-lint COMMAND --format json -- FILES` in-process; `stdin` is read for `-`. A run
/// that could not check everything it was given (exit status 2) is a tool execution error, with
/// what mcp-lint said and the findings it has.
fn lint(command: &str, files: Vec<String>, stdin: Option<&str>, cwd: &Path) -> Outcome {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut input = stdin.unwrap_or_default().as_bytes();
    let status = {
        let mut inner = Env {
            stdout: &mut stdout,
            stderr: &mut stderr,
            stdout_is_terminal: false,
            stderr_is_terminal: false,
            no_color: true,
            stdin: &mut input,
            cwd: cwd.to_path_buf(),
        };
        let args = ["mcp-lint", command, "--format", "json", "--"];
        crate::run(args.into_iter().map(String::from).chain(files), &mut inner)
    };
    let said = String::from_utf8_lossy(&stderr).trim().to_string();
    let report: Option<Value> = serde_json::from_slice(&stdout).ok();
    let text = report.as_ref().map(listing).unwrap_or_default();
    match (status, report) {
        (exit::CLEAN | exit::FINDINGS, Some(report)) => Ok((report, text)),
        _ => Err(format!(
            "{said}\nmcp-lint could not check every input: fix the paths (relative to {}) or the configuration and call {command} again.\n{text}",
            cwd.display()
        )
        .trim()
        .to_string()),
    }
}

/// The findings as text for the model: `file:line:col: CODE level message`, the help, then the
/// summary.
fn listing(report: &Value) -> String {
    let mut text = String::new();
    for f in report["findings"].as_array().into_iter().flatten() {
        text += &format!(
            "{}:{}:{}: {} {} {}\n",
            f["file"].as_str().unwrap_or_default(),
            f["line"],
            f["column"],
            f["code"].as_str().unwrap_or_default(),
            f["level"].as_str().unwrap_or_default(),
            f["message"].as_str().unwrap_or_default()
        );
        if let Some(help) = f["help"].as_str() {
            text += &format!("  help: {help}\n");
        }
    }
    let s = &report["summary"];
    text += &format!(
        "{} errors, {} warnings, {} advice in {} files",
        s["errors"], s["warnings"], s["advice"], s["files"]
    );
    text
}
