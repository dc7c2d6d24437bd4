use super::{Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP107",
    name: "malformed-call-not-rejected",
    level: Level::Error,
    source: false,
    transcript: true,
    summary: "a malformed `tools/call` (no `params`, no `name`, `name` not a string, `arguments` not an object) answered with a result instead of a protocol error",
    sep: "SEP-2145: servers MUST use Protocol Errors for malformed requests that fail to satisfy the CallToolRequest schema",
    doc: include_str!("../../rules/MCP107.md"),
};

/// A malformed tools/call (`reason`) with request id `id`, answered with a result.
pub fn answered(reason: &str, id: &str) -> Violation {
    Violation::new(
        &META,
        format!("malformed tools/call ({reason}) answered with a result (id {id})"),
        "a result",
        Some("a tools/call that does not satisfy CallToolRequest gets a JSON-RPC error, -32602 \"Invalid params\"".to_string()),
    )
}
