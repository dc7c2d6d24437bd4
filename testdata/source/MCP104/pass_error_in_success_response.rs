// A hand-rolled dispatcher that answers a failed call inside a success response, with the
// error as the result's payload (`JsonRpcResponse::success(id, json!({"error": {..}}))`): a
// result, not a JSON-RPC error object, so no protocol error leaves here (its shape is for the
// result rules).
use serde_json::{Value, json};

pub mod methods {
    pub const INITIALIZE: &str = "initialize";
    pub const TOOLS_LIST: &str = "tools/list";
    pub const TOOLS_CALL: &str = "tools/call";
}

pub struct JsonRpcResponse;

impl JsonRpcResponse {
    pub fn success(id: Value, result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    }
}

pub enum ServerError {
    ToolNotFound(String),
    Internal(String),
}

pub struct Server;

impl Server {
    pub async fn handle(&self, method: &str, id: Value, params: Value) -> Value {
        let result = match method {
            methods::INITIALIZE => Ok(json!({})),
            methods::TOOLS_LIST => Ok(json!({"tools": []})),
            methods::TOOLS_CALL => self.call_tool(&params).await,
            other => Err(ServerError::Internal(format!("unknown method {other}"))),
        };
        match result {
            Ok(value) => JsonRpcResponse::success(id, value),
            Err(error) => {
                let (code, message) = match error {
                    ServerError::ToolNotFound(name) => (-32601, format!("tool not found: {name}")),
                    ServerError::Internal(message) => (-32603, message),
                };
                JsonRpcResponse::success(id, json!({"error": {"code": code, "message": message}}))
            }
        }
    }

    async fn call_tool(&self, params: &Value) -> Result<Value, ServerError> {
        match params["name"].as_str() {
            Some("echo") => Ok(json!({"content": [{"type": "text", "text": "echo"}]})),
            other => Err(ServerError::ToolNotFound(format!("{other:?}"))),
        }
    }
}
