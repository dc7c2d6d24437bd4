//! Plugins run the tools.
use rmcp::model::JsonObject;

use crate::errors::{ConfigError, McpError};

pub fn call_plugin(name: &str, args: &JsonObject) -> Result<String, McpError> {
    if !name.starts_with("plugin_") {
        return Err(McpError::invalid_request(format!("Tool {name} not found in any plugin"), None)); //~ MCP101@20
    }
    Ok(format!("{name}({args:?})"))
}

pub fn load_config(path: &str) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|_| ConfigError::Unreadable(path.to_string()))
}
