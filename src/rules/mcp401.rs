use super::{Fixable, Level, RuleMeta};
use std::sync::LazyLock;

use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP401",
    name: "invalid-tool-schema",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a listed tool whose `inputSchema` or `outputSchema` is not a valid JSON Schema, or whose root is not `type: \"object\"` where the protocol version requires it",
    sep: "MCP tools/list: a tool's inputSchema (and outputSchema up to 2025-11-25) is a JSON Schema object whose root has type \"object\"; SEP-2145's input and output checks need a schema that compiles",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP401.md"),
};

/// The `which` schema of `tool` cannot be compiled (`error`), so calls of it are not checked
/// against it.
pub fn not_a_schema(tool: &str, which: &str, error: &str) -> Violation {
    Violation::new(
        &META,
        format!(
            "the {which} of tool `{tool}` is not a usable JSON Schema ({error}), so calls of it are not checked against it"
        ),
        "listed here",
        Some(HELP.as_str().into()),
    )
}

/// The `which` schema of `tool` is not an object with `type: "object"` at its root (`what` it
/// is instead).
pub fn not_an_object(tool: &str, which: &str, what: &str) -> Violation {
    Violation::new(
        &META,
        format!(
            "the {which} of tool `{tool}` {what}, not a schema whose root is `type: \"object\"`"
        ),
        "listed here",
        Some(HELP.as_str().into()),
    )
}

static HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "list a JSON Schema object with `\"type\": \"object\"` at its root, whose `$ref`s stay inside it\n{}",
        META.sep
    )
});
