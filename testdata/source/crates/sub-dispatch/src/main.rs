mod error;
mod handlers;
mod store;

use serde_json::{Value, json};

fn handle_request(request: &Value) -> error::Result<Value> {
    let params = &request["params"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or_default();
            handlers::tools::call(name, params["arguments"].clone())
        }
        _ => Err(error::NotesMcpError::Generic("unknown method".to_string())),
    }
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let request: Value = serde_json::from_str(&line).unwrap_or_default();
        let response = match handle_request(&request) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
            Err(e) => json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": e.to_string()}}), //~ MCP103@23 MCP104@23
        };
        println!("{response}");
    }
}
