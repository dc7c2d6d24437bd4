use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParam, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Recipe {
    pub name: String,
}

pub struct Runner {
    tool_router: ToolRouter<Runner>,
}

#[tool_router]
impl Runner {
    #[tool(description = "Run a recipe")]
    async fn run(&self, Parameters(recipe): Parameters<Recipe>) -> String {
        recipe.name
    }
}

impl ServerHandler for Runner {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let tcc = ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await //~ MCP108@9 MCP108@9
    }
}

fn main() {}
