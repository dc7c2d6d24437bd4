// A catch-all converter: the tool's work returns `anyhow::Result`, and one `map_err` turns
// every error of it into a protocol error. The conversion is reported where it builds the
// protocol error (where the fix goes), once per case among the errors that start in the
// function it converts: a missing argument (MCP103), a read failure (MCP104).
use anyhow::{Context, bail, ensure};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, JsonObject};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
        let path = args.get("path").and_then(|v| v.as_str()).unwrap_or_default();
        let text = read_checked(path).map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP103@51 MCP104@51
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

fn read_checked(path: &str) -> anyhow::Result<String> {
    ensure!(!path.is_empty(), "invalid argument: path is required");
    let text = std::fs::read_to_string(path).context("cannot read the file")?;
    if text.len() > 1 << 20 {
        bail!("the file is over 1 MiB");
    }
    Ok(text)
}
