use super::{Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP001",
    name: "parse-error",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a part of an input (a transcript line, a HAR entry, a log message cut short) that could not be read, so was not checked; the rest of the input was",
    sep: "an input that cannot be parsed cannot be checked against SEP-2145",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP001.md"),
};

/// A part of a transcript that could not be read; `message` says what and why.
pub fn unreadable(message: String) -> Violation {
    Violation::new(&META, message, "not checked", None)
}
