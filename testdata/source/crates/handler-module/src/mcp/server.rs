use serde_json::{Value, json};

fn jsonrpc_error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub async fn handle_message(msg: &Value) -> Option<Value> {
    let id = msg.get("id").cloned()?;
    let method = msg.get("method")?.as_str()?;
    let params = msg.get("params").cloned().unwrap_or(json!({}));
    let result = dispatch(method, params).await;
    Some(match result {
        Ok(value) => json!({"jsonrpc": "2.0", "id": id, "result": value}),
        Err((code, message)) => jsonrpc_error(id, i64::from(code), &message),
    })
}

async fn dispatch(method: &str, params: Value) -> Result<Value, (i32, String)> {
    match method {
        "initialize" => Ok(json!({})),
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => call_tool(&params).await,
        _ => Err((-32601, format!("Method not found: {method}"))),
    }
}

async fn call_tool(params: &Value) -> Result<Value, (i32, String)> {
    let name = params.get("name").and_then(Value::as_str);
    let name = name.ok_or((-32602, "Missing tool name".to_string()))?;
    let args = params.get("arguments").cloned().unwrap_or(json!({}));
    match name {
        "remember" => crate::tools::remember::run(&args),
        "recall" => {
            let Some(key) = args.get("key").and_then(Value::as_str) else {
                return Err((-32602, "Missing required argument: key".to_string())); //~ MCP103@28
            };
            let value = crate::store::get(key)?; //~ MCP104@25
            Ok(json!({"content": [{"type": "text", "text": value}]}))
        }
        other => Err((-32602, format!("Unknown tool: {other}"))), //~ MCP101@22
    }
}
