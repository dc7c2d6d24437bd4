// A helper that builds rmcp's error with whatever code its caller gives: each call is judged
// by the code it passes (here invalid params: MCP103, not a tool failure). And a condition
// that only inspects the tool's own arguments is an input check, whatever code it answers.
use std::borrow::Cow;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorCode};
use rmcp::{ErrorData, tool, tool_router};

fn mcp_err(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> ErrorData {
    ErrorData {
        code,
        message: message.into(),
        data: None,
    }
}

pub struct Docs;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Ingest {
    solution: String,
}

#[tool_router]
impl Docs {
    #[tool(description = "Ingest a solution's documentation")]
    async fn ingest(&self, Parameters(params): Parameters<Ingest>) -> Result<CallToolResult, ErrorData> {
        if params.solution == "default" {
            return Err(mcp_err(ErrorCode::INVALID_PARAMS, "'default' is a reserved solution name")); //~ MCP103@24
        }
        if params.solution.trim().is_empty() {
            return Err(ErrorData::internal_error("no solution given", None)); //~ MCP103@24
        }
        let text = store::load(&params.solution).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP104@68
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
