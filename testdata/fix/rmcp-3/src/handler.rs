//! rmcp 3: `#[tool_handler]` naming its router; `call_tool` returns a `CallToolResponse`,
//! and text is a `ContentBlock`.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

pub struct Echo {
    tool_router: ToolRouter<Echo>,
}

#[tool_router]
impl Echo {
    #[tool(description = "Echo the text back")]
    async fn echo(&self, Parameters(text): Parameters<String>) -> String {
        text
    }
}

#[tool_handler(router = self.tool_router)] //~ MCP108@1
impl ServerHandler for Echo {}
