// Output-schema failures reported as tool execution errors, as SEP-2145 asks.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Weather {
    validator: jsonschema::Validator,
}

impl ServerHandler for Weather {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let result = CallToolResult::structured(serde_json::json!({"temperature": 21}));
        let Some(structured) = result.structured_content.as_ref() else {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "Tool produced invalid structured output for {}: structuredContent is missing.",
                request.name
            ))]));
        };
        if let Err(e) = self.validator.validate(structured) {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "Tool produced invalid structured output for {}: {e}",
                request.name
            ))]));
        }
        Ok(result)
    }
}
