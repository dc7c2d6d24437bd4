use super::{Level, ProtocolErrorRule, RuleMeta};
use crate::source::site::ErrorSite;
use crate::transcript::ErrorAnswer;

pub static META: RuleMeta = RuleMeta {
    code: "MCP105",
    name: "output-validation-protocol-error",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "an output-schema validation failure answered with a protocol error",
    sep: "SEP-2145: servers SHOULD report output validation failures (structuredContent missing or not conforming to outputSchema) as Tool Execution Errors",
    doc: include_str!("../../rules/MCP105.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "output validation failure",
    fix_text: "Tool produced invalid structured output for <tool_name>: <details>.",
    applies,
    audit,
};

/// The condition or message is about the structured output or its schema.
fn applies(site: &ErrorSite) -> bool {
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
    site.guard_mentions(OUTPUT) || site.message_mentions(OUTPUT)
}

/// The message is about the structured output or its schema.
fn audit(answer: &ErrorAnswer) -> bool {
    answer.message_mentions(&[
        "output validation",
        "structured content",
        "structuredcontent",
        "output schema",
        "outputschema",
    ])
}
