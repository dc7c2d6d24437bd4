// Structured content whose root is not an object: clients of protocol 2025-11-25 and earlier
// reject it, and an outputSchema must describe an object.
use rmcp::model::{CallToolResult, Content};
use serde_json::json;

pub fn ids() -> CallToolResult {
    CallToolResult::structured(json!([1, 2, 3])) //~ MCP106@32
}

pub fn status() -> CallToolResult {
    CallToolResult {
        content: vec![Content::text("ok")],
        structured_content: Some(json!("ok")), //~ MCP106@34
        is_error: Some(false),
        meta: None,
    }
}
