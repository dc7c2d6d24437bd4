// rmcp, manual `call_tool` handing the request's arguments whole to the crate's own dispatch
// (`self.execute_tool(name, args)`) and converting whatever it fails with: the dispatch is the
// tools' implementation, so its failures are reported where they start, besides the
// conversion that answers them all as a protocol error.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content, ErrorCode};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

pub struct Memory;

impl Memory {
    fn map_error(e: anyhow::Error) -> ErrorData {
        ErrorData::new(ErrorCode::INTERNAL_ERROR, e.to_string(), None)
    }

    async fn execute_tool(&self, name: &str, args: Value) -> anyhow::Result<Value> {
        match name {
            "memory_get" => {
                let id = args
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or_else(|| anyhow::anyhow!("Missing id"))?; //~ MCP103@36
                Ok(Value::String(id.to_string()))
            }
            other => Err(anyhow::anyhow!("Unknown tool: {other}")), //~ MCP101@26
        }
    }
}

impl ServerHandler for Memory {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let name = request.name.as_ref();
        let args = request.arguments.map_or(Value::Null, Value::Object);
        let result = self
            .execute_tool(name, args)
            .await
            .map_err(Self::map_error)?; //~ MCP101@22 MCP103@22
        Ok(CallToolResult::success(vec![Content::text(result.to_string())]))
    }
}
