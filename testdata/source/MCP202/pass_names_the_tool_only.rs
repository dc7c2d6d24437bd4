// An unknown-tool text that names only the tool that was asked for.
use rmcp::model::{CallToolResult, Content};

pub fn unknown(name: &str) -> CallToolResult {
    CallToolResult::error(vec![Content::text(format!("Unknown tool: {name}. Re-run tools/list and retry."))])
}
