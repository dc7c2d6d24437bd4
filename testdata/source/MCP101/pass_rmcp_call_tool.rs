// rmcp, manual `call_tool`, compliant: unknown tools and failures are tool execution errors.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Good {
    router: rmcp::handler::server::router::tool::ToolRouter<Good>,
}

impl ServerHandler for Good {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        if !self.router.has_route(&request.name) {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "Unknown tool: {}. Re-run tools/list and retry.",
                request.name
            ))]));
        }
        match request.name.as_ref() {
            "now" => Ok(CallToolResult::success(vec![Content::text("12:00")])),
            // The text mentions a JSON-RPC code, but this is an isError result: compliant.
            other => Ok(CallToolResult::error(vec![Content::text(format!("MCP error -32602: Tool {other} not found"))])),
        }
        .map(|r| {
            let _ = &context;
            r
        })
    }
}
