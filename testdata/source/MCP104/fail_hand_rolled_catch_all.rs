// Hand-rolled dispatchers that map every failure of the tools/call branch to an error object:
// the catch-all `Err(e) =>` arm, and an `if method == "tools/call"` branch with a send helper.
use anyhow::Result;
use serde_json::{Value, json};

pub struct Server;

impl Server {
    pub async fn handle(&self, method: &str, id: Value, params: Value) -> Value {
        match method {
            "initialize" => json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-11-25"}}),
            "tools/call" => match self.run_tool(params).await {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": e.to_string()}}), //~ MCP104@27
            },
            _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
        }
    }

    async fn run_tool(&self, params: Value) -> Result<Value> {
        Ok(json!({"content": [{"type": "text", "text": params.to_string()}]}))
    }

    pub fn on_message(&mut self, method: &str, id: u64, params: &Value) {
        if method == "tools/call" {
            match std::fs::read_to_string(params["arguments"]["path"].as_str().unwrap_or("")) {
                Ok(text) => self.send_result(id, json!({"content": [{"type": "text", "text": text}]})),
                Err(e) => self.send_error(id, -32000, format!("Tool execution failed: {e}")), //~ MCP104@27
            }
        }
    }

    fn send_result(&mut self, _id: u64, _result: Value) {}

    fn send_error(&mut self, _id: u64, _code: i64, _message: String) {}
}
