use super::{Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP003",
    name: "invalid-suppression",
    level: Level::Error,
    source: true,
    transcript: false,
    summary: "a suppression comment that names no rule or an unknown rule",
    sep: "a suppression must say which rule it silences",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP003.md"),
};

/// A suppression comment that cannot be used; `message` says why.
pub fn invalid(message: String) -> Violation {
    Violation::new(
        &META,
        message,
        "this directive",
        Some(
            "write `// mcp-lint: allow(MCP101) why it is fine`; `mcp-lint rules` lists the rules"
                .into(),
        ),
    )
}
