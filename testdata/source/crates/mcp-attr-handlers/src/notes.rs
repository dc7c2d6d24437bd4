use crate::Notebook;
use mcp_attr::{Result as McpResult, bail_public};

impl Notebook {
    pub async fn handle_add(&self, text: String) -> McpResult<String> {
        if text.trim().is_empty() {
            bail_public!(_, "Invalid input: `text` must not be empty"); //~ MCP103@13
        }
        let mut notes = self.notes.lock().unwrap();
        if notes.len() >= 1000 {
            bail_public!(_, "the notebook is full: delete a note first"); //~ MCP104@13
        }
        notes.push(text);
        Ok(format!("{} notes", notes.len()))
    }
}
