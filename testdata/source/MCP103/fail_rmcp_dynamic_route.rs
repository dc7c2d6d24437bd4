// rmcp's dynamic routes: each `ToolRoute::new_dyn(tool, |context| ..)` closure is a tool, whose
// `Err` the router sends as a JSON-RPC error. The closure deserializes its own arguments and
// passes a helper's `Err` on as it is (`Err(e) => Err(e)`): the helper's errors are reported
// where the helper builds them.
use std::sync::Arc;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResult, Content, Tool};
use rmcp::ErrorData;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchRequest {
    pub query: String,
    pub limit: Option<usize>,
}

pub struct Searcher;

impl Searcher {
    pub async fn search(&self, request: SearchRequest) -> Result<String, ErrorData> {
        if request.limit == Some(0) {
            return Err(ErrorData::invalid_params("limit must be positive", None)); //~ MCP103@24
        }
        std::fs::read_to_string(&request.query)
            .map_err(|e| ErrorData::internal_error(format!("search failed: {e}"), None)) //~ MCP104@26
    }

    fn search_route() -> ToolRoute<Self> {
        let schema = serde_json::to_value(schemars::schema_for!(SearchRequest)).unwrap();
        let tool = Tool::new("search", "Search the files", Arc::new(schema.as_object().unwrap().clone()));
        ToolRoute::new_dyn(tool, |context: ToolCallContext<'_, Searcher>| {
            Box::pin(async move {
                let arguments = context.arguments.clone().unwrap_or_default();
                let request: SearchRequest = serde_json::from_value(serde_json::Value::Object(arguments))
                    .map_err(|e| ErrorData::invalid_params(format!("Invalid parameters: {e}"), None))?; //~ MCP103@34
                match context.service.search(request).await {
                    Ok(found) => Ok(CallToolResult::success(vec![Content::text(found)])),
                    Err(e) => Err(e),
                }
            })
        })
    }

    pub fn router() -> ToolRouter<Self> {
        let mut router = ToolRouter::new();
        router.add_route(Self::search_route());
        router
    }
}
