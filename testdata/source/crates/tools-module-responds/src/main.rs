mod protocol;
mod tools;

use protocol::Response;
use serde_json::Value;

fn dispatch(method: &str, params: &Value, id: Value) -> Response {
    match method {
        "tools/list" => Response::success(id, tools::definitions()),
        "tools/call" => tools::call(params, id),
        _ => Response::error(id, -32601, "method not found"),
    }
}

fn main() {
    let request: Value = serde_json::from_str("{}").unwrap_or_default();
    let method = request["method"].as_str().unwrap_or_default();
    let response = dispatch(method, &request["params"], request["id"].clone());
    println!("{}", serde_json::to_string(&response).unwrap_or_default());
}
