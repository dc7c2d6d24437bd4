use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP106",
    name: "unreported-invalid-output",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "a success result whose `structuredContent` is missing, not an object, or does not conform to the tool's `outputSchema`",
    sep: "SEP-2145: servers SHOULD report output validation failures as Tool Execution Errors instead of returning invalid structured output",
    doc: include_str!("../../rules/MCP106.md"),
};
