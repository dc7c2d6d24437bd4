// Protocol errors SEP-2145 keeps inside tools/call: a missing client capability, URL
// elicitation required (-32042), a request without the protocol version in its `_meta`, and
// server failures before any result exists.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content, ErrorCode};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Server {
    plugins: Option<Vec<String>>,
    needs_login: bool,
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if context.peer.peer_info().is_none() {
            return Err(McpError::missing_required_client_capability("elicitation", None));
        }
        if request.meta.is_none() {
            return Err(McpError::invalid_params("Missing `_meta` with the protocol version", None));
        }
        if self.needs_login {
            return Err(McpError::new(ErrorCode(-32042), "URL elicitation required", None));
        }
        let plugins = self.plugins.as_ref().ok_or_else(|| McpError::internal_error("Server not initialized", None))?;
        Ok(CallToolResult::success(vec![Content::text(format!("{} via {}", request.name, plugins.len()))]))
    }
}
