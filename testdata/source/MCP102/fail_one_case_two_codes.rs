// A shared mapper picks the JSON-RPC code by the error's variant; a tool hands it an error
// whose text says the tool is disabled. Whichever code the mapper picks, it is one mistake at
// one place: one finding.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::JsonObject;
use rmcp::{ErrorData, tool, tool_router};

pub enum AppError {
    NotFound(String),
    Other(String),
}

fn map_err(e: AppError) -> ErrorData {
    match e {
        AppError::NotFound(what) => ErrorData::invalid_params(what, None),
        AppError::Other(what) => ErrorData::internal_error(what, None),
    }
}

pub struct Downloads;

#[tool_router]
impl Downloads {
    #[tool(description = "Download a file")]
    async fn download(&self, Parameters(_args): Parameters<JsonObject>) -> Result<String, ErrorData> {
        if std::env::var("ALLOW_DOWNLOADS").is_err() {
            return Err(map_err(AppError::Other("downloads are disabled on this server".into()))); //~ MCP102@24
        }
        Ok("done".to_string())
    }
}
