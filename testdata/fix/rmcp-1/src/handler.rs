//! rmcp 1.8: `#[tool_handler]` with its default router, `Self::tool_router()`, and a method of
//! the impl's own: the fix gives the impl a `call_tool` that answers a name with no route.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ListResourcesResult, PaginatedRequestParams};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};

pub struct Greeter;

#[tool_router]
impl Greeter {
    #[tool(description = "Greet someone by name")]
    async fn greet(&self, Parameters(name): Parameters<String>) -> String {
        format!("Hello, {name}!")
    }
}

#[tool_handler] //~ MCP108@1
impl ServerHandler for Greeter {
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::default())
    }
}
