// A hand-rolled handler that turns every other method away first: the rest of the function
// answers tools/call, and a tool enum that does not deserialize (an unknown tool, or bad
// arguments) becomes -32602, as in the mcplease framework.
use serde_json::{Value, json};

pub enum Tools {
    Echo { text: String },
}

pub fn answer_tool_call(method: &str, id: Value, params: Option<Value>) -> Value {
    if method != "tools/call" {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}});
    }
    let tool: Tools = match parse_tool(params.unwrap_or(Value::Null)) {
        Ok(tool) => tool,
        Err(e) => return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": e}}), //~ MCP103@26
    };
    match tool {
        Tools::Echo { text } => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}}),
    }
}

fn parse_tool(params: Value) -> Result<Tools, String> {
    let text = params["arguments"]["text"].as_str().ok_or("missing `text`")?; //~ MCP103@59
    Ok(Tools::Echo { text: text.to_string() })
}
