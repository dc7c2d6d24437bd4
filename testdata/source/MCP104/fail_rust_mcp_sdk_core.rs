// rust-mcp-sdk's core handler: an upstream failure in the CallToolRequest arm mapped to
// `RpcError::internal_error()` is a protocol error.
use async_trait::async_trait;
use rust_mcp_sdk::McpServer;
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::schema_utils::{RequestFromClient, ResultFromServer};
use rust_mcp_sdk::schema::{CallToolResult, RpcError, TextContent};

pub struct CoreHandler;

#[async_trait]
impl ServerHandlerCore for CoreHandler {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _runtime: std::sync::Arc<dyn McpServer>,
    ) -> std::result::Result<ResultFromServer, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(_params) => {
                let text = std::fs::read_to_string("/etc/motd")
                    .map_err(|err| RpcError::internal_error().with_message(err.to_string()))?; //~ MCP104@36
                Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into())
            }
            // Not tools/call: a protocol error is right.
            _ => Err(RpcError::method_not_found()),
        }
    }
}
