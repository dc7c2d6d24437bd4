use serde_json::Value;

pub fn required(args: &Value, key: &str) -> anyhow::Result<String> {
    match args.get(key).and_then(Value::as_str) {
        Some(value) => Ok(value.to_string()),
        None => anyhow::bail!("missing argument {key}"), //~ MCP103@17
    }
}
