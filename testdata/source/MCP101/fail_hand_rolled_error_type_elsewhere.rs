// A hand-rolled server whose JSON-RPC error type lives in another module: a constructor named
// for a JSON-RPC error (`MCPError::invalid_params`) in the response to tools/call is one.
use serde_json::Value;

use crate::protocol::{MCPError, MCPRequest, MCPResponse};

pub struct Server {
    tools: std::collections::HashMap<String, Box<dyn Fn(Value) -> Value + Send + Sync>>,
}

impl Server {
    async fn handle_tools_call(&self, req: MCPRequest) -> MCPResponse {
        let name = req.params["name"].as_str().unwrap_or_default().to_string();
        match self.tools.get(&name) {
            Some(tool) => MCPResponse {
                id: Some(req.id),
                result: Some(tool(req.params["arguments"].clone())),
                error: None,
            },
            None => MCPResponse {
                id: Some(req.id),
                result: None,
                error: Some(MCPError::invalid_params(format!("unknown tool: {name}"))), //~ MCP101@29
            },
        }
    }
}
