//! A notes server speaking JSON-RPC over stdio by hand.
use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde_json::{Value, json};

const INVALID_PARAMS: i64 = -32602;
const METHOD_NOT_FOUND: i64 = -32601;

struct Notes {
    notes: HashMap<String, String>,
}

fn error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

impl Notes {
    fn handle(&mut self, request: &Value) -> Value {
        let id = &request["id"];
        match request["method"].as_str().unwrap_or_default() {
            "initialize" => result(id, json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}})),
            "tools/list" => result(id, json!({"tools": [{"name": "read_note", "inputSchema": {"type": "object"}}]})),
            "tools/call" => self.call_tool(id, &request["params"]),
            other => error(id, METHOD_NOT_FOUND, format!("Method not found: {other}")),
        }
    }

    fn call_tool(&mut self, id: &Value, params: &Value) -> Value {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return error(id, INVALID_PARAMS, "Missing tool name".into()); // malformed: a protocol error is right
        };
        match name {
            "read_note" => {
                let Some(title) = params["arguments"]["title"].as_str() else {
                    return error(id, INVALID_PARAMS, "title is required".into()); //~ MCP103@28
                };
                match self.notes.get(title) {
                    Some(text) => result(id, json!({"content": [{"type": "text", "text": text}]})),
                    None => result(id, json!({"content": [{"type": "text", "text": format!("No note titled {title}.")}], "isError": true})),
                }
            }
            other => error(id, METHOD_NOT_FOUND, format!("Unknown tool: {other}")), //~ MCP101@22
        }
    }
}

fn main() {
    let mut server = Notes { notes: HashMap::new() };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let answer = server.handle(&request);
        let _ = writeln!(stdout, "{answer}");
    }
}
