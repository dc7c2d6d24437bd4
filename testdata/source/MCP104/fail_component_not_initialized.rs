// "Not initialized" is a lifecycle error only for the session itself (a call before
// `initialize`). A component a tool needs (a language-server client, a store, a browser) that
// is not ready yet is that tool failing: a tool execution error, not a protocol error.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, JsonObject};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Lsp {
    client: Option<Client>,
}

pub struct Client;

impl Client {
    fn hover(&self, _path: &str) -> String {
        String::new()
    }
}

#[tool_router]
impl Lsp {
    #[tool(description = "Hover information at a position")]
    async fn hover(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let Some(client) = &self.client else {
            return Err(McpError::internal_error("Client not initialized", None)); //~ MCP104@24
        };
        let path = args.get("path").and_then(|v| v.as_str()).unwrap_or_default();
        Ok(CallToolResult::success(vec![Content::text(client.hover(path))]))
    }
}
