use std::sync::OnceLock;

use super::{Applicability, Fixable, Level, ProtocolErrorRule, RuleMeta};
use crate::evidence::{CodeError, ErrorAnswer, codes};

pub static META: RuleMeta = RuleMeta {
    code: "MCP101",
    name: "unknown-tool-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "an unknown tool name answered with a protocol error",
    sep: "SEP-2145: servers MUST report tool resolution failures (unknown tool) as Tool Execution Errors",
    fix: Fixable::Sometimes(Applicability::Unsafe),
    doc: include_str!("../../rules/MCP101.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "unknown tool",
    fix_text: "Unknown tool: <name>. Re-run tools/list and retry.",
    applies,
    audit,
    wire_help: OnceLock::new(),
};

/// `method_not_found` inside tools/call can only mean the tool; otherwise the error must
/// answer a lookup by name or say so in its message.
fn applies(error: &CodeError) -> bool {
    matches!(
        error.constructor.as_str(),
        "method_not_found" | "tool_not_found" | "unknown_tool"
    )
        || error.code == Some(codes::METHOD_NOT_FOUND)
        || error.follows_tool_lookup()
        || error.message_mentions(&[
            "unknown tool",
            "tool not found",
            "no such tool",
            "no handler",
            "unknown or disabled",
        ])
        // "unknown argument: x (tool: t)" is about the arguments.
        || (error.message_mentions(&["not found", "unknown"])
            && error.message_mentions(&["tool"])
            && !error.message_mentions(&["argument", "parameter"]))
}

/// The transcript proves it when a fresh catalog lacks the name; without one, the code or the
/// message tells (`-32601` on tools/call, "Unknown tool: x", "Tool x not found").
fn audit(answer: &ErrorAnswer) -> bool {
    match answer.tool_known {
        Some(known) => !known,
        None => {
            answer.code == Some(codes::METHOD_NOT_FOUND)
                || answer.message_mentions(&["unknown tool", "tool not found", "no such tool"])
                || (answer.message_mentions(&["not found"]) && answer.message_mentions(&["tool"]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::build::{answer, error, guard};
    use crate::evidence::{ArmKind, GuardKind, Subject};

    #[test]
    fn a_failed_lookup_by_name_is_an_unknown_tool() {
        assert!(applies(&error("method_not_found", None, None)));
        assert!(applies(&error("tool_not_found", None, None)));
        let lookup = error("invalid_params", Some(-32602), None).under(guard(
            GuardKind::Absent,
            Subject::ToolLookup,
            &["self", "tools", "get", "name"],
        ));
        assert!(applies(&lookup));
        let fallback = error("internal_error", None, None).under(guard(
            GuardKind::MatchArm(ArmKind::Fallback),
            Subject::Other,
            &["tool_name", "as_str"],
        ));
        assert!(applies(&fallback));
        assert!(applies(&error("new", None, Some("Tool {name} not found"))));
    }

    #[test]
    fn a_failure_of_the_tool_is_not_an_unknown_tool() {
        assert!(!applies(&error(
            "internal_error",
            None,
            Some("file not found")
        )));
        let failed = error("internal_error", None, None).under(guard(
            GuardKind::Fallible,
            Subject::Other,
            &["tool", "call", "args"],
        ));
        assert!(!applies(&failed));
        let text = Some("unknown argument: {key} (tool: {tool_name})");
        assert!(!applies(&error("invalid_params", Some(-32602), text)));
    }

    #[test]
    fn in_traffic_the_catalog_decides_before_the_words() {
        let mut known = answer(Some(-32601), "Unknown tool: x");
        known.tool_known = Some(true);
        assert!(!audit(&known));
        known.tool_known = Some(false);
        assert!(audit(&answer(Some(-32602), "Tool x not found")));
        assert!(audit(&known));
        assert!(!audit(&answer(Some(-32603), "disk full")));
    }
}
