//! The tools: each `?` converts a `FetchError` into a protocol error.
mod error;
mod fetch;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_router, ErrorData};

pub struct Fetcher;

#[tool_router]
impl Fetcher {
    #[tool(description = "Fetch a URL")]
    async fn fetch(&self, Parameters(url): Parameters<String>) -> Result<CallToolResult, ErrorData> {
        fetch::check_url(&url)?; //~ MCP103@9
        let body = fetch::download(&url)?; //~ MCP104@20
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    #[tool(description = "Fetch a URL, any way")]
    async fn fetch_loose(&self, Parameters(url): Parameters<String>) -> Result<CallToolResult, ErrorData> {
        let body = fetch::fetch_any(&url)?; //~ MCP104@20
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }
}
