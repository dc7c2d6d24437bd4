mod tools;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde_json::{Map, Value};
use tools::{NoteArgs, NoteError};

pub struct Notes {
    dir: std::path::PathBuf,
}

fn to_mcp(e: NoteError) -> McpError {
    McpError::internal_error(e.to_string(), None)
}

#[tool_router]
impl Notes {
    #[tool(description = "Read a note")]
    async fn read_note(&self, Parameters(args): Parameters<NoteArgs>) -> Result<String, McpError> {
        tools::read::call(&self.dir, args).map_err(to_mcp) //~ MCP103@52 MCP104@52
    }

    #[tool(description = "Write a note")]
    async fn write_note(
        &self,
        Parameters(args): Parameters<Map<String, Value>>,
    ) -> Result<Json<Value>, McpError> {
        let raw = Value::Object(args);
        match tools::write::save(&self.dir, raw) {
            Ok(v) => Ok(Json(v)),
            Err(e) => Err(McpError::internal_error(e.to_string(), None)), //~ MCP103@27 MCP104@27
        }
    }

    #[tool(description = "Whether a note exists")]
    async fn has_note(&self, Parameters(args): Parameters<NoteArgs>) -> Result<String, McpError> {
        tools::read::exists(&self.dir, &args.name)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP104@26
        Ok("yes".to_string())
    }
}

fn main() {}
