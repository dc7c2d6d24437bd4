// Structured content with an object root, literal or built at run time.
use rmcp::model::CallToolResult;
use serde_json::json;

pub fn ids() -> CallToolResult {
    CallToolResult::structured(json!({"ids": [1, 2, 3]}))
}

pub fn forward(value: serde_json::Value) -> CallToolResult {
    CallToolResult::structured(value)
}
