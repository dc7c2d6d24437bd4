// An mcp-attr server that writes `tools_call` itself answers unknown names as it likes; and
// a `#[mcp_server]`-like attribute of another crate is not mcp-attr's.
use mcp_attr::Result;
use mcp_attr::schema::{CallToolRequestParams, CallToolResult};
use mcp_attr::server::{McpServer, RequestContext, mcp_server};

pub struct Weather;

#[mcp_server]
impl McpServer for Weather {
    async fn tools_call(&self, p: CallToolRequestParams, _cx: &mut RequestContext) -> Result<CallToolResult> {
        Ok(CallToolResult::from(format!("Unknown tool: {}. Re-run tools/list and retry.", p.name)).with_is_error(true))
    }
}

mod other {
    pub struct Server;

    #[other_framework::mcp_server]
    impl other_framework::McpServer for Server {}
}
