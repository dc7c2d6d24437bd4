use super::{Fixable, Level, RuleMeta};
use crate::evidence::Member;
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP106",
    name: "unreported-invalid-output",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "a success result whose `structuredContent` is missing, not an object, or does not conform to the tool's `outputSchema`",
    sep: "SEP-2145: servers SHOULD report output validation failures as Tool Execution Errors instead of returning invalid structured output",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP106.md"),
};

/// What is wrong with a success result's `structuredContent`, by its shape alone, for a tool
/// that declares an outputSchema. `object_root`: the schema's root type is `object`;
/// `any_value`: the protocol (2026-07-28 on) lets structuredContent be any JSON value. `None`
/// leaves conformance to the schema to be checked.
pub fn shape_problem(
    structured: Member,
    object_root: bool,
    any_value: bool,
) -> Option<&'static str> {
    match structured {
        Member::Absent => {
            Some("has no structuredContent, though the tool declares an outputSchema")
        }
        Member::Object => None,
        _ if object_root || !any_value => Some("has a structuredContent that is not an object"),
        _ => None,
    }
}

/// A success result of tools/call `tool` (request `id`) whose structured content has
/// `problem` ("has no structuredContent, ...").
pub fn in_traffic(tool: &str, id: &str, problem: &str) -> Violation {
    Violation::new(
        &META,
        format!("the success result of tools/call `{tool}` (id {id}) {problem}"),
        "this result",
        Some(
            format!(
                "when the output cannot satisfy the schema, answer {}\n{}",
                super::tool_error_json(&format!(
                    "\"Tool produced invalid structured output for {tool}: <details>.\""
                )),
                META.sep
            )
            .into(),
        ),
    )
}

/// Structured content written as JSON that is `kind` ("an array"), not an object.
pub fn in_code(kind: &str) -> Violation {
    Violation::new(
        &META,
        format!("structured content is {kind}, not an object"),
        "this value",
        Some(format!(
            "wrap it in an object (`json!({{\"items\": [..]}})`) and declare that shape as the outputSchema; up to protocol 2025-11-25 structuredContent must be an object\n{}",
            META.sep
        )
        .into()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_content_by_shape() {
        let absent = shape_problem(Member::Absent, false, true);
        assert!(absent.is_some_and(|p| p.contains("no structuredContent")));
        assert_eq!(shape_problem(Member::Object, true, false), None);
        // Up to 2025-11-25 it must be an object; later, any value the schema allows.
        assert!(shape_problem(Member::Other, false, false).is_some());
        assert_eq!(shape_problem(Member::Other, false, true), None);
        assert!(shape_problem(Member::String, true, true).is_some());
    }
}
