use super::{Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP001",
    name: "parse-error",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a part of an input (a transcript line, a HAR entry, a log message cut short) that could not be read, so was not checked; the rest of the input was",
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
