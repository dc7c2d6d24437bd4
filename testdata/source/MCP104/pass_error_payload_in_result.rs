// A hand-rolled dispatcher whose tools answer `{"error": ".."}` as their own payload: it is sent
// inside the tools/call result (as text), not as a JSON-RPC error object. (Without `isError`
// the model cannot tell it failed, but it is no protocol error.)
use serde_json::{Value, json};

pub async fn handle(method: &str, id: Value, params: Value) -> Value {
    match method {
        "tools/list" => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or("");
            let result = dispatch(name, params["arguments"].clone()).await;
            json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": result.to_string()}]}})
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
    }
}

async fn dispatch(name: &str, args: Value) -> Value {
    match name {
        "fetch" => match serde_json::from_value::<String>(args) {
            Ok(url) => json!({ "url": url }),
            Err(e) => json!({ "error": format!("Invalid input: {e}") }),
        },
        other => json!({ "error": format!("Unknown tool: {other}") }),
    }
}
