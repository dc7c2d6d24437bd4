use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP001",
    name: "parse-error",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "a file or transcript line that could not be parsed, so was not checked",
    sep: "an input that cannot be parsed cannot be checked against SEP-2145",
    doc: include_str!("../../rules/MCP001.md"),
};
