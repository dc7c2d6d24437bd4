// Checks of values made from the tool's arguments: an argument that names nothing the server
// knows, and one outside the values the tool accepts, are invalid input (MCP103), not the
// tool's own failure, wherever the value was copied or unwrapped first.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, model::CallToolResult, tool, tool_router};
use std::collections::HashMap;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AddTask {
    pub title: String,
    pub project: Option<String>,
    pub recurrence: Option<String>,
}

pub struct Tasks {
    projects: HashMap<String, String>,
}

#[tool_router]
impl Tasks {
    #[tool(description = "Add a task")]
    async fn add_task(&self, Parameters(req): Parameters<AddTask>) -> Result<CallToolResult, McpError> {
        if let Some(ref id) = req.project
            && self.projects.get(id).is_none()
        {
            return Err(McpError::internal_error(format!("no project {id}"), None)); //~ MCP103@24
        }
        let every = if let Some(ref pattern) = req.recurrence {
            match pattern.as_str() {
                "daily" => 1,
                "weekly" => 7,
                _ => return Err(McpError::internal_error("bad recurrence", None)), //~ MCP103@33
            }
        } else {
            0
        };
        let project = req.project.clone().unwrap_or_default();
        let owner = self.projects.get(&project).ok_or_else(|| McpError::internal_error("no owner", None))?; //~ MCP103@63
        let alias = self
            .projects
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(&req.title))
            .map(|(_, alias)| alias)
            .ok_or_else(|| McpError::internal_error("no such alias", None))?; //~ MCP103@28
        let _ = (every, owner, alias);
        Ok(CallToolResult::success(vec![]))
    }
}
