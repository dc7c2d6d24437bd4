// Columns are counted in characters: the finding below is at column 26, after 25 characters
// that take 31 bytes.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Translator;

impl ServerHandler for Translator {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "日本語" => Err(McpError::internal_error("翻訳に失敗しました", None)), //~ MCP104@26
            _ => Ok(CallToolResult::error(vec![Content::text("Unknown tool. Re-run tools/list and retry.")])),
        }
    }
}
