// A `?` inside an expression macro's arguments (`json!` members, `vec!` elements, `format!`
// arguments) leaves the tool as any other: the helpers it calls are reported where their
// errors are built. Serializing the tool's own result (`ContentBlock::json(..)?`) is not the
// tool failing, and `tracing::info!(?x)` writes `?` for Debug, not to pass on an error.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};

fn skill_files(dir: &std::path::Path) -> Result<Vec<String>, McpError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        McpError::internal_error(format!("Failed to read {}: {e}", dir.display()), None) //~ MCP104@9
    })?;
    Ok(entries.flatten().map(|e| e.path().display().to_string()).collect())
}

fn skill_text(path: &std::path::Path) -> Result<String, McpError> {
    std::fs::read_to_string(path)
        .map_err(|e| McpError::internal_error(format!("Failed to read {}: {e}", path.display()), None)) //~ MCP104@22
}

fn skill_owner(name: &str) -> Result<String, McpError> {
    match name.split_once('/') {
        Some((owner, _)) => Ok(owner.to_string()),
        None => Err(McpError::invalid_params(format!("Invalid skill name: {name}"), None)), //~ MCP103@21
    }
}

pub struct Skills {
    root: std::path::PathBuf,
}

#[tool_router]
impl Skills {
    #[tool(description = "Describe a skill")]
    async fn skill_details(&self, Parameters(args): Parameters<SkillArgs>) -> Result<CallToolResult, McpError> {
        let dir = self.root.join(&args.name);
        tracing::info!(?dir, "describing");
        let summary = format!("{} by {}", args.name, skill_owner(&args.name)?);
        Ok(CallToolResult::success(vec![
            ContentBlock::text(summary),
            ContentBlock::json(serde_json::json!({
                "files": skill_files(&dir)?,
                "readme": { "text": skill_text(&dir.join("README.md"))? },
            }))?,
        ]))
    }
}
