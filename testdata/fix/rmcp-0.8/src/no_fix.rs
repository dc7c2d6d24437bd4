//! Protocol errors with no rewrite that is sure to be right: left as they are.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Clock;

/// Shared with code that is not a tool: its callers expect an `Err`.
fn parse_zone(zone: &str) -> Result<i32, McpError> {
    zone.parse().map_err(|_| McpError::invalid_params(format!("bad zone {zone}"), None)) //~ MCP103@30
}

fn clock_error(what: &str) -> McpError {
    McpError::internal_error(format!("clock: {what}"), None)
}

#[tool_router]
impl Clock {
    #[tool(description = "Hour in a zone")]
    async fn hour(&self, Parameters(zone): Parameters<String>) -> Result<CallToolResult, McpError> { //~ MCP108@44
        let offset = parse_zone(&zone)?;
        Ok(CallToolResult::success(vec![Content::text(offset.to_string())]))
    }

    #[tool(description = "Hours of several zones")]
    async fn hours(&self, Parameters(zones): Parameters<Vec<String>>) -> Result<CallToolResult, McpError> {
        // In a closure, `return` would not leave the tool: no fix.
        let hours = zones
            .iter()
            .map(|z| z.parse::<i32>().map_err(|_| McpError::invalid_params(format!("bad zone {z}"), None))) //~ MCP103@51
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CallToolResult::success(vec![Content::text(format!("{hours:?}"))]))
    }

    #[tool(description = "Second")]
    async fn second(&self) -> Result<CallToolResult, McpError> {
        // The crate's own constructor words the message: mcp-lint does not see it.
        Err(clock_error("the second hand is missing")) //~ MCP104@13
    }

    #[tool(description = "Minute")]
    async fn minute(&self) -> Result<String, McpError> {
        Err(McpError::internal_error("the clock is broken", None)) //~ MCP104@13
    }
}
