use std::sync::OnceLock;

use super::{Applicability, Fixable, Level, ProtocolErrorRule, RuleMeta};
use crate::evidence::{CodeError, ErrorAnswer};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP104",
    name: "tool-failure-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "a tool's own failure (error, panic, timeout, upstream failure) answered with a protocol error, or not answered at all",
    sep: "SEP-2145: servers MUST report tool execution failures (errors, timeouts, upstream failures) as Tool Execution Errors",
    fix: Fixable::Sometimes(Applicability::Unsafe),
    doc: include_str!("../../rules/MCP104.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "tool failure",
    fix_text: "<what failed>. <what the model can do about it>.",
    applies,
    audit,
    wire_help: OnceLock::new(),
};

/// `call` (described) was never answered while later requests were: the tool failed and
/// nothing was reported.
pub fn never_answered(call: &str) -> Violation {
    Violation::new(
        &META,
        format!("{call} was never answered, though the server answered later requests"),
        "this request",
        Some(super::mcp301::ANSWER_EVERY_CALL.into()),
    )
}

/// `call` (described) ended the server: it exited or closed its side while the call was in
/// flight (`how`, as the probe saw it), so the client gets no answer at all.
pub fn server_died(call: &str, how: &str) -> Violation {
    Violation::new(
        &META,
        format!("{call} was never answered: {how} while it ran"),
        "this request",
        Some(super::mcp301::ANSWER_EVERY_CALL.into()),
    )
}

/// A tower `TimeoutLayer` in a tower-mcp server: a tools/call that runs past it is answered
/// with a JSON-RPC error.
pub fn tower_timeout() -> Violation {
    Violation::new(
        &META,
        "a tools/call that runs past this timeout is answered by tower-mcp with a JSON-RPC error (-32603), not a tool execution error".to_string(),
        "this layer's timeout becomes a JSON-RPC error response",
        Some(format!(
            "time the tool out inside its handler (`tokio::time::timeout`) and answer {}, or keep this layer only as a longer backstop\n{}",
            super::tool_error_json("\"Tool <name> timed out after <n>s. Retry with a smaller request.\""),
            META.sep
        )
        .into()),
    )
}

/// Whatever a well-formed call fails with, once it is not one of the more specific cases, is
/// the tool's own failure.
fn applies(_: &CodeError) -> bool {
    true
}

/// Whatever is left.
fn audit(_: &ErrorAnswer) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::build::{answer, error};

    #[test]
    fn any_failure_left_is_the_tools_own() {
        assert!(applies(&error("internal_error", Some(-32603), None)));
        assert!(audit(&answer(None, "")));
    }
}
