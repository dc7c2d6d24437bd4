mod types;

use serde_json::{Value, json};
use types::{ERR_CODE_BAD_ARGS, ERR_CODE_NO_METHOD, McpResponse};

pub fn handle(method: &str, id: Value, params: Value) -> McpResponse {
    match method {
        "initialize" => McpResponse::success(id, json!({})),
        "tools/list" => McpResponse::success(id, json!({"tools": []})),
        "tools/call" => call_tool(id, &params),
        _ => McpResponse::error(id, ERR_CODE_NO_METHOD, "method not found"),
    }
}

fn call_tool(id: Value, params: &Value) -> McpResponse {
    let name = params["name"].as_str().unwrap_or_default();
    if name != "echo" {
        return McpResponse::error(id, ERR_CODE_NO_METHOD, format!("Unknown tool: {name}")); //~ MCP101@16
    }
    let Some(text) = params["arguments"].get("text") else {
        return McpResponse::error(id, ERR_CODE_BAD_ARGS, "text is required"); //~ MCP103@16
    };
    McpResponse::success(id, json!({"content": [{"type": "text", "text": text}]}))
}

fn main() {}
