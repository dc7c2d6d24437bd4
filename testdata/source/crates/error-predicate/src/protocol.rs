use serde_json::{Value, json};

use crate::error::{McpError, McpResult};
use crate::tools::registry::Registry;

pub async fn handle_message(msg: Value) -> McpResult<Value> {
    let method = msg
        .get("method")
        .and_then(|v| v.as_str())
        .ok_or_else(|| McpError::InvalidParams("missing method".into()))?;
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let params = msg.get("params").cloned();
    match method {
        "initialize" => Ok(json!({ "jsonrpc": "2.0", "id": id, "result": {} })),
        "tools/list" => Ok(json!({ "jsonrpc": "2.0", "id": id, "result": { "tools": [] } })),
        "tools/call" => handle_tools_call(id, params).await,
        _ => Err(McpError::InvalidParams(format!("unknown method {method}"))),
    }
}

async fn handle_tools_call(id: Value, params: Option<Value>) -> McpResult<Value> {
    let params = params.ok_or_else(|| McpError::InvalidParams("missing params".into()))?;
    let name = params
        .get("name")
        .and_then(|v| v.as_str())
        .ok_or_else(|| McpError::InvalidParams("missing tool name".into()))?;
    let arguments = params.get("arguments").cloned();
    match Registry::call(name, arguments).await {
        Ok(result) => Ok(json!({ "jsonrpc": "2.0", "id": id, "result": result })),
        Err(e) if e.is_protocol_error() => Err(e),
        Err(e) => Ok(json!({
            "jsonrpc": "2.0",
            "id": id,
            "result": { "content": [{ "type": "text", "text": e.to_string() }], "isError": true }
        })),
    }
}
