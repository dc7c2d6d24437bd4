// A local that shadows a binding by a value naming it (`let reply = reply.into();`) once sent
// the walk in circles until the stack overflowed. Each value is followed once; this tool is
// compliant.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Echo;

#[tool_router]
impl Echo {
    #[tool(description = "Answer with the reply given")]
    async fn echo(&self, Parameters(reply): Parameters<String>) -> Result<CallToolResult, McpError> {
        let reply: Result<CallToolResult, McpError> = Ok(CallToolResult::success(vec![reply.into()]));
        let reply = reply.map(|result| result);
        reply
    }
}
