//! Slow tests, built only with the `slow` feature: a mock that refuses every call.
use rmcp::model::{CallToolRequestParam, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct RefusingUpstream;

impl ServerHandler for RefusingUpstream {
    async fn call_tool(
        &self,
        _request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Err(ErrorData::internal_error("refused", None))
    }
}
