mod error;

use error::NoteError;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Read {
    pub path: String,
}

pub struct Notes {
    root: std::path::PathBuf,
}

#[tool_router]
impl Notes {
    #[tool(description = "Read a note")]
    async fn note_read(&self, Parameters(req): Parameters<Read>) -> Result<String, ErrorData> {
        let path = self.root.join(&req.path);
        let real = path.canonicalize().map_err(|e| NoteError::Io(e).into())?; //~ MCP104@52
        if !real.starts_with(&self.root) {
            return Err(NoteError::OutsideVault(req.path).into()); //~ MCP103@24
        }
        std::fs::read_to_string(real).map_err(|e| NoteError::Io(e).into()) //~ MCP104@51
    }
}

fn main() {}
