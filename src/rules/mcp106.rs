use super::{Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP106",
    name: "unreported-invalid-output",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "a success result whose `structuredContent` is missing, not an object, or does not conform to the tool's `outputSchema`",
    sep: "SEP-2145: servers SHOULD report output validation failures as Tool Execution Errors instead of returning invalid structured output",
    doc: include_str!("../../rules/MCP106.md"),
};

/// A success result of tools/call `tool` (request `id`) whose structured content has
/// `problem` ("has no structuredContent, ...").
pub fn in_traffic(tool: &str, id: &str, problem: &str) -> Violation {
    Violation::new(
        &META,
        format!("the success result of tools/call `{tool}` (id {id}) {problem}"),
        "this result",
        Some(format!(
            "when the output cannot satisfy the schema, answer {}\n{}",
            super::tool_error_json(&format!(
                "\"Tool produced invalid structured output for {tool}: <details>.\""
            )),
            META.sep
        )),
    )
}

/// Structured content written as JSON that is `kind` ("an array"), not an object.
pub fn in_code(kind: &str) -> Violation {
    Violation::new(
        &META,
        format!("structured content is {kind}, not an object"),
        "this value",
        Some(format!(
            "wrap it in an object (`json!({{\"items\": [..]}})`) and declare that shape as the outputSchema; up to protocol 2025-11-25 structuredContent must be an object\n{}",
            META.sep
        )),
    )
}
