// A hand-rolled server's own error-response constructor (`Response::err(id, code, ..)` builds
// `RpcError { code, .. }`) used only where the SEP keeps protocol errors: an unknown method
// and a tools/call without a name. Unknown tools and tool failures are `isError` results.
use serde_json::{Value, json};

pub struct Response {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<RpcError>,
}

pub struct RpcError {
    pub code: i64,
    pub message: String,
}

impl Response {
    pub fn ok(id: Value, result: Value) -> Self {
        Self { id, result: Some(result), error: None }
    }

    pub fn err(id: Value, code: i64, message: impl Into<String>) -> Self {
        Self { id, result: None, error: Some(RpcError { code, message: message.into() }) }
    }
}

pub fn handle(method: &str, id: Value, params: Value) -> Response {
    match method {
        "tools/list" => Response::ok(id, json!({"tools": []})),
        "tools/call" => handle_tools_call(id, params),
        other => Response::err(id, -32601, format!("method not found: {other}")),
    }
}

fn handle_tools_call(id: Value, params: Value) -> Response {
    let Some(name) = params.get("name").and_then(|v| v.as_str()) else {
        return Response::err(id, -32602, "missing tools/call.name");
    };
    let outcome = match name {
        "echo" => Ok(params["arguments"].clone()),
        other => Err(format!("unknown tool: {other}")),
    };
    match outcome {
        Ok(value) => Response::ok(id, json!({"content": [{"type": "text", "text": value.to_string()}]})),
        Err(message) => Response::ok(id, json!({"content": [{"type": "text", "text": message}], "isError": true})),
    }
}
