use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData as McpError, tool, tool_router};

#[path = "lookup_handler.rs"]
mod lookup_handler;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct LookupRequest {
    pub file: String,
}

pub struct Index;

#[tool_router]
impl Index {
    #[tool(description = "The symbols of a file")]
    async fn lookup(&self, Parameters(req): Parameters<LookupRequest>) -> Result<CallToolResult, McpError> { //~ MCP108@45
        lookup_handler::lookup(&req)
    }
}

fn main() {}
