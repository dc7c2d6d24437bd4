use mcp_attr::Result as McpResult;
use mcp_attr::server::{McpServer, mcp_server};

mod notes;

pub struct Notebook {
    notes: std::sync::Mutex<Vec<String>>,
}

#[mcp_server] //~ MCP108@1
impl McpServer for Notebook {
    #[tool]
    async fn add(&self, text: String) -> McpResult<String> {
        self.handle_add(text).await
    }
}
