// An rmcp `call_tool` that races the tool against the request's cancellation
// (`match select(tool, cancelled).await`): the tool's arm (`Either::Left`) answers the tool's
// own failure with a protocol error; the cancellation arm (`Either::Right`) may, since nobody
// waits for that answer.
use std::pin::pin;

use futures::future::{Either, select};
use rmcp::model::{CallToolRequestParam, CallToolResult, ErrorCode};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct ToolError {
    pub code: i32,
    pub message: String,
}

pub struct Relay;

impl Relay {
    async fn run(&self, arguments: serde_json::Value) -> Result<serde_json::Value, ToolError> {
        Ok(arguments)
    }
}

impl ServerHandler for Relay {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        match select(pin!(self.run(arguments)), pin!(context.ct.cancelled())).await {
            Either::Left((outcome, _)) => match outcome {
                Ok(value) => Ok(CallToolResult::structured(value)),
                Err(error) => Err(to_rmcp_error(error)), //~ MCP104@35
            },
            Either::Right(((), _)) => Err(ErrorData::internal_error("operation cancelled", None)),
        }
    }
}

fn to_rmcp_error(error: ToolError) -> ErrorData {
    ErrorData {
        code: ErrorCode(error.code),
        message: error.message.into(),
        data: None,
    }
}
