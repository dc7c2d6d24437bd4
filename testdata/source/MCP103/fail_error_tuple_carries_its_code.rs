// A hand-rolled server whose errors are `(code, message)` pairs and one place that renders any
// `Err((code, message))` of the dispatcher as the response's error with that code: each pair
// built in the tools/call path is a protocol error where it is built, with its own code; the
// rendering adds none, and the constructor's own `json!` is not reported.
use serde_json::{Map, Value, json};

pub const METHOD_NOT_FOUND: i32 = -32601;
pub const INVALID_PARAMS: i32 = -32602;

fn rpc_error(id: &Value, code: i32, message: &str) -> Value {
    let error = json!({ "code": code, "message": message });
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}

pub struct Server;

impl Server {
    pub fn answer(&mut self, id: &Value, method: &str, params: &Map<String, Value>) -> Value {
        match self.respond(method, params) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err((code, message)) => rpc_error(id, code, &message),
        }
    }

    fn respond(&mut self, method: &str, params: &Map<String, Value>) -> Result<Value, (i32, String)> {
        match method {
            "tools/list" => Ok(json!({"tools": []})),
            "tools/call" => {
                let name = params.get("name").and_then(Value::as_str).unwrap_or("");
                let arguments = params.get("arguments").and_then(Value::as_object).cloned().unwrap_or_default();
                self.tool(name, &arguments)
            }
            other => Err((METHOD_NOT_FOUND, format!("no method {other}"))),
        }
    }

    fn tool(&self, name: &str, arguments: &Map<String, Value>) -> Result<Value, (i32, String)> {
        match name {
            "echo" => {
                let Some(text) = arguments.get("text").and_then(Value::as_str) else {
                    return Err((INVALID_PARAMS, "echo needs a text".to_owned())); //~ MCP103@32
                };
                Ok(json!({"content": [{"type": "text", "text": text}]}))
            }
            other => Err((METHOD_NOT_FOUND, format!("no tool {other}"))), //~ MCP101@26
        }
    }
}
