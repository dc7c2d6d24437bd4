// Output-schema failures answered with protocol errors (rmcp 0.4-0.5's router did this; some
// servers validate by hand).
use rmcp::model::{CallToolRequestParams, CallToolResult};
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
        let result = forecast(&request);
        let Some(structured) = result.structured_content.as_ref() else {
            return Err(McpError::invalid_params("Tool with output_schema must return structured_content", None)); //~ MCP105@24
        };
        self.validator
            .validate(structured)
            .map_err(|e| McpError::internal_error(format!("output does not match: {e}"), None))?; //~ MCP105@26
        Ok(result)
    }
}

fn forecast(_request: &CallToolRequestParams) -> CallToolResult {
    CallToolResult::structured(serde_json::json!({"temperature": 21}))
}
