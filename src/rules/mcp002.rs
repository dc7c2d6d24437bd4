use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP002",
    name: "unused-suppression",
    level: Level::Warning,
    source: true,
    transcript: false,
    summary: "a suppression comment that silenced nothing",
    sep: "a stale suppression would hide the next real finding on its lines",
    doc: include_str!("../../rules/MCP002.md"),
};
