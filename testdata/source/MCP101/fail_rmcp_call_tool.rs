// rmcp, manual `call_tool`: unknown tools answered with protocol errors, in the shapes seen in
// real servers (a fallback arm, a registry lookup with `ok_or_else`, `let .. else`).
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult, Content, ErrorCode};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

type Handler = Arc<dyn Fn(serde_json::Value) -> String + Send + Sync>;

pub struct Registry {
    handlers: HashMap<String, Handler>,
}

impl ServerHandler for Registry {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let args = serde_json::Value::Object(request.arguments.clone().unwrap_or_default());
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![Content::text("pong")])),
            "lookup" => {
                let handler = self
                    .handlers
                    .get(request.name.as_ref())
                    .ok_or_else(|| McpError::invalid_params(format!("no handler for {}", request.name), None))?; //~ MCP101@36
                Ok(CallToolResult::success(vec![Content::text(handler(args))]))
            }
            "dispatch" => {
                let Some(handler) = self.handlers.get(&request.name.to_string()) else {
                    return Err(McpError::new(ErrorCode::INVALID_PARAMS, "tool not found", None)); //~ MCP101@32
                };
                Ok(CallToolResult::success(vec![Content::text(handler(args))]))
            }
            _ => Err(McpError::method_not_found::<CallToolRequestMethod>()), //~ MCP101@22
        }
    }
}
