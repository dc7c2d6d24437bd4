use serde_json::{Value, json};

use crate::error::McpError;
use crate::tools::read_file;
use crate::transport::JsonRpcResponse;

pub struct JsonRpcRequest {
    pub id: Option<Value>,
    pub method: String,
    pub params: Option<Value>,
}

pub struct McpServer;

impl McpServer {
    fn handle_request(&mut self, request: &JsonRpcRequest) -> JsonRpcResponse {
        let result = match request.method.as_str() {
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": [] })),
            "tools/call" => self.handle_tools_call(request),
            _ => Err(McpError::method_not_found(&request.method)),
        };
        match result {
            Ok(value) => JsonRpcResponse::success(request.id.clone(), value),
            Err(e) => JsonRpcResponse::error(request.id.clone(), e),
        }
    }

    fn handle_tools_call(&mut self, request: &JsonRpcRequest) -> Result<Value, McpError> {
        let params = request.params.clone().unwrap_or(json!({}));
        let args = params.get("arguments").cloned().unwrap_or(json!({}));
        match params.get("name").and_then(|n| n.as_str()) {
            Some("read_file") => read_file(&args),
            _ => Ok(json!({ "content": [{ "type": "text", "text": "Unknown tool" }], "isError": true })),
        }
    }
}

