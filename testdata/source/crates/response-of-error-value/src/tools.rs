use serde_json::{Value, json};

use crate::error::McpError;

pub fn read_file(args: &Value) -> Result<Value, McpError> {
    let path = args
        .get("path")
        .and_then(|p| p.as_str())
        .ok_or_else(|| McpError::invalid_params("Missing 'path' parameter"))?; //~ MCP103@24
    let text = std::fs::read_to_string(path)
        .map_err(|e| McpError::internal_error(format!("Cannot read {path}: {e}")))?; //~ MCP104@22
    Ok(json!({ "content": [{ "type": "text", "text": text }] }))
}
