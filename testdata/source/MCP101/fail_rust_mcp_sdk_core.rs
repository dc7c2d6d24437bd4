// rust-mcp-sdk's core handler: in the `CallToolRequest` arm, a `CallToolError` that escapes
// through `?` becomes `RpcError::internal_error()` (-32603), as in the SDK's own example.
use async_trait::async_trait;
use rust_mcp_sdk::McpServer;
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::schema_utils::{CallToolError, RequestFromClient, ResultFromServer};
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
            RequestFromClient::CallToolRequest(params) => {
                let tool_name = params.name.clone();
                let text = lookup(&tool_name).map_err(|_| CallToolError::unknown_tool(tool_name.clone()))?; //~ MCP101@59
                Ok(CallToolResult::text_content(vec![TextContent::from(text)]).into())
            }
            _ => Err(RpcError::method_not_found()),
        }
    }
}

fn lookup(name: &str) -> Result<String, ()> {
    if name == "say_hello" { Ok("hello".into()) } else { Err(()) }
}
