// Tool failures reported as tool execution errors; errors consumed and rendered into isError
// results are not protocol errors, and a spawned task cannot answer the call.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, tool, tool_router};

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
        match self.client.get(&args.url).send().await {
            Ok(response) => Ok(CallToolResult::success(vec![Content::text(response.status().to_string())])),
            Err(e) => Ok(CallToolResult::error(vec![Content::text(format!("Fetch failed: {e}. Check the URL and retry."))])),
        }
    }

    #[tool(description = "Fetch text")]
    async fn fetch_text(&self, Parameters(args): Parameters<FetchArgs>) -> Result<String, String> {
        let response = self.client.get(&args.url).send().await.map_err(|e| format!("Fetch failed: {e}"))?;
        response.text().await.map_err(|e| e.to_string())
    }
}

impl ServerHandler for Fetcher {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let outcome: Result<String, McpError> = self.work(&request).await;
        let result = match outcome {
            Ok(text) => CallToolResult::success(vec![Content::text(text)]),
            Err(err) => {
                let rendered = McpError::internal_error(format!("{} failed: {}", request.name, err.message), None);
                CallToolResult::error(vec![Content::text(rendered.message.to_string())])
            }
        };
        tokio::spawn(async move {
            if std::fs::write("/tmp/audit", "called").is_err() {
                return Err(McpError::internal_error("audit write failed", None));
            }
            Ok(())
        });
        Ok(result)
    }
}

impl Fetcher {
    async fn work(&self, _request: &CallToolRequestParams) -> Result<String, McpError> {
        Ok(String::new())
    }
}
