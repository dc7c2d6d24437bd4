use super::{Level, RuleMeta};
use crate::finding::Violation;

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

/// A part of a transcript that could not be read; `message` says what and why.
pub fn unreadable(message: String) -> Violation {
    Violation::new(&META, message, "not checked", None)
}

/// A listed tool's schema that cannot be compiled, so calls of it are not checked against it.
pub fn unusable_schema(tool: &str, which: &str, error: &str) -> Violation {
    let message = format!(
        "the {which} of tool `{tool}` is not a usable JSON Schema ({error}), so it was not checked"
    );
    Violation::new(&META, message, "listed here", None)
}

/// A Rust file that does not parse; `message` says where the parser stopped and why.
pub fn unparsable(message: String) -> Violation {
    Violation::new(
        &META,
        message,
        "the parser stopped here",
        Some("fix the syntax error; mcp-lint checks the rest of the files".to_string()),
    )
}

/// A file that was not read at all (too large, not UTF-8).
pub fn not_checked(message: String) -> Violation {
    Violation::new(&META, message, "here", None)
}
