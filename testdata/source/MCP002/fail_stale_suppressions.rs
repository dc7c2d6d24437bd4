// Suppressions that silence nothing: the code they covered was fixed.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

// mcp-lint: allow-file(MCP105) no output schemas in this server //~ MCP002@1

pub struct Fixed;

impl ServerHandler for Fixed {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        // mcp-lint: allow(MCP104) the upstream's errors are protocol errors by contract //~ MCP002@9
        let body = match std::fs::read_to_string("/etc/motd") {
            Ok(body) => body,
            Err(e) => return Ok(CallToolResult::error(vec![Content::text(format!("motd unreadable: {e}"))])),
        };
        Ok(CallToolResult::success(vec![Content::text(format!("{}: {body}", request.name))])) // mcp-lint: allow(MCP101, tool-failure-protocol-error) //~ MCP002@95
    }
}
