// rmcp, `call_tool` written as a function returning a boxed future (wassette's shape) and as
// `std::future::ready(..)`: the body is the same handler.
use std::future::Future;
use std::pin::Pin;

use rmcp::model::{CallToolRequestMethod, CallToolRequestParam, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{Error as McpError, RoleServer, ServerHandler};

pub struct Boxed;

impl ServerHandler for Boxed {
    fn call_tool<'a>(
        &'a self,
        params: CallToolRequestParam,
        _ctx: RequestContext<RoleServer>,
    ) -> Pin<Box<dyn Future<Output = Result<CallToolResult, McpError>> + Send + 'a>> {
        Box::pin(async move {
            if params.name == "components" {
                return Ok(CallToolResult::success(vec![Content::text("[]")]));
            }
            Err(McpError::invalid_params(format!("Unknown tool: {}", params.name), None)) //~ MCP101@17
        })
    }
}

pub struct NoTools;

impl ServerHandler for NoTools {
    fn call_tool(
        &self,
        _params: CallToolRequestParam,
        _ctx: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResult, McpError>> + Send + '_ {
        std::future::ready(Err(McpError::method_not_found::<CallToolRequestMethod>())) //~ MCP101@32
    }
}
