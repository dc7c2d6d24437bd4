use super::{Level, ProtocolErrorRule, RuleMeta};
use crate::source::site::ErrorSite;
use crate::transcript::ErrorAnswer;

pub static META: RuleMeta = RuleMeta {
    code: "MCP104",
    name: "tool-failure-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "a tool's own failure (error, panic, timeout, upstream failure) answered with a protocol error, or not answered at all",
    sep: "SEP-2145: servers MUST report tool execution failures (errors, timeouts, upstream failures) as Tool Execution Errors",
    doc: include_str!("../../rules/MCP104.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "tool failure",
    fix_text: "<what failed>. <what the model can do about it>.",
    applies,
    audit,
};

/// Whatever a well-formed call fails with, once it is not one of the more specific cases, is
/// the tool's own failure.
fn applies(_: &ErrorSite) -> bool {
    true
}

/// Whatever is left.
fn audit(_: &ErrorAnswer) -> bool {
    true
}
