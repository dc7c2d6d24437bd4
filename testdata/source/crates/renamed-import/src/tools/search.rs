use rmcp::model::{CallToolResult, Content};
use rmcp::ErrorData;

use super::Client;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchInput {
    pub query: Option<String>,
}

pub async fn execute(client: &Client, input: SearchInput) -> Result<CallToolResult, ErrorData> {
    let query = input
        .query
        .ok_or_else(|| ErrorData::invalid_params("query is required", None))?; //~ MCP103@24
    let hits = client
        .get(&format!("/search?q={query}"))
        .await
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP104@22
    Ok(CallToolResult::success(vec![Content::text(hits)]))
}
