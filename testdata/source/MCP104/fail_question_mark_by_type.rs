// In a tool whose error type is rmcp's, every `?` turns its operand's error into a protocol
// error, whatever that error is: a crate function passed to `map_err` builds it, or a `From`
// the crate cannot see (in another crate of the workspace), or `Into::into`. Serializing the
// tool's own result is not the tool failing.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, JsonObject};
use rmcp::{ErrorData as McpError, tool, tool_router};

mod helpers {
    /// Any displayable error as an internal error.
    pub fn to_mcp(err: impl std::fmt::Display) -> rmcp::ErrorData {
        rmcp::ErrorData::internal_error(err.to_string(), None)
    }
}

pub struct Store {
    db: storage::Client,
}

#[tool_router]
impl Store {
    #[tool(description = "Count the rows of a table")]
    async fn count(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let rows = self.db.query("select count(*)").await.map_err(helpers::to_mcp)?; //~ MCP104@67
        let table = self.db.describe(&rows).await?; //~ MCP104@21
        let summary = storage::summarize(&table).map_err(Into::into)?; //~ MCP104@58
        // A chain split over lines is reported at its `?` line; a call whose arguments are, at
        // the call.
        let stats = self
            .db
            .stats(&table)
            .await?; //~ MCP104@13
        let plan = storage::plan( //~ MCP104@20
            &stats,
            &summary,
        )?;
        let text = serde_json::to_string(&plan).map_err(helpers::to_mcp)?;
        Ok(CallToolResult::success(vec![Content::text(text), Content::json(args)?]))
    }
}
