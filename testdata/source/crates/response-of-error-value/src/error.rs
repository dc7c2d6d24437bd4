pub struct McpError {
    pub code: i32,
    pub message: String,
}

impl McpError {
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self { code: -32602, message: message.into() }
    }

    pub fn internal_error(message: impl Into<String>) -> Self {
        Self { code: -32603, message: message.into() }
    }

    pub fn method_not_found(method: &str) -> Self {
        Self { code: -32601, message: format!("Method not found: {method}") }
    }
}

