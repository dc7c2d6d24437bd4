// Suppressions that silence the findings they cover: an own-line directive covers the whole
// next statement, a trailing one its line, allow-file the file. A directive in a string is
// not a directive.
use rmcp::model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

// mcp-lint: allow-file(invalid-input-protocol-error) argument errors are the client's bug here

pub struct Proxy;

const NOT_A_DIRECTIVE: &str = "// mcp-lint: allow(MCP999)";

impl ServerHandler for Proxy {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if request.arguments.is_none() {
            return Err(McpError::invalid_params("arguments are required", None));
        }
        // mcp-lint: allow(tool-failure-protocol-error) the proxy forwards upstream errors verbatim
        let body = std::fs::read_to_string("/etc/motd")
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        match request.name.as_ref() {
            "motd" => Ok(CallToolResult::success(vec![Content::text(body)])),
            _ => Err(McpError::method_not_found::<CallToolRequestMethod>()), // mcp-lint: allow(MCP101) legacy clients expect -32601
        }
        .map(|r| {
            let _ = NOT_A_DIRECTIVE;
            r
        })
    }
}
