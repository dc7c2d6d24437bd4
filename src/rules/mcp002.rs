use super::{Applicability, Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP002",
    name: "unused-suppression",
    level: Level::Warning,
    source: true,
    transcript: false,
    summary: "a suppression comment that silenced nothing",
    sep: "a stale suppression would hide the next real finding on its lines",
    fix: Fixable::Always(Applicability::Safe),
    doc: include_str!("../../rules/MCP002.md"),
};

/// A suppression of `rule` that silenced nothing.
pub fn unused(rule: &RuleMeta) -> Violation {
    Violation::new(
        &META,
        format!(
            "this suppression of {} ({}) silenced nothing",
            rule.code, rule.name
        ),
        "remove it, or the rule's name from it",
        Some("a stale suppression would hide the next real finding on these lines".into()),
    )
}
