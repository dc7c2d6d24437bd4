// A hand-rolled server whose error type carries its JSON-RPC code (`Refusal { code, .. }`,
// codes named by constants) and one place that renders any `Err(refusal)` of the dispatcher
// as the response's error with that code (`error(id, refusal.code, ..)`): each refusal built
// in the tools/call path is a protocol error where it is built, with its own code; the
// conversion adds none. The malformed request (no `name`) and an unknown method are not
// tool cases.
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
                let arguments = params.get("arguments").and_then(Value::as_object).cloned().unwrap_or_default();
                let outcome = self.tool(name, &arguments)?;
                Ok(outcome)
            }
            other => Err(Refusal { code: METHOD_NOT_FOUND, message: format!("no method {other}") }),
        }
    }

    fn tool(&self, name: &str, arguments: &Map<String, Value>) -> Result<Value, Refusal> {
        match name {
            "echo" => {
                let text = string(arguments, "text")?;
                Ok(json!({"content": [{"type": "text", "text": text}]}))
            }
            "send" => {
                if arguments.len() > 2 {
                    return Err(invalid("send takes only subject and text")); //~ MCP103@32
                }
                Ok(json!({"content": []}))
            }
            other => Err(Refusal { code: METHOD_NOT_FOUND, message: format!("no tool {other}") }), //~ MCP101@26
        }
    }
}

fn string<'a>(arguments: &'a Map<String, Value>, field: &str) -> Result<&'a str, Refusal> {
    arguments.get(field).and_then(Value::as_str).ok_or_else(|| Refusal { //~ MCP103@64
        code: INVALID_PARAMS,
        message: format!("the tool call is missing {field}"),
    })
}

fn invalid(words: &str) -> Refusal {
    Refusal { code: INVALID_PARAMS, message: words.to_owned() }
}
