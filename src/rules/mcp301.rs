use super::{Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP301",
    name: "unanswered-tool-call",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a `tools/call` with no response and no cancellation when the transcript ends",
    sep: "SEP-2145: tool failures and timeouts are reported as Tool Execution Errors, which needs a response",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP301.md"),
};

/// What every tools/call is owed, for MCP301 and for MCP104's unanswered calls.
pub const ANSWER_EVERY_CALL: &str = "answer every tools/call; a tool that fails or times out answers {\"content\": [..], \"isError\": true}";

/// `call` (described) has no response and was not cancelled when the transcript ends.
pub fn open_at_end(call: &str) -> Violation {
    Violation::new(
        &META,
        format!("{call} has no response and no cancellation when the transcript ends"),
        "this request",
        Some(ANSWER_EVERY_CALL.into()),
    )
}
