use serde_json::{Value, json};

pub fn dispatch(method: &str, params: &Value) -> anyhow::Result<Value> {
    match method {
        "initialize" => Ok(json!({"protocolVersion": "2025-06-18"})),
        "tools/list" => Ok(json!({"tools": [{"name": "add"}]})),
        "tools/call" => {
            let result = call_tool(params)?;
            Ok(result)
        }
        other => anyhow::bail!("unknown method {other}"),
    }
}

fn call_tool(params: &Value) -> anyhow::Result<Value> {
    let name = params["name"].as_str().unwrap_or_default();
    if name != "add" {
        anyhow::bail!("Unknown tool: {name}"); //~ MCP101@9
    }
    let a = params["arguments"]["a"]
        .as_i64()
        .ok_or_else(|| anyhow::anyhow!("Missing required parameter 'a'"))?; //~ MCP103@24
    Ok(json!({"content": [{"type": "text", "text": (a + 1).to_string()}]}))
}
