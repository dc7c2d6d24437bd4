use std::collections::BTreeSet;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use super::{Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP202",
    name: "tool-error-lists-tools",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "an error text that enumerates the server's tool names or leaks policy detail",
    sep: "SEP-2145: implementations should avoid enumerating available tool names in error text, and SHOULD avoid leaking policy details",
    fix: Fixable::Never,
    doc: include_str!("../../rules/MCP202.md"),
};

/// The error text of tools/call `tool` (request `id`) lists tools (`why`).
pub fn in_traffic(tool: &str, id: &str, why: &str) -> Violation {
    violation(
        format!("the error text of tools/call `{tool}` (id {id}) {why}"),
        false,
    )
}

/// An error text in code that lists tools (`why`).
pub fn in_code(why: &str) -> Violation {
    violation(format!("this error text {why}"), true)
}

fn violation(message: String, in_code: bool) -> Violation {
    let help = "name the failing tool only; the model can call tools/list to see the others";
    super::guidance(&META, message, "this text", help, in_code)
}

/// Phrases that introduce a list of tools, in any case.
static LIST_INTRODUCTIONS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "available tools",
            "valid tools",
            "known tools",
            "tools are:",
            "did you mean one of",
        ])
        .expect("fixed phrases compile")
});

/// How many other tools an error text may name before it counts as a list.
const MAX_NAMED: usize = 2;

/// Why an error text enumerates the server's tools, if it does: it introduces a list of
/// tools, or it names more than [`MAX_NAMED`] of `tools` other than `called`.
pub fn lists_tools(text: &str, tools: Option<&KnownTools>, called: &str) -> Option<String> {
    // At a word's start: "Invalid tools/call result" introduces no list of valid tools.
    let introduces = LIST_INTRODUCTIONS.find_iter(text).any(|m| {
        !text[..m.start()]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    });
    if introduces {
        return Some("enumerates the server's tools".to_string());
    }
    let mut named = tools?.named_in(text);
    named.remove(called);
    if named.len() <= MAX_NAMED {
        return None;
    }
    let first: Vec<&str> = named.iter().copied().take(MAX_NAMED + 1).collect();
    Some(format!(
        "names {} other tools ({}, ...)",
        named.len(),
        first.join(", ")
    ))
}

/// The tool names an error text is checked against, searched for all at once. Names shorter
/// than three characters are left out: they are words of their own too often.
pub struct KnownTools {
    names: Vec<String>,
    search: Option<AhoCorasick>,
}

impl KnownTools {
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        let names: Vec<String> = names
            .into_iter()
            .map(|n| n.as_ref().to_string())
            .filter(|n| n.len() >= 3)
            .collect();
        // Building fails only past the automaton's size limits; then no name is found.
        let search = AhoCorasick::new(&names).ok();
        KnownTools { names, search }
    }

    /// The names `text` holds as words (not inside a longer identifier), each once, sorted.
    fn named_in<'t>(&'t self, text: &str) -> BTreeSet<&'t str> {
        let Some(search) = &self.search else {
            return BTreeSet::new();
        };
        search
            .find_overlapping_iter(text)
            .filter(|m| {
                let before = text[..m.start()].chars().next_back();
                let after = text[m.end()..].chars().next();
                !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
            })
            .map(|m| self.names[m.pattern().as_usize()].as_str())
            .collect()
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

#[cfg(test)]
mod tests {
    use super::{KnownTools, lists_tools};

    #[test]
    fn lists_are_found_and_single_mentions_are_not() {
        let tools = KnownTools::new(["get_weather", "get_alerts", "search_docs", "add"]);
        let lists = |text: &str| lists_tools(text, Some(&tools), "x");
        assert!(lists_tools("Unknown tool: x. Available tools: a, b", None, "x").is_some());
        assert!(lists_tools("DID YOU MEAN ONE OF a, b?", None, "x").is_some());
        assert_eq!(
            lists("Unknown tool: x. Try get_weather, get_alerts or search_docs.").as_deref(),
            Some("names 3 other tools (get_alerts, get_weather, search_docs, ...)")
        );
        assert!(
            lists_tools(
                "get_weather, get_alerts or search_docs",
                Some(&tools),
                "get_alerts"
            )
            .is_none()
        );
        assert!(lists("Unknown tool: x. Re-run tools/list and retry.").is_none());
        assert!(lists("Invalid tools/call result: expected object").is_none());
        assert!(lists("get_weather_v2 and get_alerts_old and search_docs_x failed").is_none());
        let dotted = KnownTools::new(["fs.read", "fs.write", "fs.list", "fs.stat"]);
        let lists = |text: &str| lists_tools(text, Some(&dotted), "x");
        assert!(lists("No such tool. Try fs.read, fs.write or fs.list.").is_some());
        assert!(lists("fs.reader, fs.writes and fs.lister failed").is_none());
    }
}
