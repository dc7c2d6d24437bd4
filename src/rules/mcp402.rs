use super::{Fixable, Level, RuleMeta};
use std::sync::LazyLock;

use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP402",
    name: "invalid-tool-name",
    level: Level::Warning,
    source: false,
    transcript: true,
    summary: "a listed tool name outside the spec's naming rules (1-128 characters of `A-Z a-z 0-9 _ - .`)",
    sep: "MCP tools/list: a tool name SHOULD be 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot; clients and models call tools by it",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP402.md"),
};

/// Whether `name` keeps the spec's naming rules.
pub fn is_valid(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

static HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "name the tool with 1 to 128 of `A-Z a-z 0-9 _ - .`, for example `search_files`\n{}",
        META.sep
    )
});

/// A tool whose name (`shown`: quoted text, or the JSON it is instead of a string) breaks
/// the rules (`why`).
pub fn invalid(shown: &str, why: &str) -> Violation {
    Violation::new(
        &META,
        format!("the tool name {shown} {why}"),
        "listed here",
        Some(HELP.as_str().into()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_spec() {
        for good in ["search", "get-user.v2", "a_b", &"x".repeat(128)] {
            assert!(is_valid(good), "{good}");
        }
        for bad in ["", "has space", "émoji", "a/b", &"x".repeat(129)] {
            assert!(!is_valid(bad), "{bad}");
        }
    }
}
