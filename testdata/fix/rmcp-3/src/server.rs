//! rmcp 3: `ContentBlock` for text, and `call_tool` returns a `CallToolResponse`.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestMethod, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, tool, tool_router};

pub struct Files {
    tool_router: ToolRouter<Files>,
    read_only: bool,
}

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(path): Parameters<String>) -> Result<CallToolResult, McpError> {
        let text = tokio::fs::read_to_string(&path)
            .await
            .map_err(|e| McpError::internal_error(format!("cannot read {path}: {e}"), None))?; //~ MCP104@26
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

impl ServerHandler for Files {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !self.tool_router.has_route(&request.name) {
            // No message of its own: the fix says what the SEP recommends.
            return Err(McpError::method_not_found::<CallToolRequestMethod>()); //~ MCP101@24
        }
        if self.read_only && request.name == "write" {
            return Err(McpError::invalid_request("write is disabled: the server is read-only", None)); //~ MCP102@24
        }
        self.tool_router.call(ToolCallContext::new(self, request, context)).await
    }
}
