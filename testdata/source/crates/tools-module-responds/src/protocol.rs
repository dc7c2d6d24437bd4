use serde_json::Value;

#[derive(serde::Serialize)]
pub struct Error {
    pub code: i32,
    pub message: String,
}

#[derive(serde::Serialize)]
pub struct Response {
    pub jsonrpc: String,
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<Error>,
}

impl Response {
    pub fn success(id: Value, result: Value) -> Self {
        Self { jsonrpc: "2.0".into(), id, result: Some(result), error: None }
    }

    pub fn error(id: Value, code: i32, message: &str) -> Self {
        Self {
            jsonrpc: "2.0".into(),
            id,
            result: None,
            error: Some(Error { code, message: message.into() }),
        }
    }
}
