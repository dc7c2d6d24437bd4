// Disabled tools reported as tool execution errors, with a reason and no policy detail.
use std::collections::HashSet;

use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct PluginServer {
    disabled: HashSet<String>,
}

impl ServerHandler for PluginServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if self.disabled.contains(request.name.as_ref()) {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "Tool unavailable: {}. Reason: disabled by the administrator.",
                request.name
            ))]));
        }
        Ok(CallToolResult::success(vec![Content::text("done")]))
    }
}
