// The router behind a call_tool that answers unknown tools with a tool execution error first.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResult, Content, ServerInfo};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

pub struct Calculator {
    tool_router: ToolRouter<Calculator>,
}

#[tool_handler]
impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::default()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        if !self.tool_router.has_route(&request.name) {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "Unknown tool: {}. Re-run tools/list and retry.",
                request.name
            ))]));
        }
        self.tool_router.call(ToolCallContext::new(self, request, context)).await
    }
}
