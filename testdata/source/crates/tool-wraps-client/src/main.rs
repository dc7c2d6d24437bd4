//! The tools wrap the client's methods of the same name.
mod client;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_router, ErrorData};

pub struct Search {
    client: client::Client,
}

#[tool_router]
impl Search {
    #[tool(description = "Search")]
    async fn search(&self, Parameters(query): Parameters<String>) -> Result<CallToolResult, ErrorData> {
        let hits = self.client.search(&query).await?; //~ MCP104@20
        Ok(CallToolResult::success(vec![Content::text(hits.join("\n"))]))
    }

    #[tool(description = "Search, first hit only")]
    async fn first(&self, Parameters(query): Parameters<String>) -> Result<CallToolResult, ErrorData> {
        self.search(Parameters(query)).await
    }
}
