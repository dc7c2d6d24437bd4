// A hand-rolled proxy that forwards tools/call over one of several transports, picked by a
// `match`, and answers any failure with one JSON-RPC error: each failure inside the
// transports is a protocol error, reached through the conversion.
use serde_json::{Value, json};

enum Transport {
    Http(String),
    Stdio,
}

async fn forward_http(url: &str, request: &Value) -> anyhow::Result<Value> {
    let response = reqwest::Client::new().post(url).json(request).send().await?; //~ MCP104@20
    if !response.status().is_success() {
        return Err(anyhow::anyhow!("upstream answered {}", response.status())); //~ MCP104@20
    }
    Ok(response.json().await?) //~ MCP104@8
}

async fn forward_stdio(request: &Value) -> anyhow::Result<Value> {
    let line = serde_json::to_string(request)?;
    let answer = child_round_trip(&line).await?;
    Ok(serde_json::from_str(&answer)?) //~ MCP104@8
}

async fn child_round_trip(line: &str) -> anyhow::Result<String> {
    let output = std::process::Command::new("server").arg(line).output()?; //~ MCP104@18
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

pub async fn handle(transport: &Transport, method: &str, request: Value) -> Value {
    let id = request["id"].clone();
    match method {
        "tools/list" | "initialize" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        "tools/call" => {
            let forwarded = match transport {
                Transport::Http(url) => forward_http(url, &request).await,
                Transport::Stdio => forward_stdio(&request).await,
            };
            match forwarded {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": format!("Internal error: {e}")}}), //~ MCP104@27
            }
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
    }
}
