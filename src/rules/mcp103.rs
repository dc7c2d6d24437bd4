use super::{Level, ProtocolErrorRule, RuleMeta};
use crate::source::site::ErrorSite;
use crate::transcript::ErrorAnswer;

pub static META: RuleMeta = RuleMeta {
    code: "MCP103",
    name: "invalid-input-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "arguments failing `inputSchema` or programmatic checks answered with a protocol error",
    sep: "SEP-2145: servers MUST report tool input validation failures (schema and programmatic checks) as Tool Execution Errors",
    doc: include_str!("../../rules/MCP103.md"),
};

pub static RULE: ProtocolErrorRule = ProtocolErrorRule {
    meta: &META,
    case: "invalid tool input",
    fix_text: "Invalid input: <tool_name>. <details>.",
    applies,
    audit,
};

/// `-32602` (invalid params) on a well-formed call means the arguments; so does an error
/// that answers parsing the arguments or a failed lookup of one. A mere mention of `args`
/// is no evidence: `fetch(&args.url)` failing is the tool's own failure.
fn applies(site: &ErrorSite) -> bool {
    site.error.code == Some(-32602)
        || site.follows_argument_lookup()
        || site.guard_mentions(&[
            "from_value",
            "from_str",
            "from_slice",
            "parse",
            "deserializ",
        ])
        || site.message_mentions(&[
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
}

/// The arguments fail the tool's inputSchema, or the message says so in words no output
/// error uses (a zod output error reads "Invalid input: expected number").
fn audit(answer: &ErrorAnswer) -> bool {
    answer.input_error.is_some()
        || answer.message_mentions(&[
            "invalid argument",
            "input validation",
            "invalid input",
            "invalid param",
            "missing required",
            "failed to deserialize parameters",
        ])
}
