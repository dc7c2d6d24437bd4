use rmcp::model::{CallToolResult, Content};
use rmcp::ErrorData;

use super::Client;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct FetchInput {
    pub id: String,
}

pub async fn execute(client: &Client, input: FetchInput) -> Result<CallToolResult, ErrorData> {
    let body = client
        .get(&input.id)
        .await
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP104@22
    Ok(CallToolResult::success(vec![Content::text(body)]))
}
