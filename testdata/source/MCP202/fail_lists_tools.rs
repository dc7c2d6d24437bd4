// An unknown-tool text that enumerates the server's tools.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_router};

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    fn read_file(&self, Parameters(path): Parameters<String>) -> String {
        path
    }

    #[tool(description = "Write a file")]
    fn write_file(&self, Parameters(path): Parameters<String>) -> String {
        path
    }

    #[tool(description = "Delete a file")]
    fn delete_file(&self, Parameters(path): Parameters<String>) -> String {
        path
    }
}

pub fn unknown(name: &str) -> CallToolResult {
    let _ = name;
    CallToolResult::error(vec![Content::text("Unknown tool. Available tools: read_file, write_file, delete_file")]) //~ MCP202@5
}

pub fn unknown_named() -> CallToolResult {
    CallToolResult::error(vec![Content::text("No such tool; try read_file, write_file or delete_file.")]) //~ MCP202@5
}
