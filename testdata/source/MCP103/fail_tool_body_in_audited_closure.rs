// rmcp tools whose bodies run inside a method of the server taking a closure (an audit
// span, a session lookup): the method answers with the closure's value, so the argument
// checks of the tool body it runs leave the tool as protocol errors.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Db;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct QueryParams {
    table: String,
}

mod query {
    use super::*;

    pub async fn execute(_db: &Db, p: QueryParams) -> Result<CallToolResult, McpError> {
        if p.table.is_empty() {
            return Err(McpError::invalid_params("table cannot be empty", None)); //~ MCP103@24
        }
        Ok(CallToolResult::success(vec![Content::text(p.table)]))
    }
}

pub struct Server {
    db: Db,
}

impl Server {
    /// Runs `handler` with the session's database and records the outcome.
    async fn audited<F>(&self, tool: &'static str, handler: F) -> Result<CallToolResult, McpError>
    where
        F: AsyncFnOnce(&Db) -> Result<CallToolResult, McpError>,
    {
        let outcome = handler(&self.db).await;
        tracing::info!(tool, ok = outcome.is_ok(), "tool call");
        outcome
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Query a table")]
    async fn query(&self, Parameters(p): Parameters<QueryParams>) -> Result<CallToolResult, McpError> {
        self.audited("query", async |db| query::execute(db, p).await).await
    }
}
