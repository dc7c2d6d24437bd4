// mcp-attr sends every `Err` that a `#[tool]` of a `#[mcp_server]` impl returns as a JSON-RPC
// error, so each failure is a protocol error where it is built: a missing argument, a file
// that cannot be read, a helper's error, `bail!`. (Unknown tools are the SDK's default: MCP108.)
use mcp_attr::server::{McpServer, mcp_server};
use mcp_attr::{Error as McpError, ErrorCode, Result as McpResult};

pub struct Notes;

fn store_error(message: String) -> McpError {
    McpError::new(ErrorCode::INTERNAL_ERROR).with_message(message, true)
}

#[mcp_server] //~ MCP108@1
impl McpServer for Notes {
    #[tool]
    async fn read(&self, path: String) -> McpResult<String> {
        if path.is_empty() {
            return Err(McpError::new(ErrorCode::INVALID_PARAMS).with_message("path is required", true)); //~ MCP103@24
        }
        std::fs::read_to_string(&path).map_err(|e| store_error(e.to_string())) //~ MCP104@52
    }

    #[tool]
    async fn remove(&self, path: String) -> McpResult<String> {
        if std::fs::remove_file(&path).is_err() {
            mcp_attr::bail!("cannot remove {path}"); //~ MCP104@13
        }
        Ok(format!("removed {path}"))
    }
}
