// A hand-rolled dispatcher whose tools/call arm hands every failure to a renderer defined in
// src/protocol.rs: the unknown tool and the tool's own failure are reported where they start,
// with the renderer's code; the conversion itself once per case.
mod protocol;

use anyhow::{Context, anyhow};
use protocol::Protocol;
use serde_json::{Value, json};

pub struct Server {
    protocol: Protocol,
}

impl Server {
    pub async fn handle_request(&self, method: &str, id: Value, params: Value) -> Value {
        match method {
            "initialize" => self.protocol.create_result_response(id, json!({})),
            "tools/list" => self.protocol.create_result_response(id, json!({"tools": []})),
            "tools/call" => match self.handle_tool_call(params).await {
                Ok(result) => self.protocol.create_result_response(id, result),
                Err(e) => self.protocol.create_error_response(id, e), //~ MCP101@27 MCP104@27
            },
            _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}}),
        }
    }

    async fn handle_tool_call(&self, params: Value) -> anyhow::Result<Value> {
        let name = params["name"].as_str().unwrap_or_default();
        if name != "read" {
            return Err(anyhow!("Tool not found: {name}")); //~ MCP101@24
        }
        let path = params["arguments"]["path"].as_str().unwrap_or_default();
        let text = std::fs::read_to_string(path).context("Tool execution failed")?; //~ MCP104@20
        Ok(json!({"content": [{"type": "text", "text": text}]}))
    }
}

fn main() {}
