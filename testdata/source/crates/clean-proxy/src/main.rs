//! Every failure becomes an isError result with a text the model can act on.
mod plugin;

use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Proxy;

impl ServerHandler for Proxy {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        match plugin::call_plugin(&request.name, &args) {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(message) => Ok(CallToolResult::error(vec![Content::text(message)])),
        }
    }
}

fn main() {}
