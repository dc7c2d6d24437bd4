// Disabled and policy-restricted tools answered with protocol errors (hyper-mcp's `skip_tools`,
// a `disabled` set, an allow-list in a hand-rolled server).
use std::collections::HashSet;

use regex::RegexSet;
use rmcp::model::{CallToolRequestMethod, CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct PluginServer {
    skip_tools: RegexSet,
    disabled: HashSet<String>,
}

impl ServerHandler for PluginServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let tool_name = request.name.to_string();
        if self.skip_tools.is_match(&tool_name) {
            return Err(McpError::method_not_found::<CallToolRequestMethod>()); //~ MCP102@24
        }
        if self.disabled.contains(&tool_name) {
            return Err(McpError::invalid_request(format!("Tool {tool_name} is disabled"), None)); //~ MCP102@24
        }
        Ok(CallToolResult::success(vec![Content::text(tool_name)]))
    }
}

pub fn on_tools_call(allowed: &HashSet<String>, id: u64, name: &str) -> serde_json::Value {
    if !allowed.contains(name) {
        return serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": "Tool not permitted by policy"}}); //~ MCP102@16
    }
    serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"content": []}})
}

pub fn dispatch(method: &str, id: u64, name: &str, allowed: &HashSet<String>) -> serde_json::Value {
    match method {
        "tools/list" => serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        "tools/call" => on_tools_call(allowed, id, name),
        _ => serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
    }
}
