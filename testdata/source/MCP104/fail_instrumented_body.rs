// The handler body is an async block wrapped for tracing (apollo's shape): it is still the
// body whose errors answer the call.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use tracing::Instrument;

pub struct Traced;

impl ServerHandler for Traced {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let span = tracing::info_span!("call_tool", tool = %request.name);
        async {
            let output = std::process::Command::new("date")
                .output()
                .map_err(|e| McpError::internal_error(format!("date failed: {e}"), None))?; //~ MCP104@30
            Ok(CallToolResult::success(vec![Content::text(String::from_utf8_lossy(&output.stdout))]))
        }
        .instrument(span)
        .await
    }
}
