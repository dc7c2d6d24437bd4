mod error;
mod service;

use rmcp::handler::server::router::tool::AsyncTool;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};
use service::{EditInput, Files};

pub struct Server {
    files: Files,
}

pub struct EditTool;

impl AsyncTool<Server> for EditTool {
    async fn invoke(service: &Server, input: Self::Parameter) -> Result<Self::Output, Self::Error> {
        service.files.edit_file(input).await.map_err(Into::into) //~ MCP103@54 MCP104@54
    }
}

#[tool_router]
impl Server {
    #[tool(description = "Remove a file")]
    async fn remove(&self, Parameters(input): Parameters<EditInput>) -> Result<String, ErrorData> {
        self.files.remove_file(input).await?; //~ MCP104@9
        Ok("removed".to_string())
    }

    #[tool(description = "Whether a file exists")]
    async fn exists(&self, Parameters(input): Parameters<EditInput>) -> Result<String, ErrorData> {
        let found = self.files.has_file(&input.path)?; //~ MCP103@21
        Ok(found.to_string())
    }
}

fn main() {}
