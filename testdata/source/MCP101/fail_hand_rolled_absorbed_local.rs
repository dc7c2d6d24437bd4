// A hand-rolled server whose tools/call handler binds the tool's outcome to a local and turns
// its `Err` into an `isError` result where it reads it (`result.unwrap_or_else(..)`): the
// errors built for that local never leave; the name check before it does.
use serde_json::{Value, json};

pub enum ServerError {
    MethodNotFound(String),
    InvalidParams(String),
}

impl ServerError {
    fn code(&self) -> i32 {
        match self {
            ServerError::MethodNotFound(_) => -32601,
            ServerError::InvalidParams(_) => -32602,
        }
    }

    fn message(&self) -> String {
        match self {
            ServerError::MethodNotFound(m) | ServerError::InvalidParams(m) => m.clone(),
        }
    }
}

const TOOLS: &[&str] = &["add", "echo"];

fn tool_error(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}

fn add(args: &Value) -> Result<Value, ServerError> {
    let a = args["a"].as_i64().ok_or_else(|| ServerError::InvalidParams("a".into()))?;
    Ok(json!({"content": [{"type": "text", "text": (a + 1).to_string()}]}))
}

fn handle_tools_call(params: &Value) -> Result<Value, ServerError> {
    let name = params["name"].as_str().unwrap_or_default();
    if !TOOLS.contains(&name) {
        return Err(ServerError::MethodNotFound(name.to_string())); //~ MCP101@20
    }
    let args = &params["arguments"];
    let result = match name {
        "add" => add(args),
        "echo" => Ok(args.clone()),
        other => Err(ServerError::MethodNotFound(other.to_string())),
    };
    Ok(result.unwrap_or_else(|e| tool_error(&e.message())))
}

pub fn handle(request: &Value) -> Value {
    let id = request["id"].clone();
    let answer = match request["method"].as_str().unwrap_or_default() {
        "tools/call" => handle_tools_call(&request["params"]),
        other => Err(ServerError::MethodNotFound(other.to_string())),
    };
    match answer {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code(), "message": e.message()}}),
    }
}
