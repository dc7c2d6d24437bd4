// A helper that picks the constructor by the error's variant (`invalid_params` for the
// caller's mistakes, `internal_error` for the rest) answers both cases with a JSON-RPC error:
// each tool that returns `Err(to_mcp_error(&e))` breaks both rules there.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub enum Error {
    NotFound(String),
    Storage(String),
}

fn to_mcp_error(e: &Error) -> McpError {
    match e {
        Error::NotFound(id) => McpError::invalid_params(format!("no issue {id}"), None),
        Error::Storage(why) => McpError::internal_error(why.clone(), None),
    }
}

pub struct Issues;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Show {
    id: String,
}

#[tool_router]
impl Issues {
    #[tool(description = "Show an issue")]
    async fn show(&self, Parameters(p): Parameters<Show>) -> Result<CallToolResult, McpError> {
        match self.lookup(&p.id).await {
            Ok(text) => Ok(CallToolResult::success(vec![Content::text(text)])),
            Err(e) => Err(to_mcp_error(&e)), //~ MCP103@27 MCP104@27
        }
    }

    #[tool(description = "Count issues")]
    async fn count(&self) -> Result<CallToolResult, McpError> {
        let n = self.total().await.map_err(|e| to_mcp_error(&e))?; //~ MCP103@48 MCP104@48
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }
}
