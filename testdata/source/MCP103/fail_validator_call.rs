// A call that validates the tool's own arguments (its name says it checks, and it is given
// one of them) fails because of the input: MCP103, whatever code the error carries. The same
// error from a call that does the tool's work, or that checks what the server may do with the
// input (policy, robots.txt), is the tool's own failure.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

pub struct Files;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Read {
    path: String,
}

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(req): Parameters<Read>) -> Result<CallToolResult, ErrorData> {
        req.validate().map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP103@36
        let path = validate_path(&req.path, &self.roots)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP103@26
        let text = tokio::fs::read_to_string(&path)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP104@26
        self.robots
            .check_may_fetch_url(&req.path)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP104@26
        check_quota(&self.usage).map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP104@46
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
