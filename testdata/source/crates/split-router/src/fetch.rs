//! Helpers that build protocol errors: reported here, where the errors are built, once.
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, Content};

pub async fn readme(name: &str) -> Result<CallToolResult, ErrorData> {
    if name.is_empty() {
        return Err(ErrorData::invalid_params("name must not be empty", None)); //~ MCP103@20
    }
    let body = std::fs::read_to_string(name)
        .map_err(|e| ErrorData::internal_error(format!("readme: {e}"), None))?; //~ MCP104@22
    // Serializing the tool's own result cannot fail for plain data: not reported.
    let text = serde_json::to_string_pretty(&body)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    Ok(CallToolResult::success(vec![Content::text(text)]))
}

pub fn versions(name: &str) -> Result<String, ErrorData> {
    std::fs::read_to_string(format!("{name}.versions"))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None)) //~ MCP104@22
}

/// Not reached from any tool: its error is not reported.
pub fn unused(name: &str) -> Result<String, ErrorData> {
    Err(ErrorData::internal_error(format!("{name}"), None))
}
