use serde_json::{Value, json};

pub type McpResult<T> = Result<T, McpError>;

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    #[error("Invalid params: {0}")]
    InvalidParams(String),
    #[error("Internal error: {0}")]
    InternalError(String),
    #[error("Tool not found: {0}")]
    ToolNotFound(String),
    #[error("Record not found: {0}")]
    RecordNotFound(String),
}

impl McpError {
    /// The failures sent as JSON-RPC errors; the rest are tool results.
    pub fn is_protocol_error(&self) -> bool {
        matches!(
            self,
            Self::InvalidParams(_) | Self::InternalError(_)
        )
    }

    pub fn code(&self) -> i32 {
        match self {
            Self::InvalidParams(_) => -32602,
            Self::InternalError(_) => -32603,
            Self::ToolNotFound(_) => -32001,
            Self::RecordNotFound(_) => -32002,
        }
    }

    pub fn to_json_rpc_error(&self, id: Value) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": self.code(), "message": self.to_string() }
        })
    }
}
