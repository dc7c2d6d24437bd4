// rmcp's tool router answers unknown and disabled tools with -32602 "tool not found": relied
// on through #[tool_handler] without a call_tool of one's own, and through a call_tool that
// hands every call to the router unchecked.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResult, ServerInfo};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

pub struct Calculator {
    tool_router: ToolRouter<Calculator>,
}

#[tool_handler] //~ MCP108@1
impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::default()
    }
}

pub struct Legacy {
    tool_router: ToolRouter<Legacy>,
}

#[rmcp::tool_handler(router = self.tool_router)] //~ MCP108@1
impl ServerHandler for Legacy {}

pub struct Manual {
    tool_router: ToolRouter<Manual>,
}

impl ServerHandler for Manual {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        tracing::info!(tool = %request.name, "call");
        let tcc = ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await //~ MCP108@9
    }
}
