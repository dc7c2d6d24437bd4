// A hand-rolled server whose dispatcher passes the tools/call handler's failure on with `?`,
// and whose read loop converts every `Err` of the dispatcher into a JSON-RPC error: that
// conversion answers the handler's failures (one finding per case), and each failure of the
// handler is reported where it starts. The dispatcher's own unknown-method error is not a
// tools/call answer.
use serde_json::{Value, json};

fn handle_request(request: &Value) -> anyhow::Result<Value> {
    let method = request["method"].as_str().unwrap_or_default();
    let params = &request["params"];
    match method {
        "initialize" => Ok(json!({"protocolVersion": "2025-11-25"})),
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => {
            let result = call_tool(params)?;
            Ok(result)
        }
        _ => anyhow::bail!("unknown method {method}"),
    }
}

fn call_tool(params: &Value) -> anyhow::Result<Value> {
    let path = params["arguments"]["path"].as_str().unwrap_or_default();
    let text = std::fs::read_to_string(path)?; //~ MCP104@16
    Ok(json!({"content": [{"type": "text", "text": text}]}))
}

pub fn serve(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    match handle_request(&request) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": e.to_string()}}), //~ MCP104@19
    }
}
