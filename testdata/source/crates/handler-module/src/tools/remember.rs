use serde_json::{Value, json};

pub fn run(args: &Value) -> Result<Value, (i32, String)> {
    let Some(text) = args.get("text").and_then(Value::as_str) else {
        return Err((-32602, "Missing required argument: text".to_string())); //~ MCP103@20
    };
    std::fs::write("notes.txt", text).map_err(|e| (-32603, e.to_string()))?; //~ MCP104@51
    Ok(json!({"content": [{"type": "text", "text": "remembered"}]}))
}
