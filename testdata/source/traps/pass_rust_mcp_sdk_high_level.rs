// rust-mcp-sdk's high-level handler: the SDK sends every `Err(CallToolError)` as an isError
// result, so these are compliant.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::McpServer;
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, TextContent};

pub struct Handler;

#[async_trait]
impl ServerHandler for Handler {
    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<CallToolResult, CallToolError> {
        match params.name.as_str() {
            "say_hello" => {
                let text = std::fs::read_to_string("/etc/hostname").map_err(CallToolError::new)?;
                Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
            }
            _ => Err(CallToolError::unknown_tool(params.name)),
        }
    }
}

/// A tool struct's own `call_tool` (not rmcp's): its errors go through the handler above.
pub struct SayHello;

impl SayHello {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        Err(CallToolError::from_message("not implemented"))
    }
}
