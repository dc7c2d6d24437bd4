// A hand-rolled server that runs heavy tool calls apart and the rest through its method
// `match`, both into one local, then answers every `Err` with an error object: the tools/call
// arm inside the `else` branch is a tools/call path like any other.
use serde_json::{Value, json};

pub struct Server;

impl Server {
    async fn handle_tools_call(&self, params: Option<Value>) -> anyhow::Result<Value> {
        let params = params.unwrap_or_default();
        let Some(path) = params["arguments"]["path"].as_str() else {
            anyhow::bail!("missing required argument `path`"); //~ MCP103@13
        };
        let text = std::fs::read_to_string(path)?; //~ MCP104@20
        Ok(json!({"content": [{"type": "text", "text": text}]}))
    }

    pub async fn handle_request(&self, method: &str, params: Option<Value>, heavy: bool) -> Value {
        let result = if heavy {
            self.handle_tools_call(params.clone()).await
        } else {
            match method {
                "initialize" => Ok(json!({})),
                "tools/list" => Ok(json!({"tools": []})),
                "tools/call" => self.handle_tools_call(params).await,
                _ => Ok(json!({})),
            }
        };
        match result {
            Ok(value) => json!({"jsonrpc": "2.0", "result": value}),
            Err(e) => json!({"jsonrpc": "2.0", "error": {"code": -32603, "message": e.to_string()}}), //~ MCP103@23 MCP104@23
        }
    }
}
