pub mod analysis;

pub struct McpError {
    pub code: i32,
    pub message: String,
}

pub fn make_error(code: i32, message: &str) -> McpError {
    McpError { code, message: message.to_string() }
}
