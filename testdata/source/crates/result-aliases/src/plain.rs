//! A `Result` alias of this file alone: std's `Result` elsewhere stays std's.
#![allow(dead_code)]
type Result<T> = std::result::Result<T, rmcp::ErrorData>;

pub fn read(path: &str) -> std::result::Result<rmcp::model::CallToolResult, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    Ok(rmcp::model::CallToolResult::success(vec![rmcp::model::Content::text(text)]))
}
