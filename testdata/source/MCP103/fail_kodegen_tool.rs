// A tool on kodegen_mcp_schema's own `Tool` trait: its `ToolHandler` turns every `Err` of
// `execute` into rmcp's `ErrorData` by variant (`InvalidArguments` -32602, `ToolNotFound`
// -32601, any other -32603), a JSON-RPC error, so each is reported where it leaves.
use kodegen_mcp_schema::{McpError, Tool, ToolExecutionContext, ToolResponse};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ReadArgs {
    pub path: String,
}

pub struct ReadFileTool;

impl Tool for ReadFileTool {
    type Args = ReadArgs;

    async fn execute(&self, args: Self::Args, _ctx: ToolExecutionContext) -> Result<ToolResponse<String>, McpError> {
        if args.path.is_empty() {
            return Err(McpError::InvalidArguments("path must not be empty".to_string())); //~ MCP103@24
        }
        let text = tokio::fs::read_to_string(&args.path)
            .await?; //~ MCP104@13
        Ok(ToolResponse::new(text))
    }
}
