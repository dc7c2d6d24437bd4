use serde_json::Value;

pub const ERR_CODE_NO_METHOD: i32 = -32601;
pub const ERR_CODE_BAD_ARGS: i32 = -32602;

pub struct McpResponse {
    pub id: Value,
    pub body: Value,
}

impl McpResponse {
    pub fn success(id: Value, result: Value) -> Self {
        McpResponse { id, body: result }
    }

    pub fn error(id: Value, code: i32, message: impl Into<String>) -> Self {
        let message: String = message.into();
        McpResponse { id, body: serde_json::json!({"code": code, "message": message}) }
    }
}
