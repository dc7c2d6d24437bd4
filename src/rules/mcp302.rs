use super::{Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP302",
    name: "transcript-integrity",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a response to an id never requested, a duplicate response, an id echoed with another type",
    sep: "JSON-RPC 2.0: a response carries the id of its request, with the same type, once",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP302.md"),
};

/// A response whose id `key` was never requested.
pub fn never_requested(key: &str) -> Violation {
    stray(format!("a response to id {key}, which was never requested"))
}

/// A second response to request id `key`.
pub fn duplicate(key: &str) -> Violation {
    stray(format!("a second response to request id {key}"))
}

/// A response that echoes id `key` for request `id` (`request`, described), with another type.
pub fn retyped(key: &str, id: &str, request: &str) -> Violation {
    stray(format!(
        "the response echoes id {key} for request id {id} ({request})"
    ))
}

fn stray(message: String) -> Violation {
    Violation::new(&META, message, "this id", None)
}
