// A file that uses tower-mcp's types but builds no router: nothing to report here.
use tower_mcp::protocol::CallToolResult;

pub fn ok(text: &str) -> CallToolResult {
    CallToolResult::text(text)
}
