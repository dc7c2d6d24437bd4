// turbomcp 3: a `#[tool]`'s `Err` is answered with an isError result, but the `Err` of a
// manual `McpHandler::call_tool` (and of what it passes the call on to) is sent as a
// JSON-RPC error. The handler returns its future instrumented (`async move { .. }
// .instrument(span)`), the way tracing users write it.
use std::collections::HashMap;
use tracing::Instrument;
use turbomcp::prelude::*;

pub struct Vault {
    routes: HashMap<String, usize>,
}

#[server]
impl Vault {
    #[tool]
    async fn read(&self, path: String) -> McpResult<String> {
        std::fs::read_to_string(&path).map_err(|e| McpError::internal(e.to_string()))
    }
}

impl Vault {
    async fn dispatch(&self, name: &str, args: serde_json::Value) -> McpResult<ToolResult> {
        let route = self
            .routes
            .get(name)
            .ok_or_else(|| McpError::tool_not_found(name))?; //~ MCP101@28
        let Some(path) = args.get("path").and_then(|p| p.as_str()) else {
            return Err(McpError::invalid_params("path is required")); //~ MCP103@24
        };
        Ok(ToolResult::text(format!("{route}: {path}")))
    }
}

impl McpHandler for Vault {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        args: serde_json::Value,
        _ctx: &'a RequestContext,
    ) -> impl std::future::Future<Output = McpResult<ToolResult>> + 'a {
        let span = tracing::info_span!("tool_call", tool = %name);
        async move { self.dispatch(name, args).await }.instrument(span)
    }
}
