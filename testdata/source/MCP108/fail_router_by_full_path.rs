// `#[rmcp::tool_handler]` on `impl rmcp::ServerHandler`, written out in full in a file that
// imports nothing of rmcp: still rmcp's router, which answers unknown tools with -32602.
#[derive(Debug, Clone)]
pub struct Handler {
    pub tool_router: rmcp::handler::server::tool::ToolRouter<Self>,
}

#[rmcp::tool_handler] //~ MCP108@1
impl rmcp::ServerHandler for Handler {
    fn get_info(&self) -> rmcp::model::ServerInfo {
        rmcp::model::ServerInfo::default()
    }
}
