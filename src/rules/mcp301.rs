use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP301",
    name: "unanswered-tool-call",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a `tools/call` with no response and no cancellation when the transcript ends",
    sep: "SEP-2145: tool failures and timeouts are reported as Tool Execution Errors, which needs a response",
    doc: include_str!("../../rules/MCP301.md"),
};
