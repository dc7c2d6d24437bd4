// The codes and the one place that writes an error response: nothing here names a tool.
use serde_json::{Value, json};

pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

pub struct Refusal {
    pub code: i64,
    pub message: String,
}

pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}
