// A hand-rolled tools/call handler that answers params that do not deserialize as
// `{name, arguments}` with -32602: the request itself is malformed, so a protocol error is
// right (the tool's own arguments are parsed, and reported, elsewhere).
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
pub struct CallToolParams {
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
}

pub fn handle_call_tool(id: Value, params: Option<Value>) -> Value {
    let params: CallToolParams = match params {
        Some(raw) => match serde_json::from_value(raw) {
            Ok(p) => p,
            Err(e) => {
                return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": format!("Invalid params: {e}")}});
            }
        },
        None => {
            return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Missing params"}});
        }
    };
    let text = format!("{} called with {}", params.name, params.arguments);
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}], "isError": false}})
}
