//! rmcp 1: `Content` for text, `rmcp::model::*` imported whole; an error in a `match` arm,
//! an `ok_or` in the middle of an expression.
use std::collections::HashMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Prices {
    prices: HashMap<String, u64>,
}

#[tool_router]
impl Prices {
    #[tool(description = "Price of an item, in cents")]
    async fn price(&self, Parameters(item): Parameters<String>) -> Result<CallToolResult, McpError> {
        match item.as_str() {
            "" => Err(McpError::invalid_params("item must not be empty", None)), //~ MCP103@23
            _ => {
                let cents = *self.prices.get(&item).ok_or(McpError::internal_error(format!("no price for {item}"), None))?; //~ MCP103@59
                Ok(CallToolResult::success(vec![Content::text(cents.to_string())]))
            }
        }
    }
}
