//! A rewrite that the re-check turns down: the tool error would say nothing the model can act
//! on (MCP201), a finding the protocol error did not have. The file stays as it is.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Pinger {
    down: bool,
}

#[tool_router]
impl Pinger {
    #[tool(description = "Ping")]
    async fn ping(&self) -> Result<CallToolResult, McpError> {
        if self.down {
            return Err(McpError::internal_error("error", None)); //~ MCP104@24
        }
        Ok(CallToolResult::success(vec![Content::text("pong")]))
    }
}
