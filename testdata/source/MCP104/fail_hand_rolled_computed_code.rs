// A hand-rolled server whose error object takes its code from the error it answers
// (`JsonRpcError::new(e.error_code(), e.message(), None)`): a JSON-RPC error whatever the code,
// reported at the inner error object, not at the response that wraps it.
use serde_json::{Value, json};

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
}

impl JsonRpcError {
    pub fn new(code: i64, message: String, _data: Option<Value>) -> JsonRpcError {
        JsonRpcError { code, message }
    }
}

pub struct JsonRpcErrorResponse {
    pub id: Value,
    pub error: JsonRpcError,
}

impl JsonRpcErrorResponse {
    pub fn new(id: Value, error: JsonRpcError) -> JsonRpcErrorResponse {
        JsonRpcErrorResponse { id, error }
    }
}

pub struct ToolError(std::io::Error);

impl ToolError {
    fn error_code(&self) -> i64 {
        -32000
    }

    fn message(&self) -> String {
        self.0.to_string()
    }
}

fn read_notes() -> Result<Value, ToolError> {
    let text = std::fs::read_to_string("notes.txt").map_err(ToolError)?; //~ MCP104@61
    Ok(json!({"content": [{"type": "text", "text": text}]}))
}

pub fn handle(method: &str, id: Value) -> Option<JsonRpcErrorResponse> {
    match method {
        "tools/call" => match read_notes() {
            Ok(_) => None,
            Err(e) => Some(JsonRpcErrorResponse::new(
                id,
                JsonRpcError::new(e.error_code(), e.message(), None), //~ MCP104@17
            )),
        },
        "tools/list" => None,
        _ => None,
    }
}
