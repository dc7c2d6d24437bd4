use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP003",
    name: "invalid-suppression",
    level: Level::Error,
    source: true,
    transcript: false,
    summary: "a suppression comment that names no rule or an unknown rule",
    sep: "a suppression must say which rule it silences",
    doc: include_str!("../../rules/MCP003.md"),
};
