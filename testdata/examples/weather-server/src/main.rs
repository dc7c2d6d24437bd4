//! A weather MCP server on rmcp. The tools live in `tools.rs`; this file wires them into a
//! handler with a hand-written `call_tool` that adds an allow-list.
mod tools;

use std::collections::HashSet;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestMethod, CallToolRequestParams, CallToolResponse, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};

use tools::Weather;

pub struct WeatherServer {
    weather: Weather,
    router: ToolRouter<Weather>,
    allowed: HashSet<String>,
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !self.router.has_route(&request.name) {
            return Err(McpError::method_not_found::<CallToolRequestMethod>()); //~ MCP101@24
        }
        if !self.allowed.contains(request.name.as_ref()) {
            return Err(McpError::invalid_request(format!("tool {} is not allowed here", request.name), None)); //~ MCP102@24
        }
        self.router.call(ToolCallContext::new(&self.weather, request, context)).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        // Not a tool: resource_not_found is the right answer here.
        Err(McpError::resource_not_found(format!("no resource {}", request.uri), None))
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = WeatherServer {
        weather: Weather::new(),
        router: Weather::tool_router(),
        allowed: ["forecast", "alerts"].into_iter().map(String::from).collect(),
    };
    server.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
