// ultrafast-mcp sends every `Err` that `ToolHandler::handle_tool_call` returns as a JSON-RPC
// error (-32602 for invalid params, -32603 otherwise); its server answers an unknown tool
// with one too (MCP108).
use ultrafast_mcp::{
    ListToolsRequest, ListToolsResponse, MCPError, MCPResult, ServerInfo, ToolCall, ToolContent,
    ToolHandler, ToolResult, UltraFastServer,
};

pub struct Notes;

pub fn server(info: ServerInfo) -> UltraFastServer {
    UltraFastServer::new(info, Default::default()).with_tool_handler(std::sync::Arc::new(Notes)) //~ MCP108@5
}

#[async_trait::async_trait]
impl ToolHandler for Notes {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        match call.name.as_str() {
            "add_note" => self.add_note(call).await,
            _ => Err(MCPError::method_not_found(format!("Unknown tool: {}", call.name))), //~ MCP101@22
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        Ok(ListToolsResponse { tools: Vec::new(), next_cursor: None })
    }
}

impl Notes {
    async fn add_note(&self, call: ToolCall) -> MCPResult<ToolResult> {
        let args = call
            .arguments
            .ok_or_else(|| MCPError::invalid_params("Missing arguments for add_note".to_string()))?; //~ MCP103@28
        let text = args.get("text").and_then(|v| v.as_str()).unwrap_or_default();
        Ok(ToolResult {
            content: vec![ToolContent::text(format!("saved: {text}"))],
            is_error: None,
        })
    }
}
