// A hand-rolled server whose sub-dispatcher turns each handler's failure into text before the
// dispatcher answers it with an error object (`handle_search(args).map_err(|e| e.to_string())`):
// the text is the same failure, so each is reported where it starts, not at the arm.
use serde_json::{Value, json};

fn handle_search(args: &Value) -> Result<Value, Box<dyn std::error::Error>> {
    let q = args.get("q").and_then(Value::as_str).ok_or("Missing 'q' parameter")?; //~ MCP103@57
    let hits = std::fs::read_to_string(q)?; //~ MCP104@16
    Ok(json!({"content": [{"type": "text", "text": hits}]}))
}

fn dispatch_tool_call(name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "search" => handle_search(args).map_err(|e| e.to_string()),
        _ => Err(format!("Tool not found: {name}")), //~ MCP101@18
    }
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/list" => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        "tools/call" => match dispatch_tool_call(request["params"]["name"].as_str().unwrap_or_default(), &request["params"]["arguments"]) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -1, "message": e}}), //~ MCP101@23 MCP103@23 MCP104@23
        },
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}}),
    }
}
