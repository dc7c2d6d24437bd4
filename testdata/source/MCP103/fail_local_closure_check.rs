// A hand-rolled stdio server whose tools/call handler checks an argument in a local closure
// (`let opt_tz = |k| -> Result<i64, (i64, String)> { .. }`) and passes its `Err` on with `?`
// at each use: the check fails where the closure builds the error, once, not at each call.
use serde_json::{Value, json};

fn handle(msg: &Value) -> Option<Value> {
    let id = msg.get("id").cloned()?;
    let method = msg.get("method").and_then(|m| m.as_str()).unwrap_or_default();
    let result: Result<Value, (i64, String)> = match method {
        "tools/list" => Ok(json!({ "tools": [] })),
        "tools/call" => tool_call(msg),
        _ => Err((-32601, format!("method not found: {method}"))),
    };
    Some(match result {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": v }),
        Err((code, message)) => json!({ //~ MCP103@33
            "jsonrpc": "2.0", "id": id,
            "error": { "code": code, "message": message },
        }),
    })
}

fn tool_call(msg: &Value) -> Result<Value, (i64, String)> {
    let name = msg.pointer("/params/name").and_then(|v| v.as_str()).unwrap_or_default();
    let args = msg.pointer("/params/arguments").cloned().unwrap_or(json!({}));
    let opt_tz = |k: &str| -> Result<i64, (i64, String)> {
        match args.get(k).and_then(|v| v.as_str()) {
            None => Ok(0),
            Some(v) => match v.parse::<i64>() {
                Ok(secs) => Ok(secs),
                Err(_) => Err((-32602, format!("{k} needs an offset in seconds"))), //~ MCP103@31
            },
        }
    };
    let text = match name {
        "daily" => format!("daily at {}", opt_tz("tz")?),
        "hourly" => {
            let tz = opt_tz("tz")?;
            format!("hourly at {tz}")
        }
        _ => return Ok(json!({ "content": [{ "type": "text", "text": "unknown tool" }], "isError": true })),
    };
    Ok(json!({ "content": [{ "type": "text", "text": text }] }))
}
