// A gateway's kill switch: a tools/call of a tool the operator blocked is turned away before
// the pipeline runs, inside `if method == "tools/call" && ..`, with a JSON-RPC error.
use std::collections::HashSet;

use serde_json::{Value, json};

pub fn intercept(method: &str, msg: &Value, blocked: &HashSet<String>) -> Option<Value> {
    if method == "tools/call"
        && let Some(tool_name) = msg["params"]["name"].as_str()
        && blocked.contains(tool_name)
    {
        return Some(json!({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32603, "message": format!("tool '{tool_name}' is blocked by operator")}})); //~ MCP102@21
    }
    None
}
