use serde_json::{Value, json};

use super::tools::{McpError, analysis, make_error};

pub struct McpResponse {
    pub result: Option<Value>,
    pub error: Option<McpError>,
}

pub fn handle_request(method: &str, params: &Value) -> McpResponse {
    let result = match method {
        "tools/call" => handle_tool_call(params),
        _ => Err(make_error(-32601, "method not found")),
    };
    match result {
        Ok(val) => McpResponse { result: Some(val), error: None },
        Err(err) => McpResponse { result: None, error: Some(err) },
    }
}

fn handle_tool_call(params: &Value) -> Result<Value, McpError> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    let args = params.get("arguments").cloned().unwrap_or(json!({}));
    call_named_tool(name, &args)
}

fn call_named_tool(name: &str, args: &Value) -> Result<Value, McpError> {
    if let Some(res) = analysis::try_call(name, args) {
        return res;
    }
    Err(make_error(-32601, "unknown tool")) //~ MCP101@9
}
