//! The server: a map of tools, each a trait object (see tools.rs).
use std::sync::Arc;
use std::collections::HashMap;
use rmcp::{ErrorData as McpError, ServerHandler, model::*, service::RequestContext, RoleServer};
mod tools;
use tools::Tool;

pub struct S { tools: HashMap<String, Arc<dyn Tool>> }

impl ServerHandler for S {
    async fn call_tool(&self, request: CallToolRequestParams, _ctx: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let tool = self.tools.get(request.name.as_ref()).ok_or_else(|| McpError::invalid_params("unknown tool", None))?; //~ MCP101@72
        let args = request.arguments.unwrap_or_default();
        tool.run(args).await
    }
}
fn main() {}
