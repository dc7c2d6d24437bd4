// The dispatcher: `respond` passes the tools/call handler's refusal on, `answer` renders any
// refusal with the code it carries.
mod arguments;
mod framing;

use framing::{METHOD_NOT_FOUND, Refusal};
use serde_json::{Map, Value, json};

pub fn answer(id: &Value, method: &str, params: &Map<String, Value>) -> Value {
    match respond(method, params) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(refusal) => framing::error(id, refusal.code, &refusal.message),
    }
}

fn respond(method: &str, params: &Map<String, Value>) -> Result<Value, Refusal> {
    match method {
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => {
            let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
            let empty = Map::new();
            let arguments = params.get("arguments").and_then(Value::as_object).unwrap_or(&empty);
            let text = tool(name, arguments)?;
            Ok(json!({"content": [{"type": "text", "text": text}]}))
        }
        other => Err(Refusal { code: METHOD_NOT_FOUND, message: format!("no method {other}") }),
    }
}

fn tool(name: &str, arguments: &Map<String, Value>) -> Result<String, Refusal> {
    match name {
        "echo" => Ok(arguments::string(arguments, "text")?.to_string()),
        other => Err(Refusal { code: METHOD_NOT_FOUND, message: format!("no tool {other}") }), //~ MCP101@22
    }
}

fn main() {}
