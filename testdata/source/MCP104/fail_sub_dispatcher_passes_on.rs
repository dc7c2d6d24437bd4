// A hand-rolled server whose tools/call handler picks an area by the tool's name, and the
// area's own dispatcher picks the operation, then passes the operation's failure on through
// `match result { Err(e) => Err(e.into()) }`. The read loop converts every `Err` into a
// JSON-RPC error: each failure is reported where it starts, three calls below the
// conversion, not at the pass-throughs; a missing argument (`params["arguments"]` handed down)
// is invalid input.
use serde_json::{Value, json};

struct Files;

impl Files {
    fn handle(&self, op: &str, args: &Value) -> anyhow::Result<Value> {
        let result = match op {
            "read_file" => self.read_file(args),
            _ => self.size(args),
        };
        match result {
            Ok(text) => Ok(json!({"content": [{"type": "text", "text": text}]})),
            Err(e) => Err(e.into()),
        }
    }

    fn read_file(&self, args: &Value) -> anyhow::Result<String> {
        let path = required(args, "path")?;
        let text = std::fs::read_to_string(path)?; //~ MCP104@20
        Ok(text)
    }

    fn size(&self, args: &Value) -> anyhow::Result<String> {
        let metadata = std::fs::metadata(required(args, "path")?)?; //~ MCP104@24
        Ok(metadata.len().to_string())
    }
}

fn required<'a>(args: &'a Value, key: &str) -> anyhow::Result<&'a str> {
    match args.get(key).and_then(Value::as_str) {
        Some(value) => Ok(value),
        None => Err(anyhow::anyhow!("missing argument {key}")), //~ MCP103@21
    }
}

fn call_tool(files: &Files, params: &Value) -> anyhow::Result<Value> {
    let name = params["name"].as_str().unwrap_or_default();
    match name {
        // Handed on as it is: not a conversion of its own.
        "read_file" | "size" => files.handle(name, &params["arguments"]).map_err(|e| e.into()),
        _ => Ok(json!({"content": [{"type": "text", "text": "unknown tool"}], "isError": true})),
    }
}

fn handle_request(files: &Files, request: &Value) -> anyhow::Result<Value> {
    match request["method"].as_str().unwrap_or_default() {
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => call_tool(files, &request["params"]),
        method => anyhow::bail!("unknown method {method}"),
    }
}

pub fn serve(line: &str) -> Value {
    let request: Value = serde_json::from_str(line).unwrap_or_default();
    match handle_request(&Files, &request) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": e.to_string()}}), //~ MCP103@19 MCP104@19
    }
}
