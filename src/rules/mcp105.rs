use std::sync::OnceLock;

use super::{Applicability, Fixable, Level, ProtocolErrorRule, RuleMeta};
use crate::evidence::{CodeError, ErrorAnswer};

pub static META: RuleMeta = RuleMeta {
    code: "MCP105",
    name: "output-validation-protocol-error",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "an output-schema validation failure answered with a protocol error",
    sep: "SEP-2145: servers SHOULD report output validation failures (structuredContent missing or not conforming to outputSchema) as Tool Execution Errors",
    fix: Fixable::Sometimes(Applicability::Unsafe),
    doc: include_str!("../../rules/MCP105.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "output validation failure",
    fix_text: "Tool produced invalid structured output for <tool_name>: <details>.",
    applies,
    audit,
    wire_help: OnceLock::new(),
};

/// The condition or message is about the structured output or its schema.
fn applies(error: &CodeError) -> bool {
    const OUTPUT: &[&str] = &[
        "structured_content",
        "structuredcontent",
        "output_schema",
        "outputschema",
        "jsonschema",
        "validator",
        "structured output",
        "output schema",
    ];
    error.guard_mentions(OUTPUT) || error.message_mentions(OUTPUT)
}

/// The message is about the structured output or its schema.
fn audit(answer: &ErrorAnswer) -> bool {
    answer.message_mentions(OUTPUT_WORDS)
}

/// Words of a message that says the tool's result, not its arguments, was invalid (the
/// TypeScript SDK: "Invalid tools/call result: .. structuredContent ..").
pub const OUTPUT_WORDS: &[&str] = &[
    "output validation",
    "structured content",
    "structuredcontent",
    "output schema",
    "outputschema",
    "tools/call result",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::build::{answer, error, guard};
    use crate::evidence::{GuardKind, Subject};

    #[test]
    fn output_schema_checks_are_output_validation() {
        let check = error("internal_error", None, None).under(guard(
            GuardKind::Fallible,
            Subject::Other,
            &["validator", "validate", "structured_content"],
        ));
        assert!(applies(&check));
        assert!(applies(&error("new", None, Some("output schema mismatch"))));
        assert!(!applies(&error("new", None, Some("bad input"))));
    }

    #[test]
    fn in_traffic_the_message_names_the_output() {
        assert!(audit(&answer(Some(-32602), "Output validation error: x")));
        assert!(!audit(&answer(Some(-32602), "Invalid input")));
    }
}
