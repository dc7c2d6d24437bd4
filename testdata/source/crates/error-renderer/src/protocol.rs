// The server's response builders. `create_error_response` renders any error with one code;
// nothing here names MCP.
use serde_json::{Value, json};

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
}

impl JsonRpcError {
    pub fn internal_error(message: String) -> Self {
        JsonRpcError { code: -32603, message }
    }
}

pub struct Protocol;

impl Protocol {
    pub fn create_result_response(&self, id: Value, result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    }

    pub fn create_error_response(&self, id: Value, error: anyhow::Error) -> Value {
        let error = JsonRpcError::internal_error(format!("{error:#}"));
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": error.code, "message": error.message}})
    }
}
