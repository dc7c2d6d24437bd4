//! The server: rmcp's generated `call_tool` routes every call to the tools in `tools.rs`.
use rmcp::model::ServerInfo;
use rmcp::{ServerHandler, tool_handler};

mod fetch;
mod tools;

#[tool_handler(router = self.tool_router)] //~ MCP108@1
impl ServerHandler for tools::Docs {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::default()
    }
}

fn main() {}
