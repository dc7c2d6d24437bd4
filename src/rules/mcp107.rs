use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP107",
    name: "malformed-call-not-rejected",
    level: Level::Error,
    source: false,
    transcript: true,
    summary: "a malformed `tools/call` (no `params`, no `name`, `name` not a string, `arguments` not an object) answered with a result instead of a protocol error",
    sep: "SEP-2145: servers MUST use Protocol Errors for malformed requests that fail to satisfy the CallToolRequest schema",
    doc: include_str!("../../rules/MCP107.md"),
};
