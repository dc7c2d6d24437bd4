mod tools;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};
use tools::fetch::{FetchInput, execute as execute_fetch};
use tools::search::{SearchInput, execute as execute_search};

pub struct Server {
    client: tools::Client,
}

#[tool_router]
impl Server {
    #[tool(description = "Search the index")]
    async fn search(&self, Parameters(input): Parameters<SearchInput>) -> Result<CallToolResult, ErrorData> {
        execute_search(&self.client, input).await
    }

    #[tool(description = "Fetch one document")]
    async fn fetch(&self, Parameters(input): Parameters<FetchInput>) -> Result<CallToolResult, ErrorData> {
        execute_fetch(&self.client, input).await
    }
}

fn main() {}
