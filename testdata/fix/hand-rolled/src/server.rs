//! Error responses to tools/call, built where they are sent or by a helper of the file.
use serde_json::{json, Value};

const INVALID_PARAMS: i64 = -32602;

fn error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/list" => result(id, json!({"tools": []})),
        "tools/call" => call_tool(id, &request["params"]),
        // Not tools/call: the helper's protocol error is right here, and the helper stays.
        other => error(id, -32601, format!("Method not found: {other}")),
    }
}

fn call_tool(id: &Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    match name {
        "echo" => {
            let Some(text) = params["arguments"]["text"].as_str() else {
                return error(id, INVALID_PARAMS, "text is required".into()); //~ MCP103@24
            };
            if text.len() > 1000 {
                return json!({ //~ MCP103@24
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": -32602, "message": format!("text is {} bytes; the limit is 1000", text.len())},
                });
            }
            result(id, json!({"content": [{"type": "text", "text": text}]}))
        }
        "clock" => error(id, -32603, String::from("the clock is not set; set it with `clock set`")), //~ MCP104@20
        other => error(id, -32601, format!("Unknown tool: {other}. Re-run tools/list and retry.")), //~ MCP101@18
    }
}
