// Protocol errors in handlers other than tools/call are correct: resources, prompts,
// completion. goose writes `get_prompt` as `std::future::ready(Err(..))`.
use std::future::Future;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, ReadResourceRequestParams,
    ReadResourceResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

pub struct Docs;

impl ServerHandler for Docs {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        Err(McpError::resource_not_found(format!("no resource {}", request.uri), None))
    }

    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetPromptResult, McpError>> + Send + '_ {
        std::future::ready(Err(McpError::invalid_params(format!("Prompt not found: {}", request.name), None)))
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        Err(McpError::method_not_found::<rmcp::model::CompleteRequestMethod>())
    }
}

/// A helper used only by `read_resource`: out of scope for tools/call.
pub fn resource_error(uri: &str) -> McpError {
    McpError::invalid_params(format!("bad uri {uri}"), None)
}
