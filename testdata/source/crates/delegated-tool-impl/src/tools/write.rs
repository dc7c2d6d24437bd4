use std::path::Path;

use serde_json::{Value, json};

pub fn save(dir: &Path, args: Value) -> anyhow::Result<Value> {
    let Some(name) = args.get("name").and_then(Value::as_str) else {
        anyhow::bail!("missing required argument `name`"); //~ MCP103@9
    };
    let text = args.get("text").and_then(Value::as_str).unwrap_or_default();
    std::fs::write(dir.join(name), text)?; //~ MCP104@5
    Ok(json!({"written": name}))
}
