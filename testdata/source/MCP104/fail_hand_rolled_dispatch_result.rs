// A hand-rolled dispatcher that first picks the handler by method, then converts whatever it
// returned: `let result = match method { .. }; match result { Err(e) => error }`. The
// conversion answers every failure of the tools/call handler: it is reported once per case
// among them, and each `Err` the handler returns where it starts (the handler is the
// tools/call handler itself), through a `match` on the tool's name and its helpers.
use serde_json::{Value, json};

pub struct JsonRpcResponse {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<JsonRpcError>,
}

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
}

pub fn handle_request(method: &str, id: Value, params: Value) -> JsonRpcResponse {
    let result: Result<Value, String> = match method {
        "initialize" => Ok(json!({"protocolVersion": "2025-11-25"})),
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => handle_tools_call(&params),
        _ => Err(format!("Unknown method: {method}")),
    };
    match result {
        Ok(value) => JsonRpcResponse { id, result: Some(value), error: None },
        Err(message) => JsonRpcResponse {
            id,
            result: None,
            error: Some(JsonRpcError { code: -32603, message }), //~ MCP101@25 MCP103@25 MCP104@25
        },
    }
}

fn handle_tools_call(params: &Value) -> Result<Value, String> {
    let name = params["name"].as_str().unwrap_or_default();
    let args = &params["arguments"];
    let text = match name {
        "read_file" => read_file(args),
        _ => return Err(format!("Unknown tool: {name}")), //~ MCP101@25
    }?;
    Ok(json!({"content": [{"type": "text", "text": text}]}))
}

fn read_file(args: &Value) -> Result<String, String> {
    let path = str_arg(args, "path")?;
    let root = std::env::current_dir().map_err(|e| e.to_string())?; //~ MCP104@16
    let mounts: std::collections::HashMap<&str, std::path::PathBuf> = [("cwd", root)].into();
    let mount = str_arg(args, "mount")?;
    let base = mounts.get(mount).ok_or_else(|| format!("{mount}: no such mount"))?; //~ MCP103@48
    std::fs::read_to_string(base.join(path)).map_err(|e| e.to_string()) //~ MCP104@5
}

fn str_arg<'a>(args: &'a Value, key: &str) -> Result<&'a str, String> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("Missing or invalid string argument: {key}")) //~ MCP103@24
}
