// rmcp, manual `call_tool` that runs the real handler inside a wrapper taking a closure (a
// lock guard, a retry): the wrapper answers with the closure's value, so the handler's
// protocol errors leave `call_tool`.
use std::future::Future;

use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Guarded {
    lock: tokio::sync::Mutex<()>,
}

async fn with_guard<F, Fut, T>(lock: &tokio::sync::Mutex<()>, run: F) -> T
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = T>,
{
    let _held = lock.lock().await;
    run().await
}

impl Guarded {
    async fn dispatch(&self, params: &CallToolRequestParams) -> Result<CallToolResult, McpError> {
        match params.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![Content::text("pong")])),
            other => Err(McpError::invalid_params(format!("unknown tool: {other}"), None)), //~ MCP101@26
        }
    }
}

impl ServerHandler for Guarded {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        with_guard(&self.lock, || self.dispatch(&request)).await
    }
}
