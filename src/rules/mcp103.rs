use std::sync::OnceLock;

use super::{Applicability, Fixable, Level, ProtocolErrorRule, RuleMeta};
use crate::evidence::{CodeError, ErrorAnswer, codes};

pub static META: RuleMeta = RuleMeta {
    code: "MCP103",
    name: "invalid-input-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "arguments failing `inputSchema` or programmatic checks answered with a protocol error",
    sep: "SEP-2145: servers MUST report tool input validation failures (schema and programmatic checks) as Tool Execution Errors",
    fix: Fixable::Sometimes(Applicability::Unsafe),
    doc: include_str!("../../rules/MCP103.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "invalid tool input",
    fix_text: "Invalid input: <tool_name>. <details>.",
    applies,
    audit,
    wire_help: OnceLock::new(),
};

/// `-32602` (invalid params) on a well-formed call means the arguments; so does pmcp's
/// `Error::validation` in a tool (its wire code is -32603), and an error that answers parsing
/// the arguments or a failed lookup of one. A mere mention of `args`
/// is no evidence: `fetch(&args.url)` failing is the tool's own failure.
fn applies(error: &CodeError) -> bool {
    error.code == Some(codes::INVALID_PARAMS)
        || matches!(error.constructor.as_str(), "validation" | "Validation")
        || error.follows_argument_lookup()
        || error.guard_mentions(&[
            "from_value",
            "from_str",
            "from_slice",
            "parse",
            "deserializ",
        ])
        || error.message_mentions(&[
            "invalid argument",
            "invalid input",
            "invalid param",
            "missing argument",
            "missing required",
            "is required",
            "must be",
            "expected",
            "out of range",
        ])
        || error.message_mentions(&["argument", "parameter"])
            && error.message_mentions(&["missing", "invalid", "required", "must"])
}

/// The arguments fail the tool's inputSchema, or the message says so, and not that the result
/// was invalid (a zod error about the result also reads "Invalid input: expected number").
fn audit(answer: &ErrorAnswer) -> bool {
    answer.input_error.is_some()
        || !answer.message_mentions(super::mcp105::OUTPUT_WORDS)
            && answer.message_mentions(&[
                "invalid argument",
                "input validation",
                "invalid input",
                "invalid param",
                "missing required",
                "failed to deserialize parameters",
            ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::build::{answer, error, guard};
    use crate::evidence::{ArmKind, GuardKind, Subject};

    #[test]
    fn argument_checks_are_invalid_input() {
        assert!(applies(&error("invalid_params", Some(-32602), None)));
        assert!(applies(&error("validation", Some(-32603), None)));
        let missing = error("internal_error", None, None).under(guard(
            GuardKind::Absent,
            Subject::Argument,
            &["args", "get", "path"],
        ));
        assert!(applies(&missing));
        let parse = error("internal_error", None, None).under(guard(
            GuardKind::Fallible,
            Subject::Other,
            &["serde_json", "from_value", "arguments"],
        ));
        assert!(applies(&parse));
        assert!(applies(&error("new", None, Some("limit must be positive"))));
        let text = Some("Missing or invalid string argument: {}");
        assert!(applies(&error("error value", None, text)));
    }

    #[test]
    fn using_an_argument_is_not_checking_it() {
        let fetch = error("internal_error", None, None).under(guard(
            GuardKind::MatchArm(ArmKind::Other),
            Subject::Argument,
            &["args", "get", "url"],
        ));
        assert!(!applies(&fetch));
    }

    #[test]
    fn in_traffic_schema_failures_and_their_words_count() {
        let mut failing = answer(Some(-32603), "boom");
        failing.input_error = Some("at /x: not a number");
        assert!(audit(&failing));
        assert!(audit(&answer(Some(-32602), "Invalid arguments for tool x")));
        assert!(!audit(&answer(
            Some(-32602),
            "structuredContent does not match"
        )));
    }
}
