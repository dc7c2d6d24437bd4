// Tool execution errors that give the model nothing to act on.
use rmcp::model::{CallToolResult, Content};

pub fn empty() -> CallToolResult {
    CallToolResult::error(vec![]) //~ MCP201@5
}

pub fn generic() -> CallToolResult {
    CallToolResult::error(vec![Content::text("Internal error")]) //~ MCP201@5
}
