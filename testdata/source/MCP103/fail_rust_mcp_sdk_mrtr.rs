// rust-mcp-sdk 2.0: `handle_call_tool_request_mrtr` returns `RpcError`, which the runtime
// sends as a protocol error.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::{CallToolRequestParams, CallToolResult, RpcError, ServerResult, TextContent};
use rust_mcp_sdk::{McpServer, RequestContext};

pub struct Search;

#[async_trait]
impl ServerHandler for Search {
    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, RpcError> {
        let query = params.arguments.as_ref().and_then(|a| a.get("query")).and_then(|q| q.as_str()).unwrap_or("");
        if query.is_empty() {
            return Err(RpcError::invalid_params().with_message("query must not be empty".to_string())); //~ MCP103@24
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(query.to_string())]).into())
    }
}
