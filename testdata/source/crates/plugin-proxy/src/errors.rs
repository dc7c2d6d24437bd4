//! The crate's error vocabulary.

pub type McpError = rmcp::model::ErrorData;

pub enum ConfigError {
    Unreadable(String),
}

impl From<ConfigError> for McpError {
    fn from(error: ConfigError) -> Self {
        match error {
            ConfigError::Unreadable(path) => McpError::internal_error(format!("config {path} unreadable"), None),
        }
    }
}

pub fn tool_not_found(name: &str) -> McpError {
    McpError::invalid_params(format!("Unknown tool: {name}"), None)
}
