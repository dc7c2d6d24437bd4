use serde_json::Value;

use crate::error::McpError;

pub struct JsonRpcError {
    pub code: i32,
    pub message: String,
}

pub struct JsonRpcResponse {
    pub id: Option<Value>,
    pub result: Option<Value>,
    pub error: Option<JsonRpcError>,
}

impl JsonRpcResponse {
    pub fn success(id: Option<Value>, result: Value) -> Self {
        Self { id, result: Some(result), error: None }
    }

    pub fn error(id: Option<Value>, err: McpError) -> Self {
        Self {
            id,
            result: None,
            error: Some(JsonRpcError { code: err.code, message: err.message }),
        }
    }
}

