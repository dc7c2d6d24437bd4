// mcp-attr generates `tools_call` for a `#[mcp_server]` impl: a name no `#[tool]` has is
// answered with `tool_not_found`, a JSON-RPC error -32601 "Tool not found".
use mcp_attr::Result;
use mcp_attr::server::{McpServer, mcp_server};

pub struct Weather;

#[mcp_server] //~ MCP108@1
impl McpServer for Weather {
    #[tool]
    async fn forecast(&self, city: String) -> Result<String> {
        Ok(format!("Sunny in {city}"))
    }
}
