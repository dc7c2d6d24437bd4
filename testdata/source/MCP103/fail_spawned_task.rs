// call_tool runs the tool on a blocking task. `spawn_blocking(..).await.map_err(..)?` takes the
// join error (a panic); the task's own result is the handler's value, so an error the tool
// builds leaves as a protocol error too, in the trait impl that builds it.
use std::sync::Arc;

use rmcp::model::{CallToolRequestParam, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

trait Tool: Send + Sync {
    fn run(&self, args: serde_json::Value) -> Result<CallToolResult, ErrorData>;
}

struct Echo;

impl Tool for Echo {
    fn run(&self, args: serde_json::Value) -> Result<CallToolResult, ErrorData> {
        let Some(text) = args.get("text").and_then(|t| t.as_str()) else {
            return Err(ErrorData::invalid_params("text is required", None)); //~ MCP103@24
        };
        Ok(CallToolResult::success(vec![Content::text(text.to_string())]))
    }
}

struct Server {
    echo: Arc<dyn Tool>,
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let tool = Arc::clone(&self.echo);
        let args = serde_json::Value::Object(request.arguments.unwrap_or_default());
        tokio::task::spawn_blocking(move || tool.run(args))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the tool panicked: {e}"), None))? //~ MCP104@26
    }
}
