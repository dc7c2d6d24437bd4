// Servers of other SDKs whose router answers a tools/call naming no tool with a JSON-RPC error:
// tower-mcp's McpRouter (-32602, -32601 before 0.21) and pmcp's Server (-32603).
use tower_mcp::McpRouter;

pub fn tower() -> McpRouter {
    McpRouter::new().server_info("docs", "1.0") //~ MCP108@5
}

pub fn pmcp_server() {
    let _builder = pmcp::Server::builder().name("docs"); //~ MCP108@20
}
