// pulseengine-mcp's `#[mcp_tools]` makes each public method of the impl a tool, and the
// generated `call_tool_impl` sends whatever `Err` one returns, of any error type, as a JSON-RPC
// error (-32602 once `#[mcp_server]` wraps it); a name no method has and arguments that do not
// deserialize get the same. A private method is not a tool, and a tool returning no `Result`
// cannot fail.
use pulseengine_mcp_macros::{mcp_server, mcp_tools};

#[mcp_server(name = "Notes")]
pub struct Notes {
    dir: std::path::PathBuf,
}

#[mcp_tools] //~ MCP108@1
impl Notes {
    /// Read a note.
    pub async fn read_note(&self, name: String) -> anyhow::Result<String> {
        if name.contains('/') {
            anyhow::bail!("invalid argument `name`: a note name has no `/`"); //~ MCP103@13
        }
        let text = std::fs::read_to_string(self.dir.join(&name))?; //~ MCP104@20
        Ok(text)
    }

    /// Delete a note.
    pub async fn delete_note(&self, name: String) -> Result<String, String> {
        match std::fs::remove_file(self.dir.join(&name)) {
            Ok(()) => Ok(format!("deleted {name}")),
            Err(e) => Err(format!("could not delete {name}: {e}")), //~ MCP104@27
        }
    }

    /// The notes there are.
    pub async fn list_notes(&self) -> String {
        self.names().unwrap_or_default().join("\n")
    }

    fn names(&self) -> std::io::Result<Vec<String>> {
        let entries = std::fs::read_dir(&self.dir)?;
        Ok(entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect())
    }
}
