// A hand-rolled server whose error type carries its JSON-RPC code, rendered as the response's
// error with that code (`error(id, refusal.code, ..)`), but refused only for an unknown method
// and a tools/call without a name. A tool's own refusals are rendered as `isError` results.
use serde_json::{Map, Value, json};

pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

pub struct Refusal {
    pub code: i64,
    pub message: String,
}

pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

pub struct Server;

impl Server {
    pub fn answer(&mut self, id: &Value, method: &str, params: &Map<String, Value>) -> Value {
        match self.respond(method, params) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err(refusal) => error(id, refusal.code, &refusal.message),
        }
    }

    fn respond(&mut self, method: &str, params: &Map<String, Value>) -> Result<Value, Refusal> {
        match method {
            "tools/list" => Ok(json!({"tools": []})),
            "tools/call" => {
                let name = params.get("name").and_then(Value::as_str).ok_or_else(|| Refusal {
                    code: INVALID_PARAMS,
                    message: "the request is missing name".to_owned(),
                })?;
                let empty = Map::new();
                let arguments = params.get("arguments").and_then(Value::as_object).unwrap_or(&empty);
                Ok(match self.tool(name, arguments) {
                    Ok(value) => json!({"content": [{"type": "text", "text": value.to_string()}]}),
                    Err(refusal) => json!({"content": [{"type": "text", "text": refusal.message}], "isError": true}),
                })
            }
            other => Err(Refusal { code: METHOD_NOT_FOUND, message: format!("no method {other}") }),
        }
    }

    fn tool(&self, name: &str, arguments: &Map<String, Value>) -> Result<Value, Refusal> {
        match name {
            "echo" => arguments.get("text").cloned().ok_or_else(|| Refusal {
                code: INVALID_PARAMS,
                message: "the tool call is missing text".to_owned(),
            }),
            other => Err(Refusal { code: METHOD_NOT_FOUND, message: format!("no tool {other}") }),
        }
    }
}
