//! The server: every protocol error it answers with is built somewhere else.
mod errors;
mod plugin;

use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};

use crate::errors::McpError;

pub struct Proxy;

impl ServerHandler for Proxy {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let config = plugin::load_config("/etc/proxy.toml")?; //~ MCP104@22
        match request.name.as_ref() {
            "status" => Ok(CallToolResult::success(vec![Content::text(config)])),
            "reload" => self.reload(&config).await,
            name if name.starts_with("plugin_") => {
                let text = plugin::call_plugin(name, &args)?;
                Ok(CallToolResult::success(vec![Content::text(text)]))
            }
            other => Err(errors::tool_not_found(other)), //~ MCP101@26
        }
    }
}

impl Proxy {
    async fn reload(&self, config: &str) -> Result<CallToolResult, McpError> {
        if config.is_empty() {
            return Err(McpError::internal_error("reload failed: empty config", None)); //~ MCP104@24
        }
        Ok(CallToolResult::success(vec![Content::text("reloaded")]))
    }
}

fn main() {}
