mod lookup;
mod store;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Item {
    pub id: String,
}

pub struct Catalog {
    store: store::Store,
}

#[tool_router]
impl Catalog {
    #[tool(description = "An item's description, from the store")]
    async fn show(&self, Parameters(req): Parameters<Item>) -> Result<String, ErrorData> {
        self.store
            .describe(&req.id)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None)) //~ MCP104@26
    }

    #[tool(description = "An item's name, from the built-in list")]
    async fn name(&self, Parameters(req): Parameters<Item>) -> Result<String, ErrorData> {
        lookup::describe(&req.id)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None)) //~ MCP103@26
    }
}

fn main() {}
