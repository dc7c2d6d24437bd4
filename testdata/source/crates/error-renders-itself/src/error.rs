use serde_json::{Value, json};

#[derive(Debug)]
pub enum Error {
    MethodNotFound(String),
    InvalidParams(String),
    Storage(std::io::Error),
    Timeout(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Storage(e)
    }
}

impl Error {
    pub fn json_rpc_code(&self) -> i32 {
        match self {
            Error::MethodNotFound(_) => -32601,
            Error::InvalidParams(_) => -32602,
            Error::Storage(_) | Error::Timeout(_) => -32603,
        }
    }

    /// The whole JSON-RPC error response for this error.
    pub fn to_json_rpc_error(&self, id: Option<Value>) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": self.json_rpc_code(), "message": self.to_string()}
        })
    }
}
