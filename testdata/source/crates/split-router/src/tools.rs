//! The tools: each hands its work to a function of `fetch.rs` and passes its error on.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

use crate::fetch;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub name: String,
}

pub struct Docs {
    pub tool_router: rmcp::handler::server::router::tool::ToolRouter<Docs>,
}

#[tool_router]
impl Docs {
    #[tool(description = "Get a crate's readme")]
    async fn readme(&self, Parameters(q): Parameters<Query>) -> Result<CallToolResult, ErrorData> {
        fetch::readme(&q.name).await
    }

    #[tool(description = "Get a crate's readme, logged")]
    async fn logged_readme(&self, Parameters(q): Parameters<Query>) -> Result<CallToolResult, ErrorData> {
        // Passing the helper's error on is not a new error: fetch.rs reports it.
        match fetch::readme(&q.name).await {
            Ok(result) => Ok(result),
            Err(e) => Err(e),
        }
    }

    #[tool(description = "Get a crate's versions")]
    async fn versions(&self, Parameters(q): Parameters<Query>) -> Result<CallToolResult, ErrorData> {
        let text = fetch::versions(&q.name)?;
        Ok(CallToolResult::success(vec![rmcp::model::Content::text(text)]))
    }
}
