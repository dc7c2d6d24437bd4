// rmcp, manual `call_tool` asking the server's app tools first: `app_tool` answers
// `Option<Result<CallToolResult, ErrorData>>`, `None` for a name that is not an app's. In it a
// `?` on an `Option` is that `None`, not a failure; the app's own failure passed on by `?`
// inside the `Result` is a protocol error.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct App {
    name: String,
}

pub struct Server {
    apps: Vec<App>,
}

impl Server {
    async fn app_tool(&self, name: &str) -> Option<Result<CallToolResult, ErrorData>> {
        let app = self.apps.iter().find(|app| app.name == name)?;
        Some(self.run_app(app).await)
    }

    async fn run_app(&self, app: &App) -> Result<CallToolResult, ErrorData> {
        let output = graphql::execute(&app.name).await?; //~ MCP104@22
        Ok(CallToolResult::success(vec![Content::text(output)]))
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        if let Some(result) = self.app_tool(&request.name).await {
            return result;
        }
        Ok(CallToolResult::error(vec![Content::text("unknown tool")]))
    }
}
