mod error;
mod handlers;

use serde_json::{Value, json};

use error::Error;
use handlers::Handlers;

pub async fn handle_request(handlers: &Handlers, line: &str) -> String {
    let request: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let error = Error::InvalidParams(e.to_string());
            return error.to_json_rpc_error(Some(json!(0))).to_string();
        }
    };
    let id = request.get("id").cloned();
    let method = request["method"].as_str().unwrap_or_default();
    let params = request["params"].clone();
    let result = match method {
        "tools/list" => Ok(json!({"tools": []})),
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or("");
            let arguments = params.get("arguments").cloned().unwrap_or_default();
            let limit = std::time::Duration::from_secs(60);
            match tokio::time::timeout(limit, handlers.handle_tool_call(name, arguments)).await {
                Ok(result) => result,
                Err(_) => Err(Error::Timeout(format!("{name} timed out"))), //~ MCP104@31
            }
        }
        _ => Err(Error::MethodNotFound(format!("Unknown method: {method}"))),
    };
    match result {
        Ok(value) => json!({"jsonrpc": "2.0", "id": id, "result": value}).to_string(),
        Err(e) => e.to_json_rpc_error(id).to_string(),
    }
}

fn main() {}
