use super::{Fixable, Level, RuleMeta};
use crate::finding::{Help, Violation};

pub static META: RuleMeta = RuleMeta {
    code: "MCP004",
    name: "input-not-checked",
    level: Level::Error,
    source: true,
    transcript: true,
    summary: "a whole input that could not be checked: not valid Rust, not UTF-8, over a size or nesting limit, unreadable, or a transcript in which no MCP message was found",
    sep: "an input that was not checked can hide any violation of SEP-2145: a gate must not pass it silently",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP004.md"),
};

/// A Rust file that does not parse; `message` says where the parser stopped and why.
pub fn unparsable(message: String) -> Violation {
    Violation::new(
        &META,
        message,
        "the parser stopped here",
        Some(
            "fix the syntax error (`cargo check` shows it too); mcp-lint checks the other files"
                .into(),
        ),
    )
}

/// An input that was not read at all (too large, too deep, not UTF-8, not in a known format).
pub fn not_checked(message: String, help: Option<Help>) -> Violation {
    Violation::new(&META, message, "not checked", help)
}
