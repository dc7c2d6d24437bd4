// A hand-rolled server whose tools/call handler cannot fail (it answers every failure as an
// `isError` result): the read loop's conversion of the dispatcher's `Err` only ever answers
// other methods, so it is not a tools/call answer.
use serde_json::{Value, json};

fn handle_request(request: &Value) -> anyhow::Result<Value> {
    let method = request["method"].as_str().unwrap_or_default();
    let params = &request["params"];
    match method {
        "initialize" => Ok(json!({"protocolVersion": "2025-11-25"})),
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => Ok(call_tool(params)),
        _ => anyhow::bail!("unknown method {method}"),
    }
}

fn call_tool(params: &Value) -> Value {
    let path = params["arguments"]["path"].as_str().unwrap_or_default();
    match std::fs::read_to_string(path) {
        Ok(text) => json!({"content": [{"type": "text", "text": text}]}),
        Err(e) => json!({"content": [{"type": "text", "text": e.to_string()}], "isError": true}),
    }
}

pub fn serve(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    match handle_request(&request) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": e.to_string()}}),
    }
}
