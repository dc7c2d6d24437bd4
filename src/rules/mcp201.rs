use super::{Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP201",
    name: "vague-tool-error",
    level: Level::Advice,
    source: true,
    transcript: true,
    summary: "a tool execution error with no text, or a text that gives the model nothing to act on",
    sep: "SEP-2145 (message guidance): servers SHOULD include a short, actionable message in the first content item",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP201.md"),
};

/// The help line, with an example of an actionable text.
const HELP: &str = "say what failed and what to do next, for example \"Fetch failed: api.example.com answered 503. Retry in a minute.\"";

/// Texts that say an error happened and nothing else.
const GENERIC: &[&str] = &[
    "error",
    "an error occurred",
    "an error has occurred",
    "internal error",
    "internal server error",
    "failed",
    "failure",
    "tool failed",
    "tool error",
    "unknown error",
    "something went wrong",
    "request failed",
    "operation failed",
    "execution failed",
    "tool execution failed",
];

/// Why an `isError` text gives the model nothing to act on, if it does not. SDK prefixes
/// (`MCP error -32603: `, `Error executing tool x`) are not content.
pub fn vague_tool_error(text: Option<&str>) -> Option<String> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Some("has no text".to_string());
    };
    let mut core = text;
    if let Some(rest) = core.strip_prefix("MCP error ") {
        core = rest.split_once(": ").map_or("", |(_, after)| after);
    }
    if let Some(rest) = core.strip_prefix("Error executing tool ") {
        core = rest.split_once(':').map_or("", |(_, after)| after);
    }
    let normalized = core.trim().trim_end_matches(['.', '!']).to_lowercase();
    (normalized.chars().count() < 4 || GENERIC.contains(&normalized.as_str()))
        .then(|| format!("says only {text:?}"))
}

/// The error of tools/call `tool` (request `id`) says nothing actionable (`why`).
pub fn in_traffic(tool: &str, id: &str, why: &str) -> Violation {
    violation(
        format!("tool execution error of `{tool}` (id {id}) {why}"),
        false,
    )
}

/// A `CallToolResult::error` in code whose text says nothing actionable (`why`).
pub fn in_code(why: &str) -> Violation {
    violation(format!("this tool execution error {why}"), true)
}

fn violation(message: String, in_code: bool) -> Violation {
    super::guidance(&META, message, "this result", HELP, in_code)
}

#[cfg(test)]
mod tests {
    use super::vague_tool_error;

    #[test]
    fn generic_texts_are_vague_and_specific_ones_are_not() {
        for vague in [
            None,
            Some(""),
            Some("Error"),
            Some("Error executing tool explode"),
            Some("MCP error -32603: Internal error"),
        ] {
            assert!(vague_tool_error(vague).is_some(), "{vague:?}");
        }
        for fine in [
            "Unknown tool: x. Re-run tools/list and retry.",
            "Error executing tool add: 1 validation error for addArguments",
            "MCP error -32602: Tool no_such_tool not found",
        ] {
            assert!(vague_tool_error(Some(fine)).is_none(), "{fine}");
        }
    }
}
