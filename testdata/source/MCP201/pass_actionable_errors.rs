// Tool execution errors that say what failed and what to do; texts built at run time are
// not judged.
use rmcp::model::{CallToolResult, Content};

pub fn specific(path: &str) -> CallToolResult {
    CallToolResult::error(vec![Content::text(format!("read_file failed: {path} does not exist. List the directory first."))])
}

pub fn screenshot(png: String) -> CallToolResult {
    // Not text: an image of what failed cannot be judged from the source.
    CallToolResult::error(vec![Content::image(png, "image/png")])
}

pub fn forwarded(error: std::io::Error) -> CallToolResult {
    CallToolResult::error(vec![Content::text(error.to_string())])
}

pub fn displayed(error: std::io::Error) -> CallToolResult {
    // All of the text is the error's own: what it says is known only at run time.
    CallToolResult::error(vec![Content::text(format!("{error}"))])
}
