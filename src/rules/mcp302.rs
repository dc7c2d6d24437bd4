use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP302",
    name: "transcript-integrity",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a response to an id never requested, a duplicate response, an id echoed with another type",
    sep: "JSON-RPC 2.0: a response carries the id of its request, with the same type, once",
    doc: include_str!("../../rules/MCP302.md"),
};
