//! Every rewrite of a protocol error in a `#[tool]` function, and the sites left alone.
use std::collections::HashMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData as McpError, tool, tool_router};

type McpResult<T> = Result<T, McpError>;

pub struct Notes {
    notes: HashMap<String, String>,
}

#[tool_router]
impl Notes {
    #[tool(description = "Read a note")]
    async fn read(&self, Parameters(name): Parameters<String>) -> Result<CallToolResult, McpError> { //~ MCP108@44
        if name.is_empty() {
            return Err(McpError::invalid_params("name must not be empty", None)); //~ MCP103@24
        }
        let note = self
            .notes
            .get(&name)
            .ok_or_else(|| McpError::internal_error(format!("no note {name}"), None))?; //~ MCP101@28
        Ok(CallToolResult::success(vec![Content::text(note.clone())]))
    }

    #[tool(description = "Size of a file")]
    async fn size(&self, Parameters(path): Parameters<String>) -> Result<CallToolResult, McpError> {
        let meta = tokio::fs::metadata(&path)
            .await
            .map_err(|e| McpError::internal_error(format!("cannot stat {path}: {e}"), None))?; //~ MCP104@26
        Ok(CallToolResult::success(vec![Content::text(meta.len().to_string())]))
    }

    #[tool(description = "Parse a number")]
    async fn parse(&self, Parameters(text): Parameters<String>) -> Result<CallToolResult, McpError> {
        let n = text.trim().parse::<u64>().map_err(|e| McpError::internal_error(e.to_string(), None))?.pow(2); //~ MCP103@56
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }

    #[tool(description = "The first line of a note")]
    async fn first_line(&self, Parameters(name): Parameters<String>) -> Result<CallToolResult, McpError> {
        let mut lines = self.notes.get(&name).map(|n| n.lines()).unwrap_or("".lines());
        let first = lines.next().ok_or(McpError::internal_error("the note is empty", None))?; //~ MCP104@40
        if first.len() > 80 {
            Err(McpError::internal_error(format!("line too long: {}", first.len()), None)) //~ MCP104@17
        } else {
            Ok(CallToolResult::success(vec![Content::text(first.to_string())]))
        }
    }

    #[tool(description = "Delete a note")]
    async fn delete(&self, Parameters(name): Parameters<String>) -> Result<String, McpError> {
        match self.notes.contains_key(&name) {
            true => Ok(format!("deleted {name}")),
            // A tool returning `String` cannot return a CallToolResult: no fix.
            false => Err(McpError::internal_error(format!("no note {name}"), None)), //~ MCP101@26
        }
    }

    #[tool(description = "Rename a note")]
    async fn rename(&self, Parameters(names): Parameters<(String, String)>) -> McpResult<CallToolResult> {
        if names.0 == names.1 {
            return Err(McpError::invalid_params("the names are the same", None)); //~ MCP103@24
        }
        Ok(CallToolResult::success(vec![]))
    }

    #[tool(description = "Count notes")]
    async fn count(&self) -> Result<CallToolResult, McpError> {
        // mcp-lint: allow(MCP104) nothing fails here any more //~ MCP002@9
        Ok(CallToolResult::success(vec![Content::text(self.notes.len().to_string())]))
    }
}
