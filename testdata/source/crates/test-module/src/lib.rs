//! The tools; their test helpers are in `test_util.rs` and `slow_tests.rs`, compiled for tests
//! only.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_router, ErrorData};

pub struct Clock;

#[tool_router]
impl Clock {
    #[tool(description = "The time in a zone")]
    async fn now(&self, Parameters(zone): Parameters<String>) -> Result<CallToolResult, ErrorData> {
        if zone.is_empty() {
            return Err(ErrorData::invalid_params("zone is required", None)); //~ MCP103@24
        }
        Ok(CallToolResult::success(vec![Content::text(format!("12:00 in {zone}"))]))
    }
}

#[cfg(test)]
mod test_util;

#[cfg(all(test, feature = "slow"))]
mod slow_tests;
