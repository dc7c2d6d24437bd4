//! An error response built in a function the tools/call handler calls, which another request
//! calls too: rewriting it there would change that request's answer, so there is no fix.
use serde_json::{json, Value};

fn fail(id: &Value, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": message}}) //~ MCP104@5
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/list" => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        "tools/call" => call_tool(id, &request["params"]),
        _ => fail(id, "unknown method"),
    }
}

fn call_tool(id: &Value, params: &Value) -> Value {
    match params["name"].as_str().unwrap_or_default() {
        "a" => fail(id, "a failed; retry later"),
        _ => Value::Null,
    }
}
