// A helper of the tools is given the tools' arguments as plain values (`id: &str`): a check on
// one of them that fails is the input's fault (MCP103), whatever code the error carries, and so
// is an id that names an existing entry. A check on the server's own state is the tool's failure.
use std::collections::HashMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Notes {
    notes: std::sync::Mutex<HashMap<String, String>>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Add {
    id: String,
    text: String,
}

#[tool_router]
impl Notes {
    #[tool(description = "Add a note")]
    async fn add(&self, Parameters(p): Parameters<Add>) -> Result<CallToolResult, McpError> {
        let id = self.insert(&p.id, p.text, 3)?;
        Ok(CallToolResult::success(vec![Content::text(id)]))
    }

    fn insert(&self, id: &str, text: String, max_len: usize) -> Result<String, McpError> {
        if id.is_empty() || id.len() > max_len {
            return Err(McpError::internal_error("cannot add this note", None)); //~ MCP103@24
        }
        let mut notes = self.notes.lock().unwrap();
        if notes.contains_key(id) {
            return Err(McpError::internal_error("cannot add this note", None)); //~ MCP103@24
        }
        if notes.len() >= 100 {
            return Err(McpError::internal_error("the notebook is full", None)); //~ MCP104@24
        }
        notes.insert(id.to_string(), text);
        Ok(id.to_string())
    }
}
