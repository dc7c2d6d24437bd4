// A hand-rolled server whose area dispatcher passes its operations' failures on
// (`Err(e) => Err(e)`), where every operation answers its own failures with an isError result:
// nothing fails below the read loop's conversion of the tools/call handler, so nothing is
// reported.
use serde_json::{Value, json};

struct Files;

impl Files {
    fn handle(&self, op: &str, args: &Value) -> anyhow::Result<Value> {
        let result = match op {
            "read_file" => self.read_file(args),
            _ => self.size(args),
        };
        match result {
            Ok(value) => Ok(value),
            Err(e) => Err(e),
        }
    }

    fn read_file(&self, args: &Value) -> anyhow::Result<Value> {
        let path = args["path"].as_str().unwrap_or_default();
        Ok(match std::fs::read_to_string(path) {
            Ok(text) => json!({"content": [{"type": "text", "text": text}]}),
            Err(e) => json!({"content": [{"type": "text", "text": e.to_string()}], "isError": true}),
        })
    }

    fn size(&self, args: &Value) -> anyhow::Result<Value> {
        let path = args["path"].as_str().unwrap_or_default();
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or_default();
        Ok(json!({"content": [{"type": "text", "text": size.to_string()}]}))
    }
}

fn call_tool(files: &Files, params: &Value) -> anyhow::Result<Value> {
    let name = params["name"].as_str().unwrap_or_default();
    match name {
        "read_file" | "size" => files.handle(name, &params["arguments"]),
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
        Err(e) => json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": e.to_string()}}),
    }
}
