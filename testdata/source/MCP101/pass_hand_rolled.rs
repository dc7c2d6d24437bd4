// A hand-rolled server, compliant: a malformed tools/call (no params, no name) gets a protocol
// error, an unknown method gets -32601, and an unknown tool gets an isError result.
use serde_json::{Value, json};

const INVALID_PARAMS: i64 = -32602;

fn rpc_error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn tool_error(id: &Value, text: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}], "isError": true}})
}

pub fn dispatch(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("initialize") => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        Some("tools/call") => {
            let Some(params) = request.get("params") else {
                return rpc_error(id, INVALID_PARAMS, "tools/call requires params");
            };
            let name = match params.get("name").and_then(Value::as_str) {
                Some(name) => name,
                None => return rpc_error(id, INVALID_PARAMS, "Missing tool name"),
            };
            match name {
                "echo" => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "hi"}]}}),
                other => tool_error(id, format!("Unknown tool: {other}. Re-run tools/list and retry.")),
            }
        }
        _ => rpc_error(id, -32601, "Method not found"),
    }
}

/// A transport that streams tools/call: it reads the name before anything else, and a call
/// without one is malformed here too, whatever words say so.
pub fn dispatch_streaming(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("initialize") => json!({"jsonrpc": "2.0", "id": request["id"], "result": {}}),
        Some("tools/call") => call_streaming(request),
        _ => rpc_error(&request["id"], -32601, "Method not found"),
    }
}

fn call_streaming(request: &Value) -> Value {
    let id = request["id"].clone();
    let name = request["params"].get("name").and_then(Value::as_str).map(str::to_string);
    let Some(name) = name else {
        return rpc_error(&id, -32000, "tools/call requires 'name'");
    };
    tool_error(&id, format!("{name} is not streamed yet. Call it without a progress token."))
}
