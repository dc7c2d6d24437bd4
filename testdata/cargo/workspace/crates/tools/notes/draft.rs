// No target compiles it: not checked.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Draft;

#[tool_router]
impl Draft {
    #[tool(description = "Read the forecast")]
    async fn forecast(&self) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string("forecast.txt").map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP104@72
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
