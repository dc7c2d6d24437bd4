use super::{Level, ProtocolErrorRule, RuleMeta};
use crate::source::site::ErrorSite;
use crate::transcript::ErrorAnswer;

pub static META: RuleMeta = RuleMeta {
    code: "MCP101",
    name: "unknown-tool-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "an unknown tool name answered with a protocol error",
    sep: "SEP-2145: servers MUST report tool resolution failures (unknown tool) as Tool Execution Errors",
    doc: include_str!("../../rules/MCP101.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "unknown tool",
    fix_text: "Unknown tool: <name>. Re-run tools/list and retry.",
    applies,
    audit,
};

/// `method_not_found` inside tools/call can only mean the tool; otherwise the error must
/// answer a lookup by name or say so in its message.
fn applies(site: &ErrorSite) -> bool {
    site.error.constructor == "method_not_found"
        || site.error.code == Some(-32601)
        || site.follows_tool_lookup()
        || site.message_mentions(&[
            "unknown tool",
            "tool not found",
            "no such tool",
            "no handler",
            "unknown or disabled",
        ])
        || (site.message_mentions(&["not found", "unknown"]) && site.message_mentions(&["tool"]))
}

/// The transcript proves it when a fresh catalog lacks the name; without one, the code or the
/// message tells (`-32601` on tools/call, "Unknown tool: x", "Tool x not found").
fn audit(answer: &ErrorAnswer) -> bool {
    match answer.tool_known {
        Some(known) => !known,
        None => {
            answer.code == Some(-32601)
                || answer.message_mentions(&["unknown tool", "tool not found", "no such tool"])
                || (answer.message_mentions(&["not found"]) && answer.message_mentions(&["tool"]))
        }
    }
}
