//! The tools: `ToolResult` is rmcp's result, so each `?` converts an `FsError` into a
//! protocol error.
mod errors;
mod plain;

use errors::ToolResult;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_router};

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read_file(&self, Parameters(path): Parameters<String>) -> ToolResult {
        let path = errors::resolve(&path)?; //~ MCP103@20
        let text = errors::read(&path)?; //~ MCP104@20
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Read a file, failing as text")]
    async fn read_plain(&self, Parameters(path): Parameters<String>) -> Result<CallToolResult, String> {
        plain::read(&path)
    }
}
