// A kodegen_mcp_schema `Tool` impl in a file that names it only capitalized (`Tool`,
// `ToolResponse`): still checked, its `execute` failures are JSON-RPC errors.
use kodegen_mcp_schema::{McpError, Tool, ToolExecutionContext, ToolResponse};

pub struct TokenCheck;

impl Tool for TokenCheck {
    type Args = serde_json::Value;

    async fn execute(&self, _args: Self::Args, _ctx: ToolExecutionContext) -> Result<ToolResponse<String>, McpError> {
        let token = std::env::var("GITHUB_TOKEN").map_err(|_| {
            McpError::Other(anyhow::anyhow!("GITHUB_TOKEN environment variable not set")) //~ MCP104@13
        })?;
        Ok(ToolResponse::new(token))
    }
}
