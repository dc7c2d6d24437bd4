//! The crate's error types and the names it gives rmcp's.
pub type McpError = rmcp::ErrorData;
pub type McpResult<T> = Result<T, McpError>;
pub type ToolResult = McpResult<rmcp::model::CallToolResult>;

pub enum FsError {
    NotFound(String),
    Io(String),
}

impl From<FsError> for McpError {
    fn from(err: FsError) -> Self {
        match err {
            FsError::NotFound(path) => McpError::invalid_params(format!("no such file: {path}"), None),
            FsError::Io(message) => McpError::internal_error(message, None),
        }
    }
}

pub fn read(path: &str) -> Result<String, FsError> {
    std::fs::read_to_string(path).map_err(|e| FsError::Io(e.to_string()))
}

pub fn resolve(path: &str) -> Result<String, FsError> {
    match path.is_empty() {
        true => Err(FsError::NotFound(path.to_string())),
        false => Ok(path.to_string()),
    }
}
