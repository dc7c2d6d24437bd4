// A hand-rolled server converting the tools/call handler's error with its own `From` impl,
// bound to a local first: `let payload = JsonRpcErrorPayload::from(&e);
// McpResponse::error(id, payload)`. The conversion renders every error value, so the failures
// that reach it are reported where they start, each with the case its variant names
// (`UnknownTool`).
use serde_json::{Value, json};

pub enum ServerError {
    Io(std::io::Error),
    UnknownTool(String),
}

pub struct JsonRpcErrorPayload {
    pub code: i64,
    pub message: String,
}

impl From<&ServerError> for JsonRpcErrorPayload {
    fn from(err: &ServerError) -> Self {
        match err {
            ServerError::Io(e) => JsonRpcErrorPayload { code: -1, message: e.to_string() },
            ServerError::UnknownTool(name) => JsonRpcErrorPayload { code: -1, message: format!("unknown tool {name}") },
        }
    }
}

pub enum McpResponse {
    Success(Value, Value),
    Error(Value, JsonRpcErrorPayload),
}

impl McpResponse {
    pub fn success(id: Value, result: Value) -> Self {
        McpResponse::Success(id, result)
    }

    pub fn error(id: Value, payload: JsonRpcErrorPayload) -> Self {
        McpResponse::Error(id, payload)
    }
}

pub struct Server;

impl Server {
    pub fn handle_request(&self, method: &str, id: Value, params: Value) -> McpResponse {
        match method {
            "initialize" => McpResponse::success(id, json!({})),
            "tools/list" => McpResponse::success(id, json!({"tools": []})),
            "tools/call" => match self.handle_tool_call(&params) {
                Ok(result) => McpResponse::success(id, result),
                Err(e) => {
                    let payload = JsonRpcErrorPayload::from(&e);
                    McpResponse::error(id, payload)
                }
            },
            _ => McpResponse::success(id, json!({})),
        }
    }

    fn handle_tool_call(&self, params: &Value) -> Result<Value, ServerError> {
        match params["name"].as_str() {
            Some("read") => {
                let path = params["arguments"]["path"].as_str().unwrap_or_default();
                let text = std::fs::read_to_string(path).map_err(ServerError::Io)?; //~ MCP104@66
                Ok(json!({"content": [{"type": "text", "text": text}]}))
            }
            other => Err(ServerError::UnknownTool(format!("{other:?}"))), //~ MCP101@26
        }
    }
}
