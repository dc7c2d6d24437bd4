// Argument checks reported as tool execution errors: rmcp turns `Err(String)` into `isError`,
// and rmcp >= 1.8 converts its own "failed to deserialize parameters" errors.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct RangeArgs {
    pub from: i64,
    pub to: i64,
}

pub struct Calculator;

#[tool_router]
impl Calculator {
    #[tool(description = "Sum the integers of a range")]
    async fn sum_range(&self, Parameters(args): Parameters<RangeArgs>) -> Result<String, String> {
        if args.from > args.to {
            return Err("Invalid input: sum_range. `from` must not exceed `to`.".to_string());
        }
        let total: i64 = (args.from..=args.to).sum();
        let checked = i32::try_from(total).map_err(|e| format!("Invalid input: sum_range. {e}"))?;
        Ok(checked.to_string())
    }

    #[tool(description = "Divide")]
    async fn divide(&self, Parameters(args): Parameters<RangeArgs>) -> Result<CallToolResult, ErrorData> {
        if args.to == 0 {
            return Ok(CallToolResult::error(vec![Content::text("Invalid input: divide. `to` must not be 0.")]));
        }
        Ok(CallToolResult::success(vec![Content::text((args.from / args.to).to_string())]))
    }

    #[tool(description = "Echo")]
    fn echo(&self, Parameters(text): Parameters<String>) -> Result<CallToolResult, ErrorData> {
        if text.len() > 1 << 20 {
            // rmcp >= 1.8 sends exactly this message as an isError result.
            return Err(ErrorData::invalid_params("failed to deserialize parameters: text too long", None));
        }
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
