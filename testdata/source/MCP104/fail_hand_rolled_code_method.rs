// A hand-rolled server that answers a tool's error with the code the error type computes for
// each of its variants (`error(id, e.code(), e.to_string())`): every value has a code, those
// converted by `?` from another crate's error (`#[from]`) too, so each failure that leaves a
// tool is reported where it leaves, a chain split over lines at its `.await?`.
use serde_json::{Value, json};

pub enum Error {
    InvalidParams(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl Error {
    pub fn code(&self) -> i32 {
        match self {
            Error::InvalidParams(_) => -32602,
            Error::Io(_) => -32001,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tool failed")
    }
}

async fn read_file(args: &Value) -> Result<Value, Error> {
    let Some(path) = args["path"].as_str() else {
        return Err(Error::InvalidParams("path is required".into())); //~ MCP103@20
    };
    let text = tokio::fs::read_to_string(path)
        .await?; //~ MCP104@9
    Ok(json!({"content": [{"type": "text", "text": text}]}))
}

fn error(id: &Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub async fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/list") => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        Some("tools/call") => match read_file(&request["params"]["arguments"]).await {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => error(id, e.code(), e.to_string()),
        },
        _ => error(id, -32601, "method not found".to_string()),
    }
}
