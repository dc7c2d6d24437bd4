mod errors;
mod repos;

use repos::Repos;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Repo {
    pub repo: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Branch {
    pub branch: String,
}

pub struct Git {
    repos: Repos,
}

#[tool_router]
impl Git {
    #[tool(description = "The branch a repository is on")]
    async fn head(&self, Parameters(req): Parameters<Repo>) -> Result<String, ErrorData> {
        let path = self
            .repos
            .resolve(&req.repo)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?; //~ MCP103@26 MCP104@26
        self.repos
            .head(&path)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None)) //~ MCP104@26
    }

    #[tool(description = "The log of a branch")]
    async fn log(&self, Parameters(req): Parameters<Branch>) -> Result<String, ErrorData> {
        self.repos
            .log(&req.branch)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None)) //~ MCP103@26 MCP104@26
    }

    #[tool(description = "Whether a repository is known")]
    async fn check(&self, Parameters(req): Parameters<Repo>) -> Result<String, ErrorData> {
        self.repos
            .resolve(&req.repo)
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?; //~ MCP103@26
        Ok("known".to_string())
    }
}

fn main() {}
