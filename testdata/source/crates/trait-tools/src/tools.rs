use rmcp::{ErrorData as McpError, model::*};
#[async_trait::async_trait]
pub trait Tool: Send + Sync {
    async fn run(&self, args: JsonObject) -> Result<CallToolResult, McpError>;
}
pub struct Read;
#[async_trait::async_trait]
impl Tool for Read {
    async fn run(&self, args: JsonObject) -> Result<CallToolResult, McpError> {
        let path = args.get("path").and_then(|v| v.as_str()).ok_or_else(|| McpError::invalid_params("path is required", None))?; //~ MCP103@76
        let text = tokio::fs::read_to_string(path).await.map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP104@70
        let _kind = parse_kind(args.get("kind"))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
fn parse_kind(v: Option<&serde_json::Value>) -> Result<u8, McpError> {
    match v.and_then(|v| v.as_str()) {
        Some("a") => Ok(1),
        _ => Err(McpError::invalid_params("kind must be a or b", None)), //~ MCP103@18
    }
}
