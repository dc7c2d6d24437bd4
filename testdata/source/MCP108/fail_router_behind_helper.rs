// A call_tool that serves dynamic tools itself and hands the rest to a helper, which builds the
// router's ToolCallContext: the router answers unknown and disabled tools with -32602 "tool not
// found" all the same. A helper that checks the name first is fine.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Hybrid {
    static_router: ToolRouter<Server>,
}

impl Hybrid {
    pub async fn call_tool(
        &self,
        server: &Server,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let tool_context = ToolCallContext::new(server, request, context);
        self.static_router.call(tool_context).await //~ MCP108@9
    }

    pub async fn call_checked(
        &self,
        server: &Server,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        if !self.static_router.has_route(&request.name) {
            let text = format!("Unknown tool: {}. Re-run tools/list and retry.", request.name);
            return Ok(CallToolResult::error(vec![Content::text(text)]));
        }
        self.static_router
            .call(ToolCallContext::new(server, request, context))
            .await
    }
}

pub struct Server {
    hybrid: Hybrid,
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        self.hybrid.call_tool(self, request, context).await
    }
}
