// A value made by work on an argument (a fetch, a file read) is the tool's own result: a
// check of it that fails is the tool's failure, answered here as a tool execution error.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, model::{CallToolResult, Content}, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Fetch {
    pub url: String,
}

pub struct Fetcher;

#[tool_router]
impl Fetcher {
    #[tool(description = "Fetch a page")]
    async fn fetch(&self, Parameters(req): Parameters<Fetch>) -> Result<CallToolResult, McpError> {
        let body = match std::fs::read_to_string(&req.url) {
            Ok(body) => body,
            Err(e) => return Ok(CallToolResult::error(vec![Content::text(format!("fetch failed: {e}"))])),
        };
        if body.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("empty page")]));
        }
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }
}
