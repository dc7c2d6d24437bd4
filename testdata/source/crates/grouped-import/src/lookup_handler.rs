//! The lookup tool's body, in a module of its own.
use super::*;

pub(super) fn lookup(req: &LookupRequest) -> Result<CallToolResult, McpError> {
    if req.file.is_empty() {
        return Err(McpError::invalid_params("`file` is empty", None)); //~ MCP103@20
    }
    let text = std::fs::read_to_string(&req.file)
        .map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP104@22
    Ok(CallToolResult::success(vec![rmcp::model::Content::text(text)]))
}
