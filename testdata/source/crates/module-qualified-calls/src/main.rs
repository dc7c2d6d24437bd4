mod search;
mod update;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, tool, tool_router};
use search::SearchArgs;

pub struct History;

fn tool_error(e: anyhow::Error) -> McpError {
    McpError::internal_error(e.to_string(), None)
}

#[tool_router]
impl History {
    #[tool(description = "Search the shell history")]
    async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> Result<String, McpError> {
        search::run(args).map_err(tool_error) //~ MCP103@35 MCP104@35
    }
}

fn main() -> anyhow::Result<()> {
    update::run()
}
