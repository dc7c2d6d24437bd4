//! Error responses with no rewrite that is sure to be right: left as they are.
use serde_json::{json, Value};

const VERSION: &str = "2.0";

/// Generic: a method called on the parameter may be another on the argument's own type.
fn error_from(id: &Value, code: i64, message: impl std::fmt::Display) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.to_string()}})
}

fn plain_error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Names a constant the call may not see under that name.
fn versioned_error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": VERSION, "id": id, "error": {"code": code, "message": message}})
}

fn bare_error(code: i64, message: &str) -> Value {
    json!({"code": code, "message": message})
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/list" => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        "tools/call" => call_tool(id, &request["params"]),
        _ => Value::Null,
    }
}

fn call_tool(id: &Value, params: &Value) -> Value {
    let reason: &str = params["reason"].as_str().unwrap_or("no reason given");
    match params["name"].as_str().unwrap_or_default() {
        "a" => error_from(id, -32602, "a needs arguments"), //~ MCP103@16
        "b" => versioned_error(id, -32603, "b failed; retry later".to_string()), //~ MCP104@16
        // The message's type comes from the parameter: `json!` could not infer it.
        "c" => plain_error(id, -32603, reason.into()), //~ MCP104@16
        // The error object alone: the envelope is built elsewhere.
        "d" => json!({"jsonrpc": "2.0", "id": id, "error": bare_error(-32603, "d failed; retry later")}), //~ MCP104@16
        _ => Value::Null,
    }
}
