// Argument checks answered with protocol errors: in `#[tool]` functions whose error type is
// rmcp's ErrorData, and in a manual `call_tool` that deserializes its arguments.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResult, Content, ErrorCode, JsonObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_router};
use serde::Deserialize;

type McpResult = Result<CallToolResult, ErrorData>;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct RangeArgs {
    pub from: i64,
    pub to: i64,
}

pub struct Calculator;

#[tool_router]
impl Calculator {
    #[tool(description = "Sum the integers of a range")]
    async fn sum_range(&self, Parameters(args): Parameters<RangeArgs>) -> McpResult {
        if args.from > args.to {
            return Err(ErrorData::invalid_params("`from` must not exceed `to`", None)); //~ MCP103@24
        }
        let limit_error = ErrorData::new(ErrorCode::INVALID_PARAMS, "range too large", None); //~ MCP103@27
        if args.to - args.from > 1_000_000 {
            return Err(limit_error);
        }
        Ok(CallToolResult::success(vec![Content::text(((args.from..=args.to).sum::<i64>()).to_string())]))
    }

    #[rmcp::tool(description = "Parse a number")]
    fn parse(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, ErrorData> {
        let text = args.get("text").and_then(|v| v.as_str()).unwrap_or_default();
        let n: f64 = text.parse().map_err(|e| ErrorData::internal_error(format!("{e}"), None))?; //~ MCP103@47
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }
}

#[derive(Deserialize)]
struct EchoArgs {
    text: String,
}

pub struct Manual;

impl ServerHandler for Manual {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let args: EchoArgs = serde_json::from_value(arguments)
            .map_err(|e| ErrorData::internal_error(format!("bad arguments: {e}"), None))?; //~ MCP103@26
        Ok(CallToolResult::success(vec![Content::text(args.text)]))
    }
}
