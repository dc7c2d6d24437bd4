// An rmcp server that hands tools/call to a provider and answers with the provider's own
// answer (`response => response`) unless it checks something first: the provider's `Err` is
// the server's protocol error, reported where the provider builds it.
use rmcp::model::{CallToolRequestParam, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub trait Provider {
    async fn call(&self, request: CallToolRequestParam) -> Result<CallToolResult, ErrorData>;
}

pub struct Disk;

impl Provider for Disk {
    async fn call(&self, request: CallToolRequestParam) -> Result<CallToolResult, ErrorData> {
        let text = std::fs::read_to_string(request.name.as_ref())
            .map_err(|e| ErrorData::internal_error(format!("reading: {e}"), None))?; //~ MCP104@26
        Ok(CallToolResult::success(vec![rmcp::model::Content::text(text)]))
    }
}

pub struct Server<P> {
    pub provider: P,
    pub max_bytes: usize,
}

impl<P: Provider + Send + Sync + 'static> ServerHandler for Server<P> {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        match self.provider.call(request).await {
            Ok(result) if result.content.len() > self.max_bytes => {
                Err(ErrorData::internal_error("the answer is too long", None)) //~ MCP104@21
            }
            response => response,
        }
    }
}
