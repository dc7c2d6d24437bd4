//! A mock upstream for the tests: it fails every call, on purpose.
use rmcp::model::{CallToolRequestParam, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct FailingUpstream;

impl ServerHandler for FailingUpstream {
    async fn call_tool(
        &self,
        _request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Err(ErrorData::internal_error("upstream down", None))
    }
}
