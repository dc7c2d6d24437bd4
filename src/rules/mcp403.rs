use super::{Fixable, Level, RuleMeta};
use std::sync::LazyLock;

use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP403",
    name: "duplicate-tool-name",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "two tools with the same name in one `tools/list` (pages joined)",
    sep: "MCP tools/list: a tool name SHOULD be unique within a server; a call names one tool",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP403.md"),
};

static HELP: LazyLock<String> =
    LazyLock::new(|| format!("give each tool a name of its own\n{}", META.sep));

/// `name` is listed again in one listing.
pub fn duplicate(name: &str) -> Violation {
    Violation::new(
        &META,
        format!(
            "the tool `{name}` is listed more than once in one tools/list: a call of it cannot tell which"
        ),
        "listed here",
        Some(HELP.as_str().into()),
    )
}
