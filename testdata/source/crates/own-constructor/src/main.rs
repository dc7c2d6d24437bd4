// A hand-rolled dispatcher answering an unknown tool with the crate's own constructor, defined
// in another file (src/reply.rs).
mod reply;

use reply::Reply;
use serde_json::{Value, json};

pub fn dispatch(method: &str, id: Value, params: &Value) -> Reply {
    match method {
        "initialize" => Reply::success(id, json!({"protocolVersion": "2025-11-25"})),
        "tools/call" => match params["name"].as_str() {
            Some("echo") => Reply::success(id, json!({"content": [{"type": "text", "text": "hi"}]})),
            other => Reply::failure(id, -32602, format!("no such tool: {other:?}")), //~ MCP101@22
        },
        _ => Reply::failure(id, -32601, "method not found".to_string()),
    }
}

fn main() {}
