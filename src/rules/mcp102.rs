use super::{Level, ProtocolErrorRule, RuleMeta};
use crate::source::site::ErrorSite;
use crate::transcript::ErrorAnswer;

pub static META: RuleMeta = RuleMeta {
    code: "MCP102",
    name: "unavailable-tool-protocol-error",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "a disabled, unavailable or policy-restricted tool answered with a protocol error",
    sep: "SEP-2145: servers MUST report a tool that is disabled, unavailable or policy-restricted as a Tool Execution Error",
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
};

/// An `if` condition names a switch or a policy (`skip_tools`, `is_enabled`, `.gooseignore`), or
/// the message says the tool is disabled or not allowed.
fn applies(site: &ErrorSite) -> bool {
    site.condition_mentions(&[
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
    ]) || (site.message_mentions(&["tool"]) && site.message_mentions(UNAVAILABLE))
}

/// The message says the tool is switched off or not allowed.
fn audit(answer: &ErrorAnswer) -> bool {
    answer.message_mentions(UNAVAILABLE)
}
