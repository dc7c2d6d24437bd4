mod rpc;

use serde_json::{Value, json};

pub fn handle_post(body: &str) -> String {
    let request: Value = serde_json::from_str(body).unwrap_or_default();
    let method = request["method"].as_str().unwrap_or_default();
    let response = match rpc::dispatch(method, &request["params"]) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
        Err(e) => json!({
            "jsonrpc": "2.0",
            "id": request["id"],
            "error": {"code": -32603, "message": e.to_string()}
        }),
    };
    response.to_string()
}

fn main() {}
