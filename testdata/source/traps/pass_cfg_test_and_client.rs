// Test modules answer no client, and client code that matches on protocol errors is not a
// server.
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RequestContext, RunningService, ServiceError};
use rmcp::{ErrorData as McpError, RoleClient, RoleServer, ServerHandler};

pub async fn call(client: &RunningService<RoleClient, ()>, params: CallToolRequestParams) -> Option<CallToolResult> {
    match client.call_tool(params).await {
        Ok(result) => Some(result),
        Err(ServiceError::McpError(e)) if e.code.0 == -32602 => None,
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Broken;

    impl ServerHandler for Broken {
        async fn call_tool(
            &self,
            _request: CallToolRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<CallToolResult, McpError> {
            Err(McpError::internal_error("always fails", None))
        }
    }
}

// Only built when testing with a feature on: test code too.
#[cfg(all(test, feature = "integration"))]
mod integration_tests {
    use super::*;

    struct AlsoBroken;

    impl ServerHandler for AlsoBroken {
        async fn call_tool(
            &self,
            _request: CallToolRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<CallToolResult, McpError> {
            Err(McpError::internal_error("always fails", None))
        }
    }
}
