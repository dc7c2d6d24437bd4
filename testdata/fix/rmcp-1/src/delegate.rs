//! rmcp 1.8: a `call_tool` of one's own that hands calls to the router unchecked. The fix
//! checks the name just before the request goes into the `ToolCallContext`, after what the
//! function answers itself; under a condition (a `match` on the name) there is no fix.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_router};

pub struct Clock {
    tool_router: ToolRouter<Clock>,
}

#[tool_router]
impl Clock {
    #[tool(description = "The time of day")]
    async fn now(&self) -> String {
        "noon".to_string()
    }
}

impl ServerHandler for Clock {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        // Answered here, not by the router: the check comes after it.
        if request.name == "version" {
            return Ok(CallToolResult::success(vec![Content::text("1.0")]));
        }
        let context = ToolCallContext::new(self, request, context);
        self.tool_router.call(context).await //~ MCP108@9
    }
}

pub struct Shop {
    tool_router: ToolRouter<Shop>,
}

#[tool_router]
impl Shop {
    #[tool(description = "Open hours")]
    async fn hours(&self) -> String {
        "9-17".to_string()
    }
}

impl ServerHandler for Shop {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![Content::text("pong")])),
            _ => self.tool_router.call(ToolCallContext::new(self, request, context)).await, //~ MCP108@18
        }
    }
}

pub struct Mirror {
    tool_router: ToolRouter<Mirror>,
}

#[tool_router]
impl Mirror {
    #[tool(description = "Echo, lower-cased")]
    async fn echo(&self) -> String {
        "echo".to_string()
    }
}

impl ServerHandler for Mirror {
    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        // The router sees another name than the request came with: no fix.
        request.name = request.name.to_lowercase().into();
        self.tool_router.call(ToolCallContext::new(self, request, context)).await //~ MCP108@9
    }
}
