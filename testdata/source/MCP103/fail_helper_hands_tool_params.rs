// rmcp, manual `call_tool` parsing each tool's arguments and handing them to a method of the
// server, which hands them whole (`let gen: GenerateParams = params.into();`) to the
// implementation whose failures it converts: the implementation's failures are reported where
// they start, besides the conversion.
use rmcp::model::{CallToolRequestParams, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

#[derive(serde::Deserialize)]
pub struct ToolParams {
    prompt: String,
}

pub struct GenerateParams {
    prompt: String,
}

impl From<ToolParams> for GenerateParams {
    fn from(p: ToolParams) -> Self {
        GenerateParams { prompt: p.prompt }
    }
}

pub enum Error {
    Validation(String),
}

pub struct Handler;

impl Handler {
    pub async fn generate(&self, params: GenerateParams) -> Result<String, Error> {
        if params.prompt.is_empty() {
            return Err(Error::Validation("prompt cannot be empty".into())); //~ MCP103@24
        }
        Ok(params.prompt)
    }
}

pub struct Server {
    handler: Handler,
}

impl Server {
    pub async fn generate(&self, params: ToolParams) -> Result<CallToolResult, McpError> {
        let gen_params: GenerateParams = params.into();
        let text = self.handler.generate(gen_params).await.map_err(|_| {
            McpError::internal_error("generation failed", None) //~ MCP103@13
        })?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "generate" => {
                let args = serde_json::Value::Object(request.arguments.unwrap_or_default());
                let params: ToolParams = serde_json::from_value(args)
                    .map_err(|e| McpError::invalid_params(e.to_string(), None))?; //~ MCP103@34
                self.generate(params).await
            }
            other => Err(McpError::invalid_params(format!("unknown tool {other}"), None)), //~ MCP101@26
        }
    }
}
