// A tool that names its argument error once, in a local closure, and returns it from several
// checks: one finding, where the closure builds the error.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Page {
    pub limit: i64,
    pub offset: i64,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "A page of results")]
    async fn page(&self, Parameters(page): Parameters<Page>) -> Result<String, ErrorData> {
        let out_of_range = || ErrorData::invalid_params("limit and offset must be positive", None); //~ MCP103@31
        if page.limit <= 0 {
            return Err(out_of_range());
        }
        if page.offset < 0 {
            return Err(out_of_range());
        }
        Ok(format!("{} from {}", page.limit, page.offset))
    }
}
