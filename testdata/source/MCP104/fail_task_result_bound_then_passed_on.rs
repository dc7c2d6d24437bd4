// A tool runs its work on the blocking pool and binds the task's result first: the `?` in
// the `let` takes the join error, and `result?` passes on the task's own `Err`, so each
// protocol error built inside the task is reported where it is built.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, JsonObject};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Index;

impl Index {
    fn clear(&self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tool_router]
impl Index {
    #[tool(description = "Rebuild the index")]
    async fn reindex(&self, Parameters(_args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let index = std::sync::Arc::new(Index);
        let result = tokio::task::spawn_blocking(move || {
            index.clear().map_err(|e| {
                McpError::internal_error(format!("clear failed: {e}"), None) //~ MCP104@17
            })?;
            Ok::<(), McpError>(())
        })
        .await
        .map_err(|e| McpError::internal_error(format!("task failed: {e}"), None))?; //~ MCP104@22
        result?;
        Ok(CallToolResult::success(vec![Content::text("done")]))
    }
}
