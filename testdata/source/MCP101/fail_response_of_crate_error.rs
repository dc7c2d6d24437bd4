// A hand-rolled server whose error responses are built of its own error type, with a
// constructor that names the case and no code in view: `JsonRpcResponse::error(id,
// McpError::tool_not_found(name))`.
use std::collections::HashMap;

use serde_json::Value;

pub struct McpError {
    pub code: i32,
    pub message: String,
}

impl McpError {
    pub fn tool_not_found(name: &str) -> Self {
        McpError { code: -32601, message: format!("Tool not found: {name}") }
    }
}

pub struct JsonRpcResponse {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<McpError>,
}

impl JsonRpcResponse {
    pub fn success(id: Value, result: Value) -> Self {
        JsonRpcResponse { id, result: Some(result), error: None }
    }

    pub fn error(id: Value, error: McpError) -> Self {
        JsonRpcResponse { id, result: None, error: Some(error) }
    }
}

pub struct Server {
    tools: HashMap<String, fn(&Value) -> Value>,
}

impl Server {
    pub fn handle_tools_call(&self, id: Value, params: &Value) -> JsonRpcResponse {
        let name = params["name"].as_str().unwrap_or_default();
        let Some(tool) = self.tools.get(name) else {
            return JsonRpcResponse::error(id, McpError::tool_not_found(name)); //~ MCP101@20
        };
        JsonRpcResponse::success(id, tool(&params["arguments"]))
    }
}
