// A tools/call may leave `arguments` out: a tool that needs some and finds none was given bad
// input (MCP103), not a malformed request, even when its message says "parameters".
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Images;

impl ServerHandler for Images {
    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match params.name.as_ref() {
            "image_generate" => {
                let args = params
                    .arguments
                    .ok_or_else(|| McpError::invalid_params("Missing parameters", None))?; //~ MCP103@36
                self.generate(args).await
            }
            other => Ok(CallToolResult::error(vec![Content::text(format!(
                "Unknown tool: {other}. Re-run tools/list and retry."
            ))])),
        }
    }
}
