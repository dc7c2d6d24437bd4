use std::sync::OnceLock;

use super::{Applicability, Fixable, Level, ProtocolErrorRule, RuleMeta};
use crate::evidence::{CodeError, ErrorAnswer};

pub static META: RuleMeta = RuleMeta {
    code: "MCP102",
    name: "unavailable-tool-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "a disabled, unavailable or policy-restricted tool answered with a protocol error",
    sep: "SEP-2145: servers MUST report a tool that is disabled, unavailable or policy-restricted as a Tool Execution Error",
    fix: Fixable::Sometimes(Applicability::Unsafe),
    doc: include_str!("../../rules/MCP102.md"),
};

/// What messages say of a tool that exists but cannot run.
const UNAVAILABLE: &[&str] = &[
    "disabled",
    "not allowed",
    "not permitted",
    "permission",
    "unauthori",
    "forbidden",
    "restricted",
    "policy",
    "denied",
    "blocked",
    "unavailable",
    "not available",
];

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "unavailable tool",
    fix_text: "Tool unavailable: <name>. Reason: <reason>.",
    applies,
    audit,
    wire_help: OnceLock::new(),
};

/// An `if` condition names a switch or a policy (`skip_tools`, `is_enabled`, `.gooseignore`), or
/// the message says the tool is disabled or not allowed.
fn applies(error: &CodeError) -> bool {
    error.condition_mentions(&[
        "disabled",
        "enabled",
        "skip",
        "allow",
        "deny",
        "denied",
        "permission",
        "permit",
        "authori",
        "restrict",
        "ignore",
        "readonly",
        "read_only",
        "policy",
        "blocked",
        "forbid",
    ]) || (error.message_mentions(&["tool"]) && error.message_mentions(UNAVAILABLE))
        || error.message_mentions(REFUSED)
}

/// What a message says of a call the server's policy refuses, whatever it names: "Access
/// denied. User 'x' has role 'y', but 'admin' is required" is a policy, not a bad argument.
const REFUSED: &[&str] = &[
    "access denied",
    "permission denied",
    "not authorized",
    "unauthorized",
    "forbidden",
];

/// The message says the tool is switched off or not allowed.
fn audit(answer: &ErrorAnswer) -> bool {
    answer.message_mentions(UNAVAILABLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::build::{answer, error, guard};
    use crate::evidence::{GuardKind, Subject};

    #[test]
    fn a_refused_call_is_a_policy_whatever_else_its_message_says() {
        let message = "Access denied. User 'u' has role 'viewer', but 'admin' is required.";
        let refused = error("invalid_request", Some(-32600), Some(message));
        assert!(applies(&refused));
        let rule = super::super::protocol_error::classify_code(&refused).map(|r| r.meta.code);
        assert_eq!(rule, Some("MCP102"), "not MCP103 for its `is required`");
    }

    #[test]
    fn a_switch_or_policy_check_makes_a_tool_unavailable() {
        let disabled = error("invalid_request", None, None).under(guard(
            GuardKind::Condition,
            Subject::Other,
            &["self", "disabled_tools", "contains", "name"],
        ));
        assert!(applies(&disabled));
        assert!(applies(&error("new", None, Some("Tool x is disabled"))));
        // A call that fails while passing a credential is the tool's own failure.
        let call = error("internal_error", None, None).under(guard(
            GuardKind::Fallible,
            Subject::Other,
            &["tool", "call", "authorization"],
        ));
        assert!(!applies(&call));
        assert!(!applies(&error(
            "new",
            None,
            Some("permission file missing")
        )));
    }

    #[test]
    fn in_traffic_the_message_says_so() {
        assert!(audit(&answer(Some(-32600), "Tool `rm` is not allowed")));
        assert!(!audit(&answer(Some(-32603), "timeout")));
    }
}
