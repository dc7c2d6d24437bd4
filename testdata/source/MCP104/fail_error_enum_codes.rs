// A hand-rolled server whose error enum says the code of each variant in a `fn code`: every
// variant built on the tools/call path is sent with that code, a tool failure (-32000) too.
use serde_json::{Value, json};

pub enum RpcError {
    InvalidParams(String),
    ToolError(String),
    NotInitialized,
}

impl RpcError {
    fn code(&self) -> i32 {
        match self {
            RpcError::InvalidParams(_) => -32602,
            RpcError::ToolError(_) => -32000,
            Self::NotInitialized => -32002,
        }
    }

    fn message(&self) -> String {
        match self {
            RpcError::InvalidParams(m) | RpcError::ToolError(m) => m.clone(),
            RpcError::NotInitialized => "not initialized".to_string(),
        }
    }
}

pub async fn handle(method: &str, id: Value, params: Value) -> Value {
    match handle_inner(method, params).await {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code(), "message": e.message()}}),
    }
}

async fn handle_inner(method: &str, params: Value) -> Result<Value, RpcError> {
    match method {
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => {
            let host = params["arguments"]["host"].as_str().unwrap_or("");
            let reply = ping(host)
                .await
                .map_err(|e| RpcError::ToolError(e.to_string()))?; //~ MCP104@30
            Ok(json!({"content": [{"type": "text", "text": reply}]}))
        }
        _ => Ok(Value::Null),
    }
}

async fn ping(host: &str) -> std::io::Result<String> {
    Ok(host.to_string())
}
