// Tool failures answered with protocol errors: upstream calls mapped to `internal_error`, a
// timeout, a `let .. else`, goose-style `ErrorData::new(ErrorCode::INTERNAL_ERROR, ..)`.
use std::time::Duration;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorCode};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct FetchArgs {
    pub url: String,
}

pub struct Fetcher {
    client: reqwest::Client,
}

#[tool_router]
impl Fetcher {
    #[tool(description = "Fetch a URL")]
    async fn fetch(&self, Parameters(args): Parameters<FetchArgs>) -> Result<CallToolResult, McpError> {
        let response = match tokio::time::timeout(Duration::from_secs(10), self.client.get(&args.url).send()).await {
            Ok(response) => response,
            Err(_) => return Err(McpError::internal_error("fetch timed out", None)), //~ MCP104@34
        };
        let response = response.map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP104@45
        let body = response
            .text()
            .await
            .map_err(|e| McpError::new(ErrorCode::INTERNAL_ERROR, format!("reading body: {e}"), None))?; //~ MCP104@26
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    #[tool(description = "Report progress")]
    async fn slow(&self, context: RequestContext<RoleServer>) -> Result<CallToolResult, McpError> {
        let Some(token) = context.meta.get_progress_token() else {
            return Err(McpError::internal_error("No progress token", None)); //~ MCP104@24
        };
        let path = std::env::temp_dir().join("slow.txt");
        let text = std::fs::read_to_string(&path).ok().ok_or(McpError::internal_error("cache unreadable", None))?; //~ MCP104@62
        Ok(CallToolResult::success(vec![Content::text(format!("{token:?} {text}"))]))
    }
}
