// A proxy that namespaces tools as `plugin__tool` (hyper-mcp's shape): a name that does not
// parse or names no plugin is an unknown tool; an upstream failure in the tail `map_err` is a
// tool failure; a cancelled request is the cancellation utility's business, not SEP-2145's.
use std::collections::HashMap;

use rmcp::model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Proxy {
    plugins: HashMap<String, Plugin>,
}

pub struct Plugin;

impl Plugin {
    async fn call(&self, _tool: &str, _args: Option<rmcp::model::JsonObject>) -> Result<CallToolResult, String> {
        Err("not implemented".into())
    }
}

fn parse_namespaced_name(name: &str) -> Result<(String, String), String> {
    name.split_once("__").map(|(p, t)| (p.to_string(), t.to_string())).ok_or_else(|| name.to_string())
}

impl ServerHandler for Proxy {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if context.ct.is_cancelled() {
            return Err(McpError::internal_error("Request cancelled", None));
        }
        let (plugin_name, tool_name) = match parse_namespaced_name(request.name.as_ref()) {
            Ok(parts) => parts,
            Err(e) => return Err(McpError::invalid_request(format!("Failed to parse tool name: {e}"), None)), //~ MCP101@34
        };
        let Some(plugin) = self.plugins.get(&plugin_name) else {
            return Err(McpError::method_not_found::<CallToolRequestMethod>()); //~ MCP101@24
        };
        plugin.call(&tool_name, request.arguments).await.map_err(|e| McpError::invalid_request(e, None)) //~ MCP104@70
    }
}
